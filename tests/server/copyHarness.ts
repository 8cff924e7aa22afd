import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { copyPlugin } from '../../server/copy/routes.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import type { TradingEngine } from '../../server/trading/engine.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import type { UserEventBus, UserFrame } from '../../server/ws/userBus.ts';
import type { Order, PlaceOrderBody } from '../../src/protocol/trading.ts';
import { call, login, register } from './harness.ts';
import { startEngineServer } from './tradeHarness.ts';
import type { Harness } from './harness.ts';

/**
 * A real server (HTTP on 127.0.0.1) with the trading engine on a ControlledMarketSource, the user
 * socket and the copy feature (no simulated traders unless asked). `user(email)` signs up and logs
 * in (10 000 USDT fund + 10 000 USDT perp); `leader(email)` also applies and is approved through
 * the dev review endpoint, so it is a lead trader. Frames pushed on the bus are kept per user.
 */
export interface CopyHarness {
  h: Harness;
  source: ControlledMarketSource;
  engine: TradingEngine;
  bus: UserEventBus;
  frames: Map<number, UserFrame[]>;
  user(email: string): Promise<{ token: string; id: number }>;
  leader(email: string, nickname?: string): Promise<{ token: string; id: number }>;
  order(token: string, body: Partial<PlaceOrderBody>): Promise<{ code: number; msg: string; data: Order }>;
  close(): Promise<void>;
}

let seq = 0;

export async function startCopy(opts: { seed?: boolean } = {}): Promise<CopyHarness> {
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), Date.UTC(2026, 0, 1));
  source.setPrice('BTCUSDT', 60_000);
  source.setPrice('ETHUSDT', 3_000);
  const bus = createUserEventBus();
  const frames = new Map<number, UserFrame[]>();
  const watched = new Set<number>();
  const { h, engine: eng } = await startEngineServer({
    source,
    bus,
    config: { exposeOutbox: true },
    also: async (app, engine) => {
      await app.register(copyPlugin({ db: app.deps.db, clock: app.deps.clock, bus, source, periodicMs: 0 }, { engine, seed: opts.seed ?? false }));
    },
  });
  const watch = (id: number) => {
    if (watched.has(id)) return;
    watched.add(id);
    frames.set(id, []);
    bus.subscribe(id, (f) => frames.get(id)?.push(f));
  };
  const user = async (email: string) => {
    await register(h, email);
    const token = await login(h, email);
    const info = await call<{ id: number }>(h, '/user/info', { token });
    watch(info.data.id);
    return { token, id: info.data.id };
  };
  return {
    h,
    source,
    engine: eng,
    bus,
    frames,
    user,
    async leader(email, nickname = `Lead ${email.slice(0, 6)}`) {
      const u = await user(email);
      const a = await call(h, '/copy/apply', { token: u.token, body: { nickname, experience: 'Ten years of futures trading, trend following.' } });
      if (a.code !== 200) throw new Error(`apply: ${a.msg}`);
      const r = await call(h, '/dev/copy/review', { body: { email, decision: 'approve' } });
      if (r.code !== 200) throw new Error(`review: ${r.msg}`);
      return u;
    },
    async order(token, body) {
      seq += 1;
      const r = await call<Order>(h, '/trade/order', {
        token,
        body: { clientOrderId: `cp${seq}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10, ...body },
      });
      return { code: r.code, msg: r.msg, data: r.data };
    },
    close: () => h.close(),
  };
}
