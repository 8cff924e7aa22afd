import type { Db } from '../db/connection.ts';
import { compiledShape } from '../db/compiledShape.ts';
import { SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import { parseMinor } from '../db/money.ts';
import type { Wallet } from '../db/schema.ts';
import { move } from '../ledger/post.ts';
import { lockRows } from '../db/tx.ts';
import { REFERRAL_RATE_BPS, REFERRAL_WALLET, rebateOf } from '../../src/protocol/referral.ts';

/**
 * The referral rebate of one trading fee (docs/REFERRAL.md). Called by the trading settlement
 * (server/trading/settle.ts) right after it charged a fee, with the SAME transaction, so the fee
 * and its rebate commit or roll back together.
 */
export interface PaidFee {
  /** Who paid the fee. */
  userId: number;
  /** The futures wallet the fee was paid from; the system account received it there. */
  wallet: Wallet;
  asset: string;
  /** The fee charged, in minor units (what the user actually paid, after any cap). */
  fee: bigint;
  /** The notional of the fill the fee was charged on (the invitee's trading volume). */
  notional: bigint;
  symbol: string;
  now: number;
}

export interface RebateCredit {
  inviterId: number;
  rebate: bigint;
}

/** Thrown inside the fee's transaction when the rebate posting is refused: rolls the operation back. */
export class RebateError extends Error {}

/**
 * If the payer was invited, credits the inviter `floor(fee × rate)` (TRADE_COMMISSION: system
 * account's fee wallet → the inviter's fund wallet) and records the fee, its notional and the
 * rebate for the referral figures. Returns the credit, or null for a payer nobody invited.
 * A fee that rounds to a zero rebate still counts the invitee's volume and fees.
 */
/** Runs for every fee: compiled once per dialect (server/db/compiledShape.ts). */
const selectInviter = compiledShape((db: Db, userId: number) => db.selectFrom('users').select('invited_by').where('id', '=', userId), 1);

export async function creditReferralRebate(trx: Db, f: PaidFee): Promise<RebateCredit | null> {
  if (f.fee < 0n || f.notional < 0n) return null;
  const [payer] = (await selectInviter(trx, f.userId)).rows;
  const inviterId = payer?.invited_by ?? null;
  if (inviterId === null) return null;
  const rebate = rebateOf(f.fee, REFERRAL_RATE_BPS);
  let ref = '';
  if (rebate > 0n) {
    const r = await move(trx, 'TRADE_COMMISSION', { userId: SYSTEM_ACCOUNT_ID, wallet: f.wallet }, { userId: inviterId, wallet: REFERRAL_WALLET }, f.asset, rebate, f.now, {
      symbol: f.symbol,
    });
    if (!r.ok) throw new RebateError(`TRADE_COMMISSION ${rebate} refused: ${r.reason}`);
    ref = r.ref;
  }
  await trx
    .insertInto('referral_rebates')
    .values({
      inviter_id: inviterId,
      invitee_id: f.userId,
      symbol: f.symbol,
      wallet: f.wallet,
      asset: f.asset,
      notional: f.notional.toString(),
      fee: f.fee.toString(),
      rebate: rebate.toString(),
      rate_bps: Number(REFERRAL_RATE_BPS),
      ledger_ref: ref,
      created_at: f.now,
    })
    .execute();
  const totals = await trx.selectFrom('referral_invitees').selectAll().where('invitee_id', '=', f.userId).$if(lockRows(trx), (q) => q.forUpdate()).executeTakeFirst();
  if (totals) {
    await trx
      .updateTable('referral_invitees')
      .set({
        volume: (parseMinor(totals.volume) + f.notional).toString(),
        fees: (parseMinor(totals.fees) + f.fee).toString(),
        rebate: (parseMinor(totals.rebate) + rebate).toString(),
        updated_at: f.now,
      })
      .where('invitee_id', '=', f.userId)
      .execute();
  } else {
    await trx
      .insertInto('referral_invitees')
      .values({ invitee_id: f.userId, inviter_id: inviterId, volume: f.notional.toString(), fees: f.fee.toString(), rebate: rebate.toString(), updated_at: f.now })
      .execute();
  }
  return { inviterId, rebate };
}
