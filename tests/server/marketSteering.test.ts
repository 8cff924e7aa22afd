import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { marketPlugin } from '../../server/market/plugin.ts';
import { createSimulator, type MarketSimulator } from '../../server/market/simulator.ts';
import { OPERATOR_HEADER, OPERATOR_MSG } from '../../server/http/operator.ts';
import type { Ticker } from '../../src/protocol/market.ts';
import { call, startServer, T0, TEST_OPERATOR_TOKEN, type Harness } from './harness.ts';

/** POST /api/dev/market/steer over real HTTP: the operator's (and the browser tests') hand on the simulated market. */
const FEW = INSTRUMENTS.filter((i) => ['BTCUSDT', 'ETHUSDT'].includes(i.info.symbol));

async function serve(steering: boolean): Promise<{ h: Harness; source: MarketSimulator }> {
  const source = createSimulator({ seed: 7, startMs: T0, instruments: FEW });
  const h = await startServer({ plugins: [async (app) => app.register(marketPlugin, { source, clock: { now: () => T0 }, tickMs: 0, steering })] });
  return { h, source };
}

let on: { h: Harness; source: MarketSimulator };
let off: { h: Harness; source: MarketSimulator };
beforeAll(async () => {
  on = await serve(true);
  off = await serve(false);
});
afterAll(async () => {
  await on.h.close();
  await off.h.close();
});

const ticker = async (h: Harness, symbol: string) => (await call<Ticker[]>(h, '/market/tickers')).data.find((t) => t.symbol === symbol);

describe('POST /api/dev/market/steer', () => {
  it('needs the operator token, then holds the price (last and mark) until released', async () => {
    const none = await call(on.h, '/dev/market/steer', { body: { symbol: 'BTCUSDT', price: '50000.0' }, operator: false });
    expect([none.code, none.msg]).toEqual([401, OPERATOR_MSG.missing]);
    const wrong = await call(on.h, '/dev/market/steer', { body: { symbol: 'BTCUSDT', price: '50000.0' }, headers: { [OPERATOR_HEADER]: `${TEST_OPERATOR_TOKEN}x` } });
    expect([wrong.code, wrong.msg]).toEqual([401, OPERATOR_MSG.wrong]);
    expect((await ticker(on.h, 'BTCUSDT'))?.last).not.toBe(50_000);

    const held = await call(on.h, '/dev/market/steer', { body: { symbol: 'btcusdt', price: '50000.0' } });
    expect([held.code, held.data]).toEqual([200, { symbol: 'BTCUSDT', price: '50000.0' }]);
    on.source.advanceTo(T0 + 3_000);
    expect((await ticker(on.h, 'BTCUSDT'))?.last).toBe(50_000);
    expect((await ticker(on.h, 'BTCUSDT'))?.mark).toBe(50_000);
    on.source.advanceTo(T0 + 6_000);
    expect((await ticker(on.h, 'BTCUSDT'))?.last).toBe(50_000);

    const released = await call(on.h, '/dev/market/steer', { body: { symbol: 'BTCUSDT', price: null } });
    expect(released.code).toBe(200);
    on.source.advanceTo(T0 + 120_000);
    expect((await ticker(on.h, 'BTCUSDT'))?.last).not.toBe(50_000);
  });

  it('refuses a bad body, an unknown symbol and a price off the tick with an envelope error, moving nothing', async () => {
    const before = (await ticker(on.h, 'ETHUSDT'))?.last;
    for (const body of [{ symbol: 'ETHUSDT' }, { symbol: 'ETHUSDT', price: 3000 }, { symbol: 'ETHUSDT', price: '1e3' }, { symbol: 'ETHUSDT', price: '3000.001' }, { symbol: 'NOPEUSDT', price: '1' }]) {
      const r = await call(on.h, '/dev/market/steer', { body });
      expect(r.code, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(r.msg).not.toBe('');
    }
    expect((await ticker(on.h, 'ETHUSDT'))?.last).toBe(before);
  });

  it('does not exist unless the server was started with MARKET_STEERING', async () => {
    const r = await call(off.h, '/dev/market/steer', { body: { symbol: 'BTCUSDT', price: '50000.0' } });
    expect(r.code).toBe(404);
  });
});
