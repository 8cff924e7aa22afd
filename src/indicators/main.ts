/**
 * Main-chart indicators (SPEC §9): drawn over the price candles, in price units.
 * Formulas, defaults and warm-up of each are in docs/INDICATORS.md; every function is pure,
 * returns series aligned with `candles` and uses `null` for the warm-up (see series.ts).
 */
import type { Candle } from '../protocol/market.ts';
import { chineseSma, emaSeries, nulls, rollingMean, rollingStd, zip, type Series } from './series.ts';

/** Closing prices as a series. */
export function closes(candles: readonly Candle[]): number[] {
  return candles.map((c) => c.c);
}

/** MA: simple moving averages of the close, one series per period (default 5/10/30/60). */
export function ma(candles: readonly Candle[], periods: readonly number[] = [5, 10, 30, 60]): Series[] {
  const c = closes(candles);
  return periods.map((n) => rollingMean(c, n));
}

/** EMA: exponential moving averages of the close, SMA-seeded (default 6/12/20). */
export function ema(candles: readonly Candle[], periods: readonly number[] = [6, 12, 20]): Series[] {
  const c = closes(candles);
  return periods.map((n) => emaSeries(c, n));
}

/** SMA: the Chinese-style weighted moving average SMA(close, N, M), default N = 12, M = 2. */
export function sma(candles: readonly Candle[], n = 12, m = 2): Series {
  return chineseSma(closes(candles), n, m);
}

/** Bollinger bands: middle = MA(n), upper/lower = middle ± k · population σ (default 20, 2). */
export interface BollResult {
  upper: Series;
  middle: Series;
  lower: Series;
}

/** BOLL(n, k); the same definition as TA-Lib BBANDS with MA type SMA and nbDevUp = nbDevDn = k. */
export function boll(candles: readonly Candle[], n = 20, k = 2): BollResult {
  const c = closes(candles);
  const middle = rollingMean(c, n);
  const sd = rollingStd(c, n);
  return {
    upper: zip(middle, sd, (m, s) => m + k * s),
    middle,
    lower: zip(middle, sd, (m, s) => m - k * s),
  };
}

/** BBI (bull and bear index): the mean of four MAs of the close (default 3/6/12/24). */
export function bbi(candles: readonly Candle[], periods: readonly number[] = [3, 6, 12, 24]): Series {
  const mas = ma(candles, periods);
  const out = nulls(candles.length);
  for (let i = 0; i < candles.length; i++) {
    let s = 0;
    let complete = periods.length > 0;
    for (const series of mas) {
      const v = series[i];
      if (v === null || v === undefined) {
        complete = false;
        break;
      }
      s += v;
    }
    if (complete) out[i] = s / periods.length;
  }
  return out;
}

/**
 * Parabolic SAR (Wilder), default acceleration start 0.02, step 0.02, maximum 0.2.
 *
 * Follows TA-Lib's `SAR` exactly (where start = step): the initial direction is short when
 * candle 1 has a positive −DM against candle 0 and long otherwise; the first SAR is candle
 * 0's low (long) or high (short) and the first extreme point candle 1's high (long) or low
 * (short). The SAR never enters the previous two candles' range; on a reversal it jumps to
 * the extreme point. Value at index 0 is `null`; every later candle has one.
 */
export function sar(candles: readonly Candle[], start = 0.02, step = 0.02, max = 0.2): Series {
  const out = nulls(candles.length);
  const first = candles[0];
  const second = candles[1];
  if (first === undefined || second === undefined) return out;
  let s = sarSeed(first, second, start);
  for (let i = 1; i < candles.length; i++) {
    const [next, value] = sarStep(s, candles[i] as Candle, start, step, max);
    out[i] = value;
    s = next;
  }
  return out;
}

/** SAR's state between candles: the direction, acceleration, extreme point, next SAR and the last candle's range. */
export interface SarState {
  readonly isLong: boolean;
  readonly af: number;
  readonly ep: number;
  readonly value: number;
  readonly newHigh: number;
  readonly newLow: number;
}

/**
 * The state before candle 1 (TA-Lib's seed): short when candle 1 has a positive −DM against candle 0;
 * like TA-Lib, the "previous" candle of the first step is candle 1 itself.
 */
export function sarSeed(first: Candle, second: Candle, start: number): SarState {
  const diffPlus = second.h - first.h;
  const diffMinus = first.l - second.l;
  const minusDm = diffMinus > 0 && diffPlus < diffMinus ? diffMinus : 0;
  const isLong = !(minusDm > 0);
  return { isLong, af: start, ep: isLong ? second.h : second.l, value: isLong ? first.l : first.h, newHigh: second.h, newLow: second.l };
}

/** One candle of SAR: the state after it and its SAR value (the full series and the live update share it). */
export function sarStep(s: SarState, candle: Candle, start: number, step: number, max: number): [SarState, number] {
  let { isLong, af, ep, value } = s;
  const prevHigh = s.newHigh;
  const prevLow = s.newLow;
  const newHigh = candle.h;
  const newLow = candle.l;
  let out: number;
  if (isLong) {
    if (newLow <= value) {
      isLong = false;
      value = Math.max(ep, prevHigh, newHigh);
      out = value;
      af = start;
      ep = newLow;
      value = Math.max(value + af * (ep - value), prevHigh, newHigh);
    } else {
      out = value;
      if (newHigh > ep) {
        ep = newHigh;
        af = Math.min(af + step, max);
      }
      value = Math.min(value + af * (ep - value), prevLow, newLow);
    }
  } else if (newHigh >= value) {
    isLong = true;
    value = Math.min(ep, prevLow, newLow);
    out = value;
    af = start;
    ep = newHigh;
    value = Math.min(value + af * (ep - value), prevLow, newLow);
  } else {
    out = value;
    if (newLow < ep) {
      ep = newLow;
      af = Math.min(af + step, max);
    }
    value = Math.max(value + af * (ep - value), prevHigh, newHigh);
  }
  return [{ isLong, af, ep, value, newHigh, newLow }, out];
}
