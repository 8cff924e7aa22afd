import { describe, expect, it } from 'vitest';
import { SimulatedClock, waitFor } from 'xstate';
import { ApiError } from '../../../src/api/client.ts';
import { createAppCore, type AppCore } from '../../../src/core/createAppCore.ts';
import { createReplayHandle } from '../../../src/core/replay/driver.ts';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { createRecordedCore } from '../../../src/core/replay/record.ts';
import { SCREEN_ACTOR_PREFIX } from '../../../src/core/screenActors.ts';
import { placeOrderBodyOf } from '../../../src/core/tradingApi.ts';
import { SOCKET_CLOSED_MSG, SOCKET_REQUEST_TIMEOUT_MS } from '../../../src/core/tradingSocket.ts';
import type { CoreOutput } from '../../../src/machines/sessionMachine.ts';
import type { OrderInput, OrderRules, PlaceFailure, PlaceOrderRequest } from '../../../src/machines/orderMachine.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope, type ScriptedSocket } from '../../../src/ports/fakes.ts';
import type { Ports } from '../../../src/ports/types.ts';
import { hashState } from '../../../src/ports/stateHash.ts';
import { SOCKET_METHOD_NAMES } from '../../../src/protocol/socketApi.ts';
import { settle } from '../settle.ts';

/**
 * The order ticket over the user socket (issue 28 point 6): the core's place / cancel / edit /
 * close go as `{id, method, params}` on the user socket once it is authed and its server
 * announced the methods, and over HTTP otherwise; answers are the route's envelope, so the
 * machines get the same OrderAck / PlaceFailure / ApiError; a socket lost mid-request is one
 * network failure and nothing is sent twice; requests and answers are recorded frames that
 * replay without a socket.
 */

const RULES: OrderRules = { minOrderQuantity: 0.01, maxOrderQuantity: 50, qtyStep: 0.01, minLever: 1, maxLever: 100, openingFeeRatio: 0.0004, tickSize: 0.1, pricePrecision: 1, qtyPrecision: 2 };
const REQ: PlaceOrderRequest = { clientOrderId: 'c-1', symbol: 'BTCUSDT', side: 'buy', type: 'limit', price: '50000', qty: '0.01', leverage: 10 };
const order = (id: string, status: 'pending' | 'filled' | 'canceled' = 'pending', clientOrderId = 'c-1') => ({ id, clientOrderId, status, contract: 'perp', symbol: 'BTCUSDT' });

type Sent = { id: number; method: string; params: Record<string, unknown> };

function boot(wrap?: (ports: Ports) => AppCore) {
  const clock = new SimulatedClock();
  clock.set(1_700_000_000_000);
  const http = createScriptedHttp();
  http.on('GET', '/user/info', envelope(200, 'ok', { id: 1, cover_email: 'a***@b.c', avatar: '' }));
  const socket = createScriptedSocketFactory();
  const storage = createMemoryStorage({ token: 'stored-1' });
  let n = 0;
  const ports: Ports = { clock, http, socket, storage, random: { id: () => `rand-${++n}` } };
  const core = wrap ? wrap(ports) : createAppCore(ports, { location: () => '/mFutures/BTCUSDT' });
  const outputs: CoreOutput[] = [];
  core.outputs$.subscribe((o) => outputs.push(o));
  const userSockets = () => socket.sockets.filter((s) => s.url === '/api/ws/user');
  /** The user socket opened and authed (announcing `methods`, or none as a server before issue 28). */
  const authed = async (methods: readonly string[] | null = SOCKET_METHOD_NAMES): Promise<ScriptedSocket> => {
    await waitFor(core.session, (s) => s.context.userInfo !== null);
    const u = userSockets().at(-1);
    if (!u) throw new Error('no user socket');
    u.open();
    u.frame(methods === null ? { type: 'authed', userId: 1 } : { type: 'authed', userId: 1, methods });
    return u;
  };
  const requests = (u: ScriptedSocket): Sent[] => u.sent.map((d) => JSON.parse(d) as Sent & { action?: string }).filter((f) => f.action === undefined);
  const answer = (u: ScriptedSocket, id: unknown, code: number, msg: string, data: unknown = null) => u.frame({ type: 'response', id, code, msg, data });
  const posts = (path: string) => http.requests.filter((r) => r.method === 'POST' && r.path === path);
  /** A promise's outcome, read after `settle()`. */
  const outcome = <T,>(p: Promise<T>) => {
    const o: { value?: T; error?: unknown; done: boolean } = { done: false };
    p.then(
      (value) => Object.assign(o, { value, done: true }),
      (error: unknown) => Object.assign(o, { error, done: true }),
    );
    return o;
  };
  return { clock, http, socket, storage, core, outputs, authed, requests, answer, posts, outcome, api: core.streams.user.tradingApi('perp') };
}

