import { timeId } from '../services/timeIds.ts';
import { compiledShape } from '../db/compiledShape.ts';
import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { pageOf } from '../db/paged.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import type { TradeFillsTable, TradeOrdersTable, TradePositionsTable } from '../db/schema.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import type { z } from 'zod';
import type { fillsQuery, ordersQuery } from '../../src/protocol/trading.ts';
import type { CancelReason, Fill, Order, Position } from '../../src/protocol/trading.ts';
import type { ContractRules, MarginBracket } from '../../src/protocol/contractRules.ts';
import { bracketsOf, entryPrice, makerRate, liquidationPrice, marginRatio, pnl, PPB, scaled, unscaled } from './formulas.ts';
import type { Rules } from './formulas.ts';

/** Rows and their DTOs: the mapping is the only place that turns minor units into decimal strings. */
export type OrderRow = Selectable<TradeOrdersTable>;
export type PositionRow = Selectable<TradePositionsTable>;
export type FillRow = Selectable<TradeFillsTable>;

/** A sortable, unique id: prefix + time (base 36) + random. */
export function newId(prefix: 'O' | 'P', now: number): string {
  return timeId(prefix, now, 5);
}

export function orderDto(r: OrderRow, coin = 'USDT'): Order {
  return {
    id: r.id,
    clientOrderId: r.client_order_id,
    symbol: r.symbol,
    contract: r.contract,
    kind: r.kind,
    side: r.side,
    price: r.price,
    qty: r.qty,
    leverage: r.leverage,
    status: r.status,
    executedQty: r.executed_qty,
    avgPrice: r.avg_price,
    fee: formatMinor(parseMinor(r.fee), coin),
    realizedPnl: formatMinor(parseMinor(r.realized_pnl), coin),
    margin: formatMinor(parseMinor(r.margin), coin),
    positionId: r.position_id,
    tp: r.tp,
    sl: r.sl,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    reduceOnly: r.reduce_only === 1,
    postOnly: r.post_only === 1,
    timeInForce: r.time_in_force,
    triggerPrice: r.trigger_price,
    triggerBy: r.trigger_by,
    triggered: r.triggered_at !== null,
    cancelReason: (r.cancel_reason as CancelReason | null) ?? null,
  };
}

export function fillDto(r: FillRow, coin = 'USDT'): Fill {
  return {
    id: r.id,
    orderId: r.order_id,
    positionId: r.position_id,
    symbol: r.symbol,
    contract: r.contract,
    kind: r.kind as Fill['kind'],
    side: r.side,
    price: r.price,
    qty: r.qty,
    fee: formatMinor(parseMinor(r.fee), coin),
    realizedPnl: formatMinor(parseMinor(r.realized_pnl), coin),
    time: r.created_at,
    liquidity: r.liquidity,
  };
}

/** The contract details (GET /api/trade/rules): rules, maker / taker rates and the maintenance brackets. */
export function contractRulesDto(rules: Rules): ContractRules {
  return {
    symbol: rules.symbol,
    tickSize: rules.tickSize,
    qtyStep: rules.qtyStep,
    minOrderQuantity: rules.minOrderQuantity,
    maxOrderQuantity: rules.maxOrderQuantity,
    minLever: rules.minLever,
    maxLever: rules.maxLever,
    makerFeeRatio: makerRate(rules),
    takerFeeRatio: rules.openingFeeRatio,
    openingFeeRatio: rules.openingFeeRatio,
    closingFeeRatio: rules.closingFeeRatio,
    mMarginRatio: rules.mMarginRatio,
    overnightFeeRatio: rules.overnightFeeRatio,
    fundingRateRatio: rules.fundingRateRatio,
    brackets: marginBrackets(rules),
  };
}

const bracketDtos = new Map<string, MarginBracket[]>();

/** The instrument's maintenance brackets as the API sends them (GET /trade/rules, and every Position DTO). */
export function marginBrackets(rules: Rules): MarginBracket[] {
  const key = `${rules.symbol}|${rules.quote}|${rules.maxLever}|${rules.mMarginRatio}`;
  const hit = bracketDtos.get(key);
  if (hit) return hit;
  const ratio = (ppb: bigint) => Number(ppb) / Number(PPB);
  const out = bracketsOf(rules).map((b) => ({
    bracket: b.bracket,
    notionalFloor: formatMinor(b.floor, rules.quote),
    notionalCap: b.cap === null ? null : formatMinor(b.cap, rules.quote),
    maxLeverage: b.maxLeverage,
    mmr: ratio(b.mmrPpb),
    maintAmount: formatMinor(b.cum, rules.quote),
  }));
  bracketDtos.set(key, out);
  return out;
}

