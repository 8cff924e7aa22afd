import { KLINE_INTERVALS, type Candle, type KlineInterval, type Ticker } from '../../src/protocol/market.ts';
import { addTradeToBar, aggregateBars, bucketStart, lowerBound, nextBucketStart, type Bar } from './candles.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Integer units → protocol numbers for one instrument. */
export interface Units {
  px(ticks: number): number;
  qty(steps: number): number;
  tickSize: number;
  qtyStep: number;
}

/** The 24 h window in integer units (bucket granularity: whole 1m bars). */
export interface DayWindow {
  open: number;
  high: number;
  low: number;
  volume: number;
  /** Σ volume × average bar price, in ticks × steps. */
  quote: number;
}

function foldBar(w: DayWindow | null, b: Bar): DayWindow {
  const out = w ?? { open: b.o, high: b.h, low: b.l, volume: 0, quote: 0 };
  if (b.h > out.high) out.high = b.h;
  if (b.l < out.low) out.low = b.l;
  out.volume += b.v;
  out.quote += b.v * ((b.o + b.c) / 2);
  return out;
}

/**
 * Candles of one symbol built from its trades, on top of optional history bars.
 *
 * `klines()` aggregates closed bars plus the live 1m bar; the open candle of each interval is
 * also kept incrementally for kline frames. Both come from the same integer trade data, so a
 * kline frame and a REST candle for the same bucket are equal.
 */
export class CandleSeries {
  private readonly bars: Bar[];
  private live1m: Bar | null = null;
  private readonly current = new Map<KlineInterval, Bar | null>();
  /** Open time of the bucket after each current one (cached: 1w/1M need calendar maths). */
  private readonly currentEnd = new Map<KlineInterval, number>();
  /** Earliest time at which `roll` has anything to close. */
  private nextRoll = Number.POSITIVE_INFINITY;
  private dirty = false;
  private closedWindow: { since: number; count: number; window: DayWindow | null } | null = null;

  /** `history`: closed bars, oldest first, ending at or before `start`. */
  constructor(history: Bar[], start: number, private readonly units: Units, private readonly symbol: string) {
    this.bars = history;
    for (const iv of KLINE_INTERVALS) {
      const k = bucketStart(iv, start);
      const agg = aggregateBars(this.bars, { interval: iv, from: k, limit: 1 })[0];
      this.setCurrent(iv, agg !== undefined && agg.t === k ? agg : null);
    }
  }

  private setCurrent(iv: KlineInterval, bar: Bar | null): void {
    this.current.set(iv, bar);
    if (bar === null) return;
    const end = nextBucketStart(iv, bar.t);
    this.currentEnd.set(iv, end);
    if (end < this.nextRoll) this.nextRoll = end;
  }

  candle(b: Bar): Candle {
    const u = this.units;
    return { t: b.t, o: u.px(b.o), h: u.px(b.h), l: u.px(b.l), c: u.px(b.c), v: u.qty(b.v) };
  }

  /** Closes every bucket that ended by `time`; `emit` receives the closed kline frames. */
  roll(time: number, emit: ((frame: { type: 'kline'; symbol: string; interval: KlineInterval; candle: Candle; closed: boolean }) => void) | null): void {
    if (time < this.nextRoll) return;
    if (this.live1m !== null && time >= this.live1m.t + MINUTE) {
      this.bars.push(this.live1m);
      this.live1m = null;
    }
    this.nextRoll = Number.POSITIVE_INFINITY;
    for (const iv of KLINE_INTERVALS) {
      const cur = this.current.get(iv);
      if (cur === undefined || cur === null) continue;
      const end = this.currentEnd.get(iv) ?? 0;
      if (time >= end) {
        emit?.({ type: 'kline', symbol: this.symbol, interval: iv, candle: this.candle(cur), closed: true });
        this.current.set(iv, null);
      } else if (end < this.nextRoll) this.nextRoll = end;
    }
  }

