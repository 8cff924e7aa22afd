import { readFileSync } from 'node:fs';
import type { Candle, DepthSnapshot, KlineInterval, Level, MarketFrame, SymbolInfo, Ticker, Trade } from '../../src/protocol/market.ts';
import { parseMarketFixture, type MarketFixture } from '../../src/protocol/fixture.ts';
import { buildTicker, CandleSeries, makeUnits, type Units } from './candleSeries.ts';
import { decimalsOf, findInstrument } from './instruments.ts';
import type { FrameListener, MarketSource } from './source.ts';

/** One timeline event of a pass through the fixture, in file time. */
type Event =
  | { t: number; kind: 'book'; symbol: string; reset: boolean; bids: Level[]; asks: Level[] }
  | { t: number; kind: 'trade'; symbol: string; price: number; qty: number; side: 'buy' | 'sell' };

interface SymState {
  info: SymbolInfo;
  units: Units;
  bids: Map<number, number>;
  asks: Map<number, number>;
  seq: number;
  tradeId: number;
  trades: Trade[];
  candles: CandleSeries;
  lastTicks: number;
}

export interface PlayerOptions {
  fixture: MarketFixture;
  /** Wall time the playback starts at (normally `clock.now()`): file time is re-based to it. */
  startMs: number;
  /** 1 = real time, 10 = ten times faster. */
  speed?: number;
  /** Pause between the end of the file and the next pass, in file ms. Default 1000. */
  loopGapMs?: number;
}

/**
 * Turns the fixture into a per-pass timeline: depth frames become book events (a snapshot is a
 * reset; diffs before a symbol's first snapshot are buffered and applied after it when newer, as
 * Binance documents; stale diffs are dropped), trades are kept, anything else is dropped (candles
 * and tickers are rebuilt from trades so they stay consistent across loops).
 */
function buildTimeline(fixture: MarketFixture): Event[] {
  const out: Event[] = [];
  const synced = new Map<string, number>();
  const pending = new Map<string, { lastSeq: number; bids: Level[]; asks: Level[] }[]>();
  for (const r of fixture.records) {
    if (r.kind !== 'frame') continue;
    const f = r.frame;
    if (f.type === 'depth' && f.snapshot) {
      synced.set(f.symbol, f.seq);
      out.push({ t: r.t, kind: 'book', symbol: f.symbol, reset: true, bids: f.bids, asks: f.asks });
      for (const d of pending.get(f.symbol) ?? []) {
        if (d.lastSeq > f.seq) out.push({ t: r.t, kind: 'book', symbol: f.symbol, reset: false, bids: d.bids, asks: d.asks });
      }
      pending.delete(f.symbol);
    } else if (f.type === 'depth') {
      const seq = synced.get(f.symbol);
      if (seq === undefined) {
        const list = pending.get(f.symbol) ?? [];
        list.push({ lastSeq: f.lastSeq, bids: f.bids, asks: f.asks });
        pending.set(f.symbol, list);
      } else if (f.lastSeq > seq) {
        synced.set(f.symbol, f.lastSeq);
        out.push({ t: r.t, kind: 'book', symbol: f.symbol, reset: false, bids: f.bids, asks: f.asks });
      }
    } else if (f.type === 'trade') {
      out.push({ t: r.t, kind: 'trade', symbol: f.symbol, price: f.price, qty: f.qty, side: f.side });
    }
  }
  return out;
}

/** SymbolInfo for a fixture symbol: the seeded instrument if known, else inferred from the data. */
function inferInfo(symbol: string, fixture: MarketFixture): SymbolInfo {
  const known = findInstrument(symbol)?.info;
  if (known !== undefined) return known;
  let pd = 0;
  let qd = 0;
  for (const r of fixture.records) {
    if (r.kind !== 'frame') continue;
    const f = r.frame;
    if (f.type !== 'depth' || f.symbol !== symbol) continue;
    for (const [p, q] of [...f.bids, ...f.asks]) {
      pd = Math.max(pd, decimalsOf(p));
      qd = Math.max(qd, decimalsOf(q));
    }
  }
  const tick = Number((10 ** -pd).toFixed(pd));
  const step = Number((10 ** -qd).toFixed(qd));
  const quote = ['USDT', 'BTC', 'ETH', 'EUR'].find((q) => symbol.endsWith(q)) ?? 'USDT';
  const base = symbol.slice(0, symbol.length - quote.length);
  return {
    symbol, base, quote, name: base, category: 'crypto', kinds: ['perp'], tickSize: tick, qtyStep: step,
    pricePrecision: pd, qtyPrecision: qd, minOrderQuantity: step, maxOrderQuantity: step * 1e7,
    openingFeeRatio: 0.0005, closingFeeRatio: 0.0005, minLever: 1, maxLever: 20, mMarginRatio: 0.01,
    overnightFeeRatio: 0.0003, fundingRateRatio: 0.0001, hot: false,
  };
}

