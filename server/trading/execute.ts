import { Code } from '../../src/protocol/envelope.ts';
import { insertRow } from '../db/compiledShape.ts';
import { netUnits } from '../../src/protocol/netting.ts';
import { TRADE_MSG } from '../../src/protocol/trading.ts';
import type { CancelReason } from '../../src/protocol/trading.ts';
import type { DepthSnapshot } from '../../src/protocol/market.ts';
import { parseMinor } from '../db/money.ts';
import { Rejection } from '../http/errors.ts';
import { availableOf } from '../wallet/wallet.ts';
import { bracketFor, entryPrice, makerRate, feeOf, initialMargin, notional, proRata, scaled, unscaled } from './formulas.ts';
import type { Rules } from './formulas.ts';
import { takeFromBook, wouldTake } from './matching.ts';
import type { Execution } from './matching.ts';
import { closePart, COIN, lockMargin, openPart, REDUCE_KINDS, releaseOrderMargin } from './settle.ts';
import type { Ctx, ExecutedFill } from './settle.ts';
import { newId, openPosition } from './store.ts';
import type { FillRow, OrderRow, PositionRow } from './store.ts';

/**
 * Executions with one-way netting (docs/TRADING.md "Netting"): an execution of an order first closes
 * what it can of an opposite position (closePart: margin unlock, PnL, closing fee), then opens or
 * increases its own side with the rest (openPart: margin, opening fee). Each part writes its own fill
 * row and ledger postings. Maker fills (a resting order the market reached) pay the maker rate, taking
 * fills the taker rate (openingFeeRatio / closingFeeRatio).
 */

/** What the caller of {@link executeFill} already knows. */
export interface FillAt {
  known?: PositionRow | null;
  unsaved?: boolean;
}

/** Prices and the book the order code reads from the market source. */
export interface MarketView {
  rules(symbol: string): Rules | undefined;
  lastPrice(symbol: string): number | undefined;
  markPrice(symbol: string): number | undefined;
  book(symbol: string): DepthSnapshot | undefined;
}

export const reject = (msg: string): never => {
  throw new Rejection(Code.badRequest, msg);
};

export function isReduceOnly(o: OrderRow): boolean {
  return o.reduce_only === 1 || REDUCE_KINDS.includes(o.kind);
}

export const qtyUnits = (o: OrderRow, rules: Rules): bigint => scaled(o.qty, rules.qtyPrecision);
export const executedUnits = (o: OrderRow, rules: Rules): bigint => scaled(o.executed_qty, rules.qtyPrecision);

/** The user's open position on a symbol and contract, read inside the transaction. */
export function openPositionOf(c: Ctx, userId: number, symbol: string, contract: 'perp' | 'std'): Promise<PositionRow | undefined> {
  return openPosition(c.trx, userId, symbol, contract);
}

async function fillRow(c: Ctx, o: OrderRow, rules: Rules, posId: string, qtyU: bigint, n: bigint, fee: bigint, realized: bigint, liquidity: 'maker' | 'taker'): Promise<void> {
  await insertRow(c.trx, 'trade_fills', {
    user_id: o.user_id, order_id: o.id, position_id: posId, symbol: o.symbol, contract: o.contract, kind: o.kind, side: o.side,
    price: entryPrice(rules, n, qtyU), qty: unscaled(qtyU, rules.qtyPrecision), fee: fee.toString(), realized_pnl: realized.toString(),
    created_at: c.now, liquidity,
  });
}

/**
 * How an execution of `o` splits against the user's position `pos` (one-way netting, pure; shared
 * with server/engine/apply.ts): the netted quantities, the exact notional of the whole and of each
 * part, the fee ratio of each part (maker or taker), and the part of a resting order's `lock` the
 * opening part uses (null when the order locked nothing). Null when netting refuses it (a
 * reduce-only order that would increase).
 */
