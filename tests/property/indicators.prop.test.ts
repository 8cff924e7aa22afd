/**
 * Invariants of the indicator module over generated candle series (fast-check):
 * alignment and warm-up contract of the registry, causality (the chart may recompute on a
 * changed last candle), bounds of averages and oscillators, band ordering, price-scale
 * behaviour by unit, and the flat-market conventions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../src/protocol/market.ts';
import {
  INDICATORS,
  MAIN_INDICATORS,
  SUB_INDICATORS,
  normalizeParams,
  type IndicatorDefinition,
  type IndicatorName,
} from '../../src/indicators/registry.ts';
import { boll, ema, ma, sma } from '../../src/indicators/main.ts';
import { kdj, macd, rsi } from '../../src/indicators/oscillators.ts';
import { dmi, dmiWilder, psy } from '../../src/indicators/sentiment.ts';
import type { Series } from '../../src/indicators/series.ts';

const ALL: IndicatorName[] = [...MAIN_INDICATORS, ...SUB_INDICATORS];

/** Well-formed candles: cent prices in (0, 10000], l ≤ min(o, c) ≤ max(o, c) ≤ h, v ≥ 0. */
const candleArb: fc.Arbitrary<Candle> = fc
  .record({
    o: fc.integer({ min: 100, max: 1_000_000 }),
    c: fc.integer({ min: 100, max: 1_000_000 }),
    up: fc.integer({ min: 0, max: 5_000 }),
    down: fc.integer({ min: 0, max: 99 }),
    v: fc.integer({ min: 0, max: 1_000_000 }),
  })
  .map(({ o, c, up, down, v }) => ({
    t: 0,
    o: o / 100,
    c: c / 100,
    h: (Math.max(o, c) + up) / 100,
    l: Math.max(1, Math.min(o, c) - down) / 100,
    v: v / 10,
  }));
// NOTE: size 'max' spreads lengths over the whole range; fast-check's default 'small' size
// keeps arrays near 10 long, which would leave most warm-ups untested.
const candlesArb = (max = 90) => fc.array(candleArb, { minLength: 0, maxLength: max, size: 'max' });

/** Params drawn inside each spec's range, capped at 12 so warm-ups usually fit in the series. */
function paramsArb(def: IndicatorDefinition): fc.Arbitrary<number[]> {
  return fc.tuple(...def.params.map((p) => fc.integer({ min: p.min, max: Math.min(p.max, 12) })));
}
const indicatorArb = fc.constantFrom(...ALL).chain((name) =>
  paramsArb(INDICATORS[name]).map((params) => ({ name, params })),
);

const defined = (s: Series | undefined): number[] => (s ?? []).filter((v): v is number => v !== null);

