import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Ticker } from '../../../src/protocol/market.ts';
import { initialMarket, reduceMarket } from '../../../src/streams/ticker.ts';
import { applyTickerFrame, seedHistory } from '../../../src/core/marketTickers.ts';
import { tickerFramesArb } from './tickerArbs.ts';

const framesArb = tickerFramesArb(['BTCUSDT', 'ETHUSDT', 'XAUUSDT'], { maxItems: 4, maxFrames: 40 });

describe('applyTickerFrame (market store behind Home and Market)', () => {
  it('keeps the market state equal to the stream reducer and the history tail equal to the last price', () => {
    fc.assert(
      fc.property(framesArb, fc.integer({ min: 2, max: 8 }), (frames, max) => {
        const store = { market: initialMarket(), history: new Map<string, readonly number[]>(), seeded: new Set<string>() };
        let expected = initialMarket();
        for (const f of frames) {
          const before = store.history.get('BTCUSDT');
          const prevMarket = store.market;
          const changed = applyTickerFrame(store, f, max);
          expected = reduceMarket(expected, f);
          expect(store.market.items).toEqual(expected.items);
          expect(changed).toBe(store.market !== prevMarket);
          for (const [s, h] of store.history) {
            expect(h.length).toBeLessThanOrEqual(max);
            expect(h[h.length - 1]).toBe(store.market.items[s]?.last);
            for (let i = 1; i < h.length; i++) expect(h[i]).not.toBe(h[i - 1]);
          }
          // History arrays are replaced, never mutated (memoised sparklines depend on it).
          if (before && store.history.get('BTCUSDT') !== before) expect(before).not.toBe(store.history.get('BTCUSDT'));
        }
      }),
    );
  });

  it('ignores an older ticker: nothing changes and no render is scheduled', () => {
    const t = (last: number, ts: number): Ticker => ({ symbol: 'BTCUSDT', last, open: 1, high: 1, low: 1, volume: 1, quoteVolume: 1, change: 0, changePct: 0, ts });
    const store = { market: initialMarket(), history: new Map<string, readonly number[]>(), seeded: new Set<string>() };
    expect(applyTickerFrame(store, { type: 'tickers', items: [t(5, 10)], ts: 0 })).toBe(true);
    const snap = store.market;
    expect(applyTickerFrame(store, { type: 'tickers', items: [t(3, 9)], ts: 0 })).toBe(false);
    expect(store.market).toBe(snap);
    expect(store.history.get('BTCUSDT')).toEqual([1, 5]);
  });

  it('a seeded sparkline keeps its length and only its last point follows the live price', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 99 }), { minLength: 2, maxLength: 24 }), framesArb, (closes, frames) => {
        const store = { market: initialMarket(), history: new Map<string, readonly number[]>(), seeded: new Set<string>() };
        seedHistory(store, 'BTCUSDT', closes);
        for (const f of frames) applyTickerFrame(store, f);
        const h = store.history.get('BTCUSDT') ?? [];
        expect(h.length).toBe(closes.length);
        expect(h.slice(0, -1)).toEqual(closes.slice(0, -1));
        expect(h[h.length - 1]).toBe(store.market.items.BTCUSDT?.last ?? closes[closes.length - 1]);
      }),
    );
  });
});
