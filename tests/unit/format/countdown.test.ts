import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCountdown, untilNextCharge } from '../../../src/format/date.ts';

const H = 3_600_000;

/** The trade header's countdown to the next funding (issue 26): 00:00, 08:00, 16:00 UTC; overnight at 00:00 UTC. */
describe('untilNextCharge / formatCountdown', () => {
  it('lands on the next boundary of the period, within one period', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.constantFrom(8 as const, 24 as const), (ts, hours) => {
        const left = untilNextCharge(ts, hours);
        expect(left).toBeGreaterThan(0);
        expect(left).toBeLessThanOrEqual(hours * H);
        expect((ts + left) % (hours * H)).toBe(0);
        expect(new Date(ts + left).getUTCHours() % hours).toBe(0);
      }),
    );
  });

  it('examples', () => {
    const day = Date.UTC(2026, 10, 27);
    expect(formatCountdown(untilNextCharge(day + 5 * H + 47 * 60_000 + 15_500, 8))).toBe('02:12:44');
    expect(formatCountdown(untilNextCharge(day + 16 * H, 8))).toBe('08:00:00');
    expect(formatCountdown(untilNextCharge(day + 23 * H, 24))).toBe('01:00:00');
    expect(formatCountdown(-5)).toBe('00:00:00');
  });
});
