import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { tickersFrame, tickerFrame, type Candle, type SymbolInfo, type Ticker, type TickerFrame, type TickersFrame } from '../../protocol/market.ts';
import { initialMarket, reduceMarket, type MarketState } from '../../streams/ticker.ts';
import { RECONNECT_DELAY_MS } from '../../protocol/market.ts';
import { useApi, useMarketFrames, useMarketTopics } from '../app/AppCoreProvider.tsx';

/** How many recent last prices a sparkline keeps per symbol. */
export const SPARK_POINTS = 40;

/** The whole-market view the Home and Market screens render. */
export interface MarketTickersView {
  /** Instruments in listing order; `null` until GET /api/market/symbols answered. */
  symbols: SymbolInfo[] | null;
  /** Latest ticker per symbol. A NEW function after every coalesced update, so it is a memo key. */
  lookup: (symbol: string) => Ticker | undefined;
  /** Recent last prices per symbol (oldest first), for sparklines; same identity rule as `lookup`. */
  history: (symbol: string) => readonly number[];
  /** The last REST load failed; it is retried every {@link RECONNECT_DELAY_MS}. */
  loadError: boolean;
}

export interface MarketTickersOptions {
  /**
   * Which instruments get a 24 h sparkline seeded from hourly klines (one small request each,
   * at most {@link SPARK_CONCURRENCY} at a time). Pass a stable (module-level) function.
   */
  sparks?: (info: SymbolInfo) => boolean;
}

/** Parallel kline requests when seeding sparklines. */
export const SPARK_CONCURRENCY = 4;

/** Per-hook store; React sees it through `version`. `market` is the shared stream state. */
interface TickerStore {
  market: MarketState;
  /** Recent last prices per symbol; a new array on every change (never mutated in place). */
  history: Map<string, readonly number[]>;
  /** Symbols whose history was seeded with hourly closes: live ticks move the last point only. */
  seeded: Set<string>;
}

/**
 * Applies a ticker frame through the all-market reducer (src/streams/ticker.ts: a ticker
 * older than the one held is ignored, so a late REST answer cannot move prices back) and
 * appends the accepted last prices to the sparkline history. Returns whether anything
 * changed. Exported for tests.
 */
export function applyTickerFrame(store: TickerStore, frame: TickersFrame | TickerFrame, maxPoints = SPARK_POINTS): boolean {
  const next = reduceMarket(store.market, frame);
  if (next === store.market) return false;
  store.market = next;
  const symbols = frame.type === 'tickers' ? frame.items.map((t) => t.symbol) : [frame.symbol];
  for (const sym of symbols) {
    const t = next.items[sym];
    if (!t) continue;
    const h = store.history.get(sym) ?? (Number.isFinite(t.open) && t.open !== t.last ? [t.open] : []);
    if (h[h.length - 1] === t.last) {
      if (!store.history.has(sym)) store.history.set(sym, h);
    } else if (store.seeded.has(sym)) store.history.set(sym, [...h.slice(0, -1), t.last]);
    else store.history.set(sym, [...h, t.last].slice(-maxPoints));
  }
  return true;
}

/**
 * Seeds a symbol's sparkline with hourly closes (the last 24 h), ending at the live last price
 * when one is known. Exported for tests.
 */
export function seedHistory(store: TickerStore, symbol: string, closes: readonly number[]): void {
  const finite = closes.filter((c) => Number.isFinite(c));
  if (finite.length < 2) return;
  const last = store.market.items[symbol]?.last;
  store.history.set(symbol, last === undefined ? finite : [...finite.slice(0, -1), last]);
  store.seeded.add(symbol);
}

const EMPTY: readonly number[] = [];

/** Fresh reader functions over the store; `_version` only documents why they are fresh. */
function readers(store: TickerStore, _version: number) {
  return {
    lookup: (s: string): Ticker | undefined => store.market.items[s],
    history: (s: string): readonly number[] => store.history.get(s) ?? EMPTY,
  };
}

