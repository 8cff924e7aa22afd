import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Level } from '../../src/protocol/market.ts';
import { initialOrderBook, reduceOrderBook, sideLevels, type OrderBookState } from '../../src/streams/orderBook.ts';
import { bucketOf, groupSide, selectGroupedBook, selectTopLevels } from '../../src/streams/orderBookSelectors.ts';

const TICKS = [0.01, 0.1, 0.5, 1];
const STEPS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 100];

/** A snapshot-built book on a tick grid; quantities are integers so sums are exact. */
const bookArb = fc
  .record({
    tick: fc.constantFrom(...TICKS),
    mid: fc.integer({ min: 100, max: 100_000 }),
    bids: fc.array(fc.tuple(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 1000 })), { maxLength: 80 }),
    asks: fc.array(fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 1, max: 1000 })), { maxLength: 80 }),
  })
  .map(({ tick, mid, bids, asks }): OrderBookState => {
    const d = Math.max(0, -Math.floor(Math.log10(tick)));
    const px = (ticks: number): number => Number((ticks * tick).toFixed(d));
    const midTicks = Math.round(mid / tick);
    const toLevels = (xs: [number, number][], sign: number): Level[] => xs.map(([off, q]) => [px(midTicks + sign * off), q]);
    return reduceOrderBook(initialOrderBook('X'), { type: 'depth', symbol: 'X', snapshot: true, seq: 1, bids: toLevels(bids, -1), asks: toLevels(asks, 1), ts: 0 });
  });

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

describe('order book grouping (properties)', () => {
  it('grouped sizes sum to the raw sizes; bids round down, asks round up; rows strictly ordered', () => {
    fc.assert(
      fc.property(bookArb, fc.constantFrom(...STEPS), (book, step) => {
        for (const which of ['bid', 'ask'] as const) {
          const side = which === 'bid' ? book.bids : book.asks;
          const raw = sideLevels(side);
          const rows = groupSide(side, which, step);
          expect(sum(rows.map((r) => r.qty))).toBe(sum(raw.map((l) => l[1])));
          expect(rows[rows.length - 1]?.total ?? 0).toBe(sum(raw.map((l) => l[1])));
          for (const [price, qty] of raw) {
            const b = bucketOf(price, step, which);
            const row = rows.find((r) => Math.abs(r.price - b * step) < step / 1000);
            expect(row, `bucket of ${price}`).toBeDefined();
            if (which === 'bid') expect(row?.price).toBeLessThanOrEqual(price + 1e-9);
            else expect(row?.price).toBeGreaterThanOrEqual(price - 1e-9);
            expect(Math.abs((row?.price ?? 0) - price)).toBeLessThan(step + 1e-9);
            expect(qty).toBeGreaterThan(0);
          }
          for (let i = 1; i < rows.length; i++) {
            const prev = rows[i - 1]?.price ?? 0;
            const cur = rows[i]?.price ?? 0;
            if (which === 'bid') expect(prev).toBeGreaterThan(cur);
            else expect(prev).toBeLessThan(cur);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('grouped best bid stays below grouped best ask (no crossing), at every step', () => {
    fc.assert(
      fc.property(bookArb, fc.constantFrom(...STEPS), fc.integer({ min: 1, max: 30 }), (book, step, n) => {
        const g = selectGroupedBook(book, step, n);
        expect(g.bids.length).toBeLessThanOrEqual(n);
        expect(g.asks.length).toBeLessThanOrEqual(n);
        if (g.bids[0] && g.asks[0]) expect(g.bids[0].price).toBeLessThan(g.asks[0].price);
      }),
      { numRuns: 300 },
    );
  });

  it('labels show the bucket price at the step decimals; top-n totals are cumulative', () => {
    fc.assert(
      fc.property(bookArb, fc.constantFrom(...STEPS), (book, step) => {
        const decimals = step >= 1 ? 0 : String(step).split('.')[1]?.length ?? 0;
        for (const row of groupSide(book.bids, 'bid', step)) {
          expect(row.label.replace(/,/g, '')).toBe(row.price.toFixed(decimals));
        }
        const top = selectTopLevels(book.asks, 10);
        let running = 0;
        for (const r of top) {
          running += r.qty;
          expect(r.total).toBe(running);
        }
      }),
      { numRuns: 200 },
    );
  });
});
