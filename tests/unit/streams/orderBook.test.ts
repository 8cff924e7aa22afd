import { describe, expect, it } from 'vitest';
import type { DepthDiffFrame, DepthSnapshotFrame, Level } from '../../../src/protocol/market.ts';
import { MAX_BUFFERED_DIFFS, initialOrderBook, reduceOrderBook, sideLevels, topOfBook } from '../../../src/streams/orderBook.ts';
import {
  decadeGroupingOptions,
  selectBookSummary,
  selectDepthChart,
  selectGroupedBook,
  selectTopLevels,
  tickGroupingOptions,
} from '../../../src/streams/orderBookSelectors.ts';

const snap = (seq: number, bids: Level[], asks: Level[]): DepthSnapshotFrame => ({ type: 'depth', symbol: 'S', snapshot: true, seq, bids, asks, ts: seq });
const diff = (firstSeq: number, lastSeq: number, prevSeq: number, bids: Level[], asks: Level[] = []): DepthDiffFrame => ({
  type: 'depth', symbol: 'S', snapshot: false, firstSeq, lastSeq, prevSeq, bids, asks, ts: lastSeq,
});

describe('reduceOrderBook', () => {
  it('buffers diffs before the snapshot, drops covered ones, applies the rest', () => {
    let s = initialOrderBook('S');
    expect(s.status).toBe('idle');
    s = reduceOrderBook(s, diff(8, 10, 7, [[99, 1]]));
    s = reduceOrderBook(s, diff(11, 12, 10, [[98, 2]]));
    expect(s.status).toBe('pending');
    expect(s.buffer).toHaveLength(2);
    s = reduceOrderBook(s, snap(10, [[100, 5], [99, 3]], [[101, 4]]));
    expect(s.status).toBe('live');
    expect(s.seq).toBe(12);
    expect(sideLevels(s.bids)).toEqual([[100, 5], [99, 3], [98, 2]]);
    expect(s.buffer).toHaveLength(0);
  });

  it('accepts a pu-chained first diff that straddles the snapshot (futures rule)', () => {
    let s = reduceOrderBook(initialOrderBook('S'), snap(100, [[10, 1]], [[11, 1]]));
    s = reduceOrderBook(s, diff(90, 120, 80, [[10, 2]]));
    expect([s.status, s.seq]).toEqual(['live', 120]);
    s = reduceOrderBook(s, diff(150, 160, 120, [[10, 3]]));
    expect([s.status, s.seq, topOfBook(s).bid]).toEqual(['live', 160, [10, 3]]);
  });

  it('flags a gap as resync, keeps the last good levels, ignores duplicates, recovers on a snapshot', () => {
    let s = reduceOrderBook(initialOrderBook('S'), snap(1, [[10, 1]], [[11, 1]]));
    s = reduceOrderBook(s, diff(2, 2, 1, [[10, 2]]));
    const dup = reduceOrderBook(s, diff(2, 2, 1, [[10, 9]]));
    expect(dup).toBe(s);
    s = reduceOrderBook(s, diff(4, 4, 3, [[10, 7]]));
    expect(s.status).toBe('resync');
    expect(s.reason).toEqual({ code: 'gap', expectedPrevSeq: 2, prevSeq: 3, firstSeq: 4, lastSeq: 4 });
    expect(topOfBook(s).bid).toEqual([10, 2]);
    s = reduceOrderBook(s, diff(5, 5, 4, [[10, 8]]));
    expect(s.status).toBe('resync');
    s = reduceOrderBook(s, snap(4, [[10, 7]], [[11, 1]]));
    expect([s.status, s.seq, topOfBook(s).bid, s.reason]).toEqual(['live', 5, [10, 8], null]);
  });

  it('reports snapshotGap when the first diff starts after seq + 1', () => {
    let s = reduceOrderBook(initialOrderBook('S'), snap(10, [[1, 1]], [[2, 1]]));
    s = reduceOrderBook(s, diff(13, 14, 12, [[1, 2]]));
    expect(s.reason?.code).toBe('snapshotGap');
  });

  it('removes levels with qty 0, tolerates absent removals, and ignores other symbols and frame types', () => {
    let s = reduceOrderBook(initialOrderBook('S'), snap(1, [[10, 1], [9, 1]], [[11, 1]]));
    s = reduceOrderBook(s, diff(2, 2, 1, [[10, 0], [5, 0]], [[12, 0]]));
    expect(sideLevels(s.bids)).toEqual([[9, 1]]);
    expect(reduceOrderBook(s, { ...diff(3, 3, 2, [[1, 1]]), symbol: 'T' })).toBe(s);
    expect(reduceOrderBook(s, { type: 'pong', ts: 1 })).toBe(s);
  });

  it('repairs crossing: the newer update wins over stale opposite levels', () => {
    let s = reduceOrderBook(initialOrderBook('S'), snap(1, [[10, 1]], [[11, 1], [12, 1], [13, 1]]));
    s = reduceOrderBook(s, diff(2, 2, 1, [[12, 5]]));
    expect(sideLevels(s.bids)).toEqual([[12, 5], [10, 1]]);
    expect(sideLevels(s.asks)).toEqual([[13, 1]]);
    s = reduceOrderBook(s, diff(3, 3, 2, [], [[9, 2]]));
    expect(sideLevels(s.bids)).toEqual([]);
    expect(sideLevels(s.asks)).toEqual([[9, 2], [13, 1]]);
  });

  it('bounds the pre-snapshot buffer', () => {
    let s = initialOrderBook('S');
    for (let i = 1; i <= MAX_BUFFERED_DIFFS + 5; i++) s = reduceOrderBook(s, diff(i, i, i - 1, [[1, i]]));
    expect(s.buffer).toHaveLength(MAX_BUFFERED_DIFFS);
    expect(s.buffer[0]?.lastSeq).toBe(6);
  });
});

