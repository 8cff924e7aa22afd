import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { MarketFrame } from '../../../src/protocol/market.ts';
import { initialCandles } from '../../../src/streams/candles.ts';
import { sideLevels } from '../../../src/streams/orderBook.ts';
import { candles$, market$, orderBook$, orderBookStreams, resync$, ticker$, trades$ } from '../../../src/streams/wire.ts';

const scheduler = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

const F: Record<string, MarketFrame> = {
  s: { type: 'depth', symbol: 'S', snapshot: true, seq: 1, bids: [[10, 1]], asks: [[11, 1]], ts: 1 },
  d: { type: 'depth', symbol: 'S', snapshot: false, firstSeq: 2, lastSeq: 2, prevSeq: 1, bids: [[10, 2]], asks: [], ts: 2 },
  g: { type: 'depth', symbol: 'S', snapshot: false, firstSeq: 5, lastSeq: 5, prevSeq: 4, bids: [[10, 3]], asks: [], ts: 5 },
  h: { type: 'depth', symbol: 'S', snapshot: false, firstSeq: 6, lastSeq: 6, prevSeq: 5, bids: [[10, 4]], asks: [], ts: 6 },
  n: { type: 'depth', symbol: 'S', snapshot: true, seq: 5, bids: [[10, 3]], asks: [[11, 1]], ts: 5 },
  j: { type: 'depth', symbol: 'S', snapshot: false, firstSeq: 9, lastSeq: 9, prevSeq: 8, bids: [[10, 9]], asks: [], ts: 9 },
  x: { type: 'depth', symbol: 'OTHER', snapshot: true, seq: 1, bids: [], asks: [], ts: 1 },
  p: { type: 'pong', ts: 1 },
  t: { type: 'trade', symbol: 'S', id: 1, price: 10, qty: 1, side: 'buy', ts: 1 },
  u: { type: 'trade', symbol: 'S', id: 2, price: 11, qty: 1, side: 'sell', ts: 2 },
  k: { type: 'kline', symbol: 'S', interval: '1m', candle: { t: 60_000, o: 1, h: 2, l: 1, c: 2, v: 3 }, closed: false },
  i: { type: 'ticker', symbol: 'S', last: 1, open: 1, high: 1, low: 1, volume: 1, quoteVolume: 1, change: 0, changePct: 0, ts: 1 },
  a: { type: 'tickers', items: [{ symbol: 'T', last: 2, open: 1, high: 1, low: 1, volume: 1, quoteVolume: 1, change: 1, changePct: 1, ts: 1 }], ts: 1 },
};

describe('stream wiring (marbles)', () => {
  it('orderBook$ filters by symbol, scans, and emits only on change', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames = cold('s-x-p-d-d|', F);
      const out = orderBook$(frames, 'S').pipe(map((b) => `${b.status}:${b.seq}:${JSON.stringify(sideLevels(b.bids))}`));
      expectObservable(out).toBe('a-----b--|', { a: 'live:1:[[10,1]]', b: 'live:2:[[10,2]]' });
    });
  });

  it('resync$ emits once when a gap is seen, again only after a recovery and a new gap', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames = cold('s-d-g-h-n-g-j|', F);
      const { book$, resync$: r$ } = orderBookStreams(frames, 'S');
      expectObservable(r$.pipe(map((r) => `${r.symbol}@${r.seq}:${r.reason.code}`))).toBe('----a-------b|', { a: 'S@2:gap', b: 'S@6:gap' });
      expectObservable(book$.pipe(map((b) => `${b.status}@${b.seq}`))).toBe('a-b-c-c-d---e|', { a: 'live@1', b: 'live@2', c: 'resync@2', d: 'live@6', e: 'resync@6' });
    });
  });

  it('resync$ reports a snapshot that does not connect to the stream', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames = cold('s-g|', F);
      expectObservable(resync$(orderBook$(frames, 'S')).pipe(map((r) => r.reason.code))).toBe('--a|', { a: 'snapshotGap' });
    });
  });

  it('trades$, ticker$, market$ and candles$', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const frames = cold('t-u-t-k-i-a|', F);
      expectObservable(trades$(frames, 'S', 5).pipe(map((s) => s.items.map((t) => t.id).join(',')))).toBe('a-b--------|', { a: '1', b: '2,1' });
      expectObservable(ticker$(frames, 'S').pipe(map((s) => s.ticker?.last))).toBe('--------a--|', { a: 1 });
      expectObservable(market$(frames).pipe(map((s) => Object.keys(s.items).join(',')))).toBe('--------a-b|', { a: 'S', b: 'S,T' });
      const history = initialCandles('S', '1m', [{ t: 0, o: 1, h: 1, l: 1, c: 1, v: 1 }]);
      expectObservable(candles$(frames, history).pipe(map((s) => s.items.map((c) => c.t).join(',')))).toBe('a-----b----|', { a: '0', b: '0,60000' });
    });
  });
});
