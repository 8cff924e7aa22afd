import { Code } from '../../src/protocol/envelope.ts';
import { COMPENSATION_MSG } from '../../src/protocol/compensation.ts';
import type { CompensationList, CompensationListQuery, CompensationOrder } from '../../src/protocol/compensation.ts';
import type { Balance } from '../../src/protocol/trading.ts';
import { KYC_REQUIRED_MSG } from '../../src/protocol/user.ts';
import type { Voucher } from '../../src/protocol/vouchers.ts';
import type { Db } from '../db/connection.ts';
import { pageOf } from '../db/paged.ts';
import { SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import { postLedger } from '../ledger/post.ts';
import { findUserByEmail } from '../db/repos/users.ts';
import { parseMinor, toMinor } from '../db/money.ts';
import { consumeVoucher } from '../vouchers/service.ts';
import { balanceOf } from '../wallet/wallet.ts';
import type { UserEventBus } from '../ws/userBus.ts';
import {
  applyPayouts, boostSchedule, claimAmount, compensationAmount, COMPENSATION_DURATION_DAYS, DAY_MS, dailyReturnOf, dueDays, MIN_LOSS_MINOR,
} from './rules.ts';
import { coveredUpTo, findOrder, lossCoveredBy, realisedSince, summaryOf, toCompensationDto } from './store.ts';
import type { CompensationRow } from './store.ts';
import { transact } from '../db/tx.ts';

/**
 * The compensation programme's operations (docs/COMPENSATION.md). Every state change runs in one
 * transaction and is conditional on the status it starts from, so a repeated or concurrent call
 * cannot act twice (a second withdraw finds the order `completed` and pays nothing). Frames are
 * published on the user bus only after the commit.
 */

/** The outcome of a user action: the changed order (and what else changed), or an envelope rejection. */
export type ActionResult =
  | { ok: true; order: CompensationOrder; voucher?: Voucher; balance?: Balance }
  | { ok: false; code: number; msg: string };

/** Thrown inside a transaction to roll it back with a rejection. */
class Abort extends Error {
  constructor(
    readonly code: number,
    msg: string,
  ) {
    super(msg);
  }
}

async function inTransaction<T>(db: Db, run: (trx: Db) => Promise<T>): Promise<T> {
  return transact(db, run);
}

async function guarded(run: () => Promise<ActionResult>): Promise<ActionResult> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof Abort) return { ok: false, code: e.code, msg: e.message };
    throw e;
  }
}

/**
 * Creates a `notActive` order when the user's net realised futures result since the last covered
 * ledger entry is a loss of at least 1 USDT. Idempotent: the new order's `covered_ledger_id` is the
 * last entry it looked at, so the same loss is never covered twice, and a profit or a small loss
 * creates nothing and stays to be netted with later results. Returns the created order, if any.
 */