/** Replays a recorded log headless with the order ticket the screen held; its recorded intents are sent to it. */
async function replayTicket(text: string, input: (c: AppCore) => OrderInput) {
  const log = parseReplayText(text);
  const h = createReplayHandle(log, { path: '/mFutures/BTCUSDT' });
  const ticket = h.core.machines.get({ name: 'order', contract: 'perp', input: input(h.core) });
  await settle();
  for (const rec of log.records) {
    const target = log.header.startedAt + rec.t;
    if (target > h.ports.clock.now()) h.ports.clock.set(target);
    if (rec.kind === 'ui.intent' && rec.actor === `${SCREEN_ACTOR_PREFIX}order`) {
      ticket.send(rec.event as Parameters<typeof ticket.send>[0]);
      await settle();
      continue;
    }
    const before = h.core.socketApi.settled();
    const flush = h.deliver(rec);
    // An answer that settled a request: the driver lets it reach the machine before the next record, as an HTTP answer.
    if (h.core.socketApi.settled() > before) expect(flush, `answer @${rec.seq}`).toBe(true);
    if (flush) await settle();
  }
  h.ports.finish();
  const out = { divergences: h.ports.divergences, unissued: h.ports.unissued, settled: h.core.socketApi.settled(), ticket: ticket.getSnapshot(), hash: hashState(h.core.state()) };
  h.core.stop();
  return out;
}

