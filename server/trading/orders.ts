import { Code } from '../../src/protocol/envelope.ts';
import { TRADE_MSG } from '../../src/protocol/trading.ts';
import type { PlaceOrderParsed } from '../../src/protocol/trading.ts';
import { parseMinor } from '../db/money.ts';
import { Rejection } from '../http/errors.ts';
import { availableOf } from '../wallet/wallet.ts';
import { feeOf, initialMargin, notional, onStep, scaled } from './formulas.ts';
import type { Rules } from './formulas.ts';
import { COIN, fillOpen, lockMargin, releaseOrderMargin } from './settle.ts';
import type { Ctx } from './settle.ts';
import { newId } from './store.ts';
import type { OrderRow, PositionRow } from './store.ts';

/** What the order operations need from the engine (prices and the reduce fill). */
export interface OrderOps {
  rules(symbol: string): Rules | undefined;
  lastPrice(symbol: string): number | undefined;
  markPrice(symbol: string): number | undefined;
  marketPrice(symbol: string, side: 'buy' | 'sell'): number | undefined;
  executeReduce(c: Ctx, o: OrderRow, pos: PositionRow, rules: Rules, price: number): Promise<void>;
}

const bad = (msg: string): never => {
  throw new Rejection(Code.badRequest, msg);
};

