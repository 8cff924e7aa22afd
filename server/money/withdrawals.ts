import type { Selectable } from 'kysely';
import { Code } from '../../src/protocol/envelope.ts';
import { RESET_WITHDRAW_LOCK_HOURS } from '../../src/protocol/user.ts';
import { CHAIN_RULES, WALLET_MSG } from '../../src/protocol/wallet.ts';
import type { ChainRule, MoneyCoin, Network, Withdrawal, WithdrawInfo, WithdrawLock } from '../../src/protocol/wallet.ts';
import type { Db } from '../db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import { formatMinor, parseMinor, toMinor } from '../db/money.ts';
import type { UserRow, WithdrawalsTable } from '../db/schema.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { move, postLedger } from '../ledger/post.ts';
import { availableOf } from '../wallet/wallet.ts';
import { HOLD_ACCOUNT_ID, MONEY_WALLET, publishBalance } from './accounts.ts';
import { isValidAddress } from './addresses.ts';
import { fakeTxid } from './deposits.ts';
import { lockRows, transact } from '../db/tx.ts';
import type { MarketSource } from '../market/source.ts';
import { dailyLimitOf, dailyLimitView, savedAddresses, whitelistOf } from './addressBook.ts';

/**
 * Withdrawals (docs/WALLET.md). Accepting one holds amount + fee (WITHDRAW_HOLD, fund wallet →
 * hold account) in the same transaction as the insert, so concurrent requests can never overdraw.
 * pending ─approve→ processing ─one block later→ completed (txid; WITHDRAW to the system account,
 * WITHDRAW_FEE to the system account); pending ─reject→ rejected / ─cancel (user)→ cancelled, both
 * releasing the hold (WITHDRAW_RELEASE). Every change is conditional on the expected status.
 */

export type WithdrawalRow = Selectable<WithdrawalsTable>;
const HOUR_MS = 3_600_000;
/** How long a password reset locks withdrawals (SPEC §9, reset screen). */
export const RESET_LOCK_MS = RESET_WITHDRAW_LOCK_HOURS * HOUR_MS;