const sortDesc = (m: Map<number, number>): Level[] => [...m].sort((a, b) => b[0] - a[0]);
const sortAsc = (m: Map<number, number>): Level[] => [...m].sort((a, b) => a[0] - b[0]);

/**
 * The recorded-feed player (MARKET_SOURCE=recorded): streams a market fixture at `speed`,
 * looping forever, with times re-based so the first record plays at `startMs`.
 *
 * It republishes under its own per-symbol depth sequence (one unbroken prevSeq chain across
 * loops: the jump back to the first snapshot is sent as an ordinary diff that removes the
 * stale levels), its own trade ids, and candles and tickers rebuilt from the replayed trades.
 * Like the simulator it only moves in `advanceTo`, so it is deterministic for the file and the
 * sequence of advance times.
 */
export class MarketPlayer implements MarketSource {
  readonly kind = 'recorded' as const;
  private readonly timeline: Event[];
  private readonly syms = new Map<string, SymState>();
  private readonly infos: SymbolInfo[];
  private readonly listeners = new Set<FrameListener>();
  private readonly speed: number;
  private readonly fileStart: number;
  private readonly passMs: number;
  private readonly startMs: number;
  private pass = 0;
  private index = 0;
  private time: number;
  private nextTicker: number;

  constructor(opts: PlayerOptions) {
    this.timeline = buildTimeline(opts.fixture);
    if (this.timeline.length === 0) throw new Error('market fixture has no playable frames');
    this.speed = opts.speed ?? 1;
    this.fileStart = this.timeline[0]?.t ?? 0;
    const fileEnd = this.timeline[this.timeline.length - 1]?.t ?? this.fileStart;
    this.passMs = fileEnd - this.fileStart + (opts.loopGapMs ?? 1000);
    this.startMs = opts.startMs;
    this.time = opts.startMs;
    this.nextTicker = opts.startMs;
    this.infos = opts.fixture.header.symbols.map((s) => inferInfo(s, opts.fixture));
    for (const info of this.infos) {
      const units = makeUnits(info.tickSize, info.qtyStep, info.pricePrecision, info.qtyPrecision);
      this.syms.set(info.symbol, {
        info, units, bids: new Map(), asks: new Map(), seq: 0, tradeId: 0, trades: [],
        candles: new CandleSeries([], opts.startMs, units, info.symbol), lastTicks: 0,
      });
    }
    this.advance(opts.startMs, null);
  }

  /** Wall time at which event `e` of pass `pass` plays. */
  private wallTime(e: Event, pass: number): number {
    return this.startMs + (e.t - this.fileStart + pass * this.passMs) / this.speed;
  }

  private advance(until: number, emit: ((f: MarketFrame) => void) | null): void {
    for (;;) {
      const e = this.timeline[this.index];
      if (e === undefined) {
        this.index = 0;
        this.pass++;
        continue;
      }
      const at = this.wallTime(e, this.pass);
      while (this.nextTicker <= Math.min(at, until)) this.emitTickers(this.nextTicker, emit);
      if (at > until) break;
      this.play(e, Math.round(at), emit);
      this.index++;
    }
    this.time = Math.max(this.time, until);
  }

  private emitTickers(t: number, emit: ((f: MarketFrame) => void) | null): void {
    this.nextTicker = t + 1000;
    if (emit === null) return;
    for (const s of this.syms.values()) s.candles.emitOpen(emit);
    const items = [...this.syms.values()].map((s) => this.tickerOf(s, t));
    for (const item of items) emit({ type: 'ticker', ...item });
    emit({ type: 'tickers', items, ts: t });
  }

