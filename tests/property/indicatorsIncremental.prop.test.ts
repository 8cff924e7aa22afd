/**
 * Incremental indicators (issue 30 point 5, src/indicators/incremental.ts) against the full
 * recompute: for any candle series, any indicator with any params the chart offers, and any
 * sequence of live updates (replace the last candle, append one, append at the list's limit so
 * the oldest is dropped), the incremental values equal the reference's after every step,
 * compared with Object.is (bit-identical, -0 included). The reference runs over every candle seen
 * since the last reset: what the chart has drawn.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../src/protocol/market.ts';
import { INDICATORS, MAIN_INDICATORS, SUB_INDICATORS, normalizeParams, type IndicatorName } from '../../src/indicators/registry.ts';
import { advanceIndicator, liveChange, startIndicator, type IndicatorState } from '../../src/indicators/incremental.ts';
import { indicatorLines, scanIndicators, type ChartIndicators } from '../../src/ui/components/chart/chartData.ts';

const ALL: IndicatorName[] = [...MAIN_INDICATORS, ...SUB_INDICATORS];

interface Price {
  o: number;
  c: number;
  up: number;
  down: number;
  v: number;
  flat: boolean;
}
const priceArb: fc.Arbitrary<Price> = fc.record({
  o: fc.integer({ min: 100, max: 1_000_000 }),
  c: fc.integer({ min: 100, max: 1_000_000 }),
  up: fc.integer({ min: 0, max: 5_000 }),
  down: fc.integer({ min: 0, max: 99 }),
  v: fc.integer({ min: 0, max: 1_000_000 }),
  // A few flat candles, so ties (SAR reversals, KDJ's zero range, RSI's flat case) occur.
  flat: fc.boolean(),
});
const candleAt = (t: number, x: Price): Candle => {
  const o = x.flat ? 50_000 : x.o;
  const c = x.flat ? 50_000 : x.c;
  const up = x.flat ? 0 : x.up;
  const down = x.flat ? 0 : x.down;
  return { t, o: o / 100, c: c / 100, h: (Math.max(o, c) + up) / 100, l: Math.max(1, Math.min(o, c) - down) / 100, v: x.v / 10 };
};
type Op = { kind: 'replace' | 'append'; price: Price };
const opArb: fc.Arbitrary<Op> = fc.record({ kind: fc.constantFrom('replace' as const, 'append' as const), price: priceArb });

// Params inside each range, capped at 12 so warm-ups fit in short series, or the defaults the
// chart draws with (CR's warm-up is 110 candles, hence the longer series below).
const indicatorArb = fc.constantFrom(...ALL).chain((name) =>
  fc.oneof(
    fc.tuple(...INDICATORS[name].params.map((p) => fc.integer({ min: p.min, max: Math.min(p.max, 12) }))),
    fc.constant(INDICATORS[name].params.map((p) => p.default)),
  ).map((params) => ({ name, params })),
);

/** Applies one live update like the candle reducer does (new objects only where they change). */
function apply(list: readonly Candle[], op: Op, limit: number): Candle[] {
  const last = list[list.length - 1];
  if (op.kind === 'replace' && last) return [...list.slice(0, -1), candleAt(last.t, op.price)];
  const next = [...list, candleAt((last?.t ?? 0) + 60_000, op.price)];
  return next.length > limit ? next.slice(next.length - limit) : next;
}

describe('incremental indicators equal the full recompute', () => {
  it('after every live update, for every indicator and params', () => {
    fc.assert(
      fc.property(
        indicatorArb,
        fc.array(priceArb, { minLength: 0, maxLength: 130, size: 'max' }),
        fc.array(opArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 30, max: 140 }),
        ({ name, params }, prices, ops, limit) => {
          const def = INDICATORS[name];
          const ps = normalizeParams(def.params, params);
          let list: Candle[] = prices.map((p, i) => candleAt(i * 60_000, p));
          let seen: Candle[] = list.slice();
          let st: IndicatorState = startIndicator(name, list, ps);
          const check = () => {
            const ref = def.compute(seen, ps);
            const at = (i: number) => def.outputs.map((o) => (i < 0 ? null : (ref[o.key]?.[i] ?? null)));
            expect(st.lastValues).toEqual(at(seen.length - 1));
            expect(st.prevValues).toEqual(at(seen.length - 2));
          };
          check();
          for (const op of ops) {
            const next = apply(list, op, limit);
            const change = liveChange(list, next);
            const adv = advanceIndicator(st, next, change);
            if (adv) {
              seen = op.kind === 'replace' ? [...seen.slice(0, -1), next[next.length - 1] as Candle] : [...seen, next[next.length - 1] as Candle];
              st = adv.state;
              const ref = def.compute(seen, ps);
              const count = adv.tail.values.length;
              adv.tail.values.forEach((vals, j) => {
                expect(vals).toEqual(def.outputs.map((o) => ref[o.key]?.[seen.length - count + j] ?? null));
              });
            } else {
              // Only when it is not a live tail (an empty list) or a step needs a candle the list
              // dropped: while nothing was dropped every live update is incremental.
              if (change.kind === 'tail') expect(change.dropped + seen.length - list.length).toBeGreaterThan(0);
              seen = next.slice();
              st = startIndicator(name, next, ps);
            }
            list = next;
            check();
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the chart accumulator draws the points the full lines have, colours included', () => {
    const PALETTE = { up: '#2ebd85', down: '#f6465d', lines: ['#f0b90b'] };
    fc.assert(
      fc.property(
        fc.subarray(ALL, { minLength: 1, maxLength: 4 }),
        fc.array(priceArb, { minLength: 0, maxLength: 80, size: 'max' }),
        fc.array(opArb, { minLength: 1, maxLength: 30 }),
        (names, prices, ops) => {
          let list: Candle[] = prices.map((p, i) => candleAt(i * 60_000, p));
          let acc: ChartIndicators = scanIndicators(null, { candles: list, names, palette: PALETTE });
          for (const op of ops) {
            const next = apply(list, op, 1500);
            acc = scanIndicators(acc, { candles: next, names, palette: PALETTE });
            const seen = next;
            list = next;
            if (acc.draw.kind === 'full') {
              for (const n of names) expect(acc.draw.lines.get(n)).toEqual(indicatorLines(n, seen, PALETTE));
              continue;
            }
            if (acc.draw.kind !== 'tail') continue;
            // Each update changes the last candle's points only (the reducer appends or replaces one).
            const from = Math.floor((seen[seen.length - 1]?.t ?? 0) / 1000);
            for (const n of names) {
              for (const line of indicatorLines(n, seen, PALETTE)) {
                const expected = line.data.filter((p) => p.time >= from);
                const got = acc.draw.points.get(n)?.get(line.key) ?? [];
                expect(got).toEqual(expected);
              }
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