/** Position DTO valued at `mark` (falls back to the entry price when the market has no price yet). */
export function positionDto(r: PositionRow, rules: Rules, mark: number | undefined, tp: number | null, sl: number | null): Position {
  const qty = parseMinor(r.qty);
  const cost = parseMinor(r.cost);
  const margin = parseMinor(r.margin);
  const entry = entryPrice(rules, cost, qty);
  const markPrice = mark ?? entry;
  const markUnits = scaled(markPrice, rules.pricePrecision);
  const upnl = qty > 0n ? pnl(rules, r.side, cost, qty, markUnits) : 0n;
  return {
    id: r.id,
    symbol: r.symbol,
    contract: r.contract,
    side: r.side,
    qty: unscaled(qty, rules.qtyPrecision),
    entryPrice: entry,
    markPrice,
    liquidationPrice: liquidationPrice(rules, r.side, cost, margin, qty),
    margin: formatMinor(margin, rules.quote),
    marginRatio: marginRatio(rules, r.side, cost, margin, qty, markUnits),
    brackets: marginBrackets(rules),
    unrealizedPnl: formatMinor(upnl, rules.quote),
    returnPct: margin > 0n ? Number((upnl * 1_000_000n) / margin) / 10_000 : 0,
    tp,
    sl,
    leverage: r.leverage,
    openedAt: r.opened_at,
    updatedAt: r.updated_at,
  };
}

export async function findOrder(db: Db, userId: number, by: { orderId?: string | undefined; clientOrderId?: string | undefined }): Promise<OrderRow | undefined> {
  let q = db.selectFrom('trade_orders').selectAll().where('user_id', '=', userId);
  if (by.orderId !== undefined) q = q.where('id', '=', by.orderId);
  if (by.clientOrderId !== undefined) q = q.where('client_order_id', '=', by.clientOrderId);
  return q.executeTakeFirst();
}

export async function openPosition(db: Db, userId: number, symbol: string, contract: 'perp' | 'std'): Promise<PositionRow | undefined> {
  return (await selectOpenPosition(db, userId, symbol, contract)).rows[0];
}

// Statements of every placement, compiled once per dialect (server/db/compiledShape.ts).
const selectOpenPosition = compiledShape(
  (db: Db, userId: number, symbol: string, contract: 'perp' | 'std') =>
    db.selectFrom('trade_positions').selectAll().where('user_id', '=', userId).where('symbol', '=', symbol).where('contract', '=', contract).where('status', '=', 'open'),
  3,
);
const selectByClientId = compiledShape(
  (db: Db, userId: number, clientOrderId: string) => db.selectFrom('trade_orders').selectAll().where('user_id', '=', userId).where('client_order_id', '=', clientOrderId),
  2,
);

/** A user's order by its client order id (placement is idempotent by it). */
export async function orderByClientId(db: Db, userId: number, clientOrderId: string): Promise<OrderRow | undefined> {
  return (await selectByClientId(db, userId, clientOrderId)).rows[0];
}

/** The trigger prices of a position's pending TP and SL orders (the first of each kind). */
export async function tpslOf(db: Db, positionId: string): Promise<{ tp: number | null; sl: number | null }> {
  const rows = await db
    .selectFrom('trade_orders')
    .select(['kind', 'price'])
    .where('position_id', '=', positionId)
    .where('status', '=', 'pending')
    .where('kind', 'in', ['limitTakeProfit', 'limitStopLoss'])
    .orderBy('created_at')
    .execute();
  return {
    tp: rows.find((r) => r.kind === 'limitTakeProfit')?.price ?? null,
    sl: rows.find((r) => r.kind === 'limitStopLoss')?.price ?? null,
  };
}

type OrdersFilter = z.output<typeof ordersQuery>;

/** Open orders (`open`) or the order history (filled and canceled), newest first. */
export async function ordersPage(db: Db, userId: number, q: OrdersFilter, open: boolean): Promise<Page<Order>> {
  let base = db.selectFrom('trade_orders').where('user_id', '=', userId);
  base = open ? base.where('status', '=', 'pending') : base.where('status', '!=', 'pending');
  if (q.status) base = base.where('status', '=', q.status);
  if (q.symbol) base = base.where('symbol', '=', q.symbol);
  if (q.contract) base = base.where('contract', '=', q.contract);
  if (q.type) base = base.where('kind', '=', q.type);
  if (q.side) base = base.where('side', '=', q.side);
  if (q.from !== undefined) base = base.where('created_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('created_at', '<=', q.to);
  return pageOf(base, q, ['created_at', 'id'], (qb) => qb.selectAll(), (r) => orderDto(r));
}

type FillsFilter = z.output<typeof fillsQuery>;

/** Trade history, newest first. */
export async function fillsPage(db: Db, userId: number, q: FillsFilter): Promise<Page<Fill>> {
  let base = db.selectFrom('trade_fills').where('user_id', '=', userId);
  if (q.symbol) base = base.where('symbol', '=', q.symbol);
  if (q.contract) base = base.where('contract', '=', q.contract);
  if (q.type) base = base.where('kind', '=', q.type);
  if (q.from !== undefined) base = base.where('created_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('created_at', '<=', q.to);
  return pageOf(base, q, ['id'], (qb) => qb.selectAll(), (r) => fillDto(r));
}
