import { createActor, fromPromise, type Actor } from 'xstate';
import type { Observable } from 'rxjs';
import type { ApiClient } from '../api/client.ts';
import type { EventLog } from '../ports/eventLog.ts';
import type { Clock } from '../ports/types.ts';
import type { Candle, DepthSnapshot, KlineInterval, Level, MarketFrame, SymbolInfo, Trade } from '../protocol/market.ts';
import { RECONNECT_DELAY_MS } from '../protocol/market.ts';
import { bookSyncMachine, SNAPSHOT_LIMIT, type BookSyncLogic, type BookSyncState } from '../machines/bookSyncMachine.ts';
import type { InboundFrame } from '../machines/socketMachine.ts';
import { initialCandles, mergeCandleHistory, reduceCandles, type CandlesState } from '../streams/candles.ts';
import { initialOrderBook, reduceOrderBook, sideLevels, STRIDE, type BookSide, topOfBook, type OrderBookState } from '../streams/orderBook.ts';
import { levelsOf } from '../streams/bookStore.ts';
import { initialMarket, reduceMarket, type MarketState, type TickerState } from '../streams/ticker.ts';
import { initialTrades, mergeTrades, reduceTrades, type TradesState } from '../streams/trades.ts';
import { isMarketFrame, MARKET_FRAME_TYPES } from '../streams/validate.ts';
import { createRefCount, Listeners, readerStream } from './refCount.ts';
import { createTickerBoard, type MarketTickersOptions, type MarketTickersView } from './marketTickers.ts';
import { createTopicBatcher, type TopicSink } from './topics.ts';

/**
 * The market side of the core (docs/ARCHITECTURE.md "The core's streams"). Two halves:
 *
 * - **Frame state** (hashed by replay): every market socket frame that has the shape its type
 *   promises goes, synchronously and at full speed, through the pure reducers: one order book per
 *   symbol (with its resync machine, src/machines/bookSyncMachine.ts), latest trades per symbol,
 *   candles per symbol and interval, the all-market ticker map. It does not depend on who reads:
 *   a headless replay (no screens) and the browser build the same state from the same frames.
 * - **Readers**: `book$(symbol)`, `trades$`, `ticker$`, `candles$`, `tickers$`, `symbols$` are
 *   what the screens subscribe to (through the UI's one hook, useStream). The first reader of a
 *   stream subscribes its socket topic (topics of one render go out as ONE subscribe, see
 *   topics.ts) and loads its REST seed (trades history, kline history, the symbol list); the last
 *   one unsubscribes. Seeds are merged into the view only: they exist only where a screen reads,
 *   so they are not part of the hashed state.
 */
export interface MarketStreams {
  book$(symbol: string): Observable<OrderBookState>;
  ticker$(symbol: string): Observable<TickerState>;
  trades$(symbol: string): Observable<TradesState>;
  candles$(symbol: string, interval: KlineInterval): Observable<CandlesState>;
  /** Instruments (null until loaded; [] after a failed load). */
  symbols$(): Observable<SymbolInfo[] | null>;
  /** The whole market for Home and Market (src/core/marketTickers.ts). */
  tickers$(options?: MarketTickersOptions): Observable<MarketTickersView>;
  /** The current book of a symbol (undefined before its first depth frame). */
  book(symbol: string): OrderBookState | undefined;
  /** Frame state, plain and hashable (see module comment). */
  state(): Record<string, unknown>;
  /** Invariant violations visible now (crossed live book, a non-positive level). */
  violations(): string[];
  stop(): void;
}

export interface MarketStreamsDeps {
  frames$: Observable<InboundFrame>;
  api: ApiClient;
  clock: Clock;
  log: EventLog;
  /** Where topic subscriptions go (the market socket actor, so they are recorded as intents). */
  socket: TopicSink;
  /** Runs `fn` after the current synchronous work (default queueMicrotask). */
  defer?: (fn: () => void) => void;
  /** The market socket's subscribed topics, current value first (a book whose depth topic is not held is not fetched for). */
  topics: Observable<readonly string[]>;
  /** Replaces reducers (tests prove the replay hash follows the core's reducers). */
  reducers?: Partial<MarketReducers>;
  /** Fires each time the market socket opens again after a drop (not on its first open). */
  reconnected$?: Observable<unknown>;
}

/** The pure reducers of the frame state. */
export interface MarketReducers {
  orderBook: typeof reduceOrderBook;
  trades: typeof reduceTrades;
  candles: typeof reduceCandles;
  market: typeof reduceMarket;
}

interface BookEntry {
  state: OrderBookState;
  sync: Actor<BookSyncLogic>;
}

/** A REST depth snapshot as the socket's snapshot frame, so the same reducer applies it. */
export function snapshotFrame(d: DepthSnapshot): MarketFrame {
  return { type: 'depth', symbol: d.symbol, snapshot: true, seq: d.seq, bids: d.bids, asks: d.asks, ts: d.ts };
}

