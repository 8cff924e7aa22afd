import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScaled } from '../../src/protocol/decimal.ts';
import { fromUnits } from '../../src/protocol/netting.ts';
import { closePnl, percentQty, positionCost, roundScaled, triggerProblem, type PositionFigures } from '../../src/protocol/positionMath.ts';

/**
 * The close dialog's and the TP/SL dialog's arithmetic (src/protocol/positionMath.ts), exact:
 * - a percentage of the position is on the step, never above the position, less than one step
 *   below the exact share, monotonic in the percentage, and 100 % is the whole position;
 * - the estimated PnL of closing everything at the mark is the server's unrealized PnL exactly;
 *   closing at the entry price gains nothing; the parts of a split close add up to the whole
 *   (up to the rounding of each cost part, one scaled unit each);
 * - a trigger is refused exactly when it is on the wrong side of the mark (long: TP above, SL below).
 */

const SCALE = 10n ** 12n;
const dp = fc.integer({ min: 0, max: 4 });

describe('percentQty', () => {
  it('on the step, at most the position, within one step of the exact share, monotonic, 100 % = all', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.bigInt({ min: 1n, max: 1000n }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100 }), (qty, step, a, b) => {
        const q = percentQty(qty, a, step);
        expect(q <= qty).toBe(true);
        if (a === 100) expect(q).toBe(qty);
        else {
          expect(q % step).toBe(0n);
          // exact share qty × a / 100 (as a fraction) minus q is below one step
          expect(qty * BigInt(a) - q * 100n < step * 100n).toBe(true);
          expect(q * 100n <= qty * BigInt(a)).toBe(true);
        }
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(percentQty(qty, lo, step) <= percentQty(qty, hi, step)).toBe(true);
      }),
    );
  });
});

/** A position as the server describes it: entry from the cost, uPnL at the mark, both exact. */
const positionArb = fc
  .record({
    side: fc.constantFrom<'long' | 'short'>('long', 'short'),
    qtyUnits: fc.bigInt({ min: 1n, max: 10n ** 7n }),
    qdp: dp,
    pdp: fc.integer({ min: 0, max: 2 }),
    entryUnits: fc.bigInt({ min: 1n, max: 10n ** 7n }),
    markUnits: fc.bigInt({ min: 1n, max: 10n ** 7n }),
  })
  .map((r) => {
    const qty = fromUnits(r.qtyUnits, r.qdp);
    const entry = fromUnits(r.entryUnits, r.pdp);
    const mark = fromUnits(r.markUnits, r.pdp);
    const Q = parseScaled(qty)!;
    const cost = (Q * parseScaled(entry)!) / SCALE;
    const value = (Q * parseScaled(mark)!) / SCALE;
    const upnl = r.side === 'long' ? value - cost : cost - value;
    const p: PositionFigures = { side: r.side, qty: Number(qty), markPrice: Number(mark), unrealizedPnl: roundScaled(upnl, 12) };
    return { p, qty, entry, mark, cost, upnl, qtyUnits: r.qtyUnits, qdp: r.qdp };
  });

describe('closePnl', () => {
  it('recovers the cost, matches the uPnL at the mark, zero at the entry, and split closes add up', () => {
    fc.assert(
      fc.property(positionArb, fc.bigInt({ min: 0n, max: 10n ** 7n }), ({ p, qty, entry, mark, cost, upnl, qtyUnits, qdp }, cut) => {
        expect(positionCost(p)).toBe(cost);
        expect(closePnl(p, qty, mark)).toBe(upnl);
        expect(closePnl(p, qty, entry)).toBe(0n);
        const part = qtyUnits > 1n ? 1n + (cut % (qtyUnits - 1n)) : 0n;
        if (part > 0n) {
          const a = closePnl(p, fromUnits(part, qdp), mark)!;
          const b = closePnl(p, fromUnits(qtyUnits - part, qdp), mark)!;
          const d = a + b - upnl;
          expect(d >= -2n && d <= 2n).toBe(true);
        }
      }),
    );
  });

  it('a long gains when the price rises and a short when it falls', () => {
    fc.assert(
      fc.property(positionArb, fc.bigInt({ min: 1n, max: 1000n }), ({ p, qty, mark }, up) => {
        const higher = fromUnits((parseScaled(mark)! + up * SCALE) / SCALE, 0);
        const at = closePnl(p, qty, mark)!;
        const above = closePnl(p, qty, higher)!;
        if (p.side === 'long') expect(above > at).toBe(true);
        else expect(above < at).toBe(true);
      }),
    );
  });
});

describe('triggerProblem', () => {
  it('refuses exactly the wrong side of the mark', () => {
    fc.assert(
      fc.property(fc.constantFrom<'long' | 'short'>('long', 'short'), fc.integer({ min: 1, max: 100000 }), fc.integer({ min: 1, max: 100000 }), (side, markTicks, trigTicks) => {
        const mark = markTicks / 10;
        const trig = fromUnits(BigInt(trigTicks), 1);
        const tp = triggerProblem('tp', side, mark, trig, 1, 0.1);
        const sl = triggerProblem('sl', side, mark, trig, 1, 0.1);
        const above = trigTicks > markTicks;
        const below = trigTicks < markTicks;
        expect(tp === null).toBe(side === 'long' ? above : below);
        expect(sl === null).toBe(side === 'long' ? below : above);
        if (tp !== null) expect(tp).toBe(side === 'long' ? 'tpAboveMark' : 'tpBelowMark');
        if (sl !== null) expect(sl).toBe(side === 'long' ? 'slBelowMark' : 'slAboveMark');
      }),
    );
  });

  it('an empty field is no problem; off the tick or not a number is', () => {
    expect(triggerProblem('tp', 'long', 100, '', 1, 0.1)).toBeNull();
    expect(triggerProblem('tp', 'long', 100, '100.05', 1, 0.1)).toBe('offTick');
    expect(triggerProblem('tp', 'long', 100, '101.5', 1, 0.5)).toBeNull();
    expect(triggerProblem('tp', 'long', 100, '101.3', 1, 0.5)).toBe('offTick');
    expect(triggerProblem('sl', 'long', 100, 'abc', 1, 0.1)).toBe('notNumber');
  });
});