  /** Adds a trade at `time` (call `roll(time)` first). */
  addTrade(time: number, priceTicks: number, qtySteps: number): void {
    this.roll(time, null);
    this.live1m = addTradeToBar(this.live1m, bucketStart('1m', time), MINUTE, priceTicks, qtySteps);
    for (const iv of KLINE_INTERVALS) {
      const cur = this.current.get(iv) ?? null;
      if (cur !== null) addTradeToBar(cur, cur.t, 0, priceTicks, qtySteps);
      else this.setCurrent(iv, addTradeToBar(null, bucketStart(iv, time), 0, priceTicks, qtySteps));
    }
    this.dirty = true;
  }

  /** Emits the open candle of every interval if trades changed them since the last call. */
  emitOpen(emit: (frame: { type: 'kline'; symbol: string; interval: KlineInterval; candle: Candle; closed: boolean }) => void): void {
    if (!this.dirty) return;
    this.dirty = false;
    for (const iv of KLINE_INTERVALS) {
      const cur = this.current.get(iv);
      if (cur !== undefined && cur !== null) emit({ type: 'kline', symbol: this.symbol, interval: iv, candle: this.candle(cur), closed: false });
    }
  }

  klines(interval: KlineInterval, from: number | undefined, to: number | undefined, limit: number): Candle[] {
    const source = this.live1m === null ? this.bars : this.bars.concat(this.live1m);
    return aggregateBars(source, { interval, from, to, limit }).map((b) => this.candle(b));
  }

  /** The trailing 24 h window ending at `time`, or null when there is no bar in it. */
  window24h(time: number): DayWindow | null {
    const since = bucketStart('1m', time - DAY);
    // The closed-bar part only changes when a minute passes or a bar closes: cache it.
    if (this.closedWindow === null || this.closedWindow.since !== since || this.closedWindow.count !== this.bars.length) {
      let w: DayWindow | null = null;
      for (let i = lowerBound(this.bars, since); i < this.bars.length; i++) {
        const b = this.bars[i];
        if (b !== undefined) w = foldBar(w, b);
      }
      this.closedWindow = { since, count: this.bars.length, window: w };
    }
    const closed = this.closedWindow.window;
    const copy = closed === null ? null : { ...closed };
    return this.live1m === null ? copy : foldBar(copy, this.live1m);
  }
}

/** A 24 h ticker from a window (null → flat at `lastTicks`) and the last trade price. */
export function buildTicker(symbol: string, units: Units, w: DayWindow | null, lastTicks: number, mark: number | undefined, time: number): Ticker {
  const open = w?.open ?? lastTicks;
  const change = lastTicks - open;
  return {
    symbol,
    last: units.px(lastTicks),
    open: units.px(open),
    high: units.px(Math.max(w?.high ?? lastTicks, lastTicks)),
    low: units.px(Math.min(w?.low ?? lastTicks, lastTicks)),
    volume: units.qty(w?.volume ?? 0),
    quoteVolume: Number(((w?.quote ?? 0) * units.tickSize * units.qtyStep).toFixed(2)),
    change: units.px(change),
    changePct: open > 0 ? Number(((change / open) * 100).toFixed(2)) : 0,
    ...(mark !== undefined ? { mark } : {}),
    ts: time,
  };
}

/** Units for a tick size and quantity step with their display precisions. */
export function makeUnits(tickSize: number, qtyStep: number, pricePrecision: number, qtyPrecision: number): Units {
  // NOTE: round(x * 10^p) / 10^p gives the same double as Number(x.toFixed(p)) for these magnitudes, several times faster.
  const pf = 10 ** pricePrecision;
  const qf = 10 ** qtyPrecision;
  return {
    tickSize,
    qtyStep,
    px: (ticks) => Math.round(ticks * tickSize * pf) / pf,
    qty: (steps) => Math.round(steps * qtyStep * qf) / qf,
  };
}
