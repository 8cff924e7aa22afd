/**
 * SMA, EMA, RSI, MACD and BOLL against TA-Lib's own outputs for 1000 Binance BTCUSDT 15m
 * candles (fixtures/market-data/btcusdt-15m-talib, from allister633/binance-algotrade).
 * The expected numbers were produced by TA-Lib (C), not by this code.
 */
import { describe, expect, it } from 'vitest';
import { boll, closes, ema, ma } from '../../../src/indicators/main.ts';
import { macd, rsi } from '../../../src/indicators/oscillators.ts';
import { emaSeries, zip, type Series } from '../../../src/indicators/series.ts';
import { talibCandles, talibColumn } from './marketData.ts';

const candles = talibCandles();

/** Asserts equal null (warm-up) positions and |a − b| ≤ tol wherever both are defined, from `from` on. */
function expectClose(actual: Series, expected: (number | null)[], tol: number, from = 0): void {
  expect(actual.length).toBe(expected.length);
  let compared = 0;
  for (let i = from; i < expected.length; i++) {
    const e = expected[i] ?? null;
    const a = actual[i] ?? null;
    if (e === null) {
      expect(a, `index ${i} should be warm-up`).toBeNull();
      continue;
    }
    expect(a, `index ${i} should be defined`).not.toBeNull();
    expect(Math.abs((a as number) - e), `index ${i}: ${a} vs ${e}`).toBeLessThanOrEqual(tol);
    compared++;
  }
  expect(compared).toBeGreaterThan(750);
}

describe('TA-Lib reference, BTCUSDT 15m', () => {
  it('has 1000 candles', () => {
    expect(candles).toHaveLength(1000);
    expect(candles[0]).toMatchObject({ o: 8416.26, h: 8428.16, l: 8371.0, c: 8379.13 });
  });

  it('MA(9) equals TA-Lib SMA9 including its 8-candle warm-up', () => {
    expectClose(ma(candles, [9])[0] as Series, talibColumn('BTCUSDT_15m_SMA9.csv', 'sma9'), 1e-8);
  });

  it('EMA(21) equals TA-Lib EMA21 (same SMA seed at index 20)', () => {
    expectClose(ema(candles, [21])[0] as Series, talibColumn('BTCUSDT_15m_EMA21.csv', 'ema21'), 1e-8);
  });

  it('RSI(9) equals TA-Lib RSI9 (Wilder, first value at index 9)', () => {
    expectClose(rsi(candles, [9])[0] as Series, talibColumn('BTCUSDT_15m_RSI9.csv', 'rsi'), 1e-9);
  });

  it('BOLL(5, 2) equals TA-Lib BBANDS5 2σ', () => {
    const b = boll(candles, 5, 2);
    // TA-Lib computes the variance as E[x²] − E[x]², which loses ~1e-7 on prices near 8000;
    // we use the two-pass form, hence the 1e-6 absolute (≈1e-10 relative) tolerance.
    expectClose(b.upper, talibColumn('BTCUSDT_15m_BBANDS5.csv', 'upperband'), 1e-6);
    expectClose(b.middle, talibColumn('BTCUSDT_15m_BBANDS5.csv', 'middleband'), 1e-8);
    expectClose(b.lower, talibColumn('BTCUSDT_15m_BBANDS5.csv', 'lowerband'), 1e-6);
  });

  describe('MACD(12, 26, 9)', () => {
    const ref = {
      dif: talibColumn('BTCUSDT_15m_MACD_12_26_9.csv', 'macd'),
      dea: talibColumn('BTCUSDT_15m_MACD_12_26_9.csv', 'macdsignal'),
      hist: talibColumn('BTCUSDT_15m_MACD_12_26_9.csv', 'macdhist'),
    };
    const m = macd(candles);

    it('starts DEA and the histogram where TA-Lib does (index 33); DIF already at 25', () => {
      expect(m.dif.findIndex((v) => v !== null)).toBe(25);
      expect(m.dea.findIndex((v) => v !== null)).toBe(33);
      expect(m.macd.findIndex((v) => v !== null)).toBe(33);
      expect(ref.dea.findIndex((v) => v !== null)).toBe(33);
    });

    it('converges to TA-Lib once the fast-EMA seeding difference has decayed (from index 200)', () => {
      expectClose(m.dif, ref.dif, 1e-8, 200);
      expectClose(m.dea, ref.dea, 1e-8, 200);
      expectClose(m.macd, ref.hist, 1e-8, 200);
    });

    it('the only difference is the seeding: a fast EMA seeded at index 25 matches TA-Lib from index 33', () => {
      // TA-Lib seeds the fast EMA with the mean of closes 14..25 (so it lines up with the slow
      // EMA), where a standalone EMA(12) seeds with closes 0..11. Hide closes 0..13 to mimic it.
      const c: (number | null)[] = closes(candles);
      const hidden = c.map((v, i) => (i < 14 ? null : v));
      const dif = zip(emaSeries(hidden, 12), emaSeries(c, 26), (f, s) => f - s);
      const dea = emaSeries(dif, 9);
      const defined = (s: Series) => s.map((v, i) => (i < 33 ? null : v));
      expectClose(defined(dif), ref.dif, 1e-8);
      expectClose(dea, ref.dea, 1e-8);
    });

    it('the seeding difference shrinks at the fast EMA decay rate 11/13 per candle', () => {
      const d33 = Math.abs((m.dif[33] as number) - (ref.dif[33] as number));
      expect(d33).toBeGreaterThan(0.1); // a real, visible difference at the start
      for (const k of [20, 50, 100]) {
        const dk = Math.abs((m.dif[33 + k] as number) - (ref.dif[33 + k] as number));
        expect(dk).toBeLessThanOrEqual(d33 * (11 / 13) ** k * 1.000001 + 1e-9);
      }
    });
  });
});
