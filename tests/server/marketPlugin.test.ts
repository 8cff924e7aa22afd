import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { DepthDiffFrame, Level } from '../../src/protocol/market.ts';
import type { MarketHub } from '../../server/market/hub.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { marketPlugin, type MarketPluginOptions } from '../../server/market/plugin.ts';
import { createSimulator, type MarketSimulator } from '../../server/market/simulator.ts';

const START = Date.UTC(2026, 2, 10, 8, 0, 5);
const FEW = INSTRUMENTS.filter((i) => ['BTCUSDT', 'ETHUSDT', 'XAUUSDT'].includes(i.info.symbol));

type Frame = { type: string } & Record<string, unknown>;

/** A real ws client that buffers frames so tests can wait for the next matching one. */
class Client {
  private readonly inbox: Frame[] = [];
  private waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const f = JSON.parse(data.toString()) as Frame;
      const w = this.waiters.find((x) => x.pred(f));
      if (w) {
        this.waiters = this.waiters.filter((x) => x !== w);
        w.resolve(f);
      } else this.inbox.push(f);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }
  static open(url: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const c = new Client(ws);
      ws.once('open', () => resolve(c));
      ws.once('error', reject);
    });
  }
  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }
  next(pred: (f: Frame) => boolean, timeoutMs = 3000): Promise<Frame> {
    const i = this.inbox.findIndex(pred);
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0] as Frame);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a frame')), timeoutMs);
      this.waiters.push({ pred, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  }
  drain(pred: (f: Frame) => boolean): Frame[] {
    const out = this.inbox.filter(pred);
    for (const f of out) this.inbox.splice(this.inbox.indexOf(f), 1);
    return out;
  }
  /** Round-trips a ping so every frame sent before it has arrived. */
  async sync(): Promise<void> {
    const ts = Math.floor(Math.random() * 1e9);
    this.send({ action: 'ping', ts });
    await this.next((f) => f.type === 'pong' && f.ts === ts);
  }
}

let app: FastifyInstance | null = null;
const clients: Client[] = [];

async function start(opts: Partial<MarketPluginOptions> = {}): Promise<{ sim: MarketSimulator; base: string; ws: string }> {
  const sim = createSimulator({ seed: 42, startMs: START, instruments: FEW });
  app = Fastify();
  await app.register(websocket);
  // The clock starts where the simulator starts (a real clock would make it replay months of market).
  const t0 = Date.now();
  await app.register(marketPlugin, { source: sim, clock: { now: () => START + (Date.now() - t0) }, tickMs: 0, ...opts });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { sim, base: `http://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}/api/ws/market` };
}

async function connect(url: string): Promise<Client> {
  const c = await Client.open(url);
  clients.push(c);
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  await app?.close();
  app = null;
});

async function get(url: string): Promise<{ status: number; body: { code: number; msg: string; data: unknown } }> {
  const r = await fetch(url);
  return { status: r.status, body: (await r.json()) as { code: number; msg: string; data: unknown } };
}

