import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { resolveToken } from '../../server/http/auth.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { marketPlugin } from '../../server/market/plugin.ts';
import { createSimulator } from '../../server/market/simulator.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import { userSocketPlugin } from '../../server/ws/userSocket.ts';
import { call, login, register, startServer, T0, type Harness } from './harness.ts';

/** Integration: both socket plugins inside the real app (buildApp), with real sessions. */

let h: Harness | null = null;
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await h?.close();
  h = null;
});

type Frame = { type: string } & Record<string, unknown>;

function firstFrames(url: string, send: unknown[], count: number): Promise<{ frames: Frame[]; ws: WebSocket; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    sockets.push(ws);
    const closed = new Promise<number>((r) => ws.once('close', (c: number) => r(c)));
    const frames: Frame[] = [];
    ws.on('message', (d: Buffer) => {
      frames.push(JSON.parse(d.toString()) as Frame);
      if (frames.length === count) resolve({ frames, ws, closed });
    });
    ws.once('open', () => {
      for (const m of send) ws.send(JSON.stringify(m));
    });
    ws.once('error', reject);
    setTimeout(() => reject(new Error(`timed out with ${frames.length} frames`)), 5000);
  });
}

describe('sockets inside buildApp', () => {
  it('serves market REST and the market socket, and authenticates the user socket with a real session', async () => {
    const sim = createSimulator({ seed: 1, startMs: T0, instruments: INSTRUMENTS.slice(0, 2) });
    const bus = createUserEventBus();
    let db: Harness['db'] | null = null;
    let clock: Harness['clock'] | null = null;
    h = await startServer({
      plugins: [
        async (app) => {
          await app.register(marketPlugin, { source: sim, clock: app.deps.clock, tickMs: 0 });
        },
        async (app) => {
          await app.register(userSocketPlugin, {
            bus,
            clock: app.deps.clock,
            authenticate: async (token) => {
              if (db === null || clock === null) return null;
              const auth = await resolveToken(db, token, clock.now());
              return auth ? { userId: auth.user.id } : null;
            },
          });
        },
      ],
    });
    db = h.db;
    clock = h.clock;
    const symbols = await call<{ symbol: string }[]>(h, '/market/symbols');
    expect(symbols.code).toBe(200);
    expect(symbols.data.map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
    const unknown = await call(h, '/market/depth?symbol=NOPE');
    expect(unknown).toMatchObject({ code: 404, msg: 'Unknown symbol', data: null });

    const wsBase = h.base.replace('http', 'ws');
    const market = await firstFrames(`${wsBase}/api/ws/market`, [{ action: 'subscribe', topics: ['btcusdt@depth'] }], 2);
    expect(market.frames[0]).toEqual({ type: 'subscribed', topics: ['btcusdt@depth'] });
    expect(market.frames[1]).toMatchObject({ type: 'depth', snapshot: true, symbol: 'BTCUSDT' });

    await register(h, 'ws@example.com');
    const token = await login(h, 'ws@example.com');
    const me = await call<{ id: number }>(h, '/user/info', { token });
    const user = await firstFrames(`${wsBase}/api/ws/user`, [{ action: 'auth', token }], 1);
    expect(user.frames[0]).toEqual({ type: 'authed', userId: me.data.id, methods: ['order.place', 'order.cancel', 'order.edit', 'position.close'] });
    const pushed = new Promise((resolve) => user.ws.once('message', (d: Buffer) => resolve(JSON.parse(d.toString()))));
    bus.publish(me.data.id, { type: 'balance', data: { asset: 'USDT' } });
    expect(await pushed).toEqual({ type: 'balance', data: { asset: 'USDT' } });

    const bad = await firstFrames(`${wsBase}/api/ws/user`, [{ action: 'auth', token: 'not-a-token' }], 1);
    expect(bad.frames[0]).toEqual({ type: 'error', msg: 'Unauthorized', code: 401 });
    expect(await bad.closed).toBe(4001);
  });
});
