import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { referralPlugin } from '../../server/referral/routes.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import type { TradingEngine } from '../../server/trading/engine.ts';
import { createTrading } from '../../server/trading/wiring.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import type { Invitee, ReferralSummary } from '../../src/protocol/referral.ts';
import type { Order, PlaceOrderBody } from '../../src/protocol/trading.ts';
import { call, login, register, startServer, T0, testEngineMode } from './harness.ts';
import type { Harness } from './harness.ts';

/**
 * A real server (HTTP on 127.0.0.1) serving trading on a ControlledMarketSource and the referral
 * feature, as server.ts wires them; users are signed up over HTTP (with or without an invitation code).
 */
export interface ReferralHarness {
  h: Harness;
  source: ControlledMarketSource;
  engine: TradingEngine;
  /** Signs up (optionally with an invitation code) and logs in. */
  signUp(email: string, inviteCode?: string): Promise<{ token: string; id: number }>;
  move(symbol: string, last: number, mark?: number): Promise<void>;
  place(token: string, body: Partial<PlaceOrderBody>): Promise<{ code: number; msg: string; data: Order }>;
  summary(token: string): Promise<ReferralSummary>;
  invitees(token: string, page?: number, pageSize?: number): Promise<Page<Invitee>>;
  close(): Promise<void>;
}

let seq = 0;

export async function startReferral(): Promise<ReferralHarness> {
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
  let engine: TradingEngine | null = null;
  const h = await startServer({
    plugins: [
      async (app) => {
        const t = createTrading({ db: app.deps.db, clock: app.deps.clock, source, periodicMs: 0, mode: testEngineMode() });
        engine = t.engine;
        await app.register(t.plugin);
      },
      async (app) => {
        await app.register(referralPlugin({ db: app.deps.db, clock: app.deps.clock }));
      },
    ],
  });
  const eng = engine as TradingEngine | null;
  if (!eng) throw new Error('engine not created');
  return {
    h,
    source,
    engine: eng,
    async signUp(email, inviteCode) {
      await register(h, email, 'secret12', inviteCode === undefined ? {} : { inviteCode });
      const token = await login(h, email);
      const info = await call<{ id: number }>(h, '/user/info', { token });
      return { token, id: info.data.id };
    },
    async move(symbol, last, mark) {
      source.setPrice(symbol, last, mark);
      await eng.idle();
    },
    async place(token, body) {
      seq += 1;
      const r = await call<Order>(h, '/trade/order', {
        token,
        body: { clientOrderId: `r${seq}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10, ...body },
      });
      return { code: r.code, msg: r.msg, data: r.data };
    },
    async summary(token) {
      const r = await call<ReferralSummary>(h, '/referral/summary', { token });
      if (r.code !== 200) throw new Error(`summary: ${r.code} ${r.msg}`);
      return r.data;
    },
    async invitees(token, page = 1, pageSize = 20) {
      const r = await call<Page<Invitee>>(h, `/referral/invitees?page=${page}&pageSize=${pageSize}`, { token });
      if (r.code !== 200) throw new Error(`invitees: ${r.code} ${r.msg}`);
      return r.data;
    },
    close: () => h.close(),
  };
}
