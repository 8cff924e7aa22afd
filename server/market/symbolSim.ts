import type { Candle, DepthSnapshot, KlineInterval, Level, MarketFrame, Ticker, Trade } from '../../src/protocol/market.ts';
import { buildTicker, CandleSeries, makeUnits, type Units } from './candleSeries.ts';
import { generateHistory } from './history.ts';
import type { InstrumentSeed } from './instruments.ts';
import { createPrng, hash32, type Prng } from './prng.ts';

const DAY = 24 * 60 * 60_000;
const YEAR = 365 * DAY;
/** Price levels kept on each side of the book. */
export const BOOK_LEVELS = 60;
const TRADE_RING = 500;
const REGIMES = [0.5, 1, 2.2] as const;

/** Emits a frame, or nothing while the simulator is warming up. */
export type Emit = (frame: MarketFrame) => void;

/**
 * One instrument's simulated market. All state is in integer units (price in ticks, quantity in
 * steps) and every random draw comes from the symbol's own PRNG, so a symbol's frames depend only
 * on the seed, its start time and the step times.
 *
 * Invariants: the book is never crossed (best bid < best ask), every quantity is >= 1 step, every
 * price >= 1 tick, `seq` only grows and each diff's `prevSeq` is the previous diff's `lastSeq`.
 */
export class SymbolSim {
  readonly seed: InstrumentSeed;
  readonly symbol: string;
  private readonly prng: Prng;
  private readonly tick: number;
  private readonly step: number;
  private readonly typicalSteps: number;
  /** Ladder spacing in ticks, chosen so one step moves the mid by about one or two levels. */
  private readonly levelTicks: number;
  private readonly sigmaFrac: number;
  private mid: number;
  private emaMid: number;
  private regime = 1;
  private garchVar = 1;
  private lastZ = 0;
  private bestBid = 0;
  private bestAsk = 0;
  private readonly bids = new Map<number, number>();
  private readonly asks = new Map<number, number>();
  private seq: number;
  private tradeId = 0;
  private readonly trades: Trade[] = [];
  private lastPrice: number;
  private readonly units: Units;
  private readonly candles: CandleSeries;
  private lastStepTime: number;
  /**
   * A price a test or operator holds the market at (price ticks), or null for the random walk:
   * see {@link steer}.
   */
  private pinned: number | null = null;
  /** A print at the pinned price is due at the next step. */
  private printDue = false;

  constructor(seed: InstrumentSeed, marketSeed: number, start: number, readonly stepMs: number) {
    this.seed = seed;
    this.symbol = seed.info.symbol;
    this.prng = createPrng((marketSeed ^ hash32(this.symbol)) >>> 0);
    this.tick = seed.info.tickSize;
    this.step = seed.info.qtyStep;
    this.typicalSteps = Math.max(1, Math.round(seed.typicalQty / this.step));
    const startTicks = Math.round(seed.startPrice / this.tick);
    this.sigmaFrac = seed.annualVol * Math.sqrt(stepMs / YEAR);
    this.levelTicks = Math.max(1, Math.round((this.sigmaFrac * startTicks) / 1.5));
    this.mid = startTicks;
    this.emaMid = startTicks;
    this.lastPrice = startTicks;
    this.seq = 1_000 + this.prng.int(1_000_000);
    this.lastStepTime = start;
    this.units = makeUnits(this.tick, this.step, seed.info.pricePrecision, seed.info.qtyPrecision);
    const history = generateHistory({ end: start, endPriceTicks: startTicks, annualVol: seed.annualVol, typicalSteps: this.typicalSteps, prng: createPrng(hash32(`${marketSeed}:${this.symbol}:history`)) });
    this.candles = new CandleSeries(history, start, this.units, this.symbol);
    this.reshapeBook(new Map(), new Map());
  }

  private px(ticks: number): number {
    return this.units.px(ticks);
  }

  private qty(steps: number): number {
    return this.units.qty(steps);
  }

  private levelQty(depth: number): number {
    const base = this.typicalSteps * (0.3 + Math.exp(0.8 * this.prng.normal())) * (1 + depth * 0.05);
    return Math.max(1, Math.round(base));
  }

