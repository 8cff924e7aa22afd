import type { Candle, KlineInterval, MarketFrame } from '../protocol/market.ts';

/**
 * Candles of one symbol and interval: REST history merged with live kline frames, oldest first.
 * A live candle with the same open time as the last one replaces it (the forming candle updates),
 * a newer one is appended (missed candles are not invented: a gap stays a gap and the chart shows
 * it), an older one is ignored. At most `limit` candles, the oldest dropped first.
 */

export const DEFAULT_CANDLES_LIMIT = 1500;

export interface CandlesState {
  readonly symbol: string;
  readonly interval: KlineInterval;
  readonly limit: number;
  readonly items: readonly Candle[];
  /** Whether the last candle is final (kline `closed`); history candles count as closed. */
  readonly lastClosed: boolean;
}

function normalise(history: readonly Candle[], limit: number): Candle[] {
  const byTime = new Map<number, Candle>();
  for (const c of history) byTime.set(c.t, c); // later entries win
  const items = [...byTime.values()].sort((a, b) => a.t - b.t);
  return items.length > limit ? items.slice(items.length - limit) : items;
}

/** State seeded with REST history (any order, duplicates by open time: the later one wins). */
export function initialCandles(symbol: string, interval: KlineInterval, history: readonly Candle[] = [], limit = DEFAULT_CANDLES_LIMIT): CandlesState {
  const l = Math.max(1, Math.floor(limit));
  return { symbol, interval, limit: l, items: normalise(history, l), lastClosed: true };
}

/** Applies kline frames of the symbol and interval. */
export function reduceCandles(state: CandlesState, frame: MarketFrame): CandlesState {
  if (frame.type !== 'kline' || frame.symbol !== state.symbol || frame.interval !== state.interval) return state;
  const c = frame.candle;
  const last = state.items[state.items.length - 1];
  if (last && c.t < last.t) return state;
  if (last && c.t === last.t) {
    const items = state.items.slice(0, -1);
    items.push(c);
    return { ...state, items, lastClosed: frame.closed };
  }
  const items = state.items.length >= state.limit ? state.items.slice(state.items.length - state.limit + 1) : state.items.slice();
  items.push(c);
  return { ...state, items, lastClosed: frame.closed };
}

/**
 * Merges a history refetch (after a reconnect) into the state: history fills gaps and replaces
 * candles with the same open time, except that live candles newer than the history are kept.
 */
export function mergeCandleHistory(state: CandlesState, history: readonly Candle[]): CandlesState {
  const lastHistory = history.reduce((m, c) => Math.max(m, c.t), -Infinity);
  const newerLive = state.items.filter((c) => c.t > lastHistory);
  const items = normalise([...state.items.filter((c) => c.t <= lastHistory), ...history, ...newerLive], state.limit);
  return { ...state, items, lastClosed: newerLive.length > 0 ? state.lastClosed : true };
}
