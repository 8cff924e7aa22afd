import type { Candle, DepthSnapshot, KlineInterval, MarketFrame, SymbolInfo, Ticker, Trade } from '../../src/protocol/market.ts';
import { INSTRUMENTS, type InstrumentSeed } from './instruments.ts';
import type { FrameListener, MarketSource } from './source.ts';
import { SymbolSim } from './symbolSim.ts';

/** The base grid: hot symbols step on every point, the others on every second point. */
export const BASE_STEP_MS = 125;
const KLINE_EVERY = 4; // 500 ms
const TICKER_EVERY = 8; // 1 s

export interface SimulatorOptions {
  seed: number;
  /** Unix ms the live feed starts at (normally `clock.now()`); history ends at the minute before. */
  startMs: number;
  /** Restrict to these instruments (tests); default: all of INSTRUMENTS. */
  instruments?: readonly InstrumentSeed[];
}

/**
 * The seeded market simulator.
 *
 * Time is a fixed grid of 125 ms points starting at the minute boundary before `startMs`
 * (history covers everything earlier). `advanceTo(t)` runs every grid point <= t in order, so the
 * frames depend only on the seed, `startMs` and the final time reached: advancing in one call or
 * in a hundred gives the same frames. Hot symbols step every 125 ms (8 depth diffs/s); the others
 * every 250 ms. Open candles are published every 500 ms, tickers (per symbol and `tickers` for
 * all@ticker) every second.
 *
 * Construction warms up from the grid origin to `startMs` without emitting, so the book, recent
 * trades and the current candles are populated from the first request.
 */
export class MarketSimulator implements MarketSource {
  readonly kind = 'sim' as const;
  private readonly sims: SymbolSim[];
  private readonly bySymbol = new Map<string, SymbolSim>();
  private readonly infos: SymbolInfo[];
  private readonly listeners = new Set<FrameListener>();
  private readonly origin: number;
  /** Index of the next grid point to run. */
  private k = 0;
  private time: number;

  constructor(opts: SimulatorOptions) {
    this.origin = Math.floor(opts.startMs / 60_000) * 60_000 - 60_000;
    this.time = this.origin;
    const seeds = opts.instruments ?? INSTRUMENTS;
    this.sims = seeds.map((s) => new SymbolSim(s, opts.seed, this.origin, s.info.hot ? BASE_STEP_MS : 2 * BASE_STEP_MS));
    for (const s of this.sims) this.bySymbol.set(s.symbol, s);
    this.infos = seeds.map((s) => s.info);
    this.run(opts.startMs, null);
  }

  private run(until: number, emit: ((f: MarketFrame) => void) | null): void {
    for (;;) {
      const t = this.origin + this.k * BASE_STEP_MS;
      if (t > until) break;
      for (const s of this.sims) {
        if (s.stepMs === BASE_STEP_MS || this.k % 2 === 0) s.stepAt(t, emit);
      }
      if (emit !== null && this.k % KLINE_EVERY === 0) for (const s of this.sims) s.emitKlines(emit);
      if (emit !== null && this.k % TICKER_EVERY === 0) {
        const items = this.sims.map((s) => s.ticker(t));
        for (const item of items) emit({ type: 'ticker', ...item });
        emit({ type: 'tickers', items, ts: t });
      }
      this.k++;
    }
    this.time = Math.max(this.time, until);
  }

  private readonly emit = (frame: MarketFrame): void => {
    for (const l of this.listeners) l(frame);
  };

  advanceTo(unixMs: number): void {
    if (unixMs <= this.time) return;
    this.run(unixMs, this.emit);
  }

  now(): number {
    return this.time;
  }

  symbols(): readonly SymbolInfo[] {
    return this.infos;
  }

  symbol(symbol: string): SymbolInfo | undefined {
    return this.bySymbol.get(symbol.toUpperCase())?.seed.info;
  }

  snapshot(symbol: string, limit: number): DepthSnapshot | undefined {
    return this.bySymbol.get(symbol.toUpperCase())?.snapshot(limit);
  }

  recentTrades(symbol: string, limit: number): Trade[] {
    return this.bySymbol.get(symbol.toUpperCase())?.recentTrades(limit) ?? [];
  }

  klines(symbol: string, interval: KlineInterval, from: number | undefined, to: number | undefined, limit: number): Candle[] {
    return this.bySymbol.get(symbol.toUpperCase())?.klines(interval, from, to, limit) ?? [];
  }

  steer(symbol: string, price: string | null): void {
    const sim = this.bySymbol.get(symbol.toUpperCase());
    if (sim === undefined) throw new Error(`Unknown symbol ${symbol}`);
    if (price === null) return sim.steer(null);
    const tick = sim.seed.info.tickSize;
    const value = Number(price);
    const ticks = Math.round(value / tick);
    if (!/^\d+(\.\d+)?$/.test(price) || ticks < 1 || Math.abs(ticks * tick - value) > tick * 1e-6) throw new Error(`Price ${price} is not a positive multiple of the tick ${tick}`);
    sim.steer(ticks);
  }

  tickers(): Ticker[] {
    return this.sims.map((s) => s.ticker(this.time));
  }

  ticker(symbol: string): Ticker | undefined {
    return this.bySymbol.get(symbol.toUpperCase())?.ticker(this.time);
  }

  markPrice(symbol: string): number | undefined {
    return this.bySymbol.get(symbol.toUpperCase())?.markPrice();
  }

  subscribe(listener: FrameListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}

/** Creates the simulator (MARKET_SOURCE=sim). */
export function createSimulator(opts: SimulatorOptions): MarketSimulator {
  return new MarketSimulator(opts);
}
