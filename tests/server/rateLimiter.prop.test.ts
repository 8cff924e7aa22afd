import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../server/http/rateLimit.ts';

/** A hit on `key` after `dt` ms. */
const step = fc.record({ key: fc.constantFrom('a', 'b', 'c'), dt: fc.nat({ max: 3_000 }) });

describe('SlidingWindowLimiter properties', () => {
  it('never allows more than `limit` hits in any window, and allows whenever fewer were allowed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 10_000 }), fc.array(step, { maxLength: 200 }), (limit, windowMs, steps) => {
        const limiter = new SlidingWindowLimiter(limit, windowMs);
        const allowed = new Map<string, number[]>();
        let now = 0;
        for (const { key, dt } of steps) {
          now += dt;
          const inWindow = (allowed.get(key) ?? []).filter((t) => t > now - windowMs).length;
          const ok = limiter.hit(key, now);
          // Model: allowed exactly when fewer than `limit` allowed hits lie in (now - windowMs, now].
          expect(ok).toBe(inWindow < limit);
          if (ok) allowed.set(key, [...(allowed.get(key) ?? []), now]);
          const after = (allowed.get(key) ?? []).filter((t) => t > now - windowMs).length;
          expect(after).toBeLessThanOrEqual(limit);
          expect(limiter.count(key, now)).toBe(after);
        }
      }),
    );
  });

  it('keys are independent: hits on one key never change another key’s answer', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 100 }), (steps) => {
        const together = new SlidingWindowLimiter(3, 5_000);
        const alone = new SlidingWindowLimiter(3, 5_000);
        let now = 0;
        for (const { key, dt } of steps) {
          now += dt;
          const a = together.hit(key, now);
          if (key === 'a') expect(alone.hit(key, now)).toBe(a);
        }
      }),
    );
  });

  it('forgets idle keys (memory stays bounded)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 50 }), (keys) => {
        const limiter = new SlidingWindowLimiter(2, 1_000, 10);
        keys.forEach((k, i) => limiter.hit(k, i));
        limiter.hit('late', 1_000_000);
        // Above the sweep threshold the late hit alone sweeps out every expired key.
        if (keys.length > 10) expect(limiter.size).toBe(1);
        for (const k of keys) expect(limiter.count(k, 1_000_000)).toBe(0);
        expect(limiter.size).toBe(1);
      }),
    );
  });
});
