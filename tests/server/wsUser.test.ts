import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createUserEventBus, type UserEventBus, type UserFrame } from '../../server/ws/userBus.ts';
import { userSocketPlugin, type UserSocketOptions } from '../../server/ws/userSocket.ts';

type Frame = { type: string } & Record<string, unknown>;

interface Conn {
  ws: WebSocket;
  frames: Frame[];
  next(pred: (f: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  closed: Promise<{ code: number; reason: string }>;
}

function open(url: string): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames: Frame[] = [];
    const listeners = new Set<() => void>();
    ws.on('message', (d: Buffer) => {
      frames.push(JSON.parse(d.toString()) as Frame);
      for (const l of [...listeners]) l();
    });
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
    const next = (pred: (f: Frame) => boolean, timeoutMs = 3000): Promise<Frame> =>
      new Promise((res, rej) => {
        const check = (): boolean => {
          const i = frames.findIndex(pred);
          if (i < 0) return false;
          const [f] = frames.splice(i, 1);
          listeners.delete(onFrame);
          clearTimeout(timer);
          res(f as Frame);
          return true;
        };
        const onFrame = (): void => void check();
        const timer = setTimeout(() => {
          listeners.delete(onFrame);
          rej(new Error('timed out waiting for a frame'));
        }, timeoutMs);
        if (!check()) listeners.add(onFrame);
      });
    ws.once('open', () => resolve({ ws, frames, next, closed }));
    ws.once('error', reject);
  });
}

let app: FastifyInstance | null = null;
const sockets: WebSocket[] = [];

async function start(opts: Partial<UserSocketOptions> = {}): Promise<{ url: string; bus: UserEventBus }> {
  const bus = createUserEventBus();
  app = Fastify();
  await app.register(websocket);
  const tokens = new Map([
    ['good-token', 7],
    ['other-token', 8],
  ]);
  await app.register(userSocketPlugin, {
    bus,
    clock: { now: () => Date.now() },
    authenticate: async (token) => {
      const userId = tokens.get(token);
      return userId === undefined ? null : { userId };
    },
    ...opts,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `ws://127.0.0.1:${port}/api/ws/user`, bus };
}

async function connect(url: string): Promise<Conn> {
  const c = await open(url);
  sockets.push(c.ws);
  return c;
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await app?.close();
  app = null;
});

describe('user socket', () => {
  it('closes with 4001 after an Unauthorized error frame for a bad token', async () => {
    const { url } = await start();
    const c = await connect(url);
    c.ws.send(JSON.stringify({ action: 'auth', token: 'nope' }));
    expect(await c.next((f) => f.type === 'error')).toEqual({ type: 'error', msg: 'Unauthorized', code: 401 });
    expect((await c.closed).code).toBe(4001);
  });

  it('treats any other first message as unauthorized', async () => {
    const { url } = await start();
    const c = await connect(url);
    c.ws.send(JSON.stringify({ action: 'subscribe', topics: ['btcusdt@depth'] }));
    expect((await c.closed).code).toBe(4001);
  });

  it('closes with 4001 when no auth arrives in time', async () => {
    const { url } = await start({ authTimeoutMs: 200 });
    const c = await connect(url);
    expect((await c.closed).code).toBe(4001);
    expect(c.frames).toContainEqual({ type: 'error', msg: 'Unauthorized', code: 401 });
  });

  it('after auth pushes only that user\'s bus frames, answers pings, and stops on close', async () => {
    const { url, bus } = await start();
    const c = await connect(url);
    const other = await connect(url);
    c.ws.send(JSON.stringify({ action: 'auth', token: 'good-token' }));
    other.ws.send(JSON.stringify({ action: 'auth', token: 'other-token' }));
    expect(await c.next((f) => f.type === 'authed')).toEqual({ type: 'authed', userId: 7, methods: ['order.place', 'order.cancel', 'order.edit', 'position.close'] });
    await other.next((f) => f.type === 'authed');
    const frame: UserFrame = { type: 'order', data: { id: 1, status: 'filled' } };
    bus.publish(7, frame);
    bus.publish(8, { type: 'balance', data: { asset: 'USDT', available: '10' } });
    expect(await c.next((f) => f.type === 'order')).toEqual(frame);
    expect(await other.next((f) => f.type === 'balance')).toMatchObject({ data: { asset: 'USDT' } });
    c.ws.send(JSON.stringify({ action: 'ping', ts: 123 }));
    expect(await c.next((f) => f.type === 'pong')).toEqual({ type: 'pong', ts: 123 });
    expect(c.frames.some((f) => f.type === 'balance')).toBe(false);
    c.ws.send('garbage');
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 400 });
    expect(bus.listenerCount(7)).toBe(1);
    c.ws.close();
    await c.closed;
    await new Promise((r) => setTimeout(r, 50));
    expect(bus.listenerCount(7)).toBe(0);
  });

  it('drops an authenticated client that goes silent (4000)', async () => {
    const { url } = await start({ idleTimeoutMs: 200, sweepMs: 50 });
    const c = await connect(url);
    c.ws.send(JSON.stringify({ action: 'auth', token: 'good-token' }));
    await c.next((f) => f.type === 'authed');
    expect((await c.closed).code).toBe(4000);
  });
});

describe('user event bus (property)', () => {
  it('delivers every publish, in order, to exactly the current subscribers of that user', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('sub' as const), user: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('unsub' as const), idx: fc.nat() }),
      fc.record({ kind: fc.constant('pub' as const), user: fc.integer({ min: 1, max: 3 }), n: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const bus = createUserEventBus();
        const subs: { user: number; got: number[]; expected: number[]; off: (() => void) | null }[] = [];
        for (const o of ops) {
          if (o.kind === 'sub') {
            const s = { user: o.user, got: [] as number[], expected: [] as number[], off: null as (() => void) | null };
            s.off = bus.subscribe(o.user, (f) => s.got.push(f.data as number));
            subs.push(s);
          } else if (o.kind === 'unsub') {
            const s = subs[o.idx % Math.max(1, subs.length)];
            s?.off?.();
            if (s) s.off = null;
          } else {
            bus.publish(o.user, { type: 'order', data: o.n });
            for (const s of subs) if (s.user === o.user && s.off !== null) s.expected.push(o.n);
          }
        }
        for (const s of subs) expect(s.got).toEqual(s.expected);
        for (const u of [1, 2, 3]) expect(bus.listenerCount(u)).toBe(subs.filter((s) => s.user === u && s.off !== null).length);
      }),
    );
  });
});