export function splitExecution(o: OrderRow, rules: Rules, pos: PositionRow | null, exec: Execution, liquidity: 'maker' | 'taker', lock: bigint) {
  const net = netUnits(pos ? { side: pos.side, qty: parseMinor(pos.qty) } : null, o.side, exec.qtyU, isReduceOnly(o));
  if (net.kind === 'refused') return null;
  const total = net.closeQty + net.openQty;
  const n = proRata(exec.notional, total, exec.qtyU);
  const closeN = proRata(n, net.closeQty, total);
  const maker = liquidity === 'maker';
  return {
    net, total, n, closeN, openN: n - closeN,
    closeFeeRatio: maker ? makerRate(rules) : rules.closingFeeRatio,
    openFeeRatio: maker ? makerRate(rules) : rules.openingFeeRatio,
    fromLock: lock > 0n ? proRata(lock, net.openQty, exec.qtyU) : null,
  };
}

/**
 * The refusals of an opening part (pure; shared with server/engine/apply.ts): leverage above the
 * bracket of the resulting notional, or, when nothing was locked for it (`avail` given), a wallet
 * that cannot pay its initial margin and fee.
 */
export function checkOpening(o: OrderRow, rules: Rules, same: PositionRow | null, openN: bigint, feeRatio: number, avail: bigint | undefined): void {
  const bracket = bracketFor(rules, (same ? parseMinor(same.cost) : 0n) + openN);
  if (o.leverage > bracket.maxLeverage) reject(`${TRADE_MSG.leverageBracket}${bracket.maxLeverage}x`);
  if (avail !== undefined && avail < initialMargin(openN, o.leverage) + feeOf(openN, feeRatio)) reject(TRADE_MSG.insufficientBalance);
}

/**
 * Executes `exec` of order `o` against the user's position, netting one-way. `lock` is margin already
 * in escrow for exactly `exec.qtyU` (a resting order's), 0n when none: the part of it the opening part
 * does not use is released (CONTRACT_CANCEL). A reduce-only order is capped at the position and never
 * opens. Throws a Rejection (the caller's transaction rolls back) when the opening part cannot be paid
 * or its leverage exceeds the bracket of the resulting notional. Returns the quantity executed and the order row as updated.
 * `at.known`: the user's open position on the symbol as read earlier in this same transaction (saves a
 * read); `at.unsaved`: the order row is not in the database yet and is inserted with its result (a
 * market order at placement: one write instead of an insert and an update).
 */
export async function executeFill(
  c: Ctx, o: OrderRow, rules: Rules, exec: Execution, liquidity: 'maker' | 'taker', lock: bigint, at: FillAt = {},
): Promise<{ done: bigint; row: OrderRow }> {
  const nothing = async () => {
    if (at.unsaved) await insertRow(c.trx, 'trade_orders', o);
    return { done: 0n, row: o };
  };
  if (exec.qtyU <= 0n) return nothing();
  const pos = at.known !== undefined ? at.known : ((await openPositionOf(c, o.user_id, o.symbol, o.contract)) ?? null);
  const split = splitExecution(o, rules, pos, exec, liquidity, lock);
  if (!split) return nothing();
  const { net, total, n, closeN, openN, fromLock } = split;
  let fee = 0n;
  let realized = 0n;
  let finalPos = pos;
  if (net.closeQty > 0n && pos) {
    const r = await closePart(c, pos, rules, net.closeQty, closeN, split.closeFeeRatio, false, o.id);
    await fillRow(c, o, rules, pos.id, net.closeQty, closeN, r.fee, r.realized, liquidity);
    fee += r.fee;
    realized += r.realized;
  }
  if (net.openQty > 0n) {
    // The opening part is on the order's side: an increase of that position, or a new one (after a flip, a new row).
    const same = pos && net.kind === 'increase' ? pos : null;
    if (lock > 0n && fromLock !== null && fromLock < lock) await releaseOrderMargin(c, o.user_id, o.contract, lock - fromLock, o.symbol);
    const feeRatio = split.openFeeRatio;
    const avail = fromLock === null ? await availableOf(c.trx, o.user_id, o.contract, COIN) : undefined;
    checkOpening(o, rules, same, openN, feeRatio, avail);
    const opened = await openPart(c, o, rules, same, net.openQty, openN, feeRatio, fromLock, avail);
    await fillRow(c, o, rules, opened.pos.id, net.openQty, openN, opened.fee, 0n, liquidity);
    fee += opened.fee;
    finalPos = opened.pos;
    if (o.tp !== null) await replaceTrigger(c, opened.pos, rules, 'limitTakeProfit', o.tp);
    if (o.sl !== null) await replaceTrigger(c, opened.pos, rules, 'limitStopLoss', o.sl);
  } else if (lock > 0n) {
    await releaseOrderMargin(c, o.user_id, o.contract, lock, o.symbol);
  }
  c.touched.fills.push(executedFill(o, rules, pos, total, n));
  const set = executedOrder(o, rules, total, n, fee, realized, finalPos?.id ?? o.position_id, lock, c.now);
  if (at.unsaved) await insertRow(c.trx, 'trade_orders', { ...o, ...set });
  else await c.trx.updateTable('trade_orders').set(set).where('id', '=', o.id).execute();
  c.touched.orders.set(o.id, o.user_id);
  c.touched.symbols.add(o.symbol);
  // Nothing else in this function writes the order row: the merge is what the database now holds.
  return { done: total, row: { ...o, ...set } };
}

