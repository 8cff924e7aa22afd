import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sparkPoints, sparkZeroY } from '../../../src/ui/screens/copy/copyModel.ts';

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
