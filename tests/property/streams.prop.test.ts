import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Candle, KlineFrame, Ticker, TradeFrame } from '../../src/protocol/market.ts';
import { initialCandles, reduceCandles } from '../../src/streams/candles.ts';
import { initialMarket, reduceMarket, reduceTicker, initialTicker } from '../../src/streams/ticker.ts';
import { initialTrades, reduceTrades } from '../../src/streams/trades.ts';

const tradeArb: fc.Arbitrary<TradeFrame> = fc.record({
  type: fc.constant('trade' as const),
  symbol: fc.constantFrom('A', 'B'),
  id: fc.integer({ min: 1, max: 60 }),
  price: fc.integer({ min: 1, max: 100 }),
  qty: fc.integer({ min: 1, max: 10 }),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  ts: fc.nat({ max: 1000 }),
});

const candleArb = (t: fc.Arbitrary<number>): fc.Arbitrary<Candle> =>
  fc.record({ t, o: fc.nat(100), h: fc.nat(100), l: fc.nat(100), c: fc.nat(100), v: fc.nat(100) });
const klineArb: fc.Arbitrary<KlineFrame> = fc.record({
  type: fc.constant('kline' as const),
  symbol: fc.constantFrom('A', 'B'),
  interval: fc.constantFrom('1m' as const, '5m' as const),
  candle: candleArb(fc.integer({ min: 0, max: 30 }).map((i) => i * 60_000)),
  closed: fc.boolean(),
});

const tickerArb: fc.Arbitrary<Ticker> = fc.record({
  symbol: fc.constantFrom('A', 'B', 'C', 'D'),
  last: fc.nat(100), open: fc.nat(100), high: fc.nat(100), low: fc.nat(100), volume: fc.nat(100), quoteVolume: fc.nat(1000),
  change: fc.integer({ min: -10, max: 10 }), changePct: fc.integer({ min: -10, max: 10 }), ts: fc.nat({ max: 20 }),
});

describe('trades reducer (properties)', () => {
  it('keeps the top `limit` unique ids of the symbol, newest first, first occurrence wins', () => {
    fc.assert(
      fc.property(fc.array(tradeArb, { maxLength: 120 }), fc.integer({ min: 1, max: 20 }), (frames, limit) => {
        const s = frames.reduce(reduceTrades, initialTrades('A', limit));
        const firstById = new Map<number, TradeFrame>();
        for (const f of frames) if (f.symbol === 'A' && !firstById.has(f.id)) firstById.set(f.id, f);
        const want = [...firstById.values()].sort((a, b) => b.id - a.id).slice(0, limit).map(({ id, price, qty, side, ts }) => ({ id, price, qty, side, ts }));
        expect(s.items).toEqual(want);
      }),
    );
  });
});

describe('candles reducer (properties)', () => {
  it('equals a Map model: same open time replaces, newer appends, older ignored, bounded, strictly increasing', () => {
    fc.assert(
      fc.property(
        fc.array(candleArb(fc.integer({ min: 0, max: 10 }).map((i) => i * 60_000)), { maxLength: 10 }),
        fc.array(klineArb, { maxLength: 80 }),
        fc.integer({ min: 1, max: 25 }),
        (history, frames, limit) => {
          const s = frames.reduce(reduceCandles, initialCandles('A', '1m', history, limit));
          const model = new Map<number, Candle>();
          for (const c of history) model.set(c.t, c);
          let expected = [...model.values()].sort((a, b) => a.t - b.t).slice(-limit);
          for (const f of frames) {
            if (f.symbol !== 'A' || f.interval !== '1m') continue;
            const maxT = expected.length ? (expected[expected.length - 1] as Candle).t : -Infinity;
            if (f.candle.t < maxT) continue;
            expected = [...expected.filter((c) => c.t !== f.candle.t), f.candle].slice(-limit);
          }
          expect(s.items).toEqual(expected);
          for (let i = 1; i < s.items.length; i++) expect((s.items[i] as Candle).t).toBeGreaterThan((s.items[i - 1] as Candle).t);
          expect(s.items.length).toBeLessThanOrEqual(limit);
        },
      ),
    );
  });
});

describe('ticker reducers (properties)', () => {
  it('market map holds, per symbol, the latest ticker by ts (later frame wins ties)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(tickerArb, { maxLength: 5 }), { maxLength: 20 }), (batches) => {
        const s = batches.reduce((st, items, i) => reduceMarket(st, { type: 'tickers', items, ts: i }), initialMarket());
        const want: Record<string, Ticker> = {};
        for (const t of batches.flat()) if (!want[t.symbol] || t.ts >= (want[t.symbol] as Ticker).ts) want[t.symbol] = t;
        expect(s.items).toEqual(want);
        // The single-symbol ticker sees the same answer.
        const single = batches.reduce((st, items, i) => reduceTicker(st, { type: 'tickers', items, ts: i }), initialTicker('A'));
        expect(single.ticker).toEqual(want.A ?? null);
      }),
    );
  });
});
