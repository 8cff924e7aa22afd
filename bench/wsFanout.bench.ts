/**
 * Market socket fan-out: 500 ws clients subscribed to btcusdt@depth and btcusdt@trade on a real
 * port, the simulator (all instruments) driven by the plugin's real 100 ms timer.
 *
 * The delay measured is the "publish to receipt": the bench's source stamps each frame's
 * `ts` with the wall clock at the moment the hub is handed the frame (the frame is then serialised
 * once and written to every subscriber), and the client reads the wall clock when the message
 * arrives. The clients run in a worker thread (their own event loop, the other core), so the
 * server's event loop serves only the server; both read the same Date.now().
 * Reports frames delivered per second across all clients, p50/p99/max delay and the server
 * thread's CPU share.
 */
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { MarketFrame } from '../src/protocol/market.ts';
import type { MarketHub } from '../server/market/hub.ts';
import { marketPlugin } from '../server/market/plugin.ts';
import type { MarketSource } from '../server/market/source.ts';
import { createSimulator } from '../server/market/simulator.ts';

const CLIENTS = Number(process.env.BENCH_WS_CLIENTS ?? 500);
const SECONDS = Number(process.env.BENCH_WS_SECONDS ?? 10);

/** The clients: plain JS for the worker (no TypeScript loader there). */
const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { WebSocket } = require(workerData.ws);
const { url, clients, seconds } = workerData;
let measuring = false, frames = 0, bytes = 0;
const delays = [];
const sockets = [];
const closes = {};
function connectOne() {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    sockets.push(ws);
    ws.on('message', (data) => {
      if (!measuring) return;
      const now = Date.now();
      frames++;
      bytes += data.length;
      if (frames % 5 === 0) {
        const f = JSON.parse(data.toString());
        if (typeof f.ts === 'number') delays.push(now - f.ts);
      }
    });
    ws.once('open', () => { ws.send(JSON.stringify({ action: 'subscribe', topics: ['btcusdt@depth', 'btcusdt@trade'] })); resolve(); });
    ws.once('error', reject);
    ws.once('close', (code) => { closes[code] = (closes[code] || 0) + 1; });
  });
}
// Like the app's socket machine, every client pings (every 30 s here) so the server's idle sweep keeps it.
const pinger = setInterval(() => { for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ action: 'ping', ts: Math.floor(Date.now() / 1000) })); }, 30000);
(async () => {
  const c0 = performance.now();
  for (let i = 0; i < clients; i += 50) await Promise.all(Array.from({ length: Math.min(50, clients - i) }, connectOne));
  await new Promise((r) => setTimeout(r, 1000));
  parentPort.postMessage({ type: 'connected', connectSeconds: (performance.now() - c0) / 1000 });
  const t0 = performance.now();
  measuring = true;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  const open = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  const closedEarly = Object.entries(closes).map(([c, n]) => c + ':' + n).join(' ') || 'none';
  clearInterval(pinger);
  for (const ws of sockets) ws.terminate();
  parentPort.postMessage({ type: 'done', frames, bytes, elapsed, delays, open, closedEarly });
})().catch((e) => parentPort.postMessage({ type: 'error', message: String(e) }));
`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The simulator, with each depth/trade frame's ts set to the wall clock when it is published. */
function stampedAtPublish(source: MarketSource): MarketSource {
  return new Proxy(source, {
    get(target, prop, receiver) {
      if (prop === 'subscribe') {
        return (listener: (f: MarketFrame) => void) =>
          target.subscribe((f) => listener(f.type === 'depth' || f.type === 'trade' ? ({ ...f, ts: Date.now() } as MarketFrame) : f));
      }
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

export async function run(): Promise<Record<string, number | string>> {
  const clock = { now: () => Date.now() };
  const sim = stampedAtPublish(createSimulator({ seed: 42, startMs: clock.now() }));
  let hub: MarketHub | null = null;
  const app = Fastify();
  await app.register(websocket);
  await app.register(marketPlugin, { source: sim, clock, tickMs: 100, onHub: (h) => (hub = h) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const worker = new Worker(CLIENT_CODE, {
    eval: true,
    workerData: { url: `ws://127.0.0.1:${port}/api/ws/market`, clients: CLIENTS, seconds: SECONDS, ws: createRequire(import.meta.url).resolve('ws') },
  });
  try {
    let connected = 0;
    let connectSeconds = 0;
    let cpu0 = process.cpuUsage();
    let t0 = performance.now();
    const done = await new Promise<{ frames: number; bytes: number; elapsed: number; delays: number[]; open: number; closedEarly: string }>((resolve, reject) => {
      worker.on('message', (m: { type: string; message?: string; frames: number; bytes: number; elapsed: number; delays: number[]; open: number; closedEarly: string; connectSeconds?: number }) => {
        if (m.type === 'connected') {
          connected = (hub as MarketHub | null)?.stats().connections ?? 0;
          connectSeconds = m.connectSeconds ?? 0;
          cpu0 = process.cpuUsage();
          t0 = performance.now();
        } else if (m.type === 'done') resolve(m);
        else reject(new Error(m.message));
      });
      worker.on('error', reject);
    });
    // process.cpuUsage covers both threads (server and clients).
    const cpu = process.cpuUsage(cpu0);
    const serverSeconds = (performance.now() - t0) / 1000;
    const delays = done.delays.sort((a, b) => a - b);
    return {
      clients: CLIENTS,
      connected,
      'seconds to connect all': Number(connectSeconds.toFixed(1)),
      'open at the end': done.open,
      'closed by the server (code:count)': done.closedEarly,
      seconds: Number(done.elapsed.toFixed(2)),
      framesPerSecond: Math.round(done.frames / done.elapsed),
      mbPerSecond: Number((done.bytes / done.elapsed / 1e6).toFixed(2)),
      'p50 publish→receipt ms': percentile(delays, 50),
      'p99 publish→receipt ms': percentile(delays, 99),
      'max publish→receipt ms': delays[delays.length - 1] ?? Number.NaN,
      'target p99 < 50 ms': percentile(delays, 99) < 50 ? 'met' : 'not met',
      cpuPercentBothThreads: Number((((cpu.user + cpu.system) / 1e6 / serverSeconds) * 100).toFixed(1)),
    };
  } finally {
    await worker.terminate();
    await app.close();
  }
}
