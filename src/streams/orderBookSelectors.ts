import { decimalsOf, formatNumber } from '../format/number.ts';
import { forEachLevel, priceAt, type BookSide, type OrderBookState } from './orderBook.ts';

/**
 * Derived views over the raw book (docs/STREAMS.md "Selectors"). Each selector is memoised on the
 * identity of the BookSide it reads: the reducer publishes a new side object only when that side
 * changed, so an unchanged side returns the very same array (cheap React re-render checks).
 *
 * Grouping rule: a bid is rounded DOWN and an ask rounded UP to the step, sizes in a bucket are
 * summed, only non-empty buckets are returned (a book with gaps gives no phantom rows), and the
 * label is the bucket price at the step's decimals. Because the raw book is never crossed,
 * grouped best bid < grouped best ask.
 */

export interface BookRow {
  price: number;
  qty: number;
  /** Cumulative qty from the best level to this one. */
  total: number;
  /** Cumulative price × qty from the best level to this one. */
  value: number;
}

export interface GroupedRow extends BookRow {
  /** The bucket price formatted at the step's decimals, with thousands separators. */
  label: string;
}

export interface BookSummary {
  bestBid: number | null;
  bestAsk: number | null;
  spread: number | null;
  /** Spread relative to the mid, in percent (0.01 means 0.01 %). */
  spreadPct: number | null;
  mid: number | null;
}

export interface DepthPoint {
  price: number;
  /** Cumulative qty from the best level outwards. */
  total: number;
}

const cache = new WeakMap<BookSide, Map<string, unknown>>();

function memo<T>(side: BookSide, key: string, compute: () => T): T {
  let byKey = cache.get(side);
  if (!byKey) {
    byKey = new Map();
    cache.set(side, byKey);
  }
  if (byKey.has(key)) return byKey.get(key) as T;
  const value = compute();
  byKey.set(key, value);
  return value;
}

/** The best `n` levels of a side with cumulative totals, best first. */
export function selectTopLevels(side: BookSide, n: number): readonly BookRow[] {
  return memo(side, `top:${n}`, () => {
    const rows: BookRow[] = [];
    let total = 0;
    let value = 0;
    forEachLevel(
      side,
      (price, qty) => {
        total += qty;
        value += price * qty;
        rows.push({ price, qty, total, value });
      },
      Math.max(0, n),
    );
    return rows;
  });
}

/** Best bid/ask, spread, spread % and mid; null where a side is empty. */
export function selectBookSummary(state: OrderBookState): BookSummary {
  const bestBid = state.bids.length > 0 ? priceAt(state.bids, 0) : null;
  const bestAsk = state.asks.length > 0 ? priceAt(state.asks, 0) : null;
  if (bestBid === null || bestAsk === null) return { bestBid, bestAsk, spread: null, spreadPct: null, mid: null };
  const mid = (bestBid + bestAsk) / 2;
  const spread = bestAsk - bestBid;
  return { bestBid, bestAsk, spread, spreadPct: mid === 0 ? null : (spread / mid) * 100, mid };
}

/** Bucket index of a price: floor for bids, ceil for asks; the epsilon absorbs float noise of price/step. */
export function bucketOf(price: number, step: number, side: 'bid' | 'ask'): number {
  const x = price / step;
  return side === 'bid' ? Math.floor(x + 1e-9) : Math.ceil(x - 1e-9);
}

/**
 * Groups one side into at most `n` buckets of width `step`, best first. Walks as many raw levels as
 * needed to fill `n` buckets. `step` <= 0 or non-finite returns the raw levels as rows.
 */
export function groupSide(side: BookSide, which: 'bid' | 'ask', step: number, n = Infinity): readonly GroupedRow[] {
  return memo(side, `group:${which}:${step}:${n}`, () => {
    const valid = Number.isFinite(step) && step > 0;
    const decimals = valid ? decimalsOf(step) : 0;
    const rows: GroupedRow[] = [];
    let lastBucket = NaN;
    let total = 0;
    let value = 0;
    forEachLevel(side, (rawPrice, qty) => {
      const bucket = valid ? bucketOf(rawPrice, step, which) : rawPrice;
      const last = rows[rows.length - 1];
      const sameBucket = last !== undefined && bucket === lastBucket;
      if (!sameBucket && rows.length >= n) return false;
      total += qty;
      value += rawPrice * qty;
      if (last && sameBucket) {
        last.qty += qty;
        last.total = total;
        last.value = value;
        return true;
      }
      lastBucket = bucket;
      const price = valid ? Number((bucket * step).toFixed(decimals)) : rawPrice;
      rows.push({ price, qty, total, value, label: valid ? formatNumber(price, decimals) : String(price) });
      return true;
    });
    return rows;
  });
}

/** Both sides grouped at `step` (n buckets each). Memoised per side. */
export function selectGroupedBook(state: OrderBookState, step: number, n: number): { bids: readonly GroupedRow[]; asks: readonly GroupedRow[] } {
  return { bids: groupSide(state.bids, 'bid', step, n), asks: groupSide(state.asks, 'ask', step, n) };
}

export interface GroupingOption {
  step: number;
  /** The step as shown in the precision menu: '0.01', '0.1', '1', '10'. */
  label: string;
  decimals: number;
}

function option(step: number): GroupingOption {
  const decimals = decimalsOf(step);
  return { step, decimals, label: step.toFixed(decimals) };
}

/** Tick multiples for the precision menu: 1, 2, 5 and 10 ticks by default. */
export function tickGroupingOptions(tickSize: number, multipliers: readonly number[] = [1, 2, 5, 10]): GroupingOption[] {
  const d = decimalsOf(tickSize);
  return multipliers.map((m) => option(Number((tickSize * m).toFixed(d))));
}

/** Decade steps for the precision menu: tick, 10 ticks, 100 ticks ... (`count` options). */
export function decadeGroupingOptions(tickSize: number, count = 4): GroupingOption[] {
  const d = decimalsOf(tickSize);
  const out: GroupingOption[] = [];
  for (let i = 0; i < count; i++) out.push(option(Number((tickSize * 10 ** i).toFixed(Math.max(0, d - i)))));
  return out;
}

/** Cumulative depth curves, best first, over at most `maxLevels` raw levels per side. */
export function selectDepthChart(state: OrderBookState, maxLevels = 200): { bids: readonly DepthPoint[]; asks: readonly DepthPoint[] } {
  const curve = (side: BookSide): readonly DepthPoint[] =>
    memo(side, `depth:${maxLevels}`, () => selectTopLevels(side, maxLevels).map((r) => ({ price: r.price, total: r.total })));
  return { bids: curve(state.bids), asks: curve(state.asks) };
}
