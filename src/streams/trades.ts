import type { MarketFrame, Trade } from '../protocol/market.ts';

/**
 * Latest trades of one symbol: newest first (by trade id, which the exchange increases), at most
 * `limit`, each id at most once. A trade older than the oldest kept one when the list is full is
 * dropped; a late trade that still fits is inserted in id order.
 */

export const DEFAULT_TRADES_LIMIT = 50;

export interface TradesState {
  readonly symbol: string;
  readonly limit: number;
  readonly items: readonly Trade[];
}

export function initialTrades(symbol: string, limit = DEFAULT_TRADES_LIMIT): TradesState {
  return { symbol, limit: Math.max(1, Math.floor(limit)), items: [] };
}

function insert(items: readonly Trade[], trade: Trade, limit: number): readonly Trade[] | null {
  // Newest first: find the first item with a smaller id.
  let at = 0;
  while (at < items.length && (items[at] as Trade).id > trade.id) at++;
  if (at < items.length && (items[at] as Trade).id === trade.id) return null; // duplicate
  if (at >= limit) return null; // older than everything kept
  const next = items.slice(0, at);
  next.push(trade);
  for (let i = at; i < items.length && next.length < limit; i++) next.push(items[i] as Trade);
  return next;
}

/** Applies 'trade' frames of the symbol. */
export function reduceTrades(state: TradesState, frame: MarketFrame): TradesState {
  if (frame.type !== 'trade' || frame.symbol !== state.symbol) return state;
  const items = insert(state.items, { id: frame.id, price: frame.price, qty: frame.qty, side: frame.side, ts: frame.ts }, state.limit);
  return items ? { ...state, items } : state;
}

/** Merges REST history (any order) into the list with the same rules as live frames. */
export function mergeTrades(state: TradesState, trades: readonly Trade[]): TradesState {
  let items = state.items;
  for (const t of trades) items = insert(items, t, state.limit) ?? items;
  return items === state.items ? state : { ...state, items };
}
