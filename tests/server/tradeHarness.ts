import { expect } from 'vitest';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import { formatMinor } from '../../server/db/money.ts';
import { resolveToken } from '../../server/http/auth.ts';
import { ESCROW_ACCOUNT_ID } from '../../server/wallet/wallet.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import type { TradingEngine } from '../../server/trading/engine.ts';
import { createTrading } from '../../server/trading/wiring.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import { userSocketPlugin } from '../../server/ws/userSocket.ts';
import type { UserEventBus } from '../../server/ws/userBus.ts';
import type { FastifyInstance } from 'fastify';
import type { Balance, Order, PlaceOrderBody, Position } from '../../src/protocol/trading.ts';
import { call, login, register, startServer, T0, testEngineMode } from './harness.ts';
import type { Harness } from './harness.ts';

/**
 * A real server (HTTP on 127.0.0.1) with the trading engine on a ControlledMarketSource, the user
 * socket, and a logged-in user holding the starting balances (10 000 USDT fund, 10 000 USDT perp).
 */
export interface TradeHarness {
  h: Harness;
  source: ControlledMarketSource;
  engine: TradingEngine;
  token: string;
  userId: number;
  /** Sets last and mark, then waits until the engine has processed the move. */
  move(symbol: string, last: number, mark?: number): Promise<void>;
  place(body: Partial<PlaceOrderBody>): Promise<{ code: number; msg: string; data: Order }>;
  balance(wallet: string): Promise<Balance>;
  positions(): Promise<Position[]>;
  close(): Promise<void>;
}

let seq = 0;

/**
 * The server both harnesses start (this one and copyHarness.ts): the user socket on `bus`, then the
 * trading engine on `source`, then whatever `also` registers with that engine (copy trading).
 */
export async function startEngineServer(opts: {
  source: ControlledMarketSource;
  bus: UserEventBus;
  config?: NonNullable<Parameters<typeof startServer>[0]>['config'];
  limits?: NonNullable<Parameters<typeof startServer>[0]>['limits'];
  also?: (app: FastifyInstance, engine: TradingEngine) => Promise<void>;
}): Promise<{ h: Harness; engine: TradingEngine }> {
  let engine: TradingEngine | null = null;
  const h = await startServer({
    ...(opts.config ? { config: opts.config } : {}),
    ...(opts.limits ? { limits: opts.limits } : {}),
    plugins: [
      async (app) => {
        await app.register(userSocketPlugin, {
          bus: opts.bus,
          clock: app.deps.clock,
          sweepMs: 0,
          authenticate: async (token) => {
            const auth = await resolveToken(app.deps.db, token, app.deps.clock.now());
            return auth ? { userId: auth.user.id } : null;
          },
        });
      },
      async (app) => {
        const t = createTrading({ db: app.deps.db, clock: app.deps.clock, source: opts.source, bus: opts.bus, periodicMs: 0, mode: testEngineMode() });
        engine = t.engine;
        await app.register(t.plugin);
        await opts.also?.(app, t.engine);
      },
    ],
  });
  const eng = engine as TradingEngine | null;
  if (!eng) throw new Error('engine not created');
  return { h, engine: eng };
}

export async function startTrading(email = 'trader@example.com'): Promise<TradeHarness> {
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
  const { h, engine: eng } = await startEngineServer({ source, bus: createUserEventBus() });
  await register(h, email);
  const token = await login(h, email);
  const info = await call<{ id: number }>(h, '/user/info', { token });
  return {
    h,
    source,
    engine: eng,
    token,
    userId: info.data.id,
    async move(symbol, last, mark) {
      source.setPrice(symbol, last, mark);
      await eng.idle();
    },
    async place(body) {
      seq += 1;
      const r = await call<Order>(h, '/trade/order', {
        token,
        body: { clientOrderId: `c${seq}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10, ...body },
      });
      return { code: r.code, msg: r.msg, data: r.data };
    },
    async balance(wallet) {
      const r = await call<Balance[]>(h, '/wallet/balances', { token });
      const b = r.data.find((x) => x.wallet === wallet && x.coin === 'USDT');
      if (!b) throw new Error(`no ${wallet} balance`);
      return b;
    },
    async positions() {
      return (await call<Position[]>(h, '/trade/positions', { token })).data;
    },
    close: () => h.close(),
  };
}

/** Escrow holds exactly the user's frozen perp margin; every balance equals its ledger sum and is not negative. */
export async function checkBooks(th: TradeHarness): Promise<void> {
  const frozen = (await th.balance('perp')).frozen;
  const escrow = (await balancesOf(th.h.db, ESCROW_ACCOUNT_ID)).find((b) => b.wallet === 'perp')?.amount ?? 0n;
  expect(formatMinor(escrow, 'USDT')).toBe(frozen);
  for (const b of await balancesOf(th.h.db, th.userId)) {
    expect(await ledgerSum(th.h.db, th.userId, b.wallet, b.asset)).toBe(b.amount);
    expect(b.amount >= 0n).toBe(true);
  }
}
