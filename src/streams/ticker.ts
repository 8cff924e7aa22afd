import type { MarketFrame, Ticker } from '../protocol/market.ts';

/**
 * Ticker streams: one symbol's 24 h ticker and the all-market map (market list, hot coins, top
 * gainers). Pure reducers; a ticker older than the one held (smaller ts) is ignored, so a late
 * 'tickers' batch cannot roll a fresher single 'ticker' frame back.
 */

export interface TickerState {
  readonly symbol: string;
  readonly ticker: Ticker | null;
}

export function initialTicker(symbol: string): TickerState {
  return { symbol, ticker: null };
}

function stripType(frame: Ticker & { type?: string }): Ticker {
  const { type: _type, ...ticker } = frame;
  return ticker;
}

/** Applies 'ticker' frames for the symbol and the symbol's entry of 'tickers' frames. */
export function reduceTicker(state: TickerState, frame: MarketFrame): TickerState {
  let next: Ticker | undefined;
  if (frame.type === 'ticker' && frame.symbol === state.symbol) next = stripType(frame);
  else if (frame.type === 'tickers') {
    // A batch may carry the symbol more than once: the newest (last on ties) wins, as in the market map.
    for (const t of frame.items) if (t.symbol === state.symbol && (!next || t.ts >= next.ts)) next = t;
  }
  if (!next || (state.ticker && next.ts < state.ticker.ts)) return state;
  return { ...state, ticker: next };
}

export interface MarketState {
  /** Latest ticker per symbol. Key order is insertion order; selectors sort explicitly. */
  readonly items: Readonly<Record<string, Ticker>>;
  readonly version: number;
}

export function initialMarket(): MarketState {
  return { items: {}, version: 0 };
}

/** Merges 'tickers' batches and single 'ticker' frames into the market map (newer ts wins). */
export function reduceMarket(state: MarketState, frame: MarketFrame): MarketState {
  const incoming = frame.type === 'tickers' ? frame.items : frame.type === 'ticker' ? [stripType(frame)] : null;
  if (!incoming || incoming.length === 0) return state;
  let items: Record<string, Ticker> | null = null;
  for (const t of incoming) {
    const cur = (items ?? state.items)[t.symbol];
    if (cur && t.ts < cur.ts) continue;
    items ??= { ...state.items };
    items[t.symbol] = t;
  }
  return items ? { items, version: state.version + 1 } : state;
}

const sortedCache = new WeakMap<MarketState, Map<string, readonly Ticker[]>>();

function sorted(state: MarketState, key: string, compare: (a: Ticker, b: Ticker) => number): readonly Ticker[] {
  let byKey = sortedCache.get(state);
  if (!byKey) {
    byKey = new Map();
    sortedCache.set(state, byKey);
  }
  const hit = byKey.get(key);
  if (hit) return hit;
  const list = Object.values(state.items).sort(compare);
  byKey.set(key, list);
  return list;
}

/** Biggest 24 h change first (ties by symbol), at most n. Memoised per state. */
export function selectTopGainers(state: MarketState, n: number): readonly Ticker[] {
  return sorted(state, 'gainers', (a, b) => b.changePct - a.changePct || a.symbol.localeCompare(b.symbol)).slice(0, n);
}

/** Biggest 24 h quote volume first (ties by symbol), at most n. Memoised per state. */
export function selectTopVolume(state: MarketState, n: number): readonly Ticker[] {
  return sorted(state, 'volume', (a, b) => b.quoteVolume - a.quoteVolume || a.symbol.localeCompare(b.symbol)).slice(0, n);
}
