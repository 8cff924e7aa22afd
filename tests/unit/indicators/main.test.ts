/**
 * Main-chart indicators on tiny candle series whose expected values are worked out by hand
 * in the comments (MA/EMA/BOLL are also checked against TA-Lib in talib.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { bbi, boll, ema, ma, sar, sma } from '../../../src/indicators/main.ts';
import { expectSeries, fromCloses, k } from './helpers.ts';

describe('MA', () => {
  it('is the plain mean of the last n closes', () => {
    // closes 1 2 3 4 5, MA3: idx2 (1+2+3)/3 = 2, idx3 3, idx4 4
    expectSeries(ma(fromCloses([1, 2, 3, 4, 5]), [3])[0], [null, null, 2, 3, 4]);
  });
  it('defaults to 5/10/30/60', () => {
    const out = ma(fromCloses(Array.from({ length: 60 }, (_, i) => i + 1)));
    expect(out.map((s) => s.findIndex((v) => v !== null))).toEqual([4, 9, 29, 59]);
    // MA60 of 1..60 = 30.5
    expect(out[3]?.[59]).toBeCloseTo(30.5, 12);
  });
});

describe('EMA', () => {
  it('seeds with the SMA of the first n closes, then α = 2/(n+1)', () => {
    // EMA3, α = 0.5. closes 1 2 3 4 7: seed idx2 = (1+2+3)/3 = 2;
    // idx3 = 0.5·4 + 0.5·2 = 3; idx4 = 0.5·7 + 0.5·3 = 5
    expectSeries(ema(fromCloses([1, 2, 3, 4, 7]), [3])[0], [null, null, 2, 3, 5]);
  });
});

describe('SMA (Chinese SMA(N, M))', () => {
  it('SMA(3, 1): Y = (1·X + 2·Y′)/3 after an SMA seed', () => {
    // seed idx2 = (3+6+9)/3 = 6; idx3 = (12 + 2·6)/3 = 8; idx4 = (2 + 2·8)/3 = 6
    expectSeries(sma(fromCloses([3, 6, 9, 12, 2]), 3, 1), [null, null, 6, 8, 6]);
  });
  it('default SMA(12, 2): seed mean(1..12) = 6.5, next = (2·13 + 10·6.5)/12 = 91/12', () => {
    const out = sma(fromCloses(Array.from({ length: 13 }, (_, i) => i + 1)));
    expectSeries(out, [...Array<null>(11).fill(null), 6.5, 91 / 12]);
  });
});

describe('BOLL', () => {
  it('uses the population standard deviation', () => {
    // closes 1..5, n = 5: mean 3, variance (4+1+0+1+4)/5 = 2, σ = √2
    const b = boll(fromCloses([1, 2, 3, 4, 5]), 5, 2);
    const nul = [null, null, null, null];
    expectSeries(b.middle, [...nul, 3]);
    expectSeries(b.upper, [...nul, 3 + 2 * Math.SQRT2]);
    expectSeries(b.lower, [...nul, 3 - 2 * Math.SQRT2]);
  });
});

describe('BBI', () => {
  it('is the mean of MA3, MA6, MA12, MA24', () => {
    // closes 1..25. idx23: MA3 = 23, MA6 = 21.5, MA12 = 18.5, MA24 = 12.5 → 75.5/4 = 18.875
    // idx24: MA3 = 24, MA6 = 22.5, MA12 = 19.5, MA24 = 13.5 → 79.5/4 = 19.875
    const out = bbi(fromCloses(Array.from({ length: 25 }, (_, i) => i + 1)));
    expectSeries(out, [...Array<null>(23).fill(null), 18.875, 19.875]);
  });
});

describe('SAR (0.02, 0.02, 0.2)', () => {
  it('follows an uptrend, accelerates on new highs, reverses on penetration', () => {
    const candles = [
      k(9, 10, 8, 9), // 0
      k(10, 11, 9, 10), // 1: −DM = 0 → long; SAR₀ = low₀ = 8, EP = high₁ = 11
      k(11, 12, 10, 11), // 2
      k(12, 13, 11, 12), // 3
      k(12, 12, 8, 9), // 4: low 8 ≤ SAR → short
      k(9, 11, 7, 8), // 5
      k(8, 10, 6, 7), // 6
      k(7, 13, 9, 12), // 7: high 13 ≥ SAR → long
    ];
    // idx1: out 8. High 11 is not above EP 11; next = 8 + 0.02·(11−8) = 8.06 (≤ lows 9, 9)
    // idx2: out 8.06. New high 12 → EP 12, AF 0.04; next = 8.06 + 0.04·3.94 = 8.2176
    // idx3: out 8.2176. EP 13, AF 0.06; next = 8.2176 + 0.06·4.7824 = 8.504544
    // idx4: low 8 ≤ 8.504544 → short, SAR = max(EP 13, prev high 13, high 12) = 13;
    //       AF 0.02, EP 8; next = 13 + 0.02·(8−13) = 12.9, raised to prev high 13
    // idx5: out 13. New low 7 → EP 7, AF 0.04; next = 13 − 0.04·6 = 12.76 (≥ highs 12, 11)
    // idx6: out 12.76. EP 6, AF 0.06; next = 12.76 − 0.06·6.76 = 12.3544
    // idx7: high 13 ≥ 12.3544 → long, SAR = min(EP 6, prev low 6, low 9) = 6
    expectSeries(sar(candles), [null, 8, 8.06, 8.2176, 13, 13, 12.76, 6], 1e-12);
  });

  it('starts short when candle 1 has a positive −DM', () => {
    // −DM = low₀ − low₁ = 8 − 6 = 2 > +DM = 9.5 − 10 → short; SAR₀ = high₀ = 10, EP = low₁ = 6
    // idx1: out 10; next = 10 + 0.02·(6−10) = 9.92 (≥ highs 9.5, 9.5)
    // idx2: out 9.92; new low 5 → EP 5, AF 0.04; next = 9.92 − 0.04·4.92 = 9.7232
    const candles = [k(9, 10, 8, 9), k(9, 9.5, 6, 7), k(7, 9, 5, 6), k(6, 8, 4, 5)];
    expectSeries(sar(candles), [null, 10, 9.92, 9.7232], 1e-12);
  });

  it('caps the acceleration factor at the maximum', () => {
    // Twelve rising candles: AF grows by 0.02 per new high and must stop at 0.2, so the SAR
    // step toward the EP is at most 20 % of the gap.
    const candles = Array.from({ length: 14 }, (_, i) => k(10 + i, 11 + i, 9 + i, 10.5 + i));
    const out = sar(candles);
    for (let i = 2; i < candles.length; i++) {
      const prev = out[i - 1] as number;
      const ep = 11 + (i - 1); // the high of candle i−1 is the EP after it
      const step = ((out[i] as number) - prev) / (ep - prev);
      expect(step).toBeLessThanOrEqual(0.2 + 1e-12);
      // AF after candle i−1 = 0.02 + 0.02·(number of new highs among candles 2..i−1)
      expect(step).toBeCloseTo(Math.min(0.2, 0.02 * (i - 1)), 10);
    }
    expect(sar([k(1, 2, 0, 1)])).toEqual([null]);
  });
});
