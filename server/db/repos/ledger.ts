import { randomBytes } from 'node:crypto';
import type { Db } from '../connection.ts';
import { applyPosting, balanceKey, SYSTEM_ACCOUNT_ID } from '../ledgerRule.ts';
import type { BalanceKey, Leg } from '../ledgerRule.ts';
import { parseMinor } from '../money.ts';
import type { Wallet } from '../schema.ts';

/** Ledger entry types (SPEC §4). */
export const LEDGER_TYPES = [
  'ADMIN_ADJUST', 'ADMIN_DEDUCTION', 'CONTRACT_OPEN', 'CONTRACT_OPEN_FEE', 'CONTRACT_TRADE', 'CONTRACT_CANCEL',
  'CONTRACT_CLOSE', 'CONTRACT_CLOSE_FEE', 'CONTRACT_MARGIN_UNLOCK', 'WALLET_TRANSFER_OUT', 'WALLET_TRANSFER_IN',
  'EXCHANGE_DEDUCTION', 'EXCHANGE_RECEIVED', 'TRADE_COMMISSION', 'FUNDING_FEE', 'OVERNIGHT_FEE',
  // Beyond SPEC §4's list: the risk fund paying out a compensation order (withdraw).
  'COMPENSATION_PAYOUT',
] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

export interface PostingInput {
  type: LedgerType;
  legs: readonly Leg[];
  now: number;
  /** Groups the legs; a random id when omitted. */
  ref?: string;
}

export type PostResult = { ok: true; ref: string } | { ok: false; reason: 'empty' | 'zeroLeg' | 'unbalanced' | 'insufficient' };

/**
 * Posts one double-entry movement atomically: reads the touched balances, applies the pure
 * rule (server/db/ledgerRule.ts), then writes the new balances and one ledger row per leg.
 * Every balance change in the system goes through here, so `balance == sum(ledger amounts)` holds.
 * Pass a transaction as `db` to join a larger unit of work.
 */
export async function post(db: Db, input: PostingInput): Promise<PostResult> {
  const run = async (trx: Db): Promise<PostResult> => {
    const current = new Map<BalanceKey, bigint>();
    for (const l of input.legs) {
      const row = await trx
        .selectFrom('balances')
        .select('amount')
        .where('user_id', '=', l.userId)
        .where('wallet', '=', l.wallet)
        .where('asset', '=', l.asset)
        .executeTakeFirst();
      current.set(balanceKey(l.userId, l.wallet, l.asset), row ? parseMinor(row.amount) : 0n);
    }
    const result = applyPosting(current, input.legs);
    if (!result.ok) return result;
    const ref = input.ref ?? randomBytes(8).toString('hex');
    for (const [i, l] of input.legs.entries()) {
      const amount = (result.balances.get(balanceKey(l.userId, l.wallet, l.asset)) ?? 0n).toString();
      await trx
        .insertInto('balances')
        .values({ user_id: l.userId, wallet: l.wallet, asset: l.asset, amount, updated_at: input.now })
        .onConflict((oc) => oc.columns(['user_id', 'wallet', 'asset']).doUpdateSet({ amount, updated_at: input.now }))
        .execute();
      await trx
        .insertInto('ledger_entries')
        .values({
          user_id: l.userId,
          wallet: l.wallet,
          asset: l.asset,
          amount: l.amount.toString(),
          balance_after: (result.after[i] ?? 0n).toString(),
          type: input.type,
          ref,
          created_at: input.now,
        })
        .execute();
    }
    return { ok: true, ref };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Credits a user from the system account (ADMIN_ADJUST), e.g. the demo balances of a new account. */
export function adminCredit(db: Db, userId: number, wallet: Wallet, asset: string, amount: bigint, now: number): Promise<PostResult> {
  return post(db, {
    type: 'ADMIN_ADJUST',
    now,
    legs: [
      { userId, wallet, asset, amount },
      { userId: SYSTEM_ACCOUNT_ID, wallet, asset, amount: -amount },
    ],
  });
}

export interface BalanceRow {
  wallet: Wallet;
  asset: string;
  /** Minor units. */
  amount: bigint;
}

export async function balancesOf(db: Db, userId: number): Promise<BalanceRow[]> {
  const rows = await db
    .selectFrom('balances')
    .select(['wallet', 'asset', 'amount'])
    .where('user_id', '=', userId)
    .orderBy('wallet')
    .orderBy('asset')
    .execute();
  return rows.map((r) => ({ wallet: r.wallet, asset: r.asset, amount: parseMinor(r.amount) }));
}

/** Sum of the ledger amounts of one balance: equals the stored balance (invariant checked by the property tests). */
export async function ledgerSum(db: Db, userId: number, wallet: Wallet, asset: string): Promise<bigint> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select('amount')
    .where('user_id', '=', userId)
    .where('wallet', '=', wallet)
    .where('asset', '=', asset)
    .execute();
  return rows.reduce((s, r) => s + parseMinor(r.amount), 0n);
}
