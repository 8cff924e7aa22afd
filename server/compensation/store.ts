import type { Db } from '../db/connection.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import type { CompensationOrdersTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';
import type { CompensationOrder, CompensationSummary } from '../../src/protocol/compensation.ts';
import { daysLeft } from './rules.ts';

/** A stored compensation order. */
export type CompensationRow = Selectable<CompensationOrdersTable>;

const COIN = 'USDT';

/**
 * The ledger entry types that make up a trader's realised futures result, read on the trader's
 * own legs (server/trading/settle.ts): CONTRACT_CLOSE is the realised PnL of a close or a
 * liquidation (signed), the four fee types are charges (or, for funding, receipts), and
 * CONTRACT_TRADE is the margin a liquidation forfeits to the insurance fund. Margin locks and
 * unlocks (CONTRACT_OPEN / CONTRACT_MARGIN_UNLOCK / CONTRACT_CANCEL) move the trader's own money
 * and are not a result.
 */
export const REALISED_TYPES = ['CONTRACT_CLOSE', 'CONTRACT_OPEN_FEE', 'CONTRACT_CLOSE_FEE', 'FUNDING_FEE', 'OVERNIGHT_FEE', 'CONTRACT_TRADE'] as const;

/** Net realised result (signed minor units) of the entries with `afterId < id ≤ uptoId`, and the last id seen. */
export async function realisedSince(db: Db, userId: number, afterId: number, uptoId = Number.MAX_SAFE_INTEGER): Promise<{ net: bigint; lastId: number }> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['id', 'amount'])
    .where('user_id', '=', userId)
    .where('asset', '=', COIN)
    .where('type', 'in', REALISED_TYPES)
    .where('id', '>', afterId)
    .where('id', '<=', uptoId)
    .orderBy('id')
    .execute();
  let net = 0n;
  let lastId = afterId;
  for (const r of rows) {
    net += parseMinor(r.amount);
    lastId = r.id;
  }
  return { net, lastId };
}

/** The id up to which the user's losses are already covered by an order (0 = none). */
export async function coveredUpTo(db: Db, userId: number, beforeOrderId = Number.MAX_SAFE_INTEGER): Promise<number> {
  const row = await db
    .selectFrom('compensation_orders')
    .select((eb) => eb.fn.max('covered_ledger_id').as('c'))
    .where('user_id', '=', userId)
    .where('id', '<', beforeOrderId)
    .executeTakeFirst();
  return Number(row?.c ?? 0);
}

/** The net loss (positive minor units) an order covers: the realised result between the previous order's cover point and its own. */
export async function lossCoveredBy(db: Db, row: CompensationRow): Promise<bigint> {
  const from = await coveredUpTo(db, row.user_id, row.id);
  const { net } = await realisedSince(db, row.user_id, from, row.covered_ledger_id);
  return net < 0n ? -net : 0n;
}

export async function findOrder(db: Db, userId: number, id: number): Promise<CompensationRow | undefined> {
  return db.selectFrom('compensation_orders').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
}

export async function findById(db: Db, id: number): Promise<CompensationRow | undefined> {
  return db.selectFrom('compensation_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Row → DTO (money as 6-decimal USDT strings). */
export function toCompensationDto(r: CompensationRow): CompensationOrder {
  const amount = parseMinor(r.amount);
  const paid = parseMinor(r.paid);
  const daily = parseMinor(r.daily_return);
  return {
    id: r.id,
    status: r.status,
    totalUserPnl: formatMinor(parseMinor(r.total_user_pnl), COIN),
    totalUserCompensation: formatMinor(parseMinor(r.total_user_compensation), COIN),
    amount: formatMinor(amount, COIN),
    paid: formatMinor(paid, COIN),
    durationDays: r.duration_days,
    daysLeft: r.status === 'notActive' ? r.duration_days : daysLeft(amount - paid, daily),
    dailyReturn: formatMinor(daily, COIN),
    boosts: r.boosts,
    createdAt: Number(r.created_at),
    activatedAt: r.activated_at === null ? null : Number(r.activated_at),
    nextPayoutAt: r.next_payout_at === null ? null : Number(r.next_payout_at),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
  };
}

/** Totals over every order of the user, and the user's all-time realised result now. */
export async function summaryOf(db: Db, userId: number): Promise<CompensationSummary> {
  const rows = await db.selectFrom('compensation_orders').select(['status', 'amount', 'paid']).where('user_id', '=', userId).execute();
  let total = 0n;
  let paid = 0n;
  let pending = 0n;
  for (const r of rows) {
    total += parseMinor(r.amount);
    paid += parseMinor(r.paid);
    if (r.status === 'pending') pending += parseMinor(r.paid);
  }
  const { net } = await realisedSince(db, userId, 0);
  return {
    totalUserPnl: formatMinor(net, COIN),
    totalUserCompensation: formatMinor(total, COIN),
    totalPaid: formatMinor(paid, COIN),
    pendingWithdrawal: formatMinor(pending, COIN),
  };
}
