import type { DepthSnapshot } from '../../src/protocol/market.ts';
import { notional, scaled } from './formulas.ts';
import type { Rules } from './formulas.ts';

/**
 * Taking liquidity from the market source's book, exactly. The book is the external market's: our
 * orders do not consume it (the source publishes its own next snapshot), so every taker sees the
 * levels as they are now.
 */

/** What a taker gets now: `qtyU` quantity units for the exact notional `notional` (minor units, the sum over levels). */
export interface Execution {
  qtyU: bigint;
  notional: bigint;
}

/** How many levels a taker may walk. */
export const BOOK_DEPTH = 50;

/**
 * Walks the side of the book a `side` order takes from (asks for a buy, bids for a sell), best first,
 * up to `qtyU` and, for a limit order, only at prices at or better than `limitU`.
 * - A market order (limitU null) that outruns the visible depth takes the rest at the worst level
 *   it reached (the source shows only the top of a deeper book), or at the last price with no book.
 * - With no book at all, the last price stands for unlimited liquidity (if it crosses the limit).
 * Each level's notional rounds down (notional()), so the total never favours the user.
 */
export function takeFromBook(rules: Rules, side: 'buy' | 'sell', qtyU: bigint, limitU: bigint | null, book: DepthSnapshot | undefined, last: number | undefined): Execution {
  const levels = (side === 'buy' ? book?.asks : book?.bids) ?? [];
  const crosses = (p: bigint) => limitU === null || (side === 'buy' ? p <= limitU : p >= limitU);
  let left = qtyU;
  let n = 0n;
  let worst: bigint | null = null;
  for (const [price, qty] of levels) {
    if (left === 0n) break;
    const p = scaled(price, rules.pricePrecision);
    if (!crosses(p)) break;
    const q = scaled(qty, rules.qtyPrecision);
    if (q <= 0n) continue;
    const take = q < left ? q : left;
    n += notional(rules, p, take);
    left -= take;
    worst = p;
  }
  if (left > 0n && levels.length === 0 && last !== undefined) {
    const p = scaled(last, rules.pricePrecision);
    if (crosses(p)) {
      n += notional(rules, p, left);
      left = 0n;
    }
  } else if (left > 0n && limitU === null && worst !== null) {
    n += notional(rules, worst, left);
    left = 0n;
  }
  return { qtyU: qtyU - left, notional: n };
}

/** Whether a limit order at `limitU` would take at once (a post-only must not): the opposite best, or the last price with no book, crosses it. */
export function wouldTake(rules: Rules, side: 'buy' | 'sell', limitU: bigint, book: DepthSnapshot | undefined, last: number | undefined): boolean {
  const best = (side === 'buy' ? book?.asks[0] : book?.bids[0])?.[0] ?? last;
  if (best === undefined) return false;
  const p = scaled(best, rules.pricePrecision);
  return side === 'buy' ? p <= limitU : p >= limitU;
}
