import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { bracketsOf, feeOf, initialMargin, liquidationPrice, maintenanceMargin, notional, PPB, scaled, shouldLiquidate } from '../../server/trading/formulas.ts';

/** The shown liquidation price is exactly the first tick at which the engine's liquidation check holds. */
describe('liquidation price vs liquidation check', () => {
  it('at the shown price the check holds; one tick towards the entry it does not', () => {
    const inst = fc.constantFrom(...INSTRUMENTS.slice(0, 6).map((i) => i.info));
    fc.assert(
      fc.property(inst, fc.oneof(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 2000, max: 2_000_000 })), fc.double({ min: 0.5, max: 1.5, noNaN: true }), fc.boolean(), fc.integer({ min: 1, max: 100 }), (rules, steps, f, long, lev) => {
        const leverage = Math.min(lev, rules.maxLever);
        const tick = scaled(rules.tickSize, rules.pricePrecision);
        const start = INSTRUMENTS.find((i) => i.info.symbol === rules.symbol)?.startPrice ?? 1;
        const priceU = BigInt(Math.max(1, Math.round((start * f) / rules.tickSize))) * tick;
        const qtyU = BigInt(steps) * scaled(rules.qtyStep, rules.qtyPrecision);
        const cost = notional(rules, priceU, qtyU);
        const margin = initialMargin(cost, leverage);
        const side = long ? 'long' : 'short';
        const liq = liquidationPrice(rules, side, cost, margin, qtyU);
        if (liq <= 0) return; // a 1x long cannot be liquidated
        const liqU = scaled(liq, rules.pricePrecision);
        expect(shouldLiquidate(rules, side, cost, margin, qtyU, liqU)).toBe(true);
        const before = long ? liqU + tick : liqU - tick;
        expect(shouldLiquidate(rules, side, cost, margin, qtyU, before)).toBe(false);
      }),
    );
  });

  it('fees and margins round up, never below the exact value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 1, max: 125 }), (n, lev) => {
        const m = initialMargin(n, lev);
        expect(m * BigInt(lev) >= n).toBe(true);
        expect((m - 1n) * BigInt(lev) < n).toBe(true);
        const fee = feeOf(n, 0.0005);
        expect(fee * 2000n >= n).toBe(true);
        expect((fee - 1n) * 2000n < n).toBe(true);
      }),
    );
  });

  it('maintenance brackets: rates and amounts never decrease, and the maintenance margin is continuous at every bracket floor', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INSTRUMENTS.map((i) => i.info)), (rules) => {
        const list = bracketsOf(rules);
        expect(list[0]).toMatchObject({ floor: 0n, cum: 0n, maxLeverage: rules.maxLever });
        for (let i = 1; i < list.length; i++) {
          const [a, b] = [list[i - 1], list[i]];
          if (!a || !b) continue;
          expect(b.floor).toBe(a.cap);
          expect(b.mmrPpb >= a.mmrPpb && b.cum >= a.cum && b.maxLeverage <= a.maxLeverage).toBe(true);
          // at the floor both brackets give the same maintenance margin (exactly, before rounding)
          expect(b.floor * b.mmrPpb - b.cum * PPB).toBe(b.floor * a.mmrPpb - a.cum * PPB);
          expect(maintenanceMargin(rules, b.floor) >= maintenanceMargin(rules, b.floor - 1n)).toBe(true);
        }
      }),
    );
  });

  it('scaled (its fast path) is the decimal string round trip it replaced, on and off the grid, for any double', () => {
    const reference = (x: number, dp: number): bigint => {
      const t = x.toFixed(dp);
      const neg = t.startsWith('-');
      const [w = '0', f = ''] = (neg ? t.slice(1) : t).split('.');
      const v = BigInt(w + f);
      return neg ? -v : v;
    };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }), fc.integer({ min: -1e12, max: 1e12 }).map((k) => k / 1e4), fc.integer({ min: -1e9, max: 1e9 }).map((k) => k * 0.001), fc.integer({ min: -1e9, max: 1e9 }).map((k) => k / 100 + 0.005)), (dp, x) => {
        expect(scaled(x, dp)).toBe(reference(x, dp));
      }),
      { numRuns: 20_000, examples: [[2, 0.1 + 0.2], [8, 60_000.1], [2, -0], [2, 1.005], [0, 2.5], [0, -2.5], [3, 1e15]] },
    );
  });
});