function parsePrice(v: number | string | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : v.trim() === '' ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Checks quantity and leverage against the instrument rules (SPEC §5 messages). */
export function checkQty(rules: Rules, qty: number): void {
  if (qty < rules.minOrderQuantity) bad(`${TRADE_MSG.minOrderQuantity}${rules.minOrderQuantity}`);
  if (qty > rules.maxOrderQuantity) bad(`${TRADE_MSG.maxOrderQuantity}${rules.maxOrderQuantity}`);
  if (!onStep(qty, rules.qtyStep, rules.qtyPrecision) || scaled(qty, rules.qtyPrecision + 4) % 10_000n !== 0n) bad(`${TRADE_MSG.qtyStep}${rules.qtyStep}`);
}

function checkPriceStep(rules: Rules, price: number): void {
  if (!onStep(price, rules.tickSize, rules.pricePrecision) || scaled(price, rules.pricePrecision + 4) % 10_000n !== 0n) bad(`${TRADE_MSG.priceStep}${rules.tickSize}`);
}

/** TP above / SL below the reference for a long, the reverse for a short. */
function checkTpsl(long: boolean, ref: number, tp: number | null, sl: number | null, rules: Rules): void {
  if (tp !== null) {
    checkPriceStep(rules, tp);
    if (long ? tp <= ref : tp >= ref) bad(TRADE_MSG.tpInvalid);
  }
  if (sl !== null) {
    checkPriceStep(rules, sl);
    if (long ? sl >= ref : sl <= ref) bad(TRADE_MSG.slInvalid);
  }
}

function baseRow(userId: number, b: PlaceOrderParsed, now: number, price: number, positionId: string | null): OrderRow {
  return {
    id: newId('O', now),
    user_id: userId,
    client_order_id: b.clientOrderId,
    symbol: b.symbol,
    contract: b.contract,
    kind: b.kind,
    side: b.side,
    price,
    qty: b.qty,
    leverage: b.leverage,
    status: 'pending',
    executed_qty: 0,
    avg_price: 0,
    fee: '0',
    realized_pnl: '0',
    margin: '0',
    position_id: positionId,
    tp: b.tp,
    sl: b.sl,
    created_at: now,
    updated_at: now,
  };
}

async function reread(c: Ctx, id: string): Promise<OrderRow> {
  return c.trx.selectFrom('trade_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function openPos(c: Ctx, userId: number, symbol: string, contract: 'perp' | 'std'): Promise<PositionRow | undefined> {
  return c.trx
    .selectFrom('trade_positions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('symbol', '=', symbol)
    .where('contract', '=', contract)
    .where('status', '=', 'open')
    .executeTakeFirst();
}

/** Replaces the pending TP (or SL) order of a position by one for its whole size at `price` (null: just cancel). */
async function replaceTrigger(c: Ctx, pos: PositionRow, rules: Rules, kind: 'limitTakeProfit' | 'limitStopLoss', price: number | null): Promise<void> {
  const old = await c.trx
    .updateTable('trade_orders')
    .set({ status: 'canceled', updated_at: c.now })
    .where('position_id', '=', pos.id)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  for (const r of old) c.touched.orders.add(r.id);
  if (price === null) return;
  const id = newId('O', c.now);
  await c.trx
    .insertInto('trade_orders')
    .values({
      id, user_id: pos.user_id, client_order_id: `${kind === 'limitTakeProfit' ? 'tp' : 'sl'}-${id}`, symbol: pos.symbol, contract: pos.contract, kind,
      side: pos.side === 'long' ? 'sell' : 'buy', price, qty: Number(parseMinor(pos.qty)) / 10 ** rules.qtyPrecision, leverage: pos.leverage,
      status: 'pending', executed_qty: 0, avg_price: 0, fee: '0', realized_pnl: '0', margin: '0', position_id: pos.id, tp: null, sl: null,
      created_at: c.now, updated_at: c.now,
    })
    .execute();
  c.touched.orders.add(id);
}

/**
 * Places an order (see placeOrderBody in src/protocol/trading.ts). Idempotent by clientOrderId:
 * a known id answers the stored order, unchanged, whatever happened since.
 */
export async function placeOrder(ops: OrderOps, c: Ctx, userId: number, b: PlaceOrderParsed): Promise<OrderRow> {
  const known = await c.trx.selectFrom('trade_orders').selectAll().where('user_id', '=', userId).where('client_order_id', '=', b.clientOrderId).executeTakeFirst();
  if (known) {
    if (known.symbol !== b.symbol || known.kind !== b.kind || known.side !== b.side || known.qty !== b.qty) bad(TRADE_MSG.clientOrderIdConflict);
    return known;
  }
  const rules = ops.rules(b.symbol) ?? bad(TRADE_MSG.unknownSymbol);
  const info = rules as Rules & { kinds?: readonly string[] };
  if (info.kinds && !info.kinds.includes(b.contract)) bad(TRADE_MSG.contractNotListed);
  const isLimit = b.kind === 'limitOpen' || b.kind === 'limitTakeProfit' || b.kind === 'limitStopLoss';
  const limitPrice = isLimit ? (parsePrice(b.price) ?? bad(TRADE_MSG.limitPriceRequired)) : null;
  if (limitPrice !== null) checkPriceStep(rules, limitPrice);
  checkQty(rules, b.qty);
  if (b.leverage < rules.minLever || b.leverage > rules.maxLever) bad(`${TRADE_MSG.leverageRange}${rules.minLever}-${rules.maxLever}`);
  const wallet = b.contract;
  const pos = await openPos(c, userId, b.symbol, b.contract);

  if (b.kind === 'limitOpen' || b.kind === 'marketOpen') {
    const long = b.side === 'buy';
    const oppositePending = await c.trx
      .selectFrom('trade_orders')
      .select('id')
      .where('user_id', '=', userId)
      .where('symbol', '=', b.symbol)
      .where('contract', '=', b.contract)
      .where('kind', '=', 'limitOpen')
      .where('status', '=', 'pending')
      .where('side', '!=', b.side)
      .executeTakeFirst();
    if ((pos && pos.side !== (long ? 'long' : 'short')) || oppositePending) bad(TRADE_MSG.oppositeSide);
    const price = limitPrice ?? ops.marketPrice(b.symbol, b.side) ?? bad(TRADE_MSG.noPrice);
    checkTpsl(long, price, b.tp, b.sl, rules);
    const n = notional(rules, scaled(price, rules.pricePrecision), scaled(b.qty, rules.qtyPrecision));
    const margin = initialMargin(n, b.leverage);
    const fee = feeOf(n, rules.openingFeeRatio);
    if ((await availableOf(c.trx, userId, wallet, COIN)) < margin + fee) bad(TRADE_MSG.insufficientBalance);
    const row = baseRow(userId, b, c.now, b.kind === 'marketOpen' ? 0 : price, null);
    await c.trx.insertInto('trade_orders').values(row).execute();
    c.touched.orders.add(row.id);
    c.touched.symbols.add(b.symbol);
    const last = ops.lastPrice(b.symbol);
    const crossed = b.kind === 'marketOpen' || (last !== undefined && (long ? last <= price : last >= price));
    if (!crossed) {
      await lockMargin(c, userId, wallet, margin, b.symbol);
      await c.trx.updateTable('trade_orders').set({ margin: margin.toString() }).where('id', '=', row.id).execute();
      return reread(c, row.id);
    }
    const filled = await fillOpen(c, row, rules, price, 0n);
    if (b.tp !== null) await replaceTrigger(c, filled, rules, 'limitTakeProfit', b.tp);
    if (b.sl !== null) await replaceTrigger(c, filled, rules, 'limitStopLoss', b.sl);
    return reread(c, row.id);
  }

  // Reduce kinds: limitTakeProfit, limitStopLoss, marketClose.
  if (!pos) return bad(TRADE_MSG.noPosition);
  const closingSide = pos.side === 'long' ? 'sell' : 'buy';
  if (b.side !== closingSide) bad(TRADE_MSG.closeSide);
  if (scaled(b.qty, rules.qtyPrecision) > parseMinor(pos.qty)) bad(TRADE_MSG.closeQtyTooLarge);
  if (b.kind === 'marketClose') {
    const price = ops.marketPrice(b.symbol, b.side) ?? bad(TRADE_MSG.noPrice);
    const row = baseRow(userId, { ...b, tp: null, sl: null }, c.now, 0, pos.id);
    await c.trx.insertInto('trade_orders').values(row).execute();
    await ops.executeReduce(c, row, pos, rules, price);
    return reread(c, row.id);
  }
  const mark = ops.markPrice(b.symbol) ?? bad(TRADE_MSG.noPrice);
  const long = pos.side === 'long';
  if (b.kind === 'limitTakeProfit') checkTpsl(long, mark, limitPrice, null, rules);
  else checkTpsl(long, mark, null, limitPrice, rules);
  const row = baseRow(userId, { ...b, tp: null, sl: null }, c.now, limitPrice ?? 0, pos.id);
  await c.trx.insertInto('trade_orders').values(row).execute();
  c.touched.orders.add(row.id);
  c.touched.positions.add(pos.id);
  return row;
}

/** Cancels a pending order; an open order's locked margin goes back to the wallet (CONTRACT_CANCEL). */
export async function cancelOrder(_ops: OrderOps, c: Ctx, userId: number, by: { orderId?: string | undefined; clientOrderId?: string | undefined }): Promise<OrderRow> {
  let q = c.trx.selectFrom('trade_orders').selectAll().where('user_id', '=', userId);
  if (by.orderId !== undefined) q = q.where('id', '=', by.orderId);
  if (by.clientOrderId !== undefined) q = q.where('client_order_id', '=', by.clientOrderId);
  const o = (await q.executeTakeFirst()) ?? bad(TRADE_MSG.orderNotFound);
  if (o.status !== 'pending') bad(TRADE_MSG.orderNotPending);
  await releaseOrderMargin(c, userId, o.contract, parseMinor(o.margin), o.symbol);
  await c.trx.updateTable('trade_orders').set({ status: 'canceled', margin: '0', updated_at: c.now }).where('id', '=', o.id).execute();
  c.touched.orders.add(o.id);
  if (o.position_id !== null) c.touched.positions.add(o.position_id);
  return reread(c, o.id);
}

async function ownPosition(c: Ctx, userId: number, positionId: string): Promise<PositionRow> {
  const pos = await c.trx.selectFrom('trade_positions').selectAll().where('id', '=', positionId).where('user_id', '=', userId).executeTakeFirst();
  if (!pos || pos.status !== 'open') return bad(TRADE_MSG.noPosition);
  return pos;
}

/** Market-closes `qty` (default all) of a position: a marketClose order, idempotent when a clientOrderId is given. */
export async function closePosition(ops: OrderOps, c: Ctx, userId: number, body: { positionId: string; qty?: number | undefined; clientOrderId?: string | undefined }): Promise<OrderRow> {
  if (body.clientOrderId !== undefined) {
    const known = await c.trx.selectFrom('trade_orders').selectAll().where('user_id', '=', userId).where('client_order_id', '=', body.clientOrderId).executeTakeFirst();
    if (known) return known;
  }
  const pos = await ownPosition(c, userId, body.positionId);
  const rules = ops.rules(pos.symbol) ?? bad(TRADE_MSG.unknownSymbol);
  const qty = body.qty ?? Number(parseMinor(pos.qty)) / 10 ** rules.qtyPrecision;
  const clientOrderId = body.clientOrderId ?? `close-${newId('O', c.now)}`;
  return placeOrder(ops, c, userId, {
    clientOrderId, symbol: pos.symbol, contract: pos.contract, kind: 'marketClose', side: pos.side === 'long' ? 'sell' : 'buy',
    qty, leverage: pos.leverage, price: null, tp: null, sl: null,
  });
}

/** Sets or clears the TP and SL of a position (each a pending reduce order for the whole size). */
export async function setTpsl(ops: OrderOps, c: Ctx, userId: number, body: { positionId: string; tp: number | null; sl: number | null }): Promise<PositionRow> {
  const pos = await ownPosition(c, userId, body.positionId);
  const rules = ops.rules(pos.symbol) ?? bad(TRADE_MSG.unknownSymbol);
  const mark = ops.markPrice(pos.symbol) ?? bad(TRADE_MSG.noPrice);
  checkTpsl(pos.side === 'long', mark, body.tp, body.sl, rules);
  await replaceTrigger(c, pos, rules, 'limitTakeProfit', body.tp);
  await replaceTrigger(c, pos, rules, 'limitStopLoss', body.sl);
  c.touched.positions.add(pos.id);
  return pos;
}
