import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createRateLimits } from '../../server/http/rateLimit.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import type { AppCore } from '../../src/core/createAppCore.ts';
import { createReplayHandle } from '../../src/core/replay/driver.ts';
import { parseReplayText } from '../../src/core/replay/parse.ts';
import { createRecordedCore } from '../../src/core/replay/record.ts';
import { SCREEN_ACTOR_PREFIX } from '../../src/core/screenActors.ts';
import type { CloseRules } from '../../src/machines/closeMachine.ts';
import type { OrderInput, OrderRules, PlaceOrderRequest } from '../../src/machines/orderMachine.ts';
import { browserClock, createBrowserHttp, createBrowserSocket } from '../../src/ports/browser.ts';
import type { LogRecord } from '../../src/ports/eventLog.ts';
import { createMemoryStorage } from '../../src/ports/fakes.ts';
import type { Ports } from '../../src/ports/types.ts';
import { orderRateLimitMsg } from '../../src/protocol/orderRateLimit.ts';
import type { Order, Position } from '../../src/protocol/trading.ts';
import { call, login, register, relaxedLimits, T0, type Harness } from './harness.ts';
import { startEngineServer } from './tradeHarness.ts';

/**
 * Issue 28 point 6 end to end: a REAL app core (session and socket machines, the order ticket and
 * close machines, the recording ports) against a REAL server over HTTP and WebSocket on 127.0.0.1
 * places, edits, cancels and closes over the user socket; its refusals are the route's, in the
 * user's language; with the socket down the same calls are HTTP; and the recorded log replays the
 * ticket's requests and answers headless, with no server.
 */

const RULES: OrderRules = { minOrderQuantity: 0.001, maxOrderQuantity: 100, qtyStep: 0.001, minLever: 1, maxLever: 100, openingFeeRatio: 0.0004, tickSize: 0.1, pricePrecision: 1, qtyPrecision: 3 };
const CLOSE_RULES: CloseRules = { qtyPrecision: 3, qtyStep: 0.001, minOrderQuantity: 0.001, pricePrecision: 1, tickSize: 0.1 };
const MARKET = { available: '100000', lastPrice: 60_000 };

const isRequest = (r: LogRecord, method: string) => r.kind === 'ws.out' && typeof r.data === 'string' && r.data.includes(`"method":"${method}"`);
const posts = (core: AppCore, path: string) => core.log.records().filter((r) => r.kind === 'http.request' && r.method === 'POST' && r.path === path);

