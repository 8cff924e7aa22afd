import type { Order, OrderKind, TriggerBy } from './trading.ts';

/**
 * How an order reads in a list (issue 26, Major 2): its trigger (conditional kinds), the price it
 * executes at (null: at the market), and what the user may still edit. One reading for the trade
 * screen's tabs and /my/order/futures, following the engine (server/trading/triggers.ts,
 * server/trading/orders.ts `editOrder`).
 */

/** The conditional kinds: they wait for a watched price before they work. */
export const STOP_KINDS: readonly OrderKind[] = ['stopMarket', 'stopLimit'];
export const TPSL_KINDS: readonly OrderKind[] = ['limitTakeProfit', 'limitStopLoss'];

export interface OrderTrigger {
  price: number;
  /** The watched price: stops watch `triggerBy` (last by default), TP / SL orders the mark. */
  by: TriggerBy;
  /** Reached already (a triggered stop-limit now rests at its price). */
  triggered: boolean;
}

/** The trigger of a conditional order; null for the other kinds (or a stop from a log without one). */
export function orderTrigger(o: Pick<Order, 'kind' | 'price' | 'triggerPrice' | 'triggerBy' | 'triggered'>): OrderTrigger | null {
  if (STOP_KINDS.includes(o.kind)) {
    if (typeof o.triggerPrice !== 'number' || !(o.triggerPrice > 0)) return null;
    return { price: o.triggerPrice, by: o.triggerBy ?? 'last', triggered: o.triggered === true };
  }
  // A TP / SL order's price is its trigger, watched on the mark; it then closes as taker at that price.
  if (TPSL_KINDS.includes(o.kind)) return { price: o.price, by: 'mark', triggered: false };
  return null;
}

/** The limit price the order executes at, or null when it executes at the market (market kinds, stop-market). */
export function orderLimitPrice(o: Pick<Order, 'kind' | 'price'>): number | null {
  if (o.kind === 'marketOpen' || o.kind === 'marketClose' || o.kind === 'stopMarket') return null;
  return o.price;
}

/** Which fields of an order can still be edited in place (null: none, the order cannot be edited). */
export interface OrderEdits {
  price: boolean;
  trigger: boolean;
  qty: boolean;
}

/**
 * What POST /trade/order/edit accepts for this order: pending limit kinds (their price and size),
 * stop-market (trigger and size, until triggered) and stop-limit (price, size, and the trigger
 * until triggered). A TP / SL order's price is its trigger.
 */
export function orderEdits(o: Pick<Order, 'kind' | 'status' | 'triggered'>): OrderEdits | null {
  if (o.status !== 'pending') return null;
  switch (o.kind) {
    case 'limitOpen':
    case 'limitClose':
    case 'limitTakeProfit':
    case 'limitStopLoss':
      return { price: true, trigger: false, qty: true };
    case 'stopLimit':
      return { price: true, trigger: o.triggered !== true, qty: true };
    case 'stopMarket':
      return o.triggered === true ? null : { price: false, trigger: true, qty: true };
    case 'marketOpen':
    case 'marketClose':
      return null;
  }
}