describe('market REST', () => {
  it('serves symbols, tickers, depth, trades and klines in the envelope', async () => {
    const { base } = await start();
    const symbols = await get(`${base}/api/market/symbols`);
    expect(symbols.status).toBe(200);
    expect(symbols.body.code).toBe(200);
    expect((symbols.body.data as { symbol: string }[]).map((s) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'XAUUSDT']);
    const tickers = await get(`${base}/api/market/tickers`);
    expect((tickers.body.data as unknown[]).length).toBe(3);
    const depth = await get(`${base}/api/market/depth?symbol=BTCUSDT&limit=20`);
    const d = depth.body.data as { seq: number; bids: Level[]; asks: Level[] };
    expect(d.bids).toHaveLength(20);
    expect(d.asks).toHaveLength(20);
    expect(Number.isInteger(d.seq)).toBe(true);
    const trades = await get(`${base}/api/market/trades?symbol=btcusdt&limit=10`);
    expect((trades.body.data as unknown[]).length).toBe(10);
    const klines = await get(`${base}/api/market/klines?symbol=BTCUSDT&interval=1h&limit=100`);
    expect((klines.body.data as unknown[]).length).toBe(100);
  });

  it('answers bad queries with code 400 and unknown symbols with 404, always HTTP 200', async () => {
    const { base } = await start();
    const cases: [string, number, string?][] = [
      ['/api/market/depth?symbol=NOPEUSDT', 404, 'Unknown symbol'],
      ['/api/market/trades?symbol=NOPEUSDT', 404, 'Unknown symbol'],
      ['/api/market/klines?symbol=NOPEUSDT&interval=1m', 404, 'Unknown symbol'],
      ['/api/market/depth', 400],
      ['/api/market/depth?symbol=BTCUSDT&limit=2', 400],
      ['/api/market/depth?symbol=BTCUSDT&limit=abc', 400],
      ['/api/market/klines?symbol=BTCUSDT&interval=2m', 400],
      ['/api/market/klines?symbol=BTCUSDT&interval=1m&from=10&to=5', 400],
      ['/api/market/trades?symbol=BTCUSDT&limit=501', 400],
    ];
    for (const [path, code, msg] of cases) {
      const r = await get(base + path);
      expect(r.status, path).toBe(200);
      expect(r.body.code, path).toBe(code);
      expect(r.body.data).toBeNull();
      if (msg) expect(r.body.msg).toBe(msg);
      else expect(r.body.msg).toMatch(/Invalid query/);
    }
  });
});

