import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SymbolInfo } from '../../../src/protocol/market.ts';
import { initialMarket } from '../../../src/streams/ticker.ts';
import { applyTickerFrame } from '../../../src/core/marketTickers.ts';
import { sameMarketRow } from '../../../src/ui/components/market/MarketTable.tsx';
import { tickerFramesArb } from './tickerArbs.ts';

/**
 * Issue 30: a ticker batch changes a few symbols, and only their rows of the /market list render
 * again. The list's rows are memoised on `sameMarketRow` (ticker and trend points by identity), so
 * this checks, over any frames, that the store keeps the identity of every symbol a frame did not
 * touch and replaces it for every symbol whose figures changed: exactly the changed rows render.
 */
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'XAUUSDT', 'SOLUSDT'] as const;
const framesArb = tickerFramesArb(SYMBOLS, { maxItems: 3, minFrames: 1, maxFrames: 30 });
const infos = Object.fromEntries(SYMBOLS.map((s) => [s, { symbol: s, base: s.slice(0, -4), quote: 'USDT', name: s, pricePrecision: 2 } as unknown as SymbolInfo]));

describe('market list rows (issue 30)', () => {
  it('after any frame, a row is the same exactly when its symbol was not in the frame or its figures did not change', () => {
    fc.assert(
      fc.property(framesArb, (frames) => {
        const store = { market: initialMarket(), history: new Map<string, readonly number[]>(), seeded: new Set<string>() };
        const rowOf = (s: (typeof SYMBOLS)[number]) => ({
          info: infos[s] as SymbolInfo,
          ticker: store.market.items[s],
          kind: 'perp' as const,
          favorite: false,
          onToggleFavorite: () => undefined,
          onOpen: () => undefined,
          points: store.history.get(s),
          tradeLabel: 'Trade',
          starLabel: `Add ${s} to favourites`,
        });
        for (const f of frames) {
          const before = SYMBOLS.map(rowOf);
          applyTickerFrame(store, f, 8);
          const after = SYMBOLS.map(rowOf);
          SYMBOLS.forEach((s, i) => {
            const same = sameMarketRow(before[i]!, after[i]!);
            if (!f.items.some((t) => t.symbol === s)) expect(same, `${s} was not in the frame`).toBe(true);
            // a row that shows other figures must render again
            if (JSON.stringify([before[i]!.ticker, before[i]!.points]) !== JSON.stringify([after[i]!.ticker, after[i]!.points])) expect(same, `${s} changed`).toBe(false);
          });
        }
      }),
      { numRuns: 200 },
    );
  });
});
