import { createFeatures, runFeatureJobs } from '../../server/features.ts';
import { resolveToken } from '../../server/http/auth.ts';
import { userSocketPlugin } from '../../server/ws/userSocket.ts';
import type { FeatureDeps } from '../../server/features.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import type { UserFrame } from '../../server/ws/userBus.ts';
import type { Balance } from '../../src/protocol/trading.ts';
import { call, login, register, sendCode, startServer, T0, testEngineMode } from './harness.ts';
import type { Harness, HarnessOptions } from './harness.ts';

/** A path of src/protocol (`/api/...`) as the harness's `call` takes it (without `/api`). */
export const api = (p: string): string => p.replace(/^\/api/, '');
export const HOUR = 3_600_000;
/** Valid withdrawal addresses (checksums pass) on TRC20, the EVM networks and Bitcoin. */
export const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
export const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
export const BTC = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

/**
 * A real server (HTTP on 127.0.0.1) with the features registered exactly as server.ts does
 * (createFeatures: trading + money + ...), the user socket at /api/ws/user, a hand-moved market (BTC 50 000, ETH 2 500 USDT), the
 * dev endpoints on, and no job timers: tests move the clock, then call `jobs()`.
 */
export interface MoneyHarness {
  h: Harness;
  deps: FeatureDeps;
  source: ControlledMarketSource;
  jobs(): Promise<void>;
  /** A registered, logged-in user (10 000 USDT in fund and perp) and every frame pushed to them. */
  user(email: string): Promise<{ token: string; id: number; frames: UserFrame[] }>;
  balance(token: string, wallet: string, coin: string): Promise<string>;
  /** A fresh mail code of type 'security' (moves the clock past the resend window first). */
  securityCode(email: string, token: string): Promise<string>;
  close(): Promise<void>;
}

export async function startMoney(opts: HarnessOptions = {}): Promise<MoneyHarness> {
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
  source.setPrice('BTCUSDT', 50_000);
  source.setPrice('ETHUSDT', 2_500);
  const bus = createUserEventBus();
  let deps: FeatureDeps | null = null;
  const h = await startServer({
    ...opts,
    config: { exposeOutbox: true, ...opts.config },
    plugins: [
      async (app) => {
        await app.register(userSocketPlugin, {
          bus,
          clock: app.deps.clock,
          sweepMs: 0,
          authenticate: async (token) => {
            const auth = await resolveToken(app.deps.db, token, app.deps.clock.now());
            return auth ? { userId: auth.user.id } : null;
          },
        });
        deps = { db: app.deps.db, clock: app.deps.clock, bus, source, periodicMs: 0, engineMode: testEngineMode() };
        for (const p of createFeatures(deps)) await app.register(p);
      },
    ],
  });
  const d = deps as FeatureDeps | null;
  if (!d) throw new Error('features not registered');
  return {
    h,
    deps: d,
    source,
    jobs: () => runFeatureJobs(d, h.clock.now(), ['money']),
    async user(email) {
      await register(h, email);
      const token = await login(h, email);
      const info = await call<{ id: number }>(h, '/user/info', { token });
      const frames: UserFrame[] = [];
      bus.subscribe(info.data.id, (f) => frames.push(f));
      return { token, id: info.data.id, frames };
    },
    async balance(token, wallet, coin) {
      const r = await call<Balance[]>(h, '/wallet/balances', { token });
      return r.data.find((b) => b.wallet === wallet && b.coin === coin)?.available ?? '0';
    },
    securityCode(email, token) {
      h.clock.advance(61_000);
      return sendCode(h, email, 'security', token);
    },
    close: () => h.close(),
  };
}
