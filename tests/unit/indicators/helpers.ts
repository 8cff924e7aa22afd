/** Small helpers for hand-worked indicator tests. */
import { expect } from 'vitest';
import type { Candle } from '../../../src/protocol/market.ts';
import type { Series } from '../../../src/indicators/series.ts';

/** A candle from its OHLCV; `t` is the index in minutes (irrelevant to every indicator). */
export function k(o: number, h: number, l: number, c: number, v = 1, t = 0): Candle {
  return { t, o, h, l, c, v };
}

/** Candles whose only meaningful field is the close (o = h = l = c). */
export function fromCloses(values: readonly number[]): Candle[] {
  return values.map((c, i) => ({ t: i * 60_000, o: c, h: c, l: c, c, v: 1 }));
}

/** Expects the same length, `null` exactly where `expected` has it, values within `tol`. */
export function expectSeries(actual: Series | undefined, expected: readonly (number | null)[], tol = 1e-9): void {
  expect(actual).toBeDefined();
  const a = actual as Series;
  expect(a.length).toBe(expected.length);
  expected.forEach((e, i) => {
    if (e === null) expect(a[i], `index ${i}`).toBeNull();
    else {
      expect(a[i], `index ${i}`).not.toBeNull();
      expect(Math.abs((a[i] as number) - e), `index ${i}: got ${a[i]}, want ${e}`).toBeLessThanOrEqual(tol);
    }
  });
}
