import type { KlineInterval } from '../../src/protocol/market.ts';

/**
 * Candle arithmetic shared by the simulator and the player.
 *
 * Bars are stored in integer units (price in ticks, volume in quantity steps) so that summing
 * trades into a 1m bar and summing 1m bars into a 1d bar give exactly the same numbers.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Fixed duration of each interval; 1M uses 28 days only as an upper bound for "fits inside". */
export const INTERVAL_MS: Record<KlineInterval, number> = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '1d': DAY,
  '1w': 7 * DAY,
  '1M': 28 * DAY,
};

/**
 * Open time of the calendar bucket (UTC) that contains `t`: minutes and hours from the epoch,
 * days at 00:00 UTC, weeks on Monday 00:00 UTC, months on the 1st at 00:00 UTC.
 */
export function bucketStart(interval: KlineInterval, t: number): number {
  switch (interval) {
    case '1m':
    case '5m':
    case '15m':
    case '30m':
    case '1h':
    case '1d': {
      const d = INTERVAL_MS[interval];
      return Math.floor(t / d) * d;
    }
    case '1w': {
      const day = Math.floor(t / DAY) * DAY;
      const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday = 0
      return day - weekday * DAY;
    }
    case '1M': {
      const d = new Date(t);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
  }
}

/** Open time of the bucket after the one containing `t`. */
export function nextBucketStart(interval: KlineInterval, t: number): number {
  const start = bucketStart(interval, t);
  if (interval === '1M') {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return start + INTERVAL_MS[interval];
}

/** A bar in integer units: `o/h/l/c` in ticks, `v` in quantity steps, `dur` its length in ms. */
export interface Bar {
  t: number;
  dur: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** Folds a trade (ticks, steps) into a bar, or starts one. Mutates and returns `bar`. */
export function addTradeToBar(bar: Bar | null, t: number, dur: number, priceTicks: number, qtySteps: number): Bar {
  if (bar === null) return { t, dur, o: priceTicks, h: priceTicks, l: priceTicks, c: priceTicks, v: qtySteps };
  if (priceTicks > bar.h) bar.h = priceTicks;
  if (priceTicks < bar.l) bar.l = priceTicks;
  bar.c = priceTicks;
  bar.v += qtySteps;
  return bar;
}

function mergeInto(acc: Bar, b: Bar): void {
  if (b.h > acc.h) acc.h = b.h;
  if (b.l < acc.l) acc.l = b.l;
  acc.c = b.c;
  acc.v += b.v;
}

/** Binary search: index of the first bar with `t >= time` (bars sorted by t). */
export function lowerBound(bars: readonly Bar[], time: number): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const b = bars[mid];
    if (b !== undefined && b.t < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface KlineQuery {
  interval: KlineInterval;
  from?: number | undefined;
  to?: number | undefined;
  limit: number;
}

/**
 * Aggregates `bars` (sorted by t; coarse history first, finer bars later) into calendar candles
 * of `interval`, returning at most `limit` buckets in ascending time: the first `limit` from
 * `from` when `from` is given, else the last `limit` up to `to`. Bars longer than the interval are
 * not usable for it, and a bucket only partly covered by usable bars (the oldest one) is left out,
 * so every returned candle is complete.
 */
export function aggregateBars(bars: readonly Bar[], q: KlineQuery): Bar[] {
  const ivMs = INTERVAL_MS[q.interval];
  // Usable bars form a suffix of the array: history layers get finer towards the present.
  let first = bars.length;
  for (let i = bars.length - 1; i >= 0; i--) {
    const b = bars[i];
    if (b === undefined || b.dur > ivMs) break;
    first = i;
  }
  const firstBar = bars[first];
  if (firstBar === undefined) return [];
  let minBucket = bucketStart(q.interval, firstBar.t);
  if (minBucket !== firstBar.t) minBucket = nextBucketStart(q.interval, firstBar.t);
  const to = q.to ?? Number.POSITIVE_INFINITY;
  const out: Bar[] = [];
  if (q.from !== undefined) {
    const startTime = Math.max(minBucket, bucketStart(q.interval, q.from));
    let cur: Bar | null = null;
    for (let i = Math.max(first, lowerBound(bars, startTime)); i < bars.length; i++) {
      const b = bars[i];
      if (b === undefined) break;
      const k = bucketStart(q.interval, b.t);
      if (k > to) break;
      if (cur !== null && cur.t === k) mergeInto(cur, b);
      else {
        if (out.length === q.limit) break;
        cur = { t: k, dur: ivMs, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v };
        out.push(cur);
      }
    }
    return out;
  }
  // Walk backwards from `to`, building buckets in reverse.
  let end = bars.length - 1;
  // A bucket is included whole when its open time is <= `to`.
  if (Number.isFinite(to)) end = lowerBound(bars, nextBucketStart(q.interval, to)) - 1;
  let cur: Bar | null = null;
  for (let i = end; i >= first; i--) {
    const b = bars[i];
    if (b === undefined) break;
    const k = bucketStart(q.interval, b.t);
    if (k < minBucket) break;
    if (cur !== null && cur.t === k) {
      // Going backwards: this bar comes before what `cur` holds.
      if (b.h > cur.h) cur.h = b.h;
      if (b.l < cur.l) cur.l = b.l;
      cur.o = b.o;
      cur.v += b.v;
    } else {
      if (out.length === q.limit) break;
      cur = { t: k, dur: ivMs, o: b.o, h: b.h, l: b.l, c: b.c, v: b.v };
      out.push(cur);
    }
  }
  return out.reverse();
}