describe('market socket', () => {
  it('subscribes to depth: snapshot then chained diffs that rebuild the server book', async () => {
    const { sim, ws } = await start();
    const c = await connect(ws);
    c.send({ action: 'subscribe', topics: ['BTCUSDT@depth'] });
    expect(await c.next((f) => f.type === 'subscribed')).toEqual({ type: 'subscribed', topics: ['btcusdt@depth'] });
    const snap = await c.next((f) => f.type === 'depth' && f.snapshot === true);
    const bids = new Map(snap.bids as Level[]);
    const asks = new Map(snap.asks as Level[]);
    let seq = snap.seq as number;
    for (let t = START + 100; t <= START + 3_000; t += 100) sim.advanceTo(t);
    await c.sync();
    const diffs = c.drain((f) => f.type === 'depth') as unknown as DepthDiffFrame[];
    expect(diffs.length).toBeGreaterThan(10);
    for (const d of diffs) {
      expect(d.snapshot).toBe(false);
      expect(d.prevSeq).toBe(seq);
      for (const [p, q] of d.bids) {
      if (q === 0) bids.delete(p);
      else bids.set(p, q);
    }
      for (const [p, q] of d.asks) {
      if (q === 0) asks.delete(p);
      else asks.set(p, q);
    }
      seq = d.lastSeq;
    }
    const server = sim.snapshot('BTCUSDT', 500);
    expect(seq).toBe(server?.seq);
    expect([...bids].sort((a, b) => b[0] - a[0])).toEqual(server?.bids);
    expect([...asks].sort((a, b) => a[0] - b[0])).toEqual(server?.asks);
  });

  it('answers ping with pong and bad input with error frames, keeping the connection open', async () => {
    const { ws } = await start();
    const c = await connect(ws);
    c.send({ action: 'ping', ts: 1_700_000_000 });
    expect(await c.next((f) => f.type === 'pong')).toEqual({ type: 'pong', ts: 1_700_000_000 });
    c.send('{not json');
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ msg: 'Malformed JSON', code: 400 });
    c.send({ action: 'dance' });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ msg: 'Unknown action', code: 400 });
    c.send({ action: 'subscribe', topics: ['btcusdt@foo'] });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 400, msg: expect.stringMatching(/Invalid topic/) });
    c.send({ action: 'subscribe', topics: ['nopeusdt@depth'] });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 404, msg: expect.stringMatching(/Unknown symbol/) });
    c.send({ action: 'subscribe', topics: ['btcusdt@kline_7m'] });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 400 });
    c.send({ action: 'ping', ts: 5 });
    expect(await c.next((f) => f.type === 'pong')).toEqual({ type: 'pong', ts: 5 });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('refuses more than the topic limit with an error frame', async () => {
    const { ws } = await start({ maxTopics: 3 });
    const c = await connect(ws);
    c.send({ action: 'subscribe', topics: ['btcusdt@trade', 'btcusdt@ticker'] });
    await c.next((f) => f.type === 'subscribed');
    c.send({ action: 'subscribe', topics: ['ethusdt@trade', 'ethusdt@ticker'] });
    expect(await c.next((f) => f.type === 'error')).toMatchObject({ code: 429, msg: expect.stringMatching(/Too many topics/) });
    c.send({ action: 'subscribe', topics: ['ethusdt@trade'] });
    expect(await c.next((f) => f.type === 'subscribed')).toEqual({ type: 'subscribed', topics: ['btcusdt@trade', 'btcusdt@ticker', 'ethusdt@trade'] });
  });

  it('stops a topic on unsubscribe and fans trades, klines and tickers out by topic', async () => {
    const { sim, ws } = await start();
    const a = await connect(ws);
    const b = await connect(ws);
    a.send({ action: 'subscribe', topics: ['btcusdt@trade', 'btcusdt@kline_1m', 'all@ticker'] });
    b.send({ action: 'subscribe', topics: ['btcusdt@trade'] });
    await a.next((f) => f.type === 'subscribed');
    await b.next((f) => f.type === 'subscribed');
    const first = await a.next((f) => f.type === 'tickers');
    expect((first.items as unknown[]).length).toBe(3);
    sim.advanceTo(START + 2_000);
    await a.sync();
    await b.sync();
    const tradesA = a.drain((f) => f.type === 'trade');
    const tradesB = b.drain((f) => f.type === 'trade');
    expect(tradesA.length).toBeGreaterThan(0);
    expect(tradesB).toEqual(tradesA);
    expect(tradesA.every((t) => t.symbol === 'BTCUSDT')).toBe(true);
    expect(a.drain((f) => f.type === 'kline').every((k) => k.interval === '1m' && k.symbol === 'BTCUSDT')).toBe(true);
    expect(a.drain((f) => f.type === 'tickers').length).toBeGreaterThanOrEqual(1);
    b.send({ action: 'unsubscribe', topics: ['btcusdt@trade'] });
    expect(await b.next((f) => f.type === 'subscribed')).toEqual({ type: 'subscribed', topics: [] });
    sim.advanceTo(START + 4_000);
    await a.sync();
    await b.sync();
    expect(a.drain((f) => f.type === 'trade').length).toBeGreaterThan(0);
    expect(b.drain((f) => f.type === 'trade')).toEqual([]);
  });

  it('drops a silent client with close 4000', async () => {
    const { ws } = await start({ idleTimeoutMs: 300, tickMs: 50 });
    const c = await connect(ws);
    const closed = await c.closed;
    expect(closed.code).toBe(4000);
  });

  it('keeps a client that pings alive past the idle timeout', async () => {
    const { ws } = await start({ idleTimeoutMs: 400, tickMs: 50 });
    const c = await connect(ws);
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 150));
      c.send({ action: 'ping', ts: i });
      await c.next((f) => f.type === 'pong' && f.ts === i);
    }
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('drops a client that stops reading once its send buffer passes the bound (1013)', async () => {
    let hub: MarketHub | null = null;
    const { sim, ws } = await start({ maxBufferedBytes: 64 * 1024, onHub: (h) => (hub = h) });
    const c = await connect(ws);
    c.send({ action: 'subscribe', topics: ['btcusdt@depth', 'ethusdt@depth', 'xauusdt@depth', 'btcusdt@trade'] });
    await c.next((f) => f.type === 'subscribed');
    // Stop reading: the kernel buffers fill, then ws starts buffering in user space.
    const raw = (c.ws as unknown as { _socket: { pause(): void } })._socket;
    raw.pause();
    let t = START;
    const result = Promise.race([c.closed, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
    const connections = (): number => (hub as MarketHub | null)?.stats().connections ?? -1;
    expect(connections()).toBe(1);
    for (let i = 0; i < 400 && connections() === 1; i++) {
      t += 5_000;
      sim.advanceTo(t);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(connections()).toBe(0);
    (c.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await result;
    expect(closed?.code).toBe(1013);
  });
});
