import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createRateLimits } from '../../server/http/rateLimit.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import { orderRateLimitMsg } from '../../src/protocol/orderRateLimit.ts';
import { SOCKET_API_MSG } from '../../src/protocol/socketApi.ts';
import type { SocketResponse } from '../../src/protocol/socketApi.ts';
import { TRADE_MSG } from '../../src/protocol/trading.ts';
import type { Order, Position } from '../../src/protocol/trading.ts';
import { call, login, register, relaxedLimits, T0 } from './harness.ts';
import type { Harness } from './harness.ts';
import { startEngineServer } from './tradeHarness.ts';

/**
 * Orders over the user socket (Binance WebSocket API style, src/protocol/socketApi.ts) on a real
 * server: each `{id, method, params}` is answered once with the HTTP route's own envelope; the
 * order is the same one HTTP sees; validation, rate limits (RATE_LIMIT_SCALE 0.02: 6 per 10 s)
 * and their languages are the route's.
 */
type Frame = Record<string, unknown> & { type?: string };

interface Sock {
  ws: WebSocket;
  frames: Frame[];
  next(pred: (f: Frame) => boolean): Promise<Frame>;
  request<T = unknown>(id: string | number, method: string, params?: Record<string, unknown>): Promise<SocketResponse<T>>;
  closed: Promise<number>;
}

function openSocket(url: string): Promise<Sock> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames: Frame[] = [];
    const waiters = new Set<() => void>();
    ws.on('message', (d: Buffer) => {
      frames.push(JSON.parse(d.toString()) as Frame);
      for (const w of [...waiters]) w();
    });
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    const next = (pred: (f: Frame) => boolean): Promise<Frame> =>
      new Promise((res) => {
        const check = (): void => {
          const i = frames.findIndex(pred);
          if (i < 0) return;
          waiters.delete(check);
          res(frames.splice(i, 1)[0] as Frame);
        };
        waiters.add(check);
        check();
      });
    const request = async <T,>(id: string | number, method: string, params?: Record<string, unknown>): Promise<SocketResponse<T>> => {
      ws.send(JSON.stringify({ id, method, ...(params ? { params } : {}) }));
      return (await next((f) => f.type === 'response' && f.id === id)) as unknown as SocketResponse<T>;
    };
    ws.once('open', () => resolve({ ws, frames, next, request, closed }));
    ws.once('error', reject);
  });
}

