import { TRADE_MSG } from '../../src/protocol/trading.ts';
import { insertRow } from '../db/compiledShape.ts';
import type { PlaceOrderParsed } from '../../src/protocol/trading.ts';
import { netUnits, toUnits } from '../../src/protocol/netting.ts';
import type { z } from 'zod';
import type { editOrderBody } from '../../src/protocol/trading.ts';
import { parseMinor } from '../db/money.ts';
import { scaled, unscaled } from './formulas.ts';
import type { Rules } from './formulas.ts';
import { cancelWith, openPositionOf, orderDefaults, reject as bad, replaceTrigger, reread, workLimit, workMarket } from './execute.ts';
import type { MarketView } from './execute.ts';
import { releaseOrderMargin } from './settle.ts';
import type { Ctx } from './settle.ts';
import { newId, orderByClientId } from './store.ts';
import type { OrderRow, PositionRow } from './store.ts';

/** What the order operations need from the engine: prices and the book. */
export type OrderOps = MarketView;

type EditParsed = z.output<typeof editOrderBody>;

function parsePrice(v: number | string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * Whether `x` (as sent: the shortest decimal of the JSON number or of the parsed decimal string) is a
 * whole multiple of `step` at `dp` decimals, exactly: any digit below the precision is refused, none
 * is rounded away.
 */
function onGrid(x: number, step: number, dp: number): boolean {
  const u = toUnits(x, dp);
  const s = toUnits(step, dp);
  return u !== null && s !== null && s > 0n && u % s === 0n;
}

/** Checks quantity and leverage against the instrument rules (SPEC §5 messages). */
export function checkQty(rules: Rules, qty: number): void {
  if (qty < rules.minOrderQuantity) bad(`${TRADE_MSG.minOrderQuantity}${rules.minOrderQuantity}`);
  if (qty > rules.maxOrderQuantity) bad(`${TRADE_MSG.maxOrderQuantity}${rules.maxOrderQuantity}`);
  if (!onGrid(qty, rules.qtyStep, rules.qtyPrecision)) bad(`${TRADE_MSG.qtyStep}${rules.qtyStep}`);
}

function checkPriceStep(rules: Rules, price: number): void {
  if (!onGrid(price, rules.tickSize, rules.pricePrecision)) bad(`${TRADE_MSG.priceStep}${rules.tickSize}`);
}

/** TP above / SL below the reference for a long, the reverse for a short. */
export function checkTpsl(long: boolean, ref: number, tp: number | null, sl: number | null, rules: Rules): void {
  if (tp !== null) {
    checkPriceStep(rules, tp);
    if (long ? tp <= ref : tp >= ref) bad(TRADE_MSG.tpInvalid);
  }
  if (sl !== null) {
    checkPriceStep(rules, sl);
    if (long ? sl >= ref : sl <= ref) bad(TRADE_MSG.slInvalid);
  }
}

/** A stop arms when the watched price moves through its trigger: buy at or above, sell at or below. It must not be reached already. */
function checkTrigger(ops: OrderOps, rules: Rules, symbol: string, side: 'buy' | 'sell', trigger: number, by: 'last' | 'mark'): void {
  checkPriceStep(rules, trigger);
  const ref = (by === 'mark' ? ops.markPrice(symbol) : ops.lastPrice(symbol)) ?? bad(TRADE_MSG.noPrice);
  if (side === 'buy' ? ref >= trigger : ref <= trigger) bad(TRADE_MSG.wouldTriggerImmediately);
}

export const LIMIT_KINDS: readonly OrderRow['kind'][] = ['limitOpen', 'limitClose', 'limitTakeProfit', 'limitStopLoss', 'stopLimit'];
export const STOP_KINDS: readonly OrderRow['kind'][] = ['stopMarket', 'stopLimit'];
export const TPSL_KINDS: readonly OrderRow['kind'][] = ['limitTakeProfit', 'limitStopLoss'];

/** A placement whose clientOrderId is known answers the stored order, unless it is another order (pure). */
export function checkSameOrder(known: OrderRow, b: PlaceOrderParsed): void {
  if (known.symbol !== b.symbol || known.kind !== b.kind || known.side !== b.side || known.qty !== b.qty) bad(TRADE_MSG.clientOrderIdConflict);
}

/** What {@link checkPlacement} derived from a placement it accepted. */
export interface Placement {
  rules: Rules;
  limitPrice: number | null;
  reduceOnly: boolean;
  stop: boolean;
  trigger: number | null;
  /** TP/SL attached to an order that opens. */
  attach: boolean;
}

/**
 * Every check of a placement, in the order the refusals are reported (pure: the prices come from
 * `ops`, `pos` is the user's open position on the symbol and contract). Shared by the SQL engine
 * and the in-memory engine (server/engine/apply.ts); throws the Rejection the route answers.
 */
export function checkPlacement(ops: OrderOps, b: PlaceOrderParsed, pos: Pick<PositionRow, 'side' | 'qty'> | null): Placement {
  const rules = ops.rules(b.symbol) ?? bad(TRADE_MSG.unknownSymbol);
  const info = rules as Rules & { kinds?: readonly string[] };
  if (info.kinds && !info.kinds.includes(b.contract)) bad(TRADE_MSG.contractNotListed);
  const limitPrice = LIMIT_KINDS.includes(b.kind) ? (parsePrice(b.price) ?? bad(TRADE_MSG.limitPriceRequired)) : null;
  if (limitPrice !== null) checkPriceStep(rules, limitPrice);
  checkQty(rules, b.qty);
  if (b.leverage < rules.minLever || b.leverage > rules.maxLever) bad(`${TRADE_MSG.leverageRange}${rules.minLever}-${rules.maxLever}`);
  if (b.postOnly && (!(b.kind === 'limitOpen' || b.kind === 'limitClose' || b.kind === 'stopLimit') || b.timeInForce !== 'GTC')) bad(TRADE_MSG.postOnlyLimitOnly);
  const reduceOnly = b.reduceOnly || b.kind === 'marketClose' || b.kind === 'limitClose' || TPSL_KINDS.includes(b.kind);

  // The explicit close kinds keep their own messages.
  if (b.kind === 'marketClose' || b.kind === 'limitClose' || TPSL_KINDS.includes(b.kind)) {
    if (!pos) return bad(TRADE_MSG.noPosition);
    if (b.side !== (pos.side === 'long' ? 'sell' : 'buy')) bad(TRADE_MSG.closeSide);
    if (scaled(b.qty, rules.qtyPrecision) > parseMinor(pos.qty)) bad(TRADE_MSG.closeQtyTooLarge);
  } else if (reduceOnly && netUnits(pos ? { side: pos.side, qty: parseMinor(pos.qty) } : null, b.side, scaled(b.qty, rules.qtyPrecision), true).kind === 'refused') {
    bad(TRADE_MSG.reduceOnlyWouldIncrease);
  }
  const stop = STOP_KINDS.includes(b.kind);
  const trigger = stop ? (b.triggerPrice ?? bad(TRADE_MSG.triggerPriceRequired)) : null;
  if (trigger !== null) checkTrigger(ops, rules, b.symbol, b.side, trigger, b.triggerBy);
  if (TPSL_KINDS.includes(b.kind) && pos) {
    const mark = ops.markPrice(b.symbol) ?? bad(TRADE_MSG.noPrice);
    if (b.kind === 'limitTakeProfit') checkTpsl(pos.side === 'long', mark, limitPrice, null, rules);
    else checkTpsl(pos.side === 'long', mark, null, limitPrice, rules);
  }
  // TP/SL attached to an order that opens: on the side of its reference price (limit, trigger, or market).
  const attach = !reduceOnly && (b.tp !== null || b.sl !== null);
  if (attach) {
    const ref = limitPrice ?? trigger ?? ops.lastPrice(b.symbol) ?? bad(TRADE_MSG.noPrice);
    checkTpsl(b.side === 'buy', ref, b.tp, b.sl, rules);
  }
  return { rules, limitPrice, reduceOnly, stop, trigger, attach };
}

/**
 * Places an order (see placeOrderBody in src/protocol/trading.ts). Idempotent by clientOrderId:
 * a known id answers the stored order, unchanged, whatever happened since. Every refusal throws
 * before anything is committed (the engine's transaction rolls back).
 */
export async function placeOrder(ops: OrderOps, c: Ctx, userId: number, b: PlaceOrderParsed): Promise<OrderRow> {
  const known = await orderByClientId(c.trx, userId, b.clientOrderId);
  if (known) {
    checkSameOrder(known, b);
    return known;
  }
  const pos = ops.rules(b.symbol) ? ((await openPositionOf(c, userId, b.symbol, b.contract)) ?? null) : null;
  const { rules, limitPrice, reduceOnly, stop, trigger, attach } = checkPlacement(ops, b, pos);
  const row: OrderRow = {
    ...orderDefaults,
    id: newId('O', c.now),
    user_id: userId,
    client_order_id: b.clientOrderId,
    symbol: b.symbol,
    contract: b.contract,
    kind: b.kind,
    side: b.side,
    price: limitPrice ?? 0,
    qty: b.qty,
    leverage: b.leverage,
    position_id: reduceOnly && pos ? pos.id : null,
    tp: attach ? b.tp : null,
    sl: attach ? b.sl : null,
    reduce_only: reduceOnly ? 1 : 0,
    post_only: b.postOnly ? 1 : 0,
    time_in_force: b.timeInForce,
    trigger_price: trigger,
    trigger_by: b.triggerBy,
    created_at: c.now,
    updated_at: c.now,
  };
  c.touched.orders.set(row.id, row.user_id);
  c.touched.symbols.add(b.symbol);
  if (pos && reduceOnly) c.touched.positions.set(pos.id, pos.user_id);
  // A market order is written once, with its result.
  if (b.kind === 'marketOpen' || b.kind === 'marketClose') return workMarket(c, ops, row, rules, { known: pos, unsaved: true });
  await insertRow(c.trx, 'trade_orders', row);
  if (stop || TPSL_KINDS.includes(b.kind)) return row;
  return workLimit(c, ops, row, rules, true);
}

/** Cancels a pending order; an open order's locked margin goes back to the wallet (CONTRACT_CANCEL). */
export async function cancelOrder(_ops: OrderOps, c: Ctx, userId: number, by: { orderId?: string | undefined; clientOrderId?: string | undefined }): Promise<OrderRow> {
  const o = await findOwn(c, userId, by);
  if (o.status !== 'pending') bad(TRADE_MSG.orderNotPending);
  await cancelWith(c, o, 'user');
  return reread(c, o.id);
}

async function findOwn(c: Ctx, userId: number, by: { orderId?: string | undefined; clientOrderId?: string | undefined }): Promise<OrderRow> {
  let q = c.trx.selectFrom('trade_orders').selectAll().where('user_id', '=', userId);
  if (by.orderId !== undefined) q = q.where('id', '=', by.orderId);
  if (by.clientOrderId !== undefined) q = q.where('client_order_id', '=', by.clientOrderId);
  return (await q.executeTakeFirst()) ?? bad(TRADE_MSG.orderNotFound);
}

/** Whether an edit of `o` checks it against the open position (TP/SL and limit closes). */
export function editNeedsPosition(o: OrderRow): boolean {
  return o.status === 'pending' && (TPSL_KINDS.includes(o.kind) || o.kind === 'limitClose');
}

/**
 * Every check of an edit, in the order the refusals are reported (pure; `pos` is the open
 * position when {@link editNeedsPosition}). Returns the order's new price, trigger and quantity.
 */
export function checkEdit(ops: OrderOps, o: OrderRow, body: EditParsed, pos: Pick<PositionRow, 'side' | 'qty'> | null): { rules: Rules; price: number; trigger: number | null; qty: number } {
  if (o.status !== 'pending' || !(LIMIT_KINDS.includes(o.kind) || STOP_KINDS.includes(o.kind))) bad(TRADE_MSG.editNotAllowed);
  const rules = ops.rules(o.symbol) ?? bad(TRADE_MSG.unknownSymbol);
  const price = body.price ?? o.price;
  if (body.price !== null && o.kind === 'stopMarket') bad(TRADE_MSG.editNotAllowed);
  if (body.price !== null) checkPriceStep(rules, price);
  const trigger = body.triggerPrice ?? o.trigger_price;
  if (body.triggerPrice !== null) {
    if (!STOP_KINDS.includes(o.kind) || o.triggered_at !== null) bad(TRADE_MSG.editNotAllowed);
    checkTrigger(ops, rules, o.symbol, o.side, body.triggerPrice, o.trigger_by);
  }
  const qty = body.qty ?? o.qty;
  if (body.qty !== undefined) {
    checkQty(rules, qty);
    if (scaled(qty, rules.qtyPrecision) <= scaled(o.executed_qty, rules.qtyPrecision)) bad(TRADE_MSG.editQtyBelowFilled);
  }
  if (TPSL_KINDS.includes(o.kind) || o.kind === 'limitClose') {
    if (!pos) return bad(TRADE_MSG.noPosition);
    if (scaled(qty, rules.qtyPrecision) > parseMinor(pos.qty)) bad(TRADE_MSG.closeQtyTooLarge);
    if (TPSL_KINDS.includes(o.kind)) {
      const mark = ops.markPrice(o.symbol) ?? bad(TRADE_MSG.noPrice);
      checkTpsl(pos.side === 'long', mark, o.kind === 'limitTakeProfit' ? price : null, o.kind === 'limitStopLoss' ? price : null, rules);
    }
  }
  // An attached TP/SL must stay on the right side of the new reference price.
  if (o.tp !== null || o.sl !== null) checkTpsl(o.side === 'buy', o.kind === 'stopMarket' ? (trigger ?? price) : price, o.tp, o.sl, rules);
  return { rules, price, trigger, qty };
}

/**
 * Edits a pending order in place (same id): limit price, trigger price (untriggered stops), quantity.
 * The order's locked margin is released and the order works again as if just placed at the new
 * values (it may take at once; a post-only that would take is refused and nothing changes).
 */
export async function editOrder(ops: OrderOps, c: Ctx, userId: number, body: EditParsed): Promise<OrderRow> {
  const o = await findOwn(c, userId, body);
  const pos = editNeedsPosition(o) ? ((await openPositionOf(c, userId, o.symbol, o.contract)) ?? null) : null;
  const { rules, price, trigger, qty } = checkEdit(ops, o, body, pos);
  await releaseOrderMargin(c, o.user_id, o.contract, parseMinor(o.margin), o.symbol);
  await c.trx.updateTable('trade_orders').set({ price, qty, trigger_price: trigger, margin: '0', updated_at: c.now }).where('id', '=', o.id).execute();
  c.touched.orders.set(o.id, o.user_id);
  const edited = await reread(c, o.id);
  const resting = o.kind === 'limitOpen' || o.kind === 'limitClose' || (o.kind === 'stopLimit' && o.triggered_at !== null);
  return resting ? workLimit(c, ops, edited, rules, true) : edited;
}

async function ownPosition(c: Ctx, userId: number, positionId: string): Promise<PositionRow> {
  const pos = await c.trx.selectFrom('trade_positions').selectAll().where('id', '=', positionId).where('user_id', '=', userId).executeTakeFirst();
  if (!pos || pos.status !== 'open') return bad(TRADE_MSG.noPosition);
  return pos;
}

/**
 * Closes `qty` (default all) of a position: at the market (marketClose), or with `price` as a
 * reduce-only GTC limit (limitClose). Idempotent when a clientOrderId is given.
 */
export async function closePosition(
  ops: OrderOps,
  c: Ctx,
  userId: number,
  body: { positionId: string; qty?: number | undefined; price?: number | null | undefined; clientOrderId?: string | undefined },
): Promise<OrderRow> {
  if (body.clientOrderId !== undefined) {
    const known = await orderByClientId(c.trx, userId, body.clientOrderId);
    if (known) return known;
  }
  const pos = await ownPosition(c, userId, body.positionId);
  const rules = ops.rules(pos.symbol) ?? bad(TRADE_MSG.unknownSymbol);
  const qty = body.qty ?? unscaled(parseMinor(pos.qty), rules.qtyPrecision);
  const clientOrderId = body.clientOrderId ?? `close-${newId('O', c.now)}`;
  const limit = body.price ?? null;
  return placeOrder(ops, c, userId, {
    clientOrderId, symbol: pos.symbol, contract: pos.contract, kind: limit === null ? 'marketClose' : 'limitClose', side: pos.side === 'long' ? 'sell' : 'buy',
    qty, leverage: pos.leverage, price: limit, tp: null, sl: null, reduceOnly: true, postOnly: false, timeInForce: 'GTC', triggerPrice: null, triggerBy: 'last',
  });
}

/** Market-closes every open position of the user (optionally one symbol / contract), all or none. */
export async function closeAll(ops: OrderOps, c: Ctx, userId: number, filter: { symbol?: string | undefined; contract?: 'perp' | 'std' | undefined }): Promise<OrderRow[]> {
  let q = c.trx.selectFrom('trade_positions').select('id').where('user_id', '=', userId).where('status', '=', 'open');
  if (filter.symbol) q = q.where('symbol', '=', filter.symbol);
  if (filter.contract) q = q.where('contract', '=', filter.contract);
  const ids = await q.orderBy('opened_at').execute();
  if (ids.length === 0) bad(TRADE_MSG.noPositions);
  const out: OrderRow[] = [];
  for (const { id } of ids) out.push(await closePosition(ops, c, userId, { positionId: id }));
  return out;
}

/** Sets or clears the TP and SL of a position (each a pending reduce order for the whole size). */
export async function setTpsl(ops: OrderOps, c: Ctx, userId: number, body: { positionId: string; tp: number | null; sl: number | null }): Promise<PositionRow> {
  const pos = await ownPosition(c, userId, body.positionId);
  const rules = ops.rules(pos.symbol) ?? bad(TRADE_MSG.unknownSymbol);
  const mark = ops.markPrice(pos.symbol) ?? bad(TRADE_MSG.noPrice);
  checkTpsl(pos.side === 'long', mark, body.tp, body.sl, rules);
  await replaceTrigger(c, pos, rules, 'limitTakeProfit', body.tp);
  await replaceTrigger(c, pos, rules, 'limitStopLoss', body.sl);
  c.touched.positions.set(pos.id, pos.user_id);
  return pos;
}