const lower = (s: string) => s.toLowerCase();

/** An object from flat [key, value, key, value, …] (keys in that order). */
function pairs(flat: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < flat.length; i += 2) out[flat[i] as string] = flat[i + 1];
  return out;
}

export function createMarketStreams(deps: MarketStreamsDeps): MarketStreams {
  const { api, clock, log } = deps;
  const r: MarketReducers = { orderBook: reduceOrderBook, trades: reduceTrades, candles: reduceCandles, market: reduceMarket, ...deps.reducers };
  const books = new Map<string, BookEntry>();
  const trades = new Map<string, TradesState>();
  const candles = new Map<string, CandlesState>();
  let market: MarketState = initialMarket();
  let rejected = 0;
  let watchedDepth: ReadonlySet<string> = new Set();

  const bookL = new Listeners<string, OrderBookState>();
  const tradesL = new Listeners<string, TradesState>();
  const candlesL = new Listeners<string, CandlesState>();
  const marketL = new Listeners<'all', MarketState>();
  const tickerFrameL = new Listeners<'all', Extract<MarketFrame, { type: 'ticker' | 'tickers' }>>();

  const batcher = createTopicBatcher(deps.socket, deps.defer);
  const topics = createRefCount<string>(
    (t) => batcher.add('socket.subscribe', t),
    (t) => batcher.add('socket.unsubscribe', t),
  );

  // ---- frame state ----------------------------------------------------------------------------

  const createBook = (symbol: string): BookEntry => {
    const entry: BookEntry = { state: initialOrderBook(symbol), sync: null as unknown as Actor<BookSyncLogic> };
    const logic = bookSyncMachine.provide({
      actors: {
        fetchSnapshot: fromPromise<DepthSnapshot, { symbol: string }>(({ input }) => api.get<DepthSnapshot>('/market/depth', { symbol: input.symbol, limit: SNAPSHOT_LIMIT })),
      },
      actions: { applySnapshot: (_, p: { snapshot: DepthSnapshot }) => setBook(entry, r.orderBook(entry.state, snapshotFrame(p.snapshot))) },
      guards: { bookLive: () => entry.state.status === 'live', watched: () => watchedDepth.has(`${lower(symbol)}@depth`) },
    }).provide({
      actions: {
        note: ({ context }, p: { state: BookSyncState }) => {
          if (p.state === 'synced' && context.reason === null) return; // the initial state, no gap yet
          log.append('book.sync', { symbol, state: p.state, attempts: context.attempts });
        },
      },
    });
    entry.sync = createActor(logic, { clock, input: { symbol } });
    entry.sync.start();
    books.set(symbol, entry);
    return entry;
  };

  /** Stores a new book state, tells the resync machine about status changes, notifies readers. */
  const setBook = (entry: BookEntry, next: OrderBookState): void => {
    const prev = entry.state;
    if (next === prev) return;
    entry.state = next;
    if (next.status !== prev.status) {
      if (next.status === 'resync' && next.reason) entry.sync.send({ type: 'book.gap', seq: next.seq, reason: next.reason });
      else if (next.status === 'live') entry.sync.send({ type: 'book.live' });
    }
    if (bookL.has(next.symbol)) bookL.emit(next.symbol, next);
  };

  const apply = (f: MarketFrame): void => {
    switch (f.type) {
      case 'depth': {
        const entry = books.get(f.symbol) ?? createBook(f.symbol);
        setBook(entry, r.orderBook(entry.state, f));
        return;
      }
      case 'trade': {
        const next = r.trades(trades.get(f.symbol) ?? initialTrades(f.symbol), f);
        trades.set(f.symbol, next);
        if (tradesL.has(f.symbol)) tradesL.emit(f.symbol, next);
        return;
      }
      case 'kline': {
        const key = `${f.symbol}@${f.interval}`;
        const next = r.candles(candles.get(key) ?? initialCandles(f.symbol, f.interval), f);
        candles.set(key, next);
        if (candlesL.has(key)) candlesL.emit(key, next);
        return;
      }
      case 'ticker':
      case 'tickers': {
        if (tickerFrameL.has('all')) tickerFrameL.emit('all', f);
        const next = r.market(market, f);
        if (next === market) return;
        market = next;
        if (marketL.has('all')) marketL.emit('all', next);
        return;
      }
      default:
        return;
    }
  };

  const subs = [
    deps.frames$.subscribe((f) => {
      if (isMarketFrame(f)) apply(f);
      else if (MARKET_FRAME_TYPES.has(f.type)) rejected += 1;
    }),
    // A book whose depth topic the socket does not hold is not fetched for (bookSyncMachine `watched`).
    deps.topics.subscribe((list) => {
      watchedDepth = new Set(list);
    }),
  ];

  // ---- readers --------------------------------------------------------------------------------

  /** Subscribes `topic` and opens `seed` (if any) while the reader lives. */
  const hold = (topic: string | null, seed?: () => () => void) => () => {
    const releaseTopic = topic ? topics.acquire(topic) : () => {};
    const closeSeed = seed ? seed() : () => {};
    return () => {
      closeSeed();
      releaseTopic();
    };
  };

  /**
   * A REST seed per key, loaded by its first reader, dropped with its last (refetched on the next
   * mount). `reload()` asks again for every held key (after a socket reconnect, the frames missed
   * while down are in the fresh answer); the old value stays until the new one arrives, and an
   * answer older than a later request for the same key is dropped.
   */
  function seeds<T>(load: (key: string) => Promise<T>, changed: (key: string) => void) {
    const values = new Map<string, T>();
    const asked = new Map<string, number>();
    let requests = 0;
    const fetch = (key: string) => {
      const n = ++requests;
      asked.set(key, n);
      load(key).then(
        (v) => {
          if (rc.count(key) === 0 || asked.get(key) !== n) return; // the reader left, or a newer request is out
          values.set(key, v);
          changed(key);
        },
        () => {},
      );
    };
    const rc = createRefCount<string>(fetch, (key) => {
      values.delete(key);
      asked.delete(key);
    });
    return {
      get: (key: string) => values.get(key),
      acquire: (key: string) => () => rc.acquire(key),
      keys: () => [...asked.keys()],
      reload: () => [...asked.keys()].forEach(fetch),
    };
  }

  const tradeSeeds = seeds<Trade[]>((s) => api.get<Trade[]>('/market/trades', { symbol: s, limit: 50 }), (s) => tradesL.emit(s, trades.get(s) ?? initialTrades(s)));
  const candleSeeds = seeds<Candle[]>(
    (key) => {
      const [symbol, interval] = key.split('@') as [string, KlineInterval];
      return api.get<Candle[]>('/market/klines', { symbol, interval, limit: 500 });
    },
    (key) => {
      const [symbol, interval] = key.split('@') as [string, KlineInterval];
      candlesL.emit(key, candles.get(key) ?? initialCandles(symbol, interval));
    },
  );

  const tradesView = (s: string, live: TradesState): TradesState => {
    const seed = tradeSeeds.get(s);
    return seed && seed.length > 0 ? mergeTrades(live, seed) : live;
  };
  const candlesView = (key: string, live: CandlesState): CandlesState => {
    const history = candleSeeds.get(key);
    return history ? mergeCandleHistory(live, history) : live;
  };

  // After the market socket comes back, the chart and the trades list ask for their history again:
  // candles closed and trades printed while the socket was down fill in (no gap in the chart).
  const reconnects = deps.reconnected$?.subscribe(() => {
    log.append('market.refetch', { candles: candleSeeds.keys(), trades: tradeSeeds.keys() });
    candleSeeds.reload();
    tradeSeeds.reload();
  });

  const board = createTickerBoard({ api, clock, onFrame: (fn) => tickerFrameL.on('all', fn), holdTopic: () => topics.acquire('all@ticker') });

  const symbolsL = new Listeners<'all', SymbolInfo[] | null>();
  let symbols: SymbolInfo[] | null = null;
  let symbolsRetry: unknown = null;
  const symbolsRc = createRefCount<'all'>(
    () => {
      const load = () => {
        symbolsRetry = null;
        api.get<SymbolInfo[]>('/market/symbols').then(
          (list) => {
            if (symbolsRc.count('all') === 0) return;
            symbols = list;
            symbolsL.emit('all', list);
          },
          () => {
            if (symbolsRc.count('all') === 0) return;
            if (symbols === null) {
              symbols = [];
              symbolsL.emit('all', symbols);
            }
            symbolsRetry = clock.setTimeout(load, RECONNECT_DELAY_MS);
          },
        );
      };
      load();
    },
    () => {
      symbols = null;
      if (symbolsRetry !== null) clock.clearTimeout(symbolsRetry);
      symbolsRetry = null;
    },
  );

  // A book side (src/streams/bookStore.ts) never changes what it reads as, so its levels are copied
  // out once per side: the same array while that side does not change (cheap state() after every
  // record for the inspector and --diff). A book's entry, and the books / trades / candles sections,
  // are the same objects while what they hold is the same. The caches hold the last value per book
  // (state() is asked for the newest), not a WeakMap per state: a WeakMap gaining an entry per
  // book change made the young-generation collections walk it (most of the inspector's load time).
  const lastSide = new Map<string, { side: BookSide; levels: Level[] }>();
  const levels = (key: string, side: BookSide): Level[] => {
    const hit = lastSide.get(key);
    if (hit && hit.side === side) return hit.levels;
    const a = levelsOf(side);
    const out = new Array<Level>(side.length);
    for (let i = 0, k = 0; i < side.length; i++, k += STRIDE) out[i] = [a[k] as number, a[k + 1] as number];
    lastSide.set(key, { side, levels: out });
    return out;
  };
  const lastEntry = new Map<string, { book: OrderBookState; sync: unknown; entry: Record<string, unknown> }>();
  const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  let lastBooks: { refs: unknown[]; value: Record<string, unknown> } = { refs: [], value: {} };
  let lastTrades: { refs: unknown[]; value: Record<string, unknown> } = { refs: [], value: {} };
  let lastCandles: { refs: unknown[]; value: Record<string, unknown> } = { refs: [], value: {} };
  return {
    book$: (s) => readerStream(() => books.get(s)?.state ?? initialOrderBook(s), (emit) => bookL.on(s, emit), hold(`${lower(s)}@depth`)),
    trades$: (s) =>
      readerStream(
        () => tradesView(s, trades.get(s) ?? initialTrades(s)),
        (emit) => tradesL.on(s, (live) => emit(tradesView(s, live))),
        hold(`${lower(s)}@trade`, tradeSeeds.acquire(s)),
      ),
    ticker$: (s) => {
      const view = (m: MarketState): TickerState => ({ symbol: s, ticker: m.items[s] ?? null });
      let last = view(market);
      return readerStream(
        () => (last = view(market)),
        (emit) =>
          marketL.on('all', (m) => {
            const t = m.items[s] ?? null;
            if (t === last.ticker) return;
            last = { symbol: s, ticker: t };
            emit(last);
          }),
        hold(`${lower(s)}@ticker`),
      );
    },
    candles$: (s, interval) => {
      const key = `${s}@${interval}`;
      return readerStream(
        () => candlesView(key, candles.get(key) ?? initialCandles(s, interval)),
        (emit) => candlesL.on(key, (live) => emit(candlesView(key, live))),
        hold(`${lower(s)}@kline_${interval}`, candleSeeds.acquire(key)),
      );
    },
    symbols$: () => readerStream(() => symbols, (emit) => symbolsL.on('all', emit), () => symbolsRc.acquire('all')),
    tickers$: (options) => board.view$(options),
    book: (s) => books.get(s)?.state,
    state() {
      const bookRefs: unknown[] = [];
      for (const [s, { state: b, sync }] of books) {
        const syncValue = sync.getSnapshot().value;
        let hit = lastEntry.get(s);
        if (!hit || hit.book !== b || hit.sync !== syncValue) {
          const entry = { status: b.status, seq: b.seq, reason: b.reason, buffered: b.buffer.length, ts: b.ts, bids: levels(`${s} bids`, b.bids), asks: levels(`${s} asks`, b.asks), sync: syncValue };
          hit = { book: b, sync: syncValue, entry };
          lastEntry.set(s, hit);
        }
        bookRefs.push(s, hit.entry);
      }
      if (!same(bookRefs, lastBooks.refs)) lastBooks = { refs: bookRefs, value: pairs(bookRefs) };
      const tradeRefs: unknown[] = [];
      for (const [s, t] of trades) tradeRefs.push(s, t.items);
      if (!same(tradeRefs, lastTrades.refs)) lastTrades = { refs: tradeRefs, value: pairs(tradeRefs) };
      const candleRefs: unknown[] = [];
      for (const [k, c] of candles) candleRefs.push(k, c);
      if (!same(candleRefs, lastCandles.refs)) {
        const entries: unknown[] = [];
        for (let i = 0; i < candleRefs.length; i += 2) {
          const c = candleRefs[i + 1] as CandlesState;
          entries.push(candleRefs[i], { items: c.items, lastClosed: c.lastClosed });
        }
        lastCandles = { refs: candleRefs, value: pairs(entries) };
      }
      return {
        books: lastBooks.value,
        tickers: market.items,
        trades: lastTrades.value,
        candles: lastCandles.value,
        rejected,
      };
    },
    violations() {
      const out: string[] = [];
      for (const [s, { state: b }] of books) {
        const { bid, ask } = topOfBook(b);
        if (b.status === 'live' && bid && ask && bid[0] >= ask[0]) out.push(`book ${s} crossed: bid ${bid[0]} >= ask ${ask[0]}`);
        for (const [p, q] of [...sideLevels(b.bids), ...sideLevels(b.asks)]) if (!(q > 0)) out.push(`book ${s} shows level ${p} with quantity ${q}`);
      }
      return out;
    },
    stop() {
      for (const s of subs) s.unsubscribe();
      reconnects?.unsubscribe();
      for (const { sync } of books.values()) sync.stop();
      board.stop();
      if (symbolsRetry !== null) clock.clearTimeout(symbolsRetry);
    },
  };
}
