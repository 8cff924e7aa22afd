import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ratePercent, REFERRAL_RATE_BPS, rebateOf } from '../../../src/protocol/referral.ts';

/** The rebate arithmetic of docs/REFERRAL.md (src/protocol/referral.ts), exact on BigInt. */
describe('rebateOf', () => {
  const fee = fc.bigInt({ min: 0n, max: 10n ** 18n });

  it('is floor(fee × 20 %): 0 ≤ rebate ≤ fee and the platform keeps less than one minor unit of the exact share', () => {
    fc.assert(
      fc.property(fee, (f) => {
        const r = rebateOf(f);
        expect(r >= 0n && r <= f).toBe(true);
        // r ≤ f/5 < r + 1, i.e. 5r ≤ f < 5r + 5
        expect(5n * r <= f && f < 5n * r + 5n).toBe(true);
      }),
    );
  });

  it('splitting a fee never pays more than the whole, and at most one minor unit less per part', () => {
    fc.assert(
      fc.property(fee, fee, (a, b) => {
        const whole = rebateOf(a + b);
        const parts = rebateOf(a) + rebateOf(b);
        expect(parts <= whole && whole <= parts + 1n).toBe(true);
      }),
    );
  });

  it('hand-computed values, and nothing for a zero or negative fee', () => {
    expect(REFERRAL_RATE_BPS).toBe(2000n);
    expect(rebateOf(30_001n)).toBe(6_000n);
    expect(rebateOf(3_000_000n)).toBe(600_000n);
    expect(rebateOf(4n)).toBe(0n);
    expect(rebateOf(5n)).toBe(1n);
    expect(rebateOf(0n)).toBe(0n);
    expect(rebateOf(-10n)).toBe(0n);
    expect(rebateOf(100n, 1250n)).toBe(12n);
  });

  it('shows the rate as a percent', () => {
    expect(ratePercent()).toBe('20');
    expect(ratePercent(1250n)).toBe('12.5');
    expect(ratePercent(5n)).toBe('0.05');
  });
});
