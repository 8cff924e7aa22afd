import type { Candle, DepthSnapshot, KlineInterval, Level, MarketFrame, SymbolInfo, Ticker, Trade } from '../../src/protocol/market.ts';
import type { FrameListener, MarketSource } from '../market/source.ts';
import type { Broker } from './broker.ts';
import { CHANNEL } from './channels.ts';
import type { EngineClient } from './rpc.ts';

/** Levels of a full book (the simulator keeps 60 a side; the player fewer). */
const FULL_BOOK = 1000;
/** Trades kept per symbol for /api/market/trades (its limit is at most 500). */
const TRADES_KEPT = 500;

/** What a gateway asks the engine for at start: everything a fresh mirror needs. */
export interface MarketState {
  /** The engine instance: a restarted engine has a new market whose sequence numbers start over. */
  epoch: string;
  symbols: SymbolInfo[];
  books: DepthSnapshot[];
  tickers: Ticker[];
  trades: Record<string, Trade[]>;
  now: number;
}

/** Engine side: the state a mirror starts from, and the publisher of every frame to the broker. */
export function marketState(source: MarketSource, epoch: string): MarketState {
  const symbols = [...source.symbols()];
  const books: DepthSnapshot[] = [];
  const trades: Record<string, Trade[]> = {};
  for (const s of symbols) {
    const b = source.snapshot(s.symbol, FULL_BOOK);
    if (b) books.push(b);
    trades[s.symbol] = source.recentTrades(s.symbol, TRADES_KEPT);
  }
  return { epoch, symbols, books, tickers: source.tickers(), trades, now: source.now() };
}

/** One message on the market channel: the engine's epoch and a batch of frames in order. */
export interface MarketMessage {
  e: string;
  f: MarketFrame[];
}

/**
 * Publishes the source's frames on the market channel, batched: frames emitted inside one
 * `advanceTo` go out as one message (in order) on the next turn of the event loop.
 */
export function publishMarket(source: MarketSource, broker: Broker, epoch: string): () => void {
  let batch: MarketFrame[] = [];
  let queued = false;
  const flush = (): void => {
    queued = false;
    const frames = batch;
    batch = [];
    if (frames.length > 0) broker.publish(CHANNEL.market, JSON.stringify({ e: epoch, f: frames } satisfies MarketMessage));
  };
  return source.subscribe((f) => {
    batch.push(f);
    if (!queued) {
      queued = true;
      setImmediate(flush);
    }
  });
}

interface Book {
  seq: number;
  bids: Map<number, number>;
  asks: Map<number, number>;
  ts: number;
  /** Diffs held while a fresh snapshot is on its way (a gap was seen). */
  held: MarketFrame[] | null;
}

const sorted = (m: Map<number, number>, desc: boolean, limit: number): Level[] =>
  [...m.entries()].sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0])).slice(0, limit);

function apply(side: Map<number, number>, levels: readonly Level[]): void {
  for (const [p, q] of levels) {
    if (q === 0) side.delete(p);
    else side.set(p, q);
  }
}

/**
 * A gateway's copy of the engine's market, kept from the broker's market channel: books (snapshot
 * plus diffs, resynced from the engine on a sequence gap), tickers (with the mark price) and recent
 * trades. Its listeners (the gateway's MarketHub and trading reads) see every frame the engine
 * published, after the copy has applied it, so a snapshot taken between two frames is consistent
 * with the diffs that follow it, as with a local source. Candles are asked from the engine.
 * `advanceTo` does nothing: the engine moves the market.
 */
export class MirrorMarketSource implements MarketSource {
  readonly kind = 'sim' as const;
  private infos: SymbolInfo[] = [];
  private readonly bySymbol = new Map<string, SymbolInfo>();
  private readonly books = new Map<string, Book>();
  private readonly tickerMap = new Map<string, Ticker>();
  private readonly tradeMap = new Map<string, Trade[]>();
  private readonly listeners = new Set<FrameListener>();
  private readonly resetListeners = new Set<() => void>();
  private time = 0;
  private off: (() => void) | null = null;
  private epoch = '';
  /** Messages received while the state is (re)loading; null once loaded. */
  private early: MarketMessage[] | null = [];
  /** Frames received (stats). */
  received = 0;

  constructor(
    private readonly broker: Broker,
    private readonly engine: EngineClient,
    private readonly onError: (err: unknown) => void = (err) => console.error('market mirror', err),
  ) {}

  /** Subscribes, then loads the engine's state (retrying until an engine answers). */
  async start(): Promise<void> {
    this.off = this.broker.subscribe(CHANNEL.market, (raw) => this.onMessage(JSON.parse(raw) as MarketMessage));
    await this.broker.ready();
    await this.reload();
  }

  /** Loads the engine's state (retrying until an engine answers), then applies what arrived meanwhile. */
  private async reload(): Promise<void> {
    this.early ??= [];
    for (;;) {
      try {
        this.load(await this.engine.call<MarketState>('market.state'));
        break;
      } catch (err) {
        if (this.off === null) return;
        this.onError(err);
      }
    }
    const early = this.early ?? [];
    this.early = null;
    for (const m of early) if (m.e === this.epoch) for (const f of m.f) this.onFrame(f);
  }

  /**
   * Called when the engine restarted (a new epoch): its market is a new one, sequence numbers start
   * over, so whoever holds sockets must make their clients resubscribe (MarketHub closes them, 1012).
   */
  onReset(listener: () => void): () => void {
    this.resetListeners.add(listener);
    return () => void this.resetListeners.delete(listener);
  }

