import type { Candle, DepthSnapshot, KlineInterval, MarketFrame, SymbolInfo, Ticker, Trade } from '../../src/protocol/market.ts';
import type { FrameListener, MarketSource } from '../market/source.ts';

/**
 * A real MarketSource whose prices are set by hand: `setPrice(symbol, last, mark?)` emits a trade
 * frame and a ticker frame (with the mark), and the one-level book quotes bid = ask = last (or the
 * levels given to `setBook`). Tests,
 * property runs and the bench use it to move the market deterministically; the trading engine
 * cannot tell it from the simulator (same interface, same frames).
 */
export class ControlledMarketSource implements MarketSource {
  readonly kind = 'sim' as const;
  private readonly infos: readonly SymbolInfo[];
  private readonly last = new Map<string, number>();
  private readonly marks = new Map<string, number>();
  private readonly trades = new Map<string, Trade[]>();
  private readonly books = new Map<string, { bids: [number, number][]; asks: [number, number][] }>();
  private readonly listeners = new Set<FrameListener>();
  private time: number;
  private tradeId = 0;
  private seq = 0;

  constructor(infos: readonly SymbolInfo[], startMs: number) {
    this.infos = infos;
    this.time = startMs;
  }

  /** Moves the market: a trade at `last` (taker side by direction) and a ticker carrying `mark` (default `last`). */
  setPrice(symbol: string, last: number, mark: number = last): void {
    this.books.delete(symbol);
    const prev = this.last.get(symbol);
    this.last.set(symbol, last);
    this.marks.set(symbol, mark);
    const trade: Trade = { id: ++this.tradeId, price: last, qty: 1, side: prev !== undefined && last < prev ? 'sell' : 'buy', ts: this.time };
    const list = this.trades.get(symbol) ?? [];
    list.unshift(trade);
    list.length = Math.min(list.length, 100);
    this.trades.set(symbol, list);
    this.seq += 1;
    this.emit({ type: 'trade', symbol, ...trade });
    const t = this.ticker(symbol);
    if (t) this.emit({ type: 'ticker', ...t });
  }

  /**
   * Replaces the book of `symbol` (best first on each side) until the next {@link setPrice}: tests
   * use it to give takers a thin book (IOC / FOK partial fills, walking several levels).
   */
  setBook(symbol: string, bids: [number, number][], asks: [number, number][]): void {
    this.books.set(symbol, { bids, asks });
  }

  private emit(frame: MarketFrame): void {
    for (const l of [...this.listeners]) l(frame);
  }

  symbols(): readonly SymbolInfo[] {
    return this.infos;
  }

  symbol(symbol: string): SymbolInfo | undefined {
    return this.infos.find((i) => i.symbol === symbol.toUpperCase());
  }

  snapshot(symbol: string, _limit: number): DepthSnapshot | undefined {
    const p = this.last.get(symbol);
    if (p === undefined) return undefined;
    const set = this.books.get(symbol);
    if (set) return { symbol, seq: this.seq, bids: set.bids, asks: set.asks, ts: this.time };
    return { symbol, seq: this.seq, bids: [[p, 1000]], asks: [[p, 1000]], ts: this.time };
  }

  recentTrades(symbol: string, limit: number): Trade[] {
    return (this.trades.get(symbol) ?? []).slice(0, limit);
  }

  klines(_symbol: string, _interval: KlineInterval, _from: number | undefined, _to: number | undefined, _limit: number): Candle[] {
    return [];
  }

  tickers(): Ticker[] {
    return this.infos.flatMap((i) => this.ticker(i.symbol) ?? []);
  }

  ticker(symbol: string): Ticker | undefined {
    const last = this.last.get(symbol);
    if (last === undefined) return undefined;
    const mark = this.marks.get(symbol) ?? last;
    return { symbol, last, open: last, high: last, low: last, volume: 0, quoteVolume: 0, change: 0, changePct: 0, mark, ts: this.time };
  }

  markPrice(symbol: string): number | undefined {
    return this.marks.get(symbol);
  }

  subscribe(listener: FrameListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  advanceTo(unixMs: number): void {
    if (unixMs > this.time) this.time = unixMs;
  }

  now(): number {
    return this.time;
  }
}
