import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.ts';
import { createTickerBoard, SPARK_EMIT_BATCH, type MarketTickersView } from '../../../src/core/marketTickers.ts';
import type { SymbolInfo } from '../../../src/protocol/market.ts';

/** Issue 30: seeding sparklines emits one view per SPARK_EMIT_BATCH symbols and one at the end, not one per symbol. */

const N = 21;
const symbols = Array.from({ length: N }, (_, i) => ({ symbol: `S${i}USDT`, base: `S${i}`, quote: 'USDT', kinds: ['perp'] }) as unknown as SymbolInfo);

function fakeApi(): ApiClient {
  return {
    get: async <T,>(path: string, query?: Record<string, unknown>): Promise<T> => {
      if (path === '/market/symbols') return symbols as T;
      if (path === '/market/tickers') return [] as T;
      if (path === '/market/klines') return [1, 2, 3].map((c) => ({ t: c, o: c, h: c, l: c, c: c * String(query?.symbol).length, v: 1 })) as T;
      throw new Error(`unexpected ${path}`);
    },
    post: async () => {
      throw new Error('no post');
    },
    request: async () => {
      throw new Error('no request');
    },
  };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 50; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
};

describe('ticker board: sparkline seeding is batched', () => {
  it(`emits ceil(${N} / ${SPARK_EMIT_BATCH}) views while seeding, and every sparkline is seeded at the end`, async () => {
    const board = createTickerBoard({
      api: fakeApi(),
      clock: { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined } as never,
      onFrame: () => () => undefined,
      holdTopic: () => () => undefined,
    });
    const views: MarketTickersView[] = [];
    const sub = board.view$({ sparks: () => true }).subscribe((v) => views.push(v));
    await settle();
    await settle();
    const afterLoad = views.findIndex((v) => v.symbols !== null);
    expect(afterLoad).toBeGreaterThanOrEqual(0);
    const seeding = views.slice(afterLoad + 1);
    expect(seeding.length).toBe(Math.ceil(N / SPARK_EMIT_BATCH));
    const last = views.at(-1) as MarketTickersView;
    for (const s of symbols) expect(last.history(s.symbol)).toHaveLength(3);
    sub.unsubscribe();
    board.stop();
  });
});
