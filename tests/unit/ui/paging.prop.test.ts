import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageCount } from '../../../src/ui/components/paging.ts';

/** The page count behind the shared Pager (order, wallet, convert and login history, ...). */
describe('pageCount', () => {
  it('is the least number of pages holding every row, at least 1 (never 0)', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.integer({ min: 1, max: 100 }), (total, size) => {
        const pages = pageCount(total, size);
        expect(pages).toBeGreaterThanOrEqual(1);
        expect(pages * size).toBeGreaterThanOrEqual(total);
        if (total > 0) expect((pages - 1) * size).toBeLessThan(total);
      }),
    );
  });
});