  /** Aligns the ladder to the current mid; records every level change into the two maps. */
  private reshapeBook(bidChanges: Map<number, number>, askChanges: Map<number, number>): void {
    const L = this.levelTicks;
    const floorLevel = Math.floor(this.mid / L) * L;
    const wide = this.prng.next() < 0.25 ? L : 0;
    this.bestBid = Math.max(L, floorLevel - wide);
    this.bestAsk = Math.max(this.bestBid + L, floorLevel + L);
    const lowBid = this.bestBid - (BOOK_LEVELS - 1) * L;
    const highAsk = this.bestAsk + (BOOK_LEVELS - 1) * L;
    for (const p of [...this.bids.keys()]) {
      if (p > this.bestBid || p < lowBid) {
        this.bids.delete(p);
        bidChanges.set(p, 0);
      }
    }
    for (const p of [...this.asks.keys()]) {
      if (p < this.bestAsk || p > highAsk) {
        this.asks.delete(p);
        askChanges.set(p, 0);
      }
    }
    for (let i = 0; i < BOOK_LEVELS; i++) {
      const b = this.bestBid - i * L;
      if (b >= 1 && !this.bids.has(b)) {
        const q = this.levelQty(i);
        this.bids.set(b, q);
        bidChanges.set(b, q);
      }
      const a = this.bestAsk + i * L;
      if (!this.asks.has(a)) {
        const q = this.levelQty(i);
        this.asks.set(a, q);
        askChanges.set(a, q);
      }
    }
  }

  private poisson(lambda: number): number {
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.prng.next();
    while (p > limit && k < 20) {
      k++;
      p *= this.prng.next();
    }
    return k;
  }

  private recordTrade(time: number, side: 'buy' | 'sell', priceTicks: number, qtySteps: number, emit: Emit | null): void {
    this.tradeId++;
    const trade: Trade = { id: this.tradeId, price: this.px(priceTicks), qty: this.qty(qtySteps), side, ts: time };
    this.trades.push(trade);
    if (this.trades.length > TRADE_RING * 2) this.trades.splice(0, this.trades.length - TRADE_RING);
    this.lastPrice = priceTicks;
    this.candles.addTrade(time, priceTicks, qtySteps);
    if (emit !== null) emit({ type: 'trade', symbol: this.symbol, ...trade });
  }

  /**
   * Holds the market at `priceTicks` from the next step on, or lets it walk again (null). While
   * held, the mid and the mark are exactly that price, the book is laid around it, one trade
   * prints at it (so the last price is it too) and no other trade happens: a browser test moves
   * the market across a trigger instead of waiting for the random walk (MARKET_STEERING, never in
   * production). The walk resumes from the held price.
   */
  steer(priceTicks: number | null): void {
    if (priceTicks !== null && (!Number.isInteger(priceTicks) || priceTicks < 1)) throw new Error(`steer: price ticks must be a positive integer, got ${priceTicks}`);
    this.pinned = priceTicks;
    this.printDue = priceTicks !== null;
  }

  /** The held price in ticks, or null while the market walks. */
  steeredTicks(): number | null {
    return this.pinned;
  }