describe('registry contract', () => {
  it('every output is input-length, null exactly before its warm-up, finite after', () => {
    fc.assert(
      fc.property(indicatorArb, candlesArb(), ({ name, params }, candles) => {
        const def = INDICATORS[name];
        const ps = normalizeParams(def.params, params);
        const out = def.compute(candles, ps);
        const bad: string[] = [];
        for (const o of def.outputs) {
          const s = out[o.key] ?? [];
          expect(s).toHaveLength(candles.length);
          const w = o.warmup(ps);
          s.forEach((v, i) => {
            if (i < w ? v !== null : !Number.isFinite(v)) bad.push(`${name}.${o.key}[${i}] = ${v}, warm-up ${w}`);
          });
        }
        expect(bad).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('is causal: a prefix gives the same values, so replacing the live candle only moves the tail', () => {
    fc.assert(
      fc.property(indicatorArb, candlesArb(), fc.nat(), ({ name, params }, candles, cut) => {
        const def = INDICATORS[name];
        const prefix = candles.slice(0, candles.length === 0 ? 0 : cut % (candles.length + 1));
        const full = def.compute(candles, params);
        const part = def.compute(prefix, params);
        for (const o of def.outputs) expect(part[o.key]).toEqual(full[o.key]?.slice(0, prefix.length));
      }),
      { numRuns: 200 },
    );
  });
});

describe('averages stay inside the closes they average', () => {
  const tol = (x: number) => Math.abs(x) * 1e-12;
  it('MA(n) and BOLL middle lie within [min, max] of the window; EMA and SMA(N, M) within all closes so far', () => {
    fc.assert(
      fc.property(candlesArb(), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), (candles, n, m) => {
        const c = candles.map((x) => x.c);
        const lines: [Series, 'window' | 'all'][] = [
          [ma(candles, [n])[0] ?? [], 'window'],
          [boll(candles, n, 2).middle, 'window'],
          [ema(candles, [n])[0] ?? [], 'all'],
          [sma(candles, n, Math.min(m, n)), 'all'],
        ];
        const bad: string[] = [];
        for (const [line, scope] of lines) {
          line.forEach((v, i) => {
            if (v === null) return;
            const w = c.slice(scope === 'window' ? i - n + 1 : 0, i + 1);
            if (v < Math.min(...w) - tol(v) || v > Math.max(...w) + tol(v)) bad.push(`${scope}[${i}] = ${v}`);
          });
        }
        expect(bad).toEqual([]);
      }),
    );
  });

  it('BOLL upper ≥ middle ≥ lower', () => {
    fc.assert(
      fc.property(candlesArb(), fc.integer({ min: 1, max: 25 }), fc.integer({ min: 1, max: 5 }), (candles, n, k) => {
        const b = boll(candles, n, k);
        const bad = b.middle.filter(
          (mid, i) => mid !== null && !((b.upper[i] as number) >= mid && mid >= (b.lower[i] as number)),
        );
        expect(bad).toEqual([]);
      }),
    );
  });
});

describe('oscillator bounds', () => {
  it('RSI, KDJ K/D, PSY, DMI and Wilder DMI lie within [0, 100]', () => {
    fc.assert(
      fc.property(candlesArb(), fc.integer({ min: 1, max: 15 }), fc.integer({ min: 1, max: 6 }), (candles, n, m) => {
        const k = kdj(candles, n, m, m);
        const d = dmi(candles, n, m);
        const w = dmiWilder(candles, n + 1);
        const p = psy(candles, n, m);
        const all = [
          ...defined(rsi(candles, [n])[0]),
          ...defined(k.k),
          ...defined(k.d),
          ...defined(p.psy),
          ...defined(p.psyma),
          ...defined(d.pdi),
          ...defined(d.mdi),
          ...defined(d.adx),
          ...defined(w.pdi),
          ...defined(w.mdi),
          ...defined(w.adx),
          ...defined(w.adxr),
        ];
        expect(all.filter((v) => v < -1e-9 || v > 100 + 1e-9)).toEqual([]);
      }),
    );
  });
});

function scalePrices(candles: readonly Candle[], f: number): Candle[] {
  return candles.map((x) => ({ ...x, o: x.o * f, h: x.h * f, l: x.l * f, c: x.c * f }));
}

describe('scaling every price by a positive factor', () => {
  it('scales price-unit series by it and leaves volume and ratio series unchanged (factor a power of two)', () => {
    // A power-of-two factor makes every +, −, ×, ÷ on scaled prices exact, so ratio series must
    // come out identical (not merely close) even where they divide small differences.
    fc.assert(
      fc.property(fc.constantFrom(...ALL), candlesArb(60), fc.integer({ min: -6, max: 10 }), (name, candles, e) => {
        const f = 2 ** e;
        const def = INDICATORS[name];
        const base = def.compute(candles);
        const scaled = def.compute(scalePrices(candles, f));
        const bad: string[] = [];
        for (const o of def.outputs) {
          const b = base[o.key] ?? [];
          const s = scaled[o.key] ?? [];
          b.forEach((v, i) => {
            const got = s[i] ?? null;
            const want = v === null ? null : o.unit === 'price' ? v * f : v;
            const ok = want === null ? got === null : got !== null && Math.abs(got - want) <= Math.abs(want) * 1e-12;
            if (!ok) bad.push(`${name}.${o.key}[${i}]: ${got} vs ${want}`);
          });
        }
        expect(bad).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('scales price-unit series by any factor, up to rounding relative to the price level', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL.filter((n) => INDICATORS[n].outputs.some((o) => o.unit === 'price'))),
        candlesArb(60),
        fc.double({ min: 0.001, max: 1000, noNaN: true }),
        (name, candles, f) => {
          const def = INDICATORS[name];
          const base = def.compute(candles);
          const scaled = def.compute(scalePrices(candles, f));
          const level = Math.max(1, ...candles.map((x) => x.h)) * f;
          const bad: string[] = [];
          for (const o of def.outputs.filter((x) => x.unit === 'price')) {
            (base[o.key] ?? []).forEach((v, i) => {
              const got = scaled[o.key]?.[i] ?? null;
              if (v !== null && (got === null || Math.abs(got - v * f) > level * 1e-9)) bad.push(`${o.key}[${i}]`);
            });
          }
          expect(bad).toEqual([]);
        },
      ),
    );
  });
});

describe('flat market conventions', () => {
  const flat = (price: number, n: number): Candle[] =>
    Array.from({ length: n }, (_, i) => ({ t: i, o: price, h: price, l: price, c: price, v: 5 }));

  it('MACD is zero, RSI and KDJ are 50, averages equal the price, ratio indicators are 0 or neutral', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }).map((x) => x / 1000), fc.integer({ min: 0, max: 80 }), (price, n) => {
        const candles = flat(price, n);
        const m = macd(candles);
        const macdValues = [...defined(m.dif), ...defined(m.dea), ...defined(m.macd)];
        expect(macdValues.filter((v) => Math.abs(v) > price * 1e-12)).toEqual([]);
        expect(defined(rsi(candles, [6])[0]).filter((v) => v !== 50)).toEqual([]);
        const k = kdj(candles);
        expect([...defined(k.k), ...defined(k.d), ...defined(k.j)].filter((v) => v !== 50)).toEqual([]);
        for (const name of ['CCI', 'BIAS', 'AO', 'DMI', 'DMIW', 'PSY', 'BRAR', 'CR'] as const) {
          const values = Object.values(INDICATORS[name].compute(candles)).flatMap(defined);
          expect(values.filter((v) => Math.abs(v) > 1e-9), name).toEqual([]);
        }
        // VR: no up or down volume, only unchanged → (0 + TQ)/(0 + TQ) = 100
        expect(defined(INDICATORS.VR.compute(candles).vr).filter((v) => v !== 100)).toEqual([]);
        for (const name of MAIN_INDICATORS) {
          const values = Object.values(INDICATORS[name].compute(candles)).flatMap(defined);
          expect(values.filter((v) => Math.abs(v - price) > price * 1e-12), name).toEqual([]);
        }
      }),
      { numRuns: 100 },
    );
  });
});
