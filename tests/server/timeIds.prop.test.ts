import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timeId } from '../../server/services/timeIds.ts';

describe('timeId (server/services/timeIds.ts)', () => {
  it('sorts by time, has the fixed shape, and never repeats across pool refills', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 4_000_000_000_000 }), { minLength: 2, maxLength: 600 }), fc.constantFrom(5, 8), (times, bytes) => {
        const ids = times.map((t) => timeId('O', t, bytes));
        for (const id of ids) expect(id).toMatch(new RegExp(`^O[0-9a-z]{9}[0-9a-f]{${bytes * 2}}$`));
        for (let i = 1; i < times.length; i++) {
          const [t0, t1] = [times[i - 1] as number, times[i] as number];
          if (t0 < t1) expect((ids[i - 1] as string) < (ids[i] as string)).toBe(true);
        }
        expect(new Set(ids).size).toBe(ids.length);
      }),
      { numRuns: 200 },
    );
  });
});