describe('the app core places, edits, cancels and closes over the user socket (real server)', () => {
  let h: Harness;
  let token: string;
  let core: AppCore;
  let n = 0;
  beforeAll(async () => {
    const source = new ControlledMarketSource(
      INSTRUMENTS.map((i) => i.info),
      T0,
    );
    source.setPrice('BTCUSDT', 60_000);
    // 6 order commands per 10 s (RATE_LIMIT_SCALE 0.02), so one refusal is in the user's language.
    const scaled = createRateLimits(0.02);
    ({ h } = await startEngineServer({ source, bus: createUserEventBus(), limits: { ...relaxedLimits(), ordersPer10s: scaled.ordersPer10s, ordersPerMinute: scaled.ordersPerMinute } }));
    await register(h, 'core-ws@example.com');
    token = await login(h, 'core-ws@example.com');
    const storage = createMemoryStorage({ token, lang: 'zh' });
    const lang = () => storage.get('lang') ?? 'en';
    const ports: Ports = {
      clock: browserClock,
      storage,
      http: createBrowserHttp({ baseURL: `${h.base}/api`, getLang: lang, getToken: () => storage.get('token') }),
      socket: createBrowserSocket({ base: () => h.base, WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket, getLang: lang }),
      random: { id: () => `core-ws-${++n}` },
    };
    core = createRecordedCore(ports, { location: () => '/mFutures/BTCUSDT', logBytes: 64 * 1024 * 1024 }).core;
    // The user socket is open and its server announced the methods.
    await vi.waitFor(() => expect(core.socketApi.methodFor({ method: 'POST', path: '/trade/order', body: {} })).toBe('order.place'), { timeout: 20_000, interval: 20 });
  });
  afterAll(async () => {
    core?.stop();
    await h?.close();
  });

  const input = (c: AppCore): OrderInput => ({ symbol: 'BTCUSDT', rules: RULES, newId: () => c.ports.random.id() });

  it('a refusal over the socket is the route’s envelope in the user’s language (the per-account order limit)', async () => {
    h.clock.advance(60_001);
    const api = core.streams.user.tradingApi('perp');
    const limit = (i: number): PlaceOrderRequest => ({ clientOrderId: `lim-${i}`, symbol: 'BTCUSDT', side: 'buy', type: 'limit', price: '40000', qty: '0.001', leverage: 10 });
    const results: unknown[] = [];
    for (let i = 0; i < 7; i++) results.push(await api.placeOrder(limit(i)).then((a) => a.status, (e: unknown) => e));
    expect(results.slice(0, 6)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending', 'pending']);
    expect(results[6]).toEqual({ kind: 'rejected', msg: orderRateLimitMsg('zh', 6, 10_000) });
    // Over the socket, not HTTP; HTTP in the same language says the same.
    expect(core.log.records().filter((r) => isRequest(r, 'order.place'))).toHaveLength(7);
    expect(posts(core, '/trade/order')).toHaveLength(0);
    const http = await call(h, '/trade/order', { token, body: { clientOrderId: 'lim-7', symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price: '40000', qty: '0.001', leverage: 10 }, headers: { 'Web-Lang': 'zh' } });
    expect([http.code, http.msg]).toEqual([429, orderRateLimitMsg('zh', 6, 10_000)]);
  });

  it('the ticket places, the account edits and cancels, the ticket opens and the close dialog closes: all over the socket; then the recorded log replays them', async () => {
    h.clock.advance(60_001);
    const api = core.streams.user.tradingApi('perp');
    const ticket = core.machines.get({ name: 'order', contract: 'perp', input: input(core) });
    // The intents as a screen sends them (recorded, then sent).
    const intent = (ev: Parameters<typeof ticket.send>[0]) => {
      core.screens.onIntent?.('order', ev);
      ticket.send(ev);
    };
    intent({ type: 'order.edit', patch: { side: 'buy', type: 'limit', price: '50000', qty: '0.01', leverage: 10 } });
    intent({ type: 'order.submit', market: MARKET });
    await vi.waitFor(() => expect(ticket.getSnapshot().value).toBe('pending'), { timeout: 20_000, interval: 20 });
    const orderId = ticket.getSnapshot().context.orderId;
    expect(orderId).toBeTruthy();
    const open = await call<{ list: Order[] }>(h, '/trade/orders/open', { token, method: 'GET' });
    expect(open.data.list.map((o) => o.id)).toContain(orderId);

    h.clock.advance(10_001);
    const edited = await api.editOrder(String(orderId), { price: '51000' });
    expect(edited.price).toBe(51_000);
    const canceled = await api.cancelOrder(String(orderId));
    expect(canceled.status).toBe('canceled');

    h.clock.advance(10_001);
    intent({ type: 'order.edit', patch: { type: 'market', qty: '0.01' } });
    intent({ type: 'order.submit', market: MARKET });
    await vi.waitFor(() => expect(ticket.getSnapshot().value).toBe('filled'), { timeout: 20_000, interval: 20 });
    const [position] = (await call<Position[]>(h, '/trade/positions', { token, method: 'GET' })).data;
    expect(position?.qty).toBe(0.01);

    h.clock.advance(10_001);
    const closer = core.machines.get({ name: 'close', contract: 'perp' });
    closer.send({ type: 'close.open', position: position as Position, rules: CLOSE_RULES, quick: false });
    closer.send({ type: 'close.confirm' });
    await vi.waitFor(() => expect(closer.getSnapshot().value).toBe('idle'), { timeout: 20_000, interval: 20 });
    expect((await call<Position[]>(h, '/trade/positions', { token, method: 'GET' })).data).toEqual([]);

    const records = core.log.records();
    for (const m of ['order.place', 'order.edit', 'order.cancel', 'position.close']) expect(records.some((r) => isRequest(r, m)), m).toBe(true);
    expect(records.filter((r) => r.kind === 'http.request' && r.method === 'POST' && String(r.path).startsWith('/trade/'))).toEqual([]);
    expect(core.socketApi.inFlight()).toBe(0);

    // Replay the log (no server, no socket): the ticket's intents make the same requests, which
    // take the recorded answers (the account's edit and cancel, and the earlier places, are not
    // made again: unissued, their answers reach no one).
    const liveTicket = ticket.getSnapshot();
    const text = core.log.toJsonLines();
    const log = parseReplayText(text);
    const r = createReplayHandle(log, { path: '/mFutures/BTCUSDT' });
    const replayed = r.core.machines.get({ name: 'order', contract: 'perp', input: input(r.core) });
    await new Promise((resolve) => setImmediate(resolve));
    for (const rec of log.records) {
      const target = log.header.startedAt + rec.t;
      if (target > r.ports.clock.now()) r.ports.clock.set(target);
      if (rec.kind === 'ui.intent' && rec.actor === `${SCREEN_ACTOR_PREFIX}order`) {
        replayed.send(rec.event as Parameters<typeof replayed.send>[0]);
      } else if (!r.deliver(rec)) continue;
      await new Promise((resolve) => setImmediate(resolve));
    }
    r.ports.finish();
    expect(r.ports.divergences).toEqual([]);
    expect(replayed.getSnapshot().value).toEqual(liveTicket.value);
    expect(replayed.getSnapshot().context.request).toEqual(liveTicket.context.request);
    expect(replayed.getSnapshot().context.orderId).toBe(liveTicket.context.orderId);
    expect(r.core.socketApi.settled()).toBe(2);
    const unissued = r.ports.unissued.filter((x) => x.kind === 'ws.out').map((x) => JSON.parse(String(x.data)).method);
    expect(unissued.sort()).toEqual(['order.cancel', 'order.edit', 'order.place', 'order.place', 'order.place', 'order.place', 'order.place', 'order.place', 'order.place', 'position.close']);
    r.core.stop();
  });

  it('with the user socket down the same calls are HTTP', async () => {
    h.clock.advance(60_001);
    core.user.send({ type: 'socket.stop' });
    expect(core.socketApi.methodFor({ method: 'POST', path: '/trade/order', body: {} })).toBeNull();
    const before = posts(core, '/trade/order').length;
    const ack = await core.streams.user.tradingApi('perp').placeOrder({ clientOrderId: 'http-1', symbol: 'BTCUSDT', side: 'buy', type: 'limit', price: '40000', qty: '0.001', leverage: 10 });
    expect(ack.status).toBe('pending');
    expect(posts(core, '/trade/order')).toHaveLength(before + 1);
  });
});