/**
 * Live tickers of the whole market (issue "Live market data"): the instrument list and a first
 * ticker snapshot from REST (/api/market/symbols + /api/market/tickers), then the `all@ticker`
 * topic on the market socket (subscribed for the caller's lifetime; the socket machine
 * resubscribes after a reconnect, whose first frame is a full snapshot).
 *
 * Frames are applied synchronously to a private store as they arrive, and React re-renders at
 * most once per animation frame however many frames came in (the coalescing belongs to the UI
 * edge, DESIGN §5).
 */
export function useMarketTickers(options: MarketTickersOptions = {}): MarketTickersView {
  const sparkFilter = options.sparks;
  const api = useApi();
  const frames$ = useMarketFrames();
  useMarketTopics(ALL_TICKER_TOPICS);

  const store = useRef<TickerStore>({ market: initialMarket(), history: new Map(), seeded: new Set() });
  const [symbols, setSymbols] = useState<SymbolInfo[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [version, setVersion] = useState(0);
  const scheduled = useRef<number | null>(null);

  const schedule = useCallback(() => {
    if (scheduled.current !== null) return;
    scheduled.current = requestAnimationFrame(() => {
      scheduled.current = null;
      setVersion((v) => v + 1);
    });
  }, []);

  useEffect(
    () => () => {
      if (scheduled.current !== null) cancelAnimationFrame(scheduled.current);
      scheduled.current = null;
    },
    [],
  );

  // REST: instruments + first snapshot, retried while it fails.
  useEffect(() => {
    // NOTE: late answers are ignored rather than aborted: an aborted request surfaces as a
    // network-error toast through the api client.
    const life = { done: false };
    let retry: number | undefined;
    const load = async () => {
      try {
        const [syms, tickers] = await Promise.all([
          api.get<SymbolInfo[]>('/market/symbols'),
          api.get<Ticker[]>('/market/tickers'),
        ]);
        if (life.done) return;
        applyTickerFrame(store.current, { type: 'tickers', items: tickers, ts: 0 });
        setSymbols(syms);
        setLoadError(false);
        schedule();
      } catch {
        if (life.done) return;
        setLoadError(true);
        retry = window.setTimeout(() => void load(), RECONNECT_DELAY_MS);
      }
    };
    void load();
    return () => {
      life.done = true;
      window.clearTimeout(retry);
    };
  }, [api, schedule]);

  // Sparklines: 24 hourly closes per chosen instrument, fetched once per mount.
  useEffect(() => {
    if (!symbols || !sparkFilter) return;
    const life = { done: false };
    const queue = symbols.filter(sparkFilter).map((s) => s.symbol);
    const worker = async () => {
      for (let sym = queue.shift(); sym !== undefined && !life.done; sym = queue.shift()) {
        try {
          const candles = await api.get<Candle[]>('/market/klines', { symbol: sym, interval: '1h', limit: 24 });
          if (life.done) return;
          seedHistory(store.current, sym, candles.map((c) => c.c));
          schedule();
        } catch {
          // NOTE: a sparkline is decoration: without klines it keeps drawing live ticks.
        }
      }
    };
    for (let i = 0; i < SPARK_CONCURRENCY; i++) void worker();
    return () => {
      life.done = true;
    };
  }, [api, symbols, sparkFilter, schedule]);

  // Socket: all@ticker snapshots (and single-symbol tickers, if any arrive on this socket).
  useEffect(() => {
    const sub = frames$.subscribe((frame) => {
      // Parsed at the edge (zod), trusted inside the reducer.
      const parsed =
        frame.type === 'tickers' ? tickersFrame.safeParse(frame) : frame.type === 'ticker' ? tickerFrame.safeParse(frame) : null;
      if (parsed?.success && applyTickerFrame(store.current, parsed.data)) schedule();
    });
    return () => sub.unsubscribe();
  }, [frames$, schedule]);

  // NOTE: `version` changes once per coalesced update and is what gives consumers new identities.
  const view = useMemo(() => readers(store.current, version), [version]);
  return { symbols, lookup: view.lookup, history: view.history, loadError };
}

const ALL_TICKER_TOPICS: readonly string[] = ['all@ticker'];