  stop(): void {
    this.off?.();
    this.off = null;
  }

  private load(s: MarketState): void {
    this.epoch = s.epoch;
    this.books.clear();
    this.tradeMap.clear();
    this.infos = s.symbols;
    this.bySymbol.clear();
    for (const i of s.symbols) this.bySymbol.set(i.symbol, i);
    for (const b of s.books) this.setBook(b);
    for (const t of s.tickers) this.tickerMap.set(t.symbol, t);
    for (const [sym, list] of Object.entries(s.trades)) this.tradeMap.set(sym, list.slice(0, TRADES_KEPT));
    this.time = Math.max(this.time, s.now);
  }

  private setBook(b: DepthSnapshot): void {
    const book: Book = { seq: b.seq, bids: new Map(), asks: new Map(), ts: b.ts, held: null };
    apply(book.bids, b.bids);
    apply(book.asks, b.asks);
    this.books.set(b.symbol, book);
  }

  private onMessage(m: MarketMessage): void {
    this.received += m.f.length;
    if (this.early !== null) {
      this.early.push(m);
      return;
    }
    if (m.e !== this.epoch) {
      // A new engine: reload everything from it, then tell the socket holders.
      this.early = [m];
      this.reload().then(
        () => {
          for (const l of [...this.resetListeners]) l();
        },
        (err: unknown) => this.onError(err),
      );
      return;
    }
    for (const f of m.f) this.onFrame(f);
  }

  private onFrame(f: MarketFrame): void {
    switch (f.type) {
      case 'depth': {
        const book = this.books.get(f.symbol);
        if (f.snapshot || book === undefined) break;
        if (book.held !== null) {
          book.held.push(f);
          return;
        }
        if (f.lastSeq <= book.seq) return; // already in the snapshot
        if (f.prevSeq !== book.seq) {
          // A gap (a lost message, or an engine that restarted): resync this book from the engine.
          this.resync(f.symbol, book, f);
          break; // clients see the gap too and resubscribe, as after any gap
        }
        apply(book.bids, f.bids);
        apply(book.asks, f.asks);
        book.seq = f.lastSeq;
        book.ts = f.ts;
        break;
      }
      case 'ticker':
        this.tickerMap.set(f.symbol, { ...f });
        break;
      case 'tickers':
        for (const t of f.items) this.tickerMap.set(t.symbol, t);
        break;
      case 'trade': {
        const list = this.tradeMap.get(f.symbol) ?? [];
        list.unshift({ id: f.id, price: f.price, qty: f.qty, side: f.side, ts: f.ts });
        if (list.length > TRADES_KEPT) list.length = TRADES_KEPT;
        this.tradeMap.set(f.symbol, list);
        break;
      }
      default:
        break;
    }
    if ('ts' in f && typeof f.ts === 'number' && f.ts > this.time) this.time = f.ts;
    for (const l of [...this.listeners]) {
      try {
        l(f);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  private resync(symbol: string, book: Book, first: MarketFrame): void {
    book.held = [first];
    this.engine.call<DepthSnapshot | null>('market.depth', symbol).then(
      (snap) => {
        const held = book.held ?? [];
        if (snap) this.setBook(snap);
        const fresh = this.books.get(symbol);
        if (fresh && fresh !== book) {
          for (const f of held) {
            if (f.type === 'depth' && !f.snapshot && f.lastSeq > fresh.seq && f.prevSeq === fresh.seq) {
              apply(fresh.bids, f.bids);
              apply(fresh.asks, f.asks);
              fresh.seq = f.lastSeq;
            }
          }
        } else book.held = null;
      },
      (err: unknown) => {
        book.held = null;
        this.onError(err);
      },
    );
  }

  // ------------------------------------------------------------ MarketSource

  symbols(): readonly SymbolInfo[] {
    return this.infos;
  }

  symbol(symbol: string): SymbolInfo | undefined {
    return this.bySymbol.get(symbol.toUpperCase());
  }

  snapshot(symbol: string, limit: number): DepthSnapshot | undefined {
    const sym = symbol.toUpperCase();
    const b = this.books.get(sym);
    if (b === undefined) return undefined;
    return { symbol: sym, seq: b.seq, bids: sorted(b.bids, true, limit), asks: sorted(b.asks, false, limit), ts: b.ts };
  }

  recentTrades(symbol: string, limit: number): Trade[] {
    return (this.tradeMap.get(symbol.toUpperCase()) ?? []).slice(0, limit);
  }

  /** Candles live in the engine's series: the REST route awaits {@link fetchKlines}; this copy has none. */
  klines(): Candle[] {
    return [];
  }

  fetchKlines(symbol: string, interval: KlineInterval, from: number | undefined, to: number | undefined, limit: number): Promise<Candle[]> {
    return this.engine.call<Candle[]>('market.klines', symbol, interval, from ?? null, to ?? null, limit);
  }

  tickers(): Ticker[] {
    return this.infos.map((i) => this.tickerMap.get(i.symbol)).filter((t): t is Ticker => t !== undefined);
  }

  ticker(symbol: string): Ticker | undefined {
    return this.tickerMap.get(symbol.toUpperCase());
  }

  markPrice(symbol: string): number | undefined {
    return this.tickerMap.get(symbol.toUpperCase())?.mark;
  }

  subscribe(listener: FrameListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  advanceTo(): void {}

  now(): number {
    return this.time;
  }
}