describe('trading calls over the user socket', () => {
  it('go over the user socket once it is authed and announced the methods, with the same OrderAck as over HTTP', async () => {
    const { core, http, authed, requests, answer, posts, outcome, api } = boot();
    await waitFor(core.session, (s) => s.context.userInfo !== null);
    // Not open yet: HTTP.
    http.on('POST', '/trade/order', envelope(200, '', order('o-http')));
    expect(await api.placeOrder(REQ)).toEqual({ orderId: 'o-http', status: 'pending' });
    expect(posts('/trade/order')).toHaveLength(1);

    const u = await authed();
    const placed = outcome(api.placeOrder({ ...REQ, clientOrderId: 'c-2' }));
    expect(requests(u)).toEqual([{ id: 1, method: 'order.place', params: placeOrderBodyOf({ ...REQ, clientOrderId: 'c-2' }, 'perp') }]);
    expect(core.socketApi.inFlight()).toBe(1);
    answer(u, 1, 200, '', order('o-ws', 'filled', 'c-2'));
    await settle();
    expect(placed.value).toEqual({ orderId: 'o-ws', status: 'filled' });
    expect(posts('/trade/order'), 'no HTTP request for the socket one').toHaveLength(1);
    expect(core.socketApi.inFlight()).toBe(0);
    core.stop();
  });

  it('answers match their request by id in any order; an unknown id and a second answer are ignored', async () => {
    const { core, authed, requests, answer, outcome, api } = boot();
    const u = await authed();
    const place = outcome(api.placeOrder(REQ));
    const cancel = outcome(api.cancelOrder('o-7'));
    const edit = outcome(api.editOrder('o-8', { price: '51000' }));
    const close = outcome(api.closePositionWith({ positionId: 'p-1', clientOrderId: 'cl-1', qty: '0.5' }));
    expect(requests(u).map((r) => [r.id, r.method, r.params])).toEqual([
      [1, 'order.place', placeOrderBodyOf(REQ, 'perp')],
      [2, 'order.cancel', { orderId: 'o-7' }],
      [3, 'order.edit', { orderId: 'o-8', price: '51000' }],
      [4, 'position.close', { positionId: 'p-1', clientOrderId: 'cl-1', qty: '0.5' }],
    ]);
    answer(u, 99, 200, '', order('o-unknown'));
    answer(u, '2', 200, '', order('o-string-id'));
    await settle();
    expect(core.socketApi.inFlight()).toBe(4);
    expect(core.socketApi.settled()).toBe(0);
    answer(u, 3, 200, '', order('o-8'));
    answer(u, 1, 200, '', order('o-1'));
    answer(u, 4, 200, '', order('o-close', 'filled', 'cl-1'));
    answer(u, 2, 200, '', order('o-7', 'canceled'));
    answer(u, 1, 200, '', order('o-again'));
    await settle();
    expect(place.value).toEqual({ orderId: 'o-1', status: 'pending' });
    expect(cancel.value).toMatchObject({ id: 'o-7', status: 'canceled' });
    expect(edit.value).toMatchObject({ id: 'o-8' });
    expect(close.value).toMatchObject({ id: 'o-close', clientOrderId: 'cl-1' });
    expect(core.socketApi.settled()).toBe(4);
    core.stop();
  });

  it('a refusal is the route envelope: the same PlaceFailure and ApiError as over HTTP, in the server language', async () => {
    const { core, http, authed, answer, outcome, api, posts } = boot();
    const u = await authed();
    const place = outcome(api.placeOrder(REQ));
    const cancel = outcome(api.cancelOrder('o-1'));
    answer(u, 1, 400, '余额不足');
    answer(u, 2, 400, '订单不是挂单状态');
    await settle();
    const overSocket = [place.error, cancel.error];
    expect(place.error).toEqual({ kind: 'rejected', msg: '余额不足' } satisfies PlaceFailure);
    expect(cancel.error).toBeInstanceOf(ApiError);
    // The same envelopes over HTTP (the socket closed): the very same rejections.
    u.close(1006, '');
    http.on('POST', '/trade/order', envelope(400, '余额不足'));
    http.on('POST', '/trade/order/cancel', envelope(400, '订单不是挂单状态'));
    const overHttp = await Promise.all([api.placeOrder(REQ).catch((e: unknown) => e), api.cancelOrder('o-1').catch((e: unknown) => e)]);
    expect(posts('/trade/order')).toHaveLength(1);
    expect(overHttp).toEqual(overSocket);
    expect([(overHttp[1] as ApiError).code, (overHttp[1] as ApiError).msg]).toEqual([(cancel.error as ApiError).code, (cancel.error as ApiError).msg]);
    core.stop();
  });

  it('the socket closing mid-request answers a network failure once and never sends it again', async () => {
    const { core, clock, socket, authed, requests, answer, outcome, api, posts, outputs } = boot();
    const u = await authed();
    const place = outcome(api.placeOrder(REQ));
    const close = outcome(api.closePositionWith({ positionId: 'p-1', clientOrderId: 'cl-1' }));
    u.close(1006, '');
    await settle();
    expect(place.error).toEqual({ kind: 'network', msg: SOCKET_CLOSED_MSG });
    expect(close.error).toMatchObject({ name: 'NetworkError', message: SOCKET_CLOSED_MSG });
    expect(outputs.filter((o) => o.type === 'toast' && o.level === 'error')).toHaveLength(2);
    expect(core.socketApi.inFlight()).toBe(0);
    // A late answer on the dead connection changes nothing; nothing went over HTTP instead.
    answer(u, 1, 200, '', order('o-late'));
    await settle();
    expect(core.socketApi.settled()).toBe(2);
    expect(posts('/trade/order')).toHaveLength(0);
    expect(posts('/trade/position/close')).toHaveLength(0);
    // The reconnect re-sends nothing: its only frame is the auth.
    clock.increment(10_000);
    const again = await authed();
    expect(again).not.toBe(u);
    expect(requests(again)).toEqual([]);
    expect(socket.sockets.filter((s) => s.url === '/api/ws/user').flatMap(requests)).toHaveLength(2);

    // The core dropping the connection itself (a page wake, another user) is the same failure.
    const cancel = outcome(api.cancelOrder('o-1'));
    core.user.send({ type: 'socket.reconnectNow' });
    await settle();
    expect(again.closedByApp).toBe(true);
    expect(cancel.error).toMatchObject({ name: 'NetworkError' });
    core.stop();
  });

  it('falls back to HTTP while the socket is connecting, closed, or its server announced no methods (a server before issue 28)', async () => {
    const { core, clock, http, authed, requests, posts, api } = boot();
    http.on('POST', '/trade/order/edit', envelope(200, '', order('o-1')));
    const old = await authed(null);
    await api.editOrder('o-1', { qty: '1' });
    expect(posts('/trade/order/edit')).toHaveLength(1);
    expect(requests(old)).toEqual([]);
    expect(core.socketApi.methodFor({ method: 'POST', path: '/trade/order/edit', body: {} })).toBeNull();

    old.close(1006, '');
    clock.increment(10_000);
    await api.editOrder('o-1', { qty: '1' });
    expect(posts('/trade/order/edit'), 'connecting: not authed yet').toHaveLength(2);
    const u = await authed(['order.place']);
    await api.editOrder('o-1', { qty: '1' });
    expect(posts('/trade/order/edit'), 'a method the server did not announce').toHaveLength(3);
    expect(core.socketApi.methodFor({ method: 'POST', path: '/trade/order', body: {} })).toBe('order.place');
    // Reads never go over the socket.
    expect(core.socketApi.methodFor({ method: 'GET', path: '/trade/order' })).toBeNull();
    expect(requests(u)).toEqual([]);
    core.stop();
  });

  it('an unanswered request is a network failure after HTTP own timeout, on the core clock', async () => {
    const { core, clock, authed, outcome, api } = boot();
    await authed();
    const place = outcome(api.placeOrder(REQ));
    clock.increment(SOCKET_REQUEST_TIMEOUT_MS - 1);
    await settle();
    expect(place.done).toBe(false);
    clock.increment(1);
    await settle();
    expect(place.error).toMatchObject({ kind: 'network' });
    core.stop();
  });

  it('a 401 answer runs the 401 flow like an HTTP 401', async () => {
    const { core, storage, authed, answer, outcome, api } = boot();
    const u = await authed();
    const cancel = outcome(api.cancelOrder('o-1'));
    answer(u, 1, 401, 'Unauthorized');
    await settle();
    expect(cancel.error).toMatchObject({ code: 401 });
    expect(core.session.getSnapshot().value).toBe('guest');
    expect(storage.get('token')).toBeNull();
    core.stop();
  });

  it('the order ticket: placed over the socket; a drop mid-request is "network error", and its retry posts the same clientOrderId', async () => {
    const { core, http, authed, requests, answer, posts } = boot();
    const u = await authed();
    const ticket = core.machines.get({ name: 'order', contract: 'perp', input: { symbol: 'BTCUSDT', rules: RULES, newId: () => 'coid-1' } });
    ticket.send({ type: 'order.edit', patch: { side: 'buy', type: 'limit', price: '50000', qty: '0.01', leverage: 10 } });
    ticket.send({ type: 'order.submit', market: { available: '100000', lastPrice: 50000 } });
    expect(ticket.getSnapshot().value).toBe('submitting');
    expect(requests(u)).toHaveLength(1);
    expect(requests(u)[0]?.params.clientOrderId).toBe('coid-1');
    u.close(1006, '');
    await settle();
    expect(ticket.getSnapshot().value).toBe('failed');
    // The retry: the socket is down, so HTTP, with the same id (the server answers the order it has).
    http.on('POST', '/trade/order', (req) => envelope(200, '', order('o-1', 'pending', (req.body as { clientOrderId: string }).clientOrderId)));
    ticket.send({ type: 'order.retry' });
    await settle();
    expect(posts('/trade/order').map((r) => (r.body as { clientOrderId: string }).clientOrderId)).toEqual(['coid-1']);
    expect(ticket.getSnapshot().value).toBe('pending');
    expect(ticket.getSnapshot().context.orderId).toBe('o-1');
    expect(requests(u)).toHaveLength(1);
    // Refused over the socket: the ticket shows the server's message.
    core.user.send({ type: 'socket.reconnectNow' });
    const u2 = await authed();
    ticket.send({ type: 'order.edit', patch: { qty: '0.02' } });
    ticket.send({ type: 'order.submit', market: { available: '100000', lastPrice: 50000 } });
    const sent = requests(u2)[0];
    expect(sent?.method).toBe('order.place');
    answer(u2, sent?.id, 400, 'Insufficient Balance');
    await settle();
    expect(ticket.getSnapshot().value).toBe('rejected');
    expect(ticket.getSnapshot().context.failure).toEqual({ kind: 'rejected', msg: 'Insufficient Balance' });
    core.stop();
  });

  it('recorded as frames and replayed without a socket: the same requests, answers and state; a request the replay does not make shifts no answer', async () => {
    const live = boot((ports) => createRecordedCore(ports, { location: () => '/mFutures/BTCUSDT' }).core);
    const { core, authed, requests, answer } = live;
    const u = await authed();
    // A call no intent made (a Cancel button's): the replay does not make it, so the ticket's requests get ids one lower.
    const cancel = live.outcome(live.api.cancelOrder('o-0'));
    answer(u, 1, 200, '', order('o-0', 'canceled'));
    await settle();
    expect(cancel.value).toMatchObject({ status: 'canceled' });
    const input = (c: AppCore) => ({ symbol: 'BTCUSDT', rules: RULES, newId: () => c.ports.random.id() });
    const ticket = core.machines.get({ name: 'order', contract: 'perp', input: input(core) });
    // What a screen does (src/ui/hooks): the intent is recorded, then sent.
    const intent = (ev: Parameters<typeof ticket.send>[0]) => {
      core.screens.onIntent?.('order', ev);
      ticket.send(ev);
    };
    intent({ type: 'order.edit', patch: { side: 'buy', type: 'limit', price: '50000', qty: '0.01', leverage: 10 } });
    intent({ type: 'order.submit', market: { available: '100000', lastPrice: 50000 } });
    live.clock.increment(40);
    expect(requests(u)[1]?.id).toBe(2);
    answer(u, requests(u)[1]?.id, 200, '', order('o-1', 'pending', 'rand-1'));
    await settle();
    intent({ type: 'order.edit', patch: { qty: '0.02' } });
    intent({ type: 'order.submit', market: { available: '100000', lastPrice: 50000 } });
    live.clock.increment(25);
    answer(u, requests(u)[2]?.id, 400, 'Insufficient Balance');
    await settle();
    expect(ticket.getSnapshot().value).toBe('rejected');
    const text = core.log.toJsonLines();
    const recorded = core.log.records();
    expect(recorded.filter((r) => r.kind === 'ws.out' && String(r.data).includes('"method"'))).toHaveLength(3);
    expect(recorded.filter((r) => r.kind === 'http.request' && r.method === 'POST')).toHaveLength(0);
    const liveTicket = ticket.getSnapshot();
    core.stop();

    // Replay: the recorded log only, no server, no socket; twice, for the hash.
    const first = await replayTicket(text, input);
    const second = await replayTicket(text, input);
    expect(first.divergences).toEqual([]);
    expect(first.unissued.map((r) => [r.kind, JSON.parse(String(r.data)).method])).toEqual([['ws.out', 'order.cancel']]);
    expect(first.settled).toBe(2);
    expect(first.ticket.value).toBe(liveTicket.value);
    expect(first.ticket.context.failure).toEqual(liveTicket.context.failure);
    expect(first.ticket.context.request).toEqual(liveTicket.context.request);
    expect(first.ticket.context.attempts).toBe(liveTicket.context.attempts);
    expect(second.hash).toBe(first.hash);
  });

  it('headless replay without the screen: its recorded requests are unissued, not divergences, and their answers are ignored', async () => {
    const live = boot((ports) => createRecordedCore(ports, { location: () => '/' }).core);
    const u = await live.authed();
    const place = live.outcome(live.api.placeOrder(REQ));
    live.answer(u, 1, 200, '', order('o-1'));
    await settle();
    expect(place.value).toEqual({ orderId: 'o-1', status: 'pending' });
    const text = live.core.log.toJsonLines();
    live.core.stop();
    const log = parseReplayText(text);
    const h = createReplayHandle(log, { path: '/' });
    await settle();
    for (const rec of log.records) {
      const target = log.header.startedAt + rec.t;
      if (target > h.ports.clock.now()) h.ports.clock.set(target);
      if (h.deliver(rec)) await settle();
    }
    h.ports.finish();
    expect(h.ports.divergences).toEqual([]);
    expect(h.ports.unissued.map((r) => [r.kind, JSON.parse(String(r.data)).method])).toEqual([['ws.out', 'order.place']]);
    expect(h.core.socketApi.settled()).toBe(0);
    h.core.stop();
  });
});