export async function syncCompensation(db: Db, userId: number, now: number): Promise<CompensationRow | undefined> {
  return inTransaction(db, async (trx) => {
    const from = await coveredUpTo(trx, userId);
    const { net, lastId } = await realisedSince(trx, userId, from);
    if (net > -MIN_LOSS_MINOR) return undefined;
    const amount = compensationAmount(-net);
    const before = await trx.selectFrom('compensation_orders').select('amount').where('user_id', '=', userId).execute();
    const total = before.reduce((s, r) => s + parseMinor(r.amount), amount);
    const allTime = await realisedSince(trx, userId, 0, lastId);
    return trx
      .insertInto('compensation_orders')
      .values({
        user_id: userId,
        status: 'notActive',
        total_user_pnl: allTime.net.toString(),
        total_user_compensation: total.toString(),
        amount: amount.toString(),
        paid: '0',
        duration_days: COMPENSATION_DURATION_DAYS,
        daily_return: dailyReturnOf(amount, COMPENSATION_DURATION_DAYS).toString(),
        covered_ledger_id: lastId,
        boosts: 0,
        created_at: now,
        activated_at: null,
        next_payout_at: null,
        completed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** GET orders: syncs first (so a fresh loss shows up), then one page, newest first, plus the summary. */
export async function listCompensation(db: Db, userId: number, q: CompensationListQuery, now: number, bus?: UserEventBus): Promise<CompensationList> {
  const created = await syncCompensation(db, userId, now);
  if (created) bus?.publish(userId, { type: 'compensation', data: toCompensationDto(created) });
  let base = db.selectFrom('compensation_orders').where('user_id', '=', userId);
  if (q.status) base = base.where('status', '=', q.status);
  const page = await pageOf(base, q, ['id'], (qb) => qb.selectAll(), toCompensationDto);
  return { ...page, summary: await summaryOf(db, userId) };
}

async function mustFind(trx: Db, userId: number, id: number): Promise<CompensationRow> {
  const row = await findOrder(trx, userId, id);
  if (!row) throw new Abort(Code.notFound, COMPENSATION_MSG.notFound);
  return row;
}

function mustUpdateOne(res: { numUpdatedRows: bigint }, code: number, msg: string): void {
  if (Number(res.numUpdatedRows) !== 1) throw new Abort(code, msg);
}

/**
 * The claim's state change once its checks passed (also used by the demo seed): notActive →
 * active with the final `amount`, the daily return over the order's duration, the first payout
 * due 24 h after `now`. Conditional on `notActive`; false when the order was no longer there.
 */
export async function activateOrder(trx: Db, row: CompensationRow, amount: bigint, now: number): Promise<boolean> {
  const added = amount - parseMinor(row.amount);
  const res = await trx
    .updateTable('compensation_orders')
    .set({
      status: 'active',
      amount: amount.toString(),
      total_user_compensation: (parseMinor(row.total_user_compensation) + added).toString(),
      daily_return: dailyReturnOf(amount, row.duration_days).toString(),
      activated_at: now,
      next_payout_at: now + DAY_MS,
    })
    .where('id', '=', row.id)
    .where('status', '=', 'notActive')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * claim (notActive → active): needs identity verification (KYC_REQUIRED_MSG otherwise). An
 * optional loss-protection voucher raises the amount by min(voucher, loss − amount) and is
 * consumed in the same transaction. The first payout is due 24 h later.
 */
export async function claimCompensation(db: Db, a: { userId: number; id: number; voucherId?: number | undefined; now: number }): Promise<ActionResult> {
  return guarded(() =>
    inTransaction(db, async (trx) => {
      const row = await mustFind(trx, a.userId, a.id);
      if (row.status !== 'notActive') throw new Abort(Code.conflict, COMPENSATION_MSG.notClaimable);
      const user = await trx.selectFrom('users').select('kyc_status').where('id', '=', a.userId).executeTakeFirst();
      if (user?.kyc_status !== 'verified') throw new Abort(Code.forbidden, KYC_REQUIRED_MSG);
      let amount = parseMinor(row.amount);
      let voucher: Voucher | undefined;
      if (a.voucherId !== undefined) {
        const r = await consumeVoucher(trx, { userId: a.userId, voucherId: a.voucherId, kind: 'lossProtection', ref: `compensation:${row.id}`, now: a.now });
        if (!r.ok) throw new Abort(Code.badRequest, r.msg);
        voucher = r.voucher;
        amount = claimAmount(amount, await lossCoveredBy(trx, row), toMinor(r.voucher.value, 'USDT'));
      }
      if (!(await activateOrder(trx, row, amount, a.now))) throw new Abort(Code.conflict, COMPENSATION_MSG.notClaimable);
      const order = toCompensationDto(await mustFind(trx, a.userId, row.id));
      return voucher ? { ok: true, order, voucher } : { ok: true, order };
    }),
  );
}

/**
 * boost (active | inCompensation): consumes a speed voucher of p %; the remaining days n become
 * max(1, ceil(n × (1 − p/100))) and the daily return is recomputed; what is owed is unchanged.
 */
export async function boostCompensation(db: Db, a: { userId: number; id: number; voucherId: number; now: number }): Promise<ActionResult> {
  return guarded(() =>
    inTransaction(db, async (trx) => {
      const row = await mustFind(trx, a.userId, a.id);
      if (row.status !== 'active' && row.status !== 'inCompensation') throw new Abort(Code.conflict, COMPENSATION_MSG.notBoostable);
      const r = await consumeVoucher(trx, { userId: a.userId, voucherId: a.voucherId, kind: 'speed', ref: `compensation:${row.id}`, now: a.now });
      if (!r.ok) throw new Abort(Code.badRequest, r.msg);
      const s = { amount: parseMinor(row.amount), paid: parseMinor(row.paid), daily: parseMinor(row.daily_return) };
      const b = boostSchedule(s, Number(r.voucher.value));
      const res = await trx
        .updateTable('compensation_orders')
        .set({ daily_return: b.daily.toString(), duration_days: Math.max(1, row.duration_days - (b.before - b.days)), boosts: row.boosts + 1 })
        .where('id', '=', row.id)
        .where('status', 'in', ['active', 'inCompensation'])
        .where('paid', '=', row.paid)
        .executeTakeFirst();
      mustUpdateOne(res, Code.conflict, COMPENSATION_MSG.notBoostable);
      return { ok: true, order: toCompensationDto(await mustFind(trx, a.userId, row.id)), voucher: r.voucher };
    }),
  );
}

/**
 * withdraw (pending → completed): one COMPENSATION_PAYOUT posting of exactly `paid` from the risk
 * fund (system account, fund wallet) to the user's fund wallet, in the same transaction as the
 * status change, which is conditional on `pending`: a second withdraw pays nothing.
 */
export async function withdrawCompensation(db: Db, a: { userId: number; id: number; now: number }): Promise<ActionResult> {
  const r = await guarded(() =>
    inTransaction(db, async (trx) => {
      const row = await mustFind(trx, a.userId, a.id);
      if (row.status !== 'pending') throw new Abort(Code.conflict, COMPENSATION_MSG.notWithdrawable);
      const res = await trx
        .updateTable('compensation_orders')
        .set({ status: 'completed', completed_at: a.now })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      mustUpdateOne(res, Code.conflict, COMPENSATION_MSG.notWithdrawable);
      const paid = parseMinor(row.paid);
      if (paid > 0n) {
        const p = await postLedger(trx, {
          type: 'COMPENSATION_PAYOUT',
          now: a.now,
          ref: `compensation:${row.id}`,
          entries: [
            { userId: a.userId, wallet: 'fund', asset: 'USDT', amount: paid },
            { userId: SYSTEM_ACCOUNT_ID, wallet: 'fund', asset: 'USDT', amount: -paid },
          ],
        });
        if (!p.ok) throw new Error(`COMPENSATION_PAYOUT refused: ${p.reason}`);
      }
      return { ok: true, order: toCompensationDto(await mustFind(trx, a.userId, row.id)) };
    }),
  );
  return r.ok ? { ...r, balance: await balanceOf(db, a.userId, 'fund', 'USDT') } : r;
}

/** Publishes what an action changed: the order, the consumed voucher, the fund balance. */
export function publishAction(bus: UserEventBus | undefined, userId: number, r: ActionResult): void {
  if (!bus || !r.ok) return;
  bus.publish(userId, { type: 'compensation', data: r.order });
  if (r.voucher) bus.publish(userId, { type: 'voucher', data: r.voucher });
  if (r.balance) bus.publish(userId, { type: 'balance', data: r.balance });
}

/** Pays the days due on one order (catch-up, never beyond the amount); returns the changed row or undefined. */
async function payDue(db: Db, id: number, now: number): Promise<CompensationRow | undefined> {
  return inTransaction(db, async (trx) => {
    const row = await trx.selectFrom('compensation_orders').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || (row.status !== 'active' && row.status !== 'inCompensation')) return undefined;
    const next = row.next_payout_at === null ? null : Number(row.next_payout_at);
    const days = dueDays(next, now);
    if (days === 0 || next === null) return undefined;
    const { schedule, payouts } = applyPayouts({ amount: parseMinor(row.amount), paid: parseMinor(row.paid), daily: parseMinor(row.daily_return) }, days);
    const done = schedule.paid >= schedule.amount;
    await trx
      .updateTable('compensation_orders')
      .set({
        paid: schedule.paid.toString(),
        status: done ? 'pending' : schedule.paid > 0n ? 'inCompensation' : row.status,
        next_payout_at: done ? null : next + payouts.length * DAY_MS,
      })
      .where('id', '=', row.id)
      .where('paid', '=', row.paid)
      .execute();
    return trx.selectFrom('compensation_orders').selectAll().where('id', '=', id).executeTakeFirst();
  });
}

const SYNC_JOB = 'compensation.sync';

/**
 * The periodic job: creates orders for users with new realised losses (a watermark over the
 * ledger, so each run only looks at new entries; syncCompensation itself is idempotent anyway),
 * then pays every due daily payout. Publishes a compensation frame per change. Returns the
 * changed orders.
 */
export async function runCompensationJobs(db: Db, now: number, bus?: UserEventBus): Promise<CompensationOrder[]> {
  const changed: { userId: number; order: CompensationOrder }[] = [];
  const mark = await db.selectFrom('trading_jobs').select('last_run').where('name', '=', SYNC_JOB).executeTakeFirst();
  const from = Number(mark?.last_run ?? 0);
  const fresh = await db
    .selectFrom('ledger_entries')
    .innerJoin('users', 'users.id', 'ledger_entries.user_id')
    .select(['ledger_entries.user_id as userId', (eb) => eb.fn.max('ledger_entries.id').as('maxId')])
    .where('users.role', '=', 'user')
    .where('ledger_entries.id', '>', from)
    .groupBy('ledger_entries.user_id')
    .execute();
  let top = from;
  for (const f of fresh) {
    const created = await syncCompensation(db, f.userId, now);
    if (created) changed.push({ userId: f.userId, order: toCompensationDto(created) });
    top = Math.max(top, Number(f.maxId));
  }
  if (top > from) {
    await db.insertInto('trading_jobs').values({ name: SYNC_JOB, last_run: top }).onConflict((oc) => oc.column('name').doUpdateSet({ last_run: top })).execute();
  }
  const due = await db
    .selectFrom('compensation_orders')
    .select(['id', 'user_id'])
    .where('status', 'in', ['active', 'inCompensation'])
    .where('next_payout_at', '<=', now)
    .orderBy('id')
    .execute();
  for (const d of due) {
    const row = await payDue(db, d.id, now);
    if (row) changed.push({ userId: row.user_id, order: toCompensationDto(row) });
  }
  for (const c of changed) bus?.publish(c.userId, { type: 'compensation', data: c.order });
  return changed.map((c) => c.order);
}

/**
 * Dev helper (demos, e2e): moves the user's running schedules `days` × 24 h earlier, then runs
 * the jobs at `now`, so `days` daily payouts fall due at once. Returns the changed orders, or
 * null for an unknown email.
 */
export async function fastForward(db: Db, email: string, days: number, now: number, bus?: UserEventBus): Promise<CompensationOrder[] | null> {
  const user = await findUserByEmail(db, email);
  if (!user) return null;
  const shift = days * DAY_MS;
  await db
    .updateTable('compensation_orders')
    .set((eb) => ({ next_payout_at: eb('next_payout_at', '-', shift), activated_at: eb('activated_at', '-', shift) }))
    .where('user_id', '=', user.id)
    .where('status', 'in', ['active', 'inCompensation'])
    .execute();
  return runCompensationJobs(db, now, bus);
}