export function withdrawalDto(r: WithdrawalRow): Withdrawal {
  const amount = parseMinor(r.amount);
  const fee = parseMinor(r.fee);
  return {
    id: r.id,
    coin: r.coin as MoneyCoin,
    network: r.network as Network,
    address: r.address,
    amount: formatMinor(amount, r.coin),
    fee: formatMinor(fee, r.coin),
    total: formatMinor(amount + fee, r.coin),
    status: r.status,
    txid: r.txid,
    reason: r.reason,
    time: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * The password lock (SPEC §9) at `now`, or null. Which screen's reading applies: 'reset' when a
 * password-reset mail code was used at the moment the lock started (until − 48 h), else 'change'.
 */
export async function withdrawLockOf(db: Db, user: UserRow, now: number): Promise<WithdrawLock | null> {
  const until = user.withdraw_lock_until;
  if (until <= now) return null;
  const resetAt = until - RESET_LOCK_MS;
  const reset = await db
    .selectFrom('mail_codes')
    .select('id')
    .where('email', '=', user.email)
    .where('purpose', '=', 'reset')
    .where('used_at', '=', resetAt)
    .executeTakeFirst();
  return { reason: reset ? 'reset' : 'change', until, leftMs: until - now };
}

export function lockMessage(lock: WithdrawLock): string {
  return lock.reason === 'reset' ? WALLET_MSG.lockedAfterReset : WALLET_MSG.lockedAfterChange;
}

/** What the withdrawal form shows for a coin/network (with the saved addresses, whitelist mode and daily limit, issue 26). */
export async function withdrawInfo(db: Db, user: UserRow, rule: ChainRule, now: number, source?: MarketSource): Promise<WithdrawInfo> {
  const available = await availableOf(db, user.id, MONEY_WALLET, rule.coin);
  const fee = toMinor(rule.withdrawalFee, rule.coin);
  const max = available > fee ? available - fee : 0n;
  return {
    coin: rule.coin,
    network: rule.network,
    available: formatMinor(available, rule.coin),
    minWithdrawal: rule.minWithdrawal,
    fee: rule.withdrawalFee,
    max: formatMinor(max, rule.coin),
    security: user.google_secret ? 'google' : 'email',
    lock: await withdrawLockOf(db, user, now),
    addresses: await savedAddresses(db, user.id, now, rule),
    whitelist: await whitelistOf(db, user.id, now),
    limit: dailyLimitView(await dailyLimitOf(db, source, user, rule.coin, now)),
  };
}

export type Refusal = { ok: false; code: number; msg: string };

/** Address and amount checks of a request, in the order the form shows them. Returns the minor amount and fee. */
export function checkRequest(rule: ChainRule, address: string, amount: string): { ok: true; amount: bigint; fee: bigint } | Refusal {
  if (address.trim() === '') return { ok: false, code: Code.badRequest, msg: WALLET_MSG.addressRequired };
  if (!isValidAddress(rule.format, address)) return { ok: false, code: Code.badRequest, msg: WALLET_MSG.addressInvalid };
  let minor: bigint;
  try {
    minor = toMinor(amount, rule.coin);
  } catch {
    return { ok: false, code: Code.badRequest, msg: WALLET_MSG.amountRequired };
  }
  if (minor < toMinor(rule.minWithdrawal, rule.coin)) return { ok: false, code: Code.badRequest, msg: `${WALLET_MSG.minWithdrawal}${rule.minWithdrawal} ${rule.coin}` };
  return { ok: true, amount: minor, fee: toMinor(rule.withdrawalFee, rule.coin) };
}

class Insufficient extends Error {}
/** A refusal of the hold's guard (the daily limit, issue 26), raised inside the transaction. */
class Guarded extends Error {
  constructor(readonly refusal: Refusal & { data?: unknown }) {
    super(refusal.msg);
  }
}

/**
 * Accepts a checked request: inserts it pending and holds amount + fee, in one transaction.
 * Insufficient Balance when the fund wallet cannot cover amount + fee at that moment.
 */
export async function holdWithdrawal(
  deps: FeatureDeps,
  a: { userId: number; rule: ChainRule; address: string; amount: bigint; fee: bigint },
  /**
   * Checked in the hold's transaction, after the account's user row is locked (FOR UPDATE on
   * PostgreSQL; SQLite has one writer), so two concurrent requests cannot both pass a rule that
   * counts the account's withdrawals (the daily limit, issue 26).
   */
  guard?: (trx: Db) => Promise<(Refusal & { data?: unknown }) | null>,
): Promise<{ ok: true; withdrawal: Withdrawal } | Refusal> {
  const now = deps.clock.now();
  try {
    const row = await transact(deps.db, async (trx) => {
      if (guard) {
        await trx.selectFrom('users').select('id').where('id', '=', a.userId).$if(lockRows(trx), (q) => q.forUpdate()).executeTakeFirst();
        const refused = await guard(trx);
        if (refused) throw new Guarded(refused);
      }
      const inserted = await trx
        .insertInto('withdrawals')
        .values({
          user_id: a.userId, coin: a.rule.coin, network: a.rule.network, address: a.address,
          amount: a.amount.toString(), fee: a.fee.toString(), status: 'pending', created_at: now, updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const p = await move(trx, 'WITHDRAW_HOLD', { userId: a.userId, wallet: MONEY_WALLET }, { userId: HOLD_ACCOUNT_ID, wallet: MONEY_WALLET }, a.rule.coin, a.amount + a.fee, now, { ref: `withdrawal:${inserted.id}` });
      if (!p.ok) throw new Insufficient();
      return inserted;
    });
    const dto = withdrawalDto(row);
    deps.bus?.publish(a.userId, { type: 'withdrawal', data: dto });
    await publishBalance(deps, deps.db, a.userId, MONEY_WALLET, a.rule.coin);
    return { ok: true, withdrawal: dto };
  } catch (err) {
    if (err instanceof Insufficient) return { ok: false, code: Code.badRequest, msg: WALLET_MSG.insufficientBalance };
    if (err instanceof Guarded) return err.refusal;
    throw err;
  }
}

type Transition = 'cancel' | 'reject' | 'approve' | 'complete';
const FROM: Record<Transition, WithdrawalRow['status']> = { cancel: 'pending', reject: 'pending', approve: 'pending', complete: 'processing' };
const TO: Record<Transition, WithdrawalRow['status']> = { cancel: 'cancelled', reject: 'rejected', approve: 'processing', complete: 'completed' };

/**
 * Moves one withdrawal along its lifecycle (conditional on the expected status, so of two racing
 * transitions one wins), with its money move in the same transaction: cancel / reject release the
 * hold, complete pays it out. `userId` restricts to the owner (the user's cancel).
 */
export async function transition(
  deps: FeatureDeps,
  id: number,
  t: Transition,
  opts: { userId?: number; reason?: string } = {},
): Promise<{ ok: true; withdrawal: Withdrawal } | Refusal> {
  const now = deps.clock.now();
  const row = await transact(deps.db, async (trx): Promise<WithdrawalRow | Refusal> => {
    let q = trx.selectFrom('withdrawals').selectAll().where('id', '=', id);
    if (opts.userId !== undefined) q = q.where('user_id', '=', opts.userId);
    const w = await q.executeTakeFirst();
    if (!w) return { ok: false, code: Code.notFound, msg: WALLET_MSG.withdrawalNotFound };
    const refusal = { ok: false, code: Code.conflict, msg: t === 'cancel' ? WALLET_MSG.notCancellable : WALLET_MSG.notReviewable } as const;
    if (w.status !== FROM[t]) return refusal;
    const rule = CHAIN_RULES.find((r) => r.coin === w.coin && r.network === w.network);
    const patch: Partial<WithdrawalRow> = { status: TO[t], updated_at: now };
    if (t === 'reject' || opts.reason !== undefined) patch.reason = opts.reason ?? '';
    if (t === 'complete' && rule) patch.txid = fakeTxid(rule);
    const res = await trx.updateTable('withdrawals').set(patch).where('id', '=', id).where('status', '=', FROM[t]).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return refusal;
    const amount = parseMinor(w.amount);
    const fee = parseMinor(w.fee);
    const hold = { userId: HOLD_ACCOUNT_ID, wallet: MONEY_WALLET };
    const ref = `withdrawal:${id}`;
    let p: { ok: boolean; reason?: string } = { ok: true };
    if (t === 'cancel' || t === 'reject') {
      p = await move(trx, 'WITHDRAW_RELEASE', hold, { userId: w.user_id, wallet: MONEY_WALLET }, w.coin, amount + fee, now, { ref });
    } else if (t === 'complete') {
      p = await postLedger(trx, {
        type: 'WITHDRAW',
        now,
        ref,
        entries: [
          { ...hold, asset: w.coin, amount: -(amount + fee) },
          { userId: SYSTEM_ACCOUNT_ID, wallet: MONEY_WALLET, asset: w.coin, amount },
          ...(fee > 0n ? [{ userId: SYSTEM_ACCOUNT_ID, wallet: MONEY_WALLET, asset: w.coin, amount: fee, type: 'WITHDRAW_FEE' as const }] : []),
        ],
      });
    }
    if (!p.ok) throw new Error(`withdrawal ${t} refused by the ledger: ${p.reason ?? ''}`);
    return trx.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  });
  if ('ok' in row) return row;
  const dto = withdrawalDto(row);
  deps.bus?.publish(row.user_id, { type: 'withdrawal', data: dto });
  if (t === 'cancel' || t === 'reject') await publishBalance(deps, deps.db, row.user_id, MONEY_WALLET, row.coin);
  return { ok: true, withdrawal: dto };
}

/**
 * After a password change or reset (issue 29): every pending withdrawal of the account is cancelled
 * and its hold (amount + fee) returned to the fund wallet, with the reason in the wallet history, as
 * exchanges do: a withdrawal asked for before the password changed may be the work of whoever knew
 * the old one. Approved (processing) withdrawals are already on their way and stay as they are.
 */
export async function cancelPendingAfterPasswordChange(deps: FeatureDeps, userId: number): Promise<Withdrawal[]> {
  const pending = await deps.db.selectFrom('withdrawals').select('id').where('user_id', '=', userId).where('status', '=', 'pending').orderBy('id').execute();
  const out: Withdrawal[] = [];
  for (const { id } of pending) {
    // A review that won the race leaves it processing: the conditional transition then refuses, and that is fine.
    const r = await transition(deps, id, 'cancel', { userId, reason: WALLET_MSG.cancelledPasswordChange });
    if (r.ok) out.push(r.withdrawal);
  }
  return out;
}

/** The chain step for withdrawals: a processing withdrawal completes one block after its approval. */
export async function advanceWithdrawals(deps: FeatureDeps, now: number): Promise<Withdrawal[]> {
  const rows = await deps.db.selectFrom('withdrawals').selectAll().where('status', '=', 'processing').orderBy('id').execute();
  const out: Withdrawal[] = [];
  for (const w of rows) {
    const rule = CHAIN_RULES.find((r) => r.coin === w.coin && r.network === w.network);
    if (!rule || now - w.updated_at < rule.blockMs) continue;
    const r = await transition(deps, w.id, 'complete');
    if (r.ok) out.push(r.withdrawal);
  }
  return out;
}
