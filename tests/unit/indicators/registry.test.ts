/**
 * The generic registry the chart renders from: every SPEC §9 indicator, its documented
 * defaults, and a smoke run over 978 daily BTC candles (klinecharts' docs dataset).
 */
import { describe, expect, it } from 'vitest';
import {
  computeIndicator,
  INDICATORS,
  MAIN_INDICATORS,
  normalizeParams,
  SUB_INDICATORS,
  type IndicatorName,
} from '../../../src/indicators/registry.ts';
import { boll, ma } from '../../../src/indicators/main.ts';
import { macd } from '../../../src/indicators/oscillators.ts';
import { klinechartsDaily } from './marketData.ts';

const ALL: IndicatorName[] = [...MAIN_INDICATORS, ...SUB_INDICATORS];

describe('INDICATORS registry', () => {
  it('lists exactly the 6 main and 12 sub indicators of SPEC §9', () => {
    expect(MAIN_INDICATORS).toEqual(['MA', 'EMA', 'SMA', 'SAR', 'BOLL', 'BBI']);
    expect(SUB_INDICATORS).toEqual(['VOL', 'MACD', 'KDJ', 'RSI', 'BIAS', 'BRAR', 'CCI', 'DMI', 'DMIW', 'CR', 'PSY', 'VR', 'AO']);
    expect(Object.keys(INDICATORS)).toEqual(ALL);
    for (const name of MAIN_INDICATORS) expect(INDICATORS[name].kind).toBe('main');
    for (const name of SUB_INDICATORS) expect(INDICATORS[name].kind).toBe('sub');
  });

  it('has the defaults documented in docs/INDICATORS.md', () => {
    const defaults = Object.fromEntries(ALL.map((n) => [n, INDICATORS[n].params.map((p) => p.default)]));
    expect(defaults).toEqual({
      MA: [5, 10, 30, 60],
      EMA: [6, 12, 20],
      SMA: [12, 2],
      SAR: [2, 2, 20],
      BOLL: [20, 2],
      BBI: [3, 6, 12, 24],
      VOL: [5, 10],
      MACD: [12, 26, 9],
      KDJ: [9, 3, 3],
      RSI: [6, 12, 24],
      BIAS: [6, 12, 24],
      BRAR: [26],
      CCI: [14],
      DMI: [14, 6],
      DMIW: [14],
      CR: [26, 10, 20, 40, 60],
      PSY: [12, 6],
      VR: [24, 30],
      AO: [5, 34],
    });
  });

  it('labels series from the params', () => {
    const d = INDICATORS.MA;
    expect(d.outputs.map((o) => o.label([7, 8, 9, 10]))).toEqual(['MA7', 'MA8', 'MA9', 'MA10']);
    expect(INDICATORS.SAR.outputs[0]?.label([2, 2, 20])).toBe('SAR(2,2,20)');
  });

  it('normalises params: defaults for missing, rounded and clamped into range', () => {
    expect(normalizeParams(INDICATORS.BOLL.params, undefined)).toEqual([20, 2]);
    expect(normalizeParams(INDICATORS.BOLL.params, [10.6])).toEqual([11, 2]);
    expect(normalizeParams(INDICATORS.BOLL.params, [0, 99])).toEqual([1, 10]);
    expect(normalizeParams(INDICATORS.BOLL.params, [Number.NaN, 3])).toEqual([20, 3]);
  });

  it('compute matches the direct functions and honours custom params', () => {
    const candles = klinechartsDaily();
    expect(computeIndicator('MA', candles, [7]).ma1).toEqual(ma(candles, [7])[0]);
    expect(computeIndicator('BOLL', candles).upper).toEqual(boll(candles, 20, 2).upper);
    expect(computeIndicator('MACD', candles).dea).toEqual(macd(candles).dea);
  });

  describe('smoke run on klinecharts daily BTC (978 candles)', () => {
    const candles = klinechartsDaily();
    it('loads the dataset', () => expect(candles).toHaveLength(978));
    for (const name of ALL) {
      it(`${name}: full-length series, null exactly before the warm-up, finite after`, () => {
        const def = INDICATORS[name];
        const params = normalizeParams(def.params);
        const out = def.compute(candles);
        expect(Object.keys(out)).toEqual(def.outputs.map((o) => o.key));
        for (const o of def.outputs) {
          const s = out[o.key] ?? [];
          const w = o.warmup(params);
          expect(s).toHaveLength(candles.length);
          expect(s.slice(0, w).every((v) => v === null)).toBe(true);
          const rest = s.slice(w);
          expect(rest.every((v) => typeof v === 'number' && Number.isFinite(v)), `${name}.${o.key}`).toBe(true);
        }
      });
    }
  });

  it('returns all-null series when there are fewer candles than the warm-up', () => {
    const few = klinechartsDaily().slice(0, 3);
    for (const name of ALL) {
      const def = INDICATORS[name];
      const params = normalizeParams(def.params);
      const out = def.compute(few);
      for (const o of def.outputs) {
        expect(out[o.key]).toHaveLength(3);
        if (o.warmup(params) >= 3) expect(out[o.key]?.every((v) => v === null)).toBe(true);
      }
    }
    expect(computeIndicator('RSI', []).rsi1).toEqual([]);
  });
});