/**
 * The order row's new values after an execution of `total` units for the notional `n` with `fee`
 * and `realized` booked, its position `positionId`, and `lock` (a resting order's margin, now used
 * or released) (pure; shared with the in-memory engine, server/engine/apply.ts).
 */
export function executedOrder(o: OrderRow, rules: Rules, total: bigint, n: bigint, fee: bigint, realized: bigint, positionId: string | null, lock: bigint, now: number) {
  const executed = executedUnits(o, rules) + total;
  const execN = parseMinor(o.exec_notional) + n;
  const done = executed >= qtyUnits(o, rules);
  const avg = entryPrice(rules, execN, executed);
  return {
    executed_qty: unscaled(executed, rules.qtyPrecision),
    exec_notional: execN.toString(),
    avg_price: avg,
    price: o.kind === 'marketOpen' || o.kind === 'marketClose' || o.kind === 'stopMarket' ? avg : o.price,
    fee: (parseMinor(o.fee) + fee).toString(),
    realized_pnl: (parseMinor(o.realized_pnl) + realized).toString(),
    position_id: positionId,
    status: done ? 'filled' : o.status,
    margin: lock > 0n || done ? '0' : o.margin,
    updated_at: now,
  } satisfies Partial<OrderRow>;
}

/**
 * The rows of a liquidation of `pos` at `mark` (notional `n`) that closed `r.qtyU` (pure; shared
 * with server/engine/apply.ts): a filled marketClose order `id` and its 'liquidation' fill.
 */
/**
 * One execution of `total` units of order `o` for the notional `n` against the user's position
 * `pos` as it was before (null: none), as the fill listeners see it (copy trading mirrors it). Pure;
 * shared with the in-memory engine.
 */
export function executedFill(o: OrderRow, rules: Rules, pos: PositionRow | null, total: bigint, n: bigint): ExecutedFill {
  const beforeU = pos ? (pos.side === 'long' ? parseMinor(pos.qty) : -parseMinor(pos.qty)) : 0n;
  return {
    userId: o.user_id, orderId: o.id, symbol: o.symbol, contract: o.contract, side: o.side, qtyU: total, price: entryPrice(rules, n, total),
    beforeU, afterU: beforeU + (o.side === 'buy' ? total : -total), leverage: o.leverage, liquidation: false,
  };
}

export function liquidationRows(
  pos: PositionRow, rules: Rules, id: string, mark: number, n: bigint, r: { qtyU: bigint; fee: bigint; realized: bigint }, now: number,
): { order: OrderRow; fill: Omit<FillRow, 'id'>; executed: ExecutedFill } {
  const qty = Number(r.qtyU) / 10 ** rules.qtyPrecision;
  const side = pos.side === 'long' ? 'sell' : 'buy';
  return {
    executed: { userId: pos.user_id, orderId: id, symbol: pos.symbol, contract: pos.contract, side, qtyU: r.qtyU, price: mark, beforeU: pos.side === 'long' ? r.qtyU : -r.qtyU, afterU: 0n, leverage: pos.leverage, liquidation: true },
    order: newOrderRow({
      id, user_id: pos.user_id, client_order_id: `liquidation-${pos.id}`, symbol: pos.symbol, contract: pos.contract, kind: 'marketClose', side,
      price: mark, qty, leverage: pos.leverage, status: 'filled', executed_qty: qty, avg_price: mark, fee: r.fee.toString(),
      realized_pnl: r.realized.toString(), margin: '0', position_id: pos.id, reduce_only: 1, exec_notional: n.toString(), created_at: now, updated_at: now,
    }),
    fill: { user_id: pos.user_id, order_id: id, position_id: pos.id, symbol: pos.symbol, contract: pos.contract, kind: 'liquidation', side, price: mark, qty, fee: r.fee.toString(), realized_pnl: r.realized.toString(), created_at: now, liquidity: 'taker' },
  };
}