describe('orders over the user socket', () => {
  let h: Harness;
  let source: ControlledMarketSource;
  let token: string;
  let other: string;
  const sockets: WebSocket[] = [];
  beforeAll(async () => {
    source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
    source.setPrice('BTCUSDT', 60_000);
    const scaled = createRateLimits(0.02);
    ({ h } = await startEngineServer({ source, bus: createUserEventBus(), limits: { ...relaxedLimits(), ordersPer10s: scaled.ordersPer10s, ordersPerMinute: scaled.ordersPerMinute } }));
    await register(h, 'ws@example.com');
    await register(h, 'ws2@example.com');
    token = await login(h, 'ws@example.com');
    other = await login(h, 'ws2@example.com');
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await h.close();
  });

  const authed = async (t: string, query = ''): Promise<Sock> => {
    // Each test starts with fresh order budgets (6 per 10 s, 24 per minute here).
    h.clock.advance(60_001);
    const s = await openSocket(`${h.base.replace('http', 'ws')}/api/ws/user${query}`);
    sockets.push(s.ws);
    s.ws.send(JSON.stringify({ action: 'auth', token: t }));
    await s.next((f) => f.type === 'authed');
    return s;
  };
  const limit = (clientOrderId: string, extra: Record<string, unknown> = {}) => ({ clientOrderId, symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price: 50_000, qty: 0.01, leverage: 10, ...extra });

  it('order.place, order.edit, order.cancel and position.close answer with the route’s envelope; the orders are the ones HTTP sees', async () => {
    const s = await authed(token);
    const placed = await s.request<Order>('p1', 'order.place', limit('ws-1'));
    expect([placed.type, placed.id, placed.code]).toEqual(['response', 'p1', 200]);
    expect(placed.data).toMatchObject({ clientOrderId: 'ws-1', status: 'pending', price: 50_000 });
    // The order frame is pushed on the same socket as ever.
    await s.next((f) => f.type === 'order' && (f.data as Order).id === placed.data?.id);
    const open = await call<{ list: Order[] }>(h, '/trade/orders/open', { token, method: 'GET' });
    expect(open.data.list.map((o) => o.id)).toEqual([placed.data?.id]);
    // The same clientOrderId over HTTP is the same order (idempotency spans both doors).
    const again = await call<Order>(h, '/trade/order', { token, body: limit('ws-1') });
    expect(again.data.id).toBe(placed.data?.id);

    const edited = await s.request<Order>(2, 'order.edit', { orderId: placed.data?.id, price: 51_000 });
    expect([edited.id, edited.code, edited.data?.price]).toEqual([2, 200, 51_000]);
    const canceled = await s.request<Order>(3, 'order.cancel', { orderId: placed.data?.id });
    expect([canceled.code, canceled.data?.status]).toEqual([200, 'canceled']);

    const market = await s.request<Order>(4, 'order.place', { clientOrderId: 'ws-m', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.01, leverage: 10 });
    expect([market.code, market.data?.status]).toEqual([200, 'filled']);
    const [position] = (await call<Position[]>(h, '/trade/positions', { token, method: 'GET' })).data;
    const closed = await s.request<Order>(5, 'position.close', { positionId: position?.id });
    expect(closed.code, closed.msg).toBe(200);
    const positions = await call<Position[]>(h, '/trade/positions', { token, method: 'GET' });
    expect(positions.data).toEqual([]);
  });

  it('refusals are the route’s: validation messages, unknown ids, another user’s order', async () => {
    const s = await authed(token);
    const noPrice = await s.request('v1', 'order.place', limit('ws-v1', { price: undefined }));
    expect([noPrice.code, noPrice.msg, noPrice.data]).toEqual([400, TRADE_MSG.limitPriceRequired, null]);
    const http = await call(h, '/trade/order', { token, body: limit('ws-v1', { price: undefined }) });
    expect([http.code, http.msg]).toEqual([noPrice.code, noPrice.msg]);
    const mine = await s.request<Order>('v2', 'order.place', limit('ws-v2'));
    const theirs = await authed(other);
    const stolen = await theirs.request('v3', 'order.cancel', { orderId: mine.data?.id });
    expect(stolen.code).toBe(400);
    expect(stolen.msg).toBe(TRADE_MSG.orderNotFound);
    await s.request('v4', 'order.cancel', { orderId: mine.data?.id });
  });

  it('malformed requests and unknown methods get a 400 response with their id; the socket stays open', async () => {
    const s = await authed(token);
    expect(await s.request('u1', 'order.teleport', {})).toEqual({ type: 'response', id: 'u1', code: 400, msg: SOCKET_API_MSG.unknownMethod, data: null });
    expect(await s.request('u2', 'toString')).toMatchObject({ code: 400, msg: SOCKET_API_MSG.unknownMethod });
    s.ws.send(JSON.stringify({ id: 'u3', method: 'order.place', params: 'not an object' }));
    expect(await s.next((f) => f.id === 'u3')).toEqual({ type: 'response', id: 'u3', code: 400, msg: SOCKET_API_MSG.badRequest, data: null });
    s.ws.send(JSON.stringify({ method: 'order.place' }));
    expect(await s.next((f) => f.type === 'response' && f.id === null)).toMatchObject({ code: 400, msg: SOCKET_API_MSG.badRequest });
    const pong = s.next((f) => f.type === 'pong');
    s.ws.send(JSON.stringify({ action: 'ping', ts: 1 }));
    await pong;
  });

  it('a request before auth closes the socket with 4001, as any other first message', async () => {
    const s = await openSocket(`${h.base.replace('http', 'ws')}/api/ws/user`);
    sockets.push(s.ws);
    s.ws.send(JSON.stringify({ id: 1, method: 'order.place', params: limit('ws-x') }));
    expect(await s.closed).toBe(4001);
  });

  it('the per-account order limits hold over the socket, in the language of the socket (?lang=)', async () => {
    const s = await authed(other, '?lang=ko');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await s.request(`r${i}`, 'order.place', limit(`ws-r${i}`))).code);
    expect(codes).toEqual([200, 200, 200, 200, 200, 200]);
    const over = await s.request('r6', 'order.place', limit('ws-r6'));
    expect([over.code, over.msg]).toEqual([429, orderRateLimitMsg('ko', 6, 10_000)]);
    // HTTP shares the budget.
    expect((await call(h, '/trade/order', { token: other, body: limit('ws-r7') })).code).toBe(429);
  });
});
