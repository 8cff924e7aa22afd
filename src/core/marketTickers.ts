import { Observable } from 'rxjs';
import type { ApiClient } from '../api/client.ts';
import type { Clock } from '../ports/types.ts';
import type { Candle, SymbolInfo, Ticker, TickerFrame, TickersFrame } from '../protocol/market.ts';
import { RECONNECT_DELAY_MS } from '../protocol/market.ts';
import { initialMarket, reduceMarket, type MarketState } from '../streams/ticker.ts';

/**
 * The whole-market view Home and Market render (issue "Live market data"), built by the core for
 * each reader: the instrument list and a first ticker snapshot from REST (/market/symbols +
 * /market/tickers, retried every {@link RECONNECT_DELAY_MS} on the core's clock while it fails),
 * 24 h sparklines seeded from hourly klines, then the `all@ticker` topic (held while the reader
 * lives). Frames are applied synchronously as they arrive; the UI's useStream coalesces renders.
 */

/** How many recent last prices a sparkline keeps per symbol. */
export const SPARK_POINTS = 40;
/** Parallel kline requests when seeding sparklines. */
export const SPARK_CONCURRENCY = 4;
/** Seeded sparklines per emitted view (see seedSparks). */
export const SPARK_EMIT_BATCH = 8;

export interface MarketTickersView {
  /** Instruments in listing order; `null` until GET /market/symbols answered. */
  symbols: SymbolInfo[] | null;
  /** Latest ticker per symbol. A NEW function after every update, so it is a memo key. */
  lookup: (symbol: string) => Ticker | undefined;
  /** Recent last prices per symbol (oldest first), for sparklines; same identity rule as `lookup`. */
  history: (symbol: string) => readonly number[];
  /** The last REST load failed; it is retried every {@link RECONNECT_DELAY_MS}. */
  loadError: boolean;
}

export interface MarketTickersOptions {
  /** Which instruments get a 24 h sparkline seeded from hourly klines. Pass a stable function. */
  sparks?: (info: SymbolInfo) => boolean;
}

/** A reader's store. `market` follows the same reducer as the core's frame state. */
export interface TickerStore {
  market: MarketState;
  /** Recent last prices per symbol; a new array on every change (never mutated in place). */
  history: Map<string, readonly number[]>;
  /** Symbols whose history was seeded with hourly closes: live ticks move the last point only. */
  seeded: Set<string>;
}

/**
 * Applies a ticker frame through the all-market reducer (an older ticker is ignored, so a late
 * REST answer cannot move prices back) and appends the accepted last prices to the sparkline
 * history. Returns whether anything changed.
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

/** Seeds a symbol's sparkline with hourly closes, ending at the live last price when known. */
export function seedHistory(store: TickerStore, symbol: string, closes: readonly number[]): void {
  const finite = closes.filter((c) => Number.isFinite(c));
  if (finite.length < 2) return;
  const last = store.market.items[symbol]?.last;
  store.history.set(symbol, last === undefined ? finite : [...finite.slice(0, -1), last]);
  store.seeded.add(symbol);
}

const EMPTY: readonly number[] = [];

export interface TickerBoardDeps {
  api: ApiClient;
  clock: Clock;
  /** Every accepted ticker / tickers frame of the market socket. */
  onFrame: (fn: (f: TickersFrame | TickerFrame) => void) => () => void;
  /** Holds the `all@ticker` topic; returns the release. */
  holdTopic: () => () => void;
}

export function createTickerBoard(deps: TickerBoardDeps): { view$(options?: MarketTickersOptions): Observable<MarketTickersView>; stop(): void } {
  const { api, clock } = deps;
  const live = new Set<() => void>();
  return {
    view$: (options = {}) =>
      new Observable<MarketTickersView>((sub) => {
        const store: TickerStore = { market: initialMarket(), history: new Map(), seeded: new Set() };
        let symbols: SymbolInfo[] | null = null;
        let loadError = false;
        let done = false;
        let retry: unknown = null;
        const emit = () => {
          if (done) return;
          const market = store.market;
          const history = new Map(store.history);
          sub.next({ symbols, loadError, lookup: (s) => market.items[s], history: (s) => history.get(s) ?? EMPTY });
        };
        const seedSparks = (list: SymbolInfo[]) => {
          if (!options.sparks) return;
          const queue = list.filter(options.sparks).map((s) => s.symbol);
          // One view per SPARK_EMIT_BATCH seeded sparklines (and one at the end), not one per
          // symbol: each view re-renders the whole list, which kept a phone's main thread busy
          // for seconds after the first paint (issue 30).
          let unseen = 0;
          let running = SPARK_CONCURRENCY;
          const worker = async () => {
            for (let sym = queue.shift(); sym !== undefined && !done; sym = queue.shift()) {
              try {
                const klines = await api.get<Candle[]>('/market/klines', { symbol: sym, interval: '1h', limit: 24 });
                if (done) return;
                seedHistory(store, sym, klines.map((c) => c.c));
                if (++unseen >= SPARK_EMIT_BATCH) {
                  unseen = 0;
                  emit();
                }
              } catch {
                // NOTE: a sparkline is decoration: without klines it keeps drawing live ticks.
              }
            }
            if (--running === 0 && unseen > 0 && !done) {
              unseen = 0;
              emit();
            }
          };
          for (let i = 0; i < SPARK_CONCURRENCY; i++) void worker();
        };
        const load = async () => {
          retry = null;
          try {
            const [syms, tickers] = await Promise.all([api.get<SymbolInfo[]>('/market/symbols'), api.get<Ticker[]>('/market/tickers')]);
            if (done) return;
            applyTickerFrame(store, { type: 'tickers', items: tickers, ts: 0 });
            symbols = syms;
            loadError = false;
            emit();
            seedSparks(syms);
          } catch {
            if (done) return;
            loadError = true;
            emit();
            retry = clock.setTimeout(() => void load(), RECONNECT_DELAY_MS);
          }
        };
        const releaseTopic = deps.holdTopic();
        const stopFrames = deps.onFrame((f) => {
          if (applyTickerFrame(store, f)) emit();
        });
        emit();
        void load();
        const teardown = () => {
          done = true;
          if (retry !== null) clock.clearTimeout(retry);
          stopFrames();
          releaseTopic();
          live.delete(teardown);
        };
        live.add(teardown);
        return teardown;
      }),
    stop() {
      for (const t of [...live]) t();
    },
  };
}
