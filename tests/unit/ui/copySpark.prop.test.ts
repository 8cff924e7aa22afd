import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sparkPoints, sparkYTicks, sparkZeroY, windowCovered } from '../../../src/ui/components/copy/copyModel.ts';

const H = 140;
const W = 640;
const ys = (values: readonly number[]) => sparkPoints(values, W, H).split(' ').map((p) => Number(p.split(',')[1]));
const pnl = fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }).map((c) => c / 100), { minLength: 1, maxLength: 40 });

/** The trader page's PnL chart: the zero line sits where the line itself passes 0. */
describe('sparkZeroY', () => {
  it('is the y sparkPoints gives a 0 in the series, inside the box', () => {
    fc.assert(
      fc.property(pnl, fc.nat(39), (values, at) => {
        const withZero = [...values];
        withZero.splice(at % (withZero.length + 1), 0, 0);
        const zero = sparkZeroY(withZero, H);
        const min = Math.min(...withZero);
        const max = Math.max(...withZero);
        if (min === max) {
          expect(zero).toBeNull();
          return;
        }
        expect(zero).not.toBeNull();
        const i = withZero.indexOf(0);
        expect(Math.abs((zero ?? NaN) - (ys(withZero)[i] ?? NaN))).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(zero).toBeGreaterThanOrEqual(2);
        expect(zero).toBeLessThanOrEqual(H - 2);
      }),
    );
  });

  it('is null when every value is on one side of 0', () => {
    fc.assert(
      fc.property(pnl, fc.boolean(), (values, up) => {
        const oneSide = values.map((v) => (up ? Math.abs(v) + 0.01 : -Math.abs(v) - 0.01));
        expect(sparkZeroY(oneSide, H)).toBeNull();
      }),
    );
  });
});

describe('sparkYTicks (issue 26, Minor 19: the chart has value labels)', () => {
  it('labels the highest and lowest value where sparkPoints draws them, and 0 when it lies between', () => {
    fc.assert(
      fc.property(pnl, (values) => {
        const ticks = sparkYTicks(values, H);
        const min = Math.min(...values);
        const max = Math.max(...values);
        if (min === max) {
          expect(ticks).toEqual([{ value: max, y: H / 2 }]);
          return;
        }
        expect(ticks[0]?.value).toBe(max);
        expect(ticks.at(-1)?.value).toBe(min);
        // 0 gets its own label only strictly between; at an end (max or min is 0) that end's label says 0
        expect(ticks).toHaveLength(min < 0 && max > 0 ? 3 : 2);
        expect(ticks.some((t) => t.value === 0)).toBe(min <= 0 && max >= 0);
        const ys0 = ys(values);
        for (const t of ticks) {
          const i = values.indexOf(t.value);
          if (i >= 0) expect(Math.abs(t.y - (ys0[i] ?? NaN))).toBeLessThanOrEqual(0.05 + 1e-9);
        }
        for (let i = 1; i < ticks.length; i += 1) expect(ticks[i]!.y).toBeGreaterThan(ticks[i - 1]!.y);
      }),
      // a series ending at 0 from below: the highest label is the 0 (the CI's counterexample)
      { examples: [[[-0.01, 0]], [[0, 5]], [[-3, 0, 2]]] },
    );
  });
});

describe('windowCovered', () => {
  it('7D always; 30D once the history is longer than 7 days; 90D once longer than 30; no history length: covered', () => {
    fc.assert(
      fc.property(fc.nat(400), (days) => {
        expect(windowCovered(7, days)).toBe(true);
        expect(windowCovered(30, days)).toBe(days > 7);
        expect(windowCovered(90, days)).toBe(days > 30);
        expect(windowCovered(90, undefined)).toBe(true);
      }),
    );
  });
});