describe('order book selectors', () => {
  const book = reduceOrderBook(initialOrderBook('S'), snap(1, [[100.5, 1], [100.2, 2], [99.9, 3], [95, 4]], [[100.7, 1], [100.8, 2], [102, 5]]));

  it('top levels with cumulative totals, memoised per side', () => {
    const top = selectTopLevels(book.bids, 2);
    expect(top).toEqual([
      { price: 100.5, qty: 1, total: 1, value: 100.5 },
      { price: 100.2, qty: 2, total: 3, value: 100.5 + 200.4 },
    ]);
    expect(selectTopLevels(book.bids, 2)).toBe(top);
    const next = reduceOrderBook(book, diff(2, 2, 1, [], [[103, 1]]));
    expect(selectTopLevels(next.bids, 2)).toBe(top); // bids unchanged → same rows
  });

  it('spread and mid', () => {
    const s = selectBookSummary(book);
    expect(s.bestBid).toBe(100.5);
    expect(s.bestAsk).toBe(100.7);
    expect(s.spread).toBeCloseTo(0.2, 10);
    expect(s.mid).toBeCloseTo(100.6, 10);
    expect(selectBookSummary(initialOrderBook('S'))).toEqual({ bestBid: null, bestAsk: null, spread: null, spreadPct: null, mid: null });
  });

  it('groups bids down and asks up with labels, across gaps', () => {
    const g = selectGroupedBook(book, 1, 10);
    expect(g.bids.map((r) => [r.label, r.qty, r.total])).toEqual([['100', 3, 3], ['99', 3, 6], ['95', 4, 10]]);
    expect(g.asks.map((r) => [r.label, r.qty])).toEqual([['101', 3], ['102', 5]]);
    const tenth = selectGroupedBook(book, 0.5, 2);
    expect(tenth.bids.map((r) => r.label)).toEqual(['100.5', '100.0']);
    expect(tenth.asks.map((r) => r.label)).toEqual(['101.0', '102.0']);
  });

  it('grouping options and depth chart', () => {
    expect(tickGroupingOptions(0.01).map((o) => o.label)).toEqual(['0.01', '0.02', '0.05', '0.1']);
    expect(decadeGroupingOptions(0.01).map((o) => o.label)).toEqual(['0.01', '0.1', '1', '10']);
    const d = selectDepthChart(book, 3);
    expect(d.asks).toEqual([{ price: 100.7, total: 1 }, { price: 100.8, total: 3 }, { price: 102, total: 8 }]);
  });
});
