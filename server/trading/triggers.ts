import { TRADE_MSG } from '../../src/protocol/trading.ts';
import { parseMinor } from '../db/money.ts';
import { notional, scaled } from './formulas.ts';
import type { Rules } from './formulas.ts';
import { cancelWith, executedUnits, executeFill, qtyUnits, reread, workLimit, workMarket } from './execute.ts';
import type { MarketView } from './execute.ts';
import type { Ctx } from './settle.ts';
import type { OrderRow } from './store.ts';

/**
 * What the market does to pending orders (run by the engine on each burst of frames, one
 * transaction per order):
 * - `trigger`: a stop's watched price (last or mark) reached its trigger: a stop-market executes as a
 *   market order, a stop-limit works as a limit order from then on;
 * - `fill`: the last price crossed a resting limit (limitOpen, limitClose, a triggered stopLimit): it
 *   fills at its limit price as maker;
 * - `tpsl`: the mark reached a position's TP / SL: it closes at its price as taker.
 */
export type Step = 'trigger' | 'fill' | 'tpsl';

/** Which step, if any, the prices make due for `o` (pure). */
export function dueStep(o: OrderRow, last: number, mark: number): Step | null {
  if (o.status !== 'pending') return null;
  if ((o.kind === 'stopMarket' || o.kind === 'stopLimit') && o.triggered_at === null) {
    const ref = o.trigger_by === 'mark' ? mark : last;
    const t = o.trigger_price ?? 0;
    return (o.side === 'buy' ? ref >= t : ref <= t) ? 'trigger' : null;
  }
  if (o.kind === 'limitOpen' || o.kind === 'limitClose' || o.kind === 'stopLimit') {
    return (o.side === 'buy' ? last <= o.price : last >= o.price) ? 'fill' : null;
  }
  if (o.kind === 'limitTakeProfit' || o.kind === 'limitStopLoss') {
    const closesLong = o.side === 'sell';
    const up = closesLong === (o.kind === 'limitTakeProfit');
    return (up ? mark >= o.price : mark <= o.price) ? 'tpsl' : null;
  }
  return null;
}

/** Carries out `step` for order `id` (re-read inside the transaction: it may have changed since). */
export async function actOn(m: MarketView, c: Ctx, id: string, rules: Rules, step: Step): Promise<void> {
  const o = await reread(c, id);
  if (o.status !== 'pending') return;
  if (step === 'trigger') {
    await c.trx.updateTable('trade_orders').set({ triggered_at: c.now, updated_at: c.now }).where('id', '=', id).execute();
    c.touched.orders.set(id, o.user_id);
    const armed = await reread(c, id);
    if (armed.kind === 'stopMarket') await workMarket(c, m, armed, rules);
    else await workLimit(c, m, armed, rules, false);
    return;
  }
  const priceU = scaled(o.price, rules.pricePrecision);
  let want = qtyUnits(o, rules) - executedUnits(o, rules);
  if (step === 'tpsl') {
    const pos = o.position_id === null ? undefined : await c.trx.selectFrom('trade_positions').select(['qty', 'status']).where('id', '=', o.position_id).executeTakeFirst();
    if (!pos || pos.status !== 'open') return cancelWith(c, o, 'positionClosed');
    const pq = parseMinor(pos.qty);
    if (pq < want) want = pq;
  }
  const liquidity = step === 'fill' ? 'maker' : 'taker';
  const { done } = await executeFill(c, o, rules, { qtyU: want, notional: notional(rules, priceU, want) }, liquidity, parseMinor(o.margin));
  const after = await reread(c, id);
  if (after.status !== 'pending') return;
  // A TP/SL larger than what was left of the position is done once it closed it; a reduce-only
  // limit that met a smaller (or no) position cannot execute the rest.
  if (step === 'tpsl' && done > 0n) {
    await c.trx.updateTable('trade_orders').set({ status: 'filled', updated_at: c.now }).where('id', '=', id).execute();
    return;
  }
  await cancelWith(c, after, 'reduceOnly');
}

/** Cancels a due order the account could not carry (a Rejection inside its transaction), with the reason. */
export async function cancelRefused(c: Ctx, id: string, msg: string): Promise<void> {
  const o = await reread(c, id);
  if (o.status !== 'pending') return;
  await cancelWith(c, o, msg === TRADE_MSG.insufficientBalance ? 'insufficientBalance' : 'rejected');
}