  private play(e: Event, ts: number, emit: ((f: MarketFrame) => void) | null): void {
    const s = this.syms.get(e.symbol);
    if (s === undefined) return;
    if (e.kind === 'trade') {
      s.candles.roll(ts, emit);
      s.tradeId++;
      const trade: Trade = { id: s.tradeId, price: e.price, qty: e.qty, side: e.side, ts };
      s.trades.push(trade);
      if (s.trades.length > 1000) s.trades.splice(0, 500);
      s.lastTicks = Math.round(e.price / s.info.tickSize);
      s.candles.addTrade(ts, s.lastTicks, Math.round(e.qty / s.info.qtyStep));
      emit?.({ type: 'trade', symbol: e.symbol, ...trade });
      return;
    }
    const bidChanges = new Map<number, number>();
    const askChanges = new Map<number, number>();
    const apply = (side: Map<number, number>, changes: Map<number, number>, levels: Level[], reset: boolean): void => {
      if (reset) {
        const next = new Map(levels.filter(([, q]) => q > 0));
        for (const p of side.keys()) if (!next.has(p)) changes.set(p, 0);
        for (const [p, q] of next) if (side.get(p) !== q) changes.set(p, q);
        side.clear();
        for (const [p, q] of next) side.set(p, q);
        return;
      }
      for (const [p, q] of levels) {
        if (q === 0) {
          if (side.delete(p)) changes.set(p, 0);
        } else if (side.get(p) !== q) {
          side.set(p, q);
          changes.set(p, q);
        }
      }
    };
    apply(s.bids, bidChanges, e.bids, e.reset);
    apply(s.asks, askChanges, e.asks, e.reset);
    const n = bidChanges.size + askChanges.size;
    if (n === 0) return;
    const prevSeq = s.seq;
    s.seq += n;
    emit?.({ type: 'depth', symbol: e.symbol, snapshot: false, firstSeq: prevSeq + 1, lastSeq: s.seq, prevSeq, bids: sortDesc(bidChanges), asks: sortAsc(askChanges), ts });
  }

  private tickerOf(s: SymState, t: number): Ticker {
    const bestBid = Math.max(...s.bids.keys());
    const bestAsk = Math.min(...s.asks.keys());
    const mid = Number.isFinite(bestBid) && Number.isFinite(bestAsk) ? s.units.px(Math.round((bestBid + bestAsk) / 2 / s.info.tickSize)) : undefined;
    const last = s.lastTicks > 0 ? s.lastTicks : mid !== undefined ? Math.round(mid / s.info.tickSize) : 0;
    return buildTicker(s.info.symbol, s.units, s.candles.window24h(t), last, mid, t);
  }

  advanceTo(unixMs: number): void {
    if (unixMs <= this.time) return;
    this.advance(unixMs, (f) => {
      for (const l of this.listeners) l(f);
    });
  }

  now(): number {
    return this.time;
  }

  symbols(): readonly SymbolInfo[] {
    return this.infos;
  }

  symbol(symbol: string): SymbolInfo | undefined {
    return this.syms.get(symbol.toUpperCase())?.info;
  }

  snapshot(symbol: string, limit: number): DepthSnapshot | undefined {
    const s = this.syms.get(symbol.toUpperCase());
    if (s === undefined) return undefined;
    return { symbol: s.info.symbol, seq: s.seq, bids: sortDesc(s.bids).slice(0, limit), asks: sortAsc(s.asks).slice(0, limit), ts: this.time };
  }

  recentTrades(symbol: string, limit: number): Trade[] {
    return this.syms.get(symbol.toUpperCase())?.trades.slice(-limit).reverse() ?? [];
  }

  klines(symbol: string, interval: KlineInterval, from: number | undefined, to: number | undefined, limit: number): Candle[] {
    return this.syms.get(symbol.toUpperCase())?.candles.klines(interval, from, to, limit) ?? [];
  }

  tickers(): Ticker[] {
    return [...this.syms.values()].map((s) => this.tickerOf(s, this.time));
  }

  ticker(symbol: string): Ticker | undefined {
    const s = this.syms.get(symbol.toUpperCase());
    return s === undefined ? undefined : this.tickerOf(s, this.time);
  }

  markPrice(symbol: string): number | undefined {
    return this.ticker(symbol)?.mark;
  }

  subscribe(listener: FrameListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

/** Loads a JSONL fixture file and creates the player (MARKET_SOURCE=recorded). */
export function createPlayerFromFile(path: string, opts: Omit<PlayerOptions, 'fixture'>): MarketPlayer {
  return new MarketPlayer({ ...opts, fixture: parseMarketFixture(readFileSync(path, 'utf8')) });
}
