/**
 * Series primitives shared by every indicator (docs/INDICATORS.md).
 *
 * Conventions that every function here keeps, so indicators can be composed freely:
 * - A `Series` is aligned with the candle array: index i belongs to candle i, and the length
 *   always equals the input length.
 * - `null` marks "not defined yet" (the warm-up period). NaN is never produced: a value is
 *   either a finite number or `null`. Nulls only ever form a prefix of a series; once a
 *   value is defined, every later value is defined too.
 * - Windowed sums are recomputed per window rather than kept as a running sum, so a constant
 *   input cannot drift through floating-point accumulation (windows are at most a few
 *   dozen candles, so the O(n·k) cost is negligible next to rendering).
 */

/** One output line of an indicator, aligned with the candles; `null` during warm-up. */
export type Series = (number | null)[];

/** Index of the first non-null value, or `src.length` when there is none. */
export function firstDefined(src: readonly (number | null)[]): number {
  for (let i = 0; i < src.length; i++) if (src[i] !== null && src[i] !== undefined) return i;
  return src.length;
}

/** A series of `length` nulls. */
export function nulls(length: number): Series {
  return new Array<number | null>(length).fill(null);
}

/**
 * Applies `fn` to the values of a window of `n` items ending at each index; `null` while
 * the window is not full of defined values. `fn` receives the window oldest first.
 */
export function rolling(src: readonly (number | null)[], n: number, fn: (window: number[]) => number): Series {
  const out = nulls(src.length);
  if (n < 1) return out;
  const start = firstDefined(src);
  for (let i = start + n - 1; i < src.length; i++) {
    const window: number[] = [];
    for (let j = i - n + 1; j <= i; j++) window.push(src[j] as number);
    out[i] = fn(window);
  }
  return out;
}

/** Sum of the values of a window. */
export function sum(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s;
}

/** Arithmetic mean of a non-empty window. */
export function mean(values: readonly number[]): number {
  return sum(values) / values.length;
}

/** Rolling sum over `n` values (tongdaxin `SUM(X, N)`). */
export function rollingSum(src: readonly (number | null)[], n: number): Series {
  return rolling(src, n, sum);
}

/** Simple moving average over `n` values (tongdaxin `MA(X, N)`, TA-Lib `SMA`). */
export function rollingMean(src: readonly (number | null)[], n: number): Series {
  return rolling(src, n, mean);
}

/** Population standard deviation over `n` values (TA-Lib `STDDEV`, as BBANDS uses), two-pass. */
export function rollingStd(src: readonly (number | null)[], n: number): Series {
  return rolling(src, n, (w) => {
    const m = mean(w);
    let ss = 0;
    for (const v of w) ss += (v - m) * (v - m);
    return Math.sqrt(ss / w.length);
  });
}

/** Highest value of a window of `n` (tongdaxin `HHV`). */
export function rollingMax(src: readonly (number | null)[], n: number): Series {
  return rolling(src, n, (w) => Math.max(...w));
}

/** Lowest value of a window of `n` (tongdaxin `LLV`). */
export function rollingMin(src: readonly (number | null)[], n: number): Series {
  return rolling(src, n, (w) => Math.min(...w));
}

/**
 * Exponential moving average with α = 2 / (n + 1), seeded TA-Lib style: the first value is
 * the simple mean of the first `n` defined inputs, placed at the last of them. This is what
 * TA-Lib's `EMA` and TradingView's `ta.ema` do; seeding with the first close instead (some
 * charting libraries) differs only by a term that decays as ((n-1)/(n+1))^k.
 */
export function emaSeries(src: readonly (number | null)[], n: number): Series {
  return recursiveMean(src, n, 2 / (n + 1));
}

/**
 * Chinese-style SMA (tongdaxin `SMA(X, N, M)`): Y = (M·X + (N−M)·Y′) / N, i.e. an
 * exponential average with α = M / N. Seeded like {@link emaSeries} with the mean of the
 * first `n` defined inputs. Requires 0 < m ≤ n.
 */
export function chineseSma(src: readonly (number | null)[], n: number, m: number): Series {
  return recursiveMean(src, n, m / n);
}

/**
 * Wilder's smoothing (RMA): Y = (X + (n−1)·Y′) / n, α = 1 / n, seeded with the mean of the
 * first `n` defined inputs (as TA-Lib's RSI and ATR do).
 */
export function wilderSeries(src: readonly (number | null)[], n: number): Series {
  return recursiveMean(src, n, 1 / n);
}

function recursiveMean(src: readonly (number | null)[], n: number, alpha: number): Series {
  const out = nulls(src.length);
  if (n < 1) return out;
  const start = firstDefined(src);
  const seedAt = start + n - 1;
  if (seedAt >= src.length) return out;
  let prev = mean(src.slice(start, seedAt + 1) as number[]);
  out[seedAt] = prev;
  for (let i = seedAt + 1; i < src.length; i++) {
    prev = alpha * (src[i] as number) + (1 - alpha) * prev;
    out[i] = prev;
  }
  return out;
}

/** `REF(X, k)`: the value k candles earlier; `null` for the first k candles. */
export function shift(src: readonly (number | null)[], k: number): Series {
  const out = nulls(src.length);
  for (let i = k; i < src.length; i++) out[i] = src[i - k] ?? null;
  return out;
}

/** Element-wise combination of two aligned series; `null` where either input is `null`. */
export function zip(
  a: readonly (number | null)[],
  b: readonly (number | null)[],
  fn: (x: number, y: number) => number,
): Series {
  const out = nulls(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== null && x !== undefined && y !== null && y !== undefined) out[i] = fn(x, y);
  }
  return out;
}

/** Element-wise map of a series; `null` stays `null`. */
export function mapSeries(a: readonly (number | null)[], fn: (x: number, i: number) => number): Series {
  return a.map((x, i) => (x === null ? null : fn(x, i)));
}

/**
 * `a / b · scale`, with the documented convention that a zero denominator gives 0 (used by
 * the ratio indicators BRAR, CR, VR, DMI, CCI, BIAS so no Infinity/NaN can reach a chart).
 */
export function safeRatio(a: number, b: number, scale = 1): number {
  return b === 0 ? 0 : (a / b) * scale;
}