/** Ends a pending order without a fill of the rest: its locked margin goes back (CONTRACT_CANCEL). */
export async function cancelWith(c: Ctx, o: OrderRow, reason: CancelReason): Promise<void> {
  await releaseOrderMargin(c, o.user_id, o.contract, parseMinor(o.margin), o.symbol);
  await c.trx.updateTable('trade_orders').set({ status: 'canceled', margin: '0', cancel_reason: reason, updated_at: c.now }).where('id', '=', o.id).execute();
  c.touched.orders.set(o.id, o.user_id);
  if (o.position_id !== null) c.touched.positions.set(o.position_id, o.user_id);
}

export async function reread(c: Ctx, id: string): Promise<OrderRow> {
  return c.trx.selectFrom('trade_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A market execution (marketOpen, marketClose, a triggered stopMarket): takes from the book, then ends filled or canceled. */
export async function workMarket(c: Ctx, m: MarketView, o: OrderRow, rules: Rules, at: FillAt = {}): Promise<OrderRow> {
  const want = qtyUnits(o, rules) - executedUnits(o, rules);
  const exec = takeFromBook(rules, o.side, want, null, m.book(o.symbol), m.lastPrice(o.symbol));
  if (exec.qtyU === 0n) reject(TRADE_MSG.noPrice);
  const { done, row } = await executeFill(c, o, rules, exec, 'taker', 0n, at);
  if (done === want) return row;
  await cancelWith(c, row, isReduceOnly(o) ? 'reduceOnly' : 'ioc');
  return reread(c, o.id);
}

/**
 * A limit order working now (placement, a stop-limit's trigger, an edit): takes what crosses, then
 * by time in force: GTC rests the rest as maker (a non-reduce-only order locks its margin at the limit
 * price), IOC cancels the rest, FOK takes all or nothing. A post-only that would take is refused.
 * `placing`: refusals throw (the request fails, nothing is written); otherwise the order is canceled
 * with the reason.
 */
export async function workLimit(c: Ctx, m: MarketView, o: OrderRow, rules: Rules, placing: boolean): Promise<OrderRow> {
  const limitU = scaled(o.price, rules.pricePrecision);
  const book = m.book(o.symbol);
  const last = m.lastPrice(o.symbol);
  if (o.post_only === 1 && wouldTake(rules, o.side, limitU, book, last)) {
    if (placing) reject(TRADE_MSG.postOnlyWouldTake);
    await cancelWith(c, o, 'postOnly');
    return reread(c, o.id);
  }
  const want = qtyUnits(o, rules) - executedUnits(o, rules);
  const exec = takeFromBook(rules, o.side, want, limitU, book, last);
  if (o.time_in_force === 'FOK' && exec.qtyU < want) {
    await cancelWith(c, o, 'fok');
    return reread(c, o.id);
  }
  if (exec.qtyU > 0n) {
    const { done } = await executeFill(c, o, rules, exec, 'taker', 0n);
    if (done < exec.qtyU) {
      // A reduce-only order met a smaller position: the rest can never execute.
      await cancelWith(c, await reread(c, o.id), 'reduceOnly');
      return reread(c, o.id);
    }
  }
  const now = await reread(c, o.id);
  if (now.status !== 'pending') return now;
  if (o.time_in_force !== 'GTC') {
    await cancelWith(c, now, 'ioc');
    return reread(c, o.id);
  }
  if (!isReduceOnly(o)) {
    const rest = qtyUnits(now, rules) - executedUnits(now, rules);
    const lock = initialMargin(notional(rules, limitU, rest), o.leverage);
    const reserve = feeOf(notional(rules, limitU, rest), makerRate(rules));
    if ((await availableOf(c.trx, o.user_id, o.contract, COIN)) < lock + reserve) {
      if (placing) reject(TRADE_MSG.insufficientBalance);
      await cancelWith(c, now, 'insufficientBalance');
      return reread(c, o.id);
    }
    await lockMargin(c, o.user_id, o.contract, lock, o.symbol);
    await c.trx.updateTable('trade_orders').set({ margin: lock.toString() }).where('id', '=', o.id).execute();
  }
  c.touched.orders.set(o.id, o.user_id);
  return reread(c, o.id);
}

/** Replaces the pending TP (or SL) order of a position by one for its whole size at `price` (null: just cancel). */
export async function replaceTrigger(c: Ctx, pos: PositionRow, rules: Rules, kind: 'limitTakeProfit' | 'limitStopLoss', price: number | null): Promise<void> {
  const old = await c.trx
    .updateTable('trade_orders')
    .set({ status: 'canceled', cancel_reason: 'user', updated_at: c.now })
    .where('position_id', '=', pos.id)
    .where('kind', '=', kind)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  for (const r of old) c.touched.orders.set(r.id, pos.user_id);
  if (price === null) return;
  const id = newId('O', c.now);
  await c.trx
    .insertInto('trade_orders')
    .values({
      ...orderDefaults,
      id, user_id: pos.user_id, client_order_id: `${kind === 'limitTakeProfit' ? 'tp' : 'sl'}-${id}`, symbol: pos.symbol, contract: pos.contract, kind,
      side: pos.side === 'long' ? 'sell' : 'buy', price, qty: unscaled(parseMinor(pos.qty), rules.qtyPrecision), leverage: pos.leverage,
      position_id: pos.id, reduce_only: 1, created_at: c.now, updated_at: c.now,
    })
    .execute();
  c.touched.orders.set(id, pos.user_id);
}

/** What a new order row must be given; the rest defaults to {@link orderDefaults}. */
export type NewOrder = Pick<OrderRow, 'id' | 'user_id' | 'client_order_id' | 'symbol' | 'contract' | 'kind' | 'side' | 'price' | 'qty' | 'leverage' | 'position_id' | 'created_at' | 'updated_at'> &
  Partial<Pick<OrderRow, keyof typeof orderDefaults>>;

/**
 * A new order row: `p` over the column defaults, written as one object literal (the spread
 * `{ ...orderDefaults, …30 keys }` it replaces cost many times more in V8: the in-memory engine
 * builds one per placement).
 */
export function newOrderRow(p: NewOrder): OrderRow {
  const d = orderDefaults;
  return {
    id: p.id, user_id: p.user_id, client_order_id: p.client_order_id, symbol: p.symbol, contract: p.contract, kind: p.kind, side: p.side,
    price: p.price, qty: p.qty, leverage: p.leverage, status: p.status ?? d.status, executed_qty: p.executed_qty ?? d.executed_qty,
    avg_price: p.avg_price ?? d.avg_price, fee: p.fee ?? d.fee, realized_pnl: p.realized_pnl ?? d.realized_pnl, margin: p.margin ?? d.margin,
    position_id: p.position_id, tp: p.tp ?? d.tp, sl: p.sl ?? d.sl, reduce_only: p.reduce_only ?? d.reduce_only, post_only: p.post_only ?? d.post_only,
    time_in_force: p.time_in_force ?? d.time_in_force, trigger_price: p.trigger_price ?? d.trigger_price, trigger_by: p.trigger_by ?? d.trigger_by,
    triggered_at: p.triggered_at ?? d.triggered_at, cancel_reason: p.cancel_reason ?? d.cancel_reason, exec_notional: p.exec_notional ?? d.exec_notional,
    created_at: p.created_at, updated_at: p.updated_at,
  };
}

/** Column defaults of a new order row (pending, nothing executed, no options). */
export const orderDefaults = {
  status: 'pending',
  executed_qty: 0,
  avg_price: 0,
  fee: '0',
  realized_pnl: '0',
  margin: '0',
  tp: null,
  sl: null,
  reduce_only: 0,
  post_only: 0,
  time_in_force: 'GTC',
  trigger_price: null,
  trigger_by: 'last',
  triggered_at: null,
  cancel_reason: null,
  exec_notional: '0',
} as const satisfies Partial<OrderRow>;