  /** One simulation step at `time` (a point of the symbol's step grid). */
  stepAt(time: number, emit: Emit | null): void {
    this.lastStepTime = time;
    this.candles.roll(time, emit);
    if (this.pinned !== null) {
      this.heldStep(time, this.pinned, emit);
      return;
    }
    if (this.prng.next() < 0.002) this.regime = REGIMES[this.prng.int(REGIMES.length)] ?? 1;
    // GARCH(1,1)-like variance with unit long-run mean: busy periods cluster.
    this.garchVar = 0.05 + 0.1 * this.lastZ * this.lastZ + 0.85 * this.garchVar;
    const z = this.prng.normal();
    this.lastZ = z;
    const sigmaTicks = this.sigmaFrac * this.mid * this.regime * Math.sqrt(this.garchVar);
    const oldBid = this.bestBid;
    const oldAsk = this.bestAsk;
    this.mid = Math.max(this.levelTicks * 20, this.mid + sigmaTicks * z);
    this.emaMid += 0.1 * ((this.bestBid + this.bestAsk) / 2 - this.emaMid);

    const bidChanges = new Map<number, number>();
    const askChanges = new Map<number, number>();
    this.reshapeBook(bidChanges, askChanges);
    const up = this.bestAsk > oldAsk;
    const down = this.bestBid < oldBid;
    const n = this.poisson(this.seed.info.hot ? 0.5 : 0.8) + (up || down ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const buy = up ? this.prng.next() < 0.75 : down ? this.prng.next() < 0.25 : this.prng.next() < 0.5;
      const price = buy ? this.bestAsk : this.bestBid;
      const side = buy ? this.asks : this.bids;
      const level = side.get(price) ?? 1;
      const q = Math.max(1, Math.round(this.typicalSteps * 0.3 * Math.exp(0.9 * this.prng.normal())));
      const take = Math.min(q, level);
      // The taker consumes the level; a fully taken level is refilled by a new resting order.
      const rest = level - take > 0 ? level - take : this.levelQty(0);
      side.set(price, rest);
      (buy ? askChanges : bidChanges).set(price, rest);
      this.recordTrade(time, buy ? 'buy' : 'sell', price, take, emit);
    }
    // A few resting orders come and go deeper in the book.
    const touches = 1 + this.prng.int(4);
    for (let i = 0; i < touches; i++) {
      const bidSide = this.prng.next() < 0.5;
      const depth = this.prng.int(BOOK_LEVELS);
      const price = bidSide ? this.bestBid - depth * this.levelTicks : this.bestAsk + depth * this.levelTicks;
      const side = bidSide ? this.bids : this.asks;
      if (!side.has(price)) continue;
      const q = this.levelQty(depth);
      side.set(price, q);
      (bidSide ? bidChanges : askChanges).set(price, q);
    }
    this.publishDepth(time, bidChanges, askChanges, emit);
  }

  /** A step while the market is held at `target` ticks: the book around it, one print, no walk. */
  private heldStep(time: number, target: number, emit: Emit | null): void {
    const oldMid = this.mid;
    this.mid = target;
    this.emaMid = target;
    const bidChanges = new Map<number, number>();
    const askChanges = new Map<number, number>();
    this.reshapeBook(bidChanges, askChanges);
    if (this.printDue) {
      this.printDue = false;
      this.recordTrade(time, target >= oldMid ? 'buy' : 'sell', target, this.typicalSteps, emit);
    }
    this.publishDepth(time, bidChanges, askChanges, emit);
  }

  /** Advances `seq` over the level changes of one step and emits them as one depth diff. */
  private publishDepth(time: number, bidChanges: Map<number, number>, askChanges: Map<number, number>, emit: Emit | null): void {
    const changes = bidChanges.size + askChanges.size;
    if (changes === 0) return;
    const prevSeq = this.seq;
    this.seq += changes;
    if (emit === null) return;
    const bids: Level[] = [...bidChanges].sort((a, b) => b[0] - a[0]).map(([p, q]) => [this.px(p), this.qty(q)]);
    const asks: Level[] = [...askChanges].sort((a, b) => a[0] - b[0]).map(([p, q]) => [this.px(p), this.qty(q)]);
    emit({ type: 'depth', symbol: this.symbol, snapshot: false, firstSeq: prevSeq + 1, lastSeq: this.seq, prevSeq, bids, asks, ts: time });
  }

  /** Emits the open candles of every interval if trades changed them since the last call. */
  emitKlines(emit: Emit): void {
    this.candles.emitOpen(emit);
  }

  snapshot(limit: number): DepthSnapshot {
    const bids: Level[] = [...this.bids].sort((a, b) => b[0] - a[0]).slice(0, limit).map(([p, q]) => [this.px(p), this.qty(q)]);
    const asks: Level[] = [...this.asks].sort((a, b) => a[0] - b[0]).slice(0, limit).map(([p, q]) => [this.px(p), this.qty(q)]);
    return { symbol: this.symbol, seq: this.seq, bids, asks, ts: this.lastStepTime };
  }

  recentTrades(limit: number): Trade[] {
    return this.trades.slice(-limit).reverse();
  }

  klines(interval: KlineInterval, from: number | undefined, to: number | undefined, limit: number): Candle[] {
    return this.candles.klines(interval, from, to, limit);
  }

  markPrice(): number {
    return this.px(Math.round(this.emaMid));
  }

  /** 24 h rolling ticker from the 1m bars (bucket granularity) and the live bar. */
  ticker(time: number): Ticker {
    return buildTicker(this.symbol, this.units, this.candles.window24h(time), this.lastPrice, this.markPrice(), time);
  }
}
