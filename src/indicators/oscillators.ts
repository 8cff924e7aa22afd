/**
 * Sub-chart oscillators (SPEC §9): MACD, KDJ, RSI, BIAS, CCI, AO. Pure functions over
 * candles; series aligned with the input, `null` during warm-up (series.ts). Formulas and
 * defaults: docs/INDICATORS.md.
 */
import type { Candle } from '../protocol/market.ts';
import { closes } from './main.ts';
import {
  emaSeries,
  mean,
  nulls,
  rolling,
  rollingMax,
  rollingMean,
  rollingMin,
  safeRatio,
  zip,
  type Series,
} from './series.ts';

/** MACD lines: DIF (fast EMA − slow EMA), DEA (signal EMA of DIF) and the histogram DIF − DEA. */
export interface MacdResult {
  dif: Series;
  dea: Series;
  /** DIF − DEA, as TA-Lib's `macdhist`. Some Chinese charts draw 2·(DIF − DEA); we do not. */
  macd: Series;
}

/**
 * MACD(fast, slow, signal), default 12/26/9. Each EMA is SMA-seeded at its own first full
 * window (DIF from index slow−1, DEA from slow+signal−2). TA-Lib instead seeds the fast EMA
 * at index slow−1 too; the difference decays as (11/13)^k and is below 1e-9 on BTC prices
 * after ~150 candles (tests/unit/indicators/talib.test.ts).
 */
export function macd(candles: readonly Candle[], fast = 12, slow = 26, signal = 9): MacdResult {
  const c = closes(candles);
  const dif = zip(emaSeries(c, fast), emaSeries(c, slow), (f, s) => f - s);
  const dea = emaSeries(dif, signal);
  return { dif, dea, macd: zip(dif, dea, (d, e) => d - e) };
}

/** KDJ lines; K and D stay within [0, 100], J = 3K − 2D may leave it. */
export interface KdjResult {
  k: Series;
  d: Series;
  j: Series;
}

/**
 * KDJ(n, m1, m2), default 9/3/3 (tongdaxin): RSV = (C − LLV(L, n)) / (HHV(H, n) − LLV(L, n)) · 100,
 * K = SMA(RSV, m1, 1), D = SMA(K, m2, 1), J = 3K − 2D, with K and D seeded at 50 the candle
 * before the first RSV. When the n-candle range is zero RSV is taken as 50 (no information,
 * neutral). First value at index n − 1.
 */
export function kdj(candles: readonly Candle[], n = 9, m1 = 3, m2 = 3): KdjResult {
  const hhv = rollingMax(
    candles.map((x) => x.h),
    n,
  );
  const llv = rollingMin(
    candles.map((x) => x.l),
    n,
  );
  const k = nulls(candles.length);
  const d = nulls(candles.length);
  const j = nulls(candles.length);
  let prevK = 50;
  let prevD = 50;
  for (let i = 0; i < candles.length; i++) {
    const hi = hhv[i];
    const lo = llv[i];
    if (hi === null || hi === undefined || lo === null || lo === undefined) continue;
    const close = (candles[i] as Candle).c;
    const rsv = hi === lo ? 50 : ((close - lo) / (hi - lo)) * 100;
    prevK = ((m1 - 1) * prevK + rsv) / m1;
    prevD = ((m2 - 1) * prevD + prevK) / m2;
    k[i] = prevK;
    d[i] = prevD;
    j[i] = 3 * prevK - 2 * prevD;
  }
  return { k, d, j };
}

/**
 * RSI(n) with Wilder's smoothing, exactly TA-Lib's `RSI`: the first value (index n) uses the
 * simple means of the first n gains and losses, later values Wilder-smooth them; RSI =
 * 100 · avgGain / (avgGain + avgLoss). When both averages are 0 (a flat market) RSI is 50
 * by our convention (TA-Lib returns 0 there). Range [0, 100].
 */
export function rsiSeries(src: readonly number[], n: number): Series {
  const out = nulls(src.length);
  if (n < 1 || src.length <= n) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= n; i++) {
    const ch = (src[i] as number) - (src[i - 1] as number);
    if (ch > 0) gain += ch;
    else loss -= ch;
  }
  gain /= n;
  loss /= n;
  // Flat: average moves below 1e-9 of the price are no movement at any display precision. Wilder's
  // smoothing never forgets, so without this a window flat for hundreds of candles would show the
  // ratio of two float residues (~1e-80) of a move long gone, and a chart holding only the last
  // candles would disagree with one holding them all.
  const value = (price: number): number => (gain + loss <= 1e-9 * Math.abs(price) ? 50 : (100 * gain) / (gain + loss));
  out[n] = value(src[n] as number);
  for (let i = n + 1; i < src.length; i++) {
    const ch = (src[i] as number) - (src[i - 1] as number);
    gain = (gain * (n - 1) + (ch > 0 ? ch : 0)) / n;
    loss = (loss * (n - 1) + (ch < 0 ? -ch : 0)) / n;
    out[i] = value(src[i] as number);
  }
  return out;
}

/** RSI of the close for each period (default 6/12/24). */
export function rsi(candles: readonly Candle[], periods: readonly number[] = [6, 12, 24]): Series[] {
  const c = closes(candles);
  return periods.map((n) => rsiSeries(c, n));
}

/** BIAS: (C − MA(C, n)) / MA(C, n) · 100 for each period (default 6/12/24). */
export function bias(candles: readonly Candle[], periods: readonly number[] = [6, 12, 24]): Series[] {
  const c = closes(candles);
  return periods.map((n) => zip(c, rollingMean(c, n), (close, m) => safeRatio(close - m, m, 100)));
}

/**
 * CCI(n), default 14 (TA-Lib's default): TP = (H + L + C) / 3,
 * CCI = (TP − MA(TP, n)) / (0.015 · MD), MD = mean |TP − MA(TP, n)| over the same window.
 * A zero (below 1e-12 of the price) mean deviation, i.e. a flat window, gives 0. First value at index n − 1.
 */
export function cci(candles: readonly Candle[], n = 14): Series {
  const tp = candles.map((x) => (x.h + x.l + x.c) / 3);
  return rolling(tp, n, (w) => {
    const m = mean(w);
    let dev = 0;
    for (const v of w) dev += Math.abs(v - m);
    dev /= w.length;
    const last = w[w.length - 1] as number;
    // NOTE: a flat window's computed mean can be an ulp off its values, which would turn
    // rounding noise into CCI = ±66.7; a deviation below 1e-12 of the price level is zero.
    if (dev <= Math.abs(m) * 1e-12) return 0;
    return (last - m) / (0.015 * dev);
  });
}

/**
 * AO (Awesome Oscillator, Bill Williams), default 5/34: MA((H + L) / 2, 5) − MA((H + L) / 2, 34).
 * First value at index 33. The chart colours a bar green when it is above the previous one.
 */
export function ao(candles: readonly Candle[], fast = 5, slow = 34): Series {
  const median = candles.map((x) => (x.h + x.l) / 2);
  return zip(rollingMean(median, fast), rollingMean(median, slow), (f, s) => f - s);
}
