/** MACD, KDJ, RSI, BIAS, CCI and AO on tiny series; expected values worked out by hand. */
import { describe, expect, it } from 'vitest';
import { ao, bias, cci, kdj, macd, rsi, rsiSeries } from '../../../src/indicators/oscillators.ts';
import { expectSeries, fromCloses, k } from './helpers.ts';

describe('MACD', () => {
  it('MACD(2, 3, 2) on a linear series', () => {
    // closes 1..6. EMA2 (α 2/3): seed idx1 1.5, then 2/3·3 + 1/3·1.5 = 2.5, 3.5, 4.5, 5.5
    // EMA3 (α 1/2): seed idx2 2, then 3, 4, 5. DIF = 0.5 from idx2.
    // DEA = EMA2(DIF): seed idx3 = (0.5 + 0.5)/2 = 0.5, stays 0.5; histogram 0.
    const m = macd(fromCloses([1, 2, 3, 4, 5, 6]), 2, 3, 2);
    expectSeries(m.dif, [null, null, 0.5, 0.5, 0.5, 0.5]);
    expectSeries(m.dea, [null, null, null, 0.5, 0.5, 0.5]);
    expectSeries(m.macd, [null, null, null, 0, 0, 0]);
  });
});

describe('KDJ', () => {
  it('KDJ(3, 3, 3) from K = D = 50', () => {
    const candles = [k(9, 10, 8, 9), k(9, 12, 9, 11), k(11, 13, 10, 12), k(12, 14, 11, 11)];
    // idx2: HHV 13, LLV 8, RSV = (12−8)/5·100 = 80; K = (2·50 + 80)/3 = 60;
    //       D = (2·50 + 60)/3 = 160/3; J = 180 − 320/3 = 220/3
    // idx3: HHV 14, LLV 9, RSV = (11−9)/5·100 = 40; K = (2·60 + 40)/3 = 160/3;
    //       D = (2·160/3 + 160/3)/3 = 160/3; J = 160/3
    const r = kdj(candles, 3, 3, 3);
    expectSeries(r.k, [null, null, 60, 160 / 3]);
    expectSeries(r.d, [null, null, 160 / 3, 160 / 3]);
    expectSeries(r.j, [null, null, 220 / 3, 160 / 3]);
  });
  it('takes RSV = 50 when the range is zero, so a flat market stays at 50', () => {
    const r = kdj(fromCloses([7, 7, 7, 7]), 3, 3, 3);
    expectSeries(r.k, [null, null, 50, 50]);
    expectSeries(r.j, [null, null, 50, 50]);
  });
  it('starts at index 8 with the default 9/3/3', () => {
    const r = kdj(fromCloses(Array.from({ length: 12 }, (_, i) => i)));
    expect(r.k.findIndex((v) => v !== null)).toBe(8);
  });
});

describe('RSI', () => {
  it('RSI(3): simple first averages, then Wilder smoothing', () => {
    // closes 10 11 10 12 11 → changes +1 −1 +2 −1
    // idx3: avgGain (1+0+2)/3 = 1, avgLoss 1/3 → 100·1/(4/3) = 75
    // idx4: avgGain (2·1 + 0)/3 = 2/3, avgLoss (2·1/3 + 1)/3 = 5/9 → 100·(6/9)/(11/9) = 600/11
    expectSeries(rsiSeries([10, 11, 10, 12, 11], 3), [null, null, null, 75, 600 / 11]);
  });
  it('is 50 for a flat market and 100 for one that only rises', () => {
    expectSeries(rsi(fromCloses([5, 5, 5, 5]), [2])[0], [null, null, 50, 50]);
    expectSeries(rsi(fromCloses([1, 2, 3, 4]), [2])[0], [null, null, 100, 100]);
  });
});

describe('BIAS', () => {
  it('BIAS(3) = (C − MA3)/MA3 · 100', () => {
    // idx2: MA 11 → (12−11)/11·100 = 100/11
    // idx3: MA 38/3 → (15 − 38/3)/(38/3)·100 = (7/3)/(38/3)·100 = 700/38
    expectSeries(bias(fromCloses([10, 11, 12, 15]), [3])[0], [null, null, 100 / 11, 700 / 38]);
  });
});

describe('CCI', () => {
  it('CCI(3) with the 0.015 constant and mean absolute deviation', () => {
    const candles = [k(2, 3, 1, 2), k(4, 5, 3, 4), k(6, 9, 3, 6), k(3, 4, 2, 3)];
    // TP = 2, 4, 6, 3.
    // idx2: MA 4, MD (2+0+2)/3 = 4/3 → (6−4)/(0.015·4/3) = 2/0.02 = 100
    // idx3: MA 13/3, MD (1/3 + 5/3 + 4/3)/3 = 10/9 → (3 − 13/3)/(0.015·10/9) = (−4/3)·60 = −80
    expectSeries(cci(candles, 3), [null, null, 100, -80]);
  });
  it('is 0 on a flat window', () => {
    expectSeries(cci(fromCloses([3, 3, 3]), 3), [null, null, 0]);
    // (0.1 + 0.1 + 0.1)/3 = 0.10000000000000002 ≠ 0.1: a naive (TP − MA)/(0.015·MD) gives −66.7
    expectSeries(cci(fromCloses([0.1, 0.1, 0.1]), 3), [null, null, 0]);
  });
});

describe('AO', () => {
  it('AO(2, 3) = MA2 − MA3 of the median price', () => {
    const candles = [k(2, 3, 1, 2), k(4, 5, 3, 4), k(6, 9, 3, 6), k(3, 4, 2, 3)];
    // medians 2, 4, 6, 3. idx2: MA2 5 − MA3 4 = 1; idx3: MA2 4.5 − MA3 13/3 = 1/6
    expectSeries(ao(candles, 2, 3), [null, null, 1, 1 / 6]);
  });
  it('default AO(5, 34) on medians 0, 1, 2, …: (i − 2) − (i − 16.5) = 14.5 from index 33', () => {
    const candles = Array.from({ length: 40 }, (_, i) => k(i, i + 1, i - 1, i));
    expectSeries(ao(candles), [...Array<null>(33).fill(null), ...Array<number>(7).fill(14.5)]);
  });
});
