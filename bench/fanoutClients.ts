/**
 * The market-socket clients of the fan-out benches (wsFanout, wsFanoutCluster) and their figures.
 *
 * The clients run in a worker thread (their own event loop) so the process under test serves only
 * the server side; both threads read the same Date.now(). Connections are opened with a bounded
 * number in flight (a pool, not batches waiting for their slowest member); each client subscribes
 * to btcusdt@depth and btcusdt@trade and pings every 30 s like the app's socket machine, so no
 * server idle sweep drops it. Delay = client receipt − the frame's `ts`, which the bench's source
 * stamps with the wall clock at publication (`stampedAtPublish`).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { MarketFrame } from '../src/protocol/market.ts';
import type { MarketSource } from '../server/market/source.ts';

/** Plain JS for the worker (no TypeScript loader there). */
const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { WebSocket } = require(workerData.ws);
const { urls, clients, seconds, inFlight } = workerData;
let measuring = false, frames = 0, bytes = 0;
const delays = [];
const sockets = [];
const closes = {};
let failed = 0;
function connectOne(i) {
  return new Promise((resolve) => {
    const ws = new WebSocket(urls[i % urls.length], { perMessageDeflate: false });
    sockets.push(ws);
    ws.on('message', (data) => {
      if (!measuring) return;
      const now = Date.now();
      frames++;
      bytes += data.length;
      if (frames % 5 === 0) {
        const f = JSON.parse(data.toString());
        if ((f.type === 'depth' && !f.snapshot) || f.type === 'trade') delays.push(now - f.ts);
      }
    });
    ws.once('open', () => { ws.send(JSON.stringify({ action: 'subscribe', topics: ['btcusdt@depth', 'btcusdt@trade'] })); resolve(); });
    ws.once('error', () => { failed++; resolve(); });
    ws.once('close', (code) => { closes[code] = (closes[code] || 0) + 1; resolve(); });
  });
}
const pinger = setInterval(() => { for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ action: 'ping', ts: Math.floor(Date.now() / 1000) })); }, 30000);
(async () => {
  const c0 = performance.now();
  let next = 0;
  const lane = async () => { while (next < clients) await connectOne(next++); };
  await Promise.all(Array.from({ length: Math.min(inFlight, clients) }, lane));
  const connectSeconds = (performance.now() - c0) / 1000;
  const openAfterConnect = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  await new Promise((r) => setTimeout(r, 1000));
  parentPort.postMessage({ type: 'connected', connectSeconds, openAfterConnect, failed });
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

export interface ClientRun {
  clients: number;
  /** Seconds from the first connect to the last open (or failure). */
  connectSeconds: number;
  /** Sockets open once all connects were settled. */
  openAfterConnect: number;
  /** Connects that failed (error before open). */
  failed: number;
  frames: number;
  bytes: number;
  /** Seconds measured. */
  elapsed: number;
  /** Sorted publish→receipt delays (ms) of every 5th depth diff / trade frame. */
  delays: number[];
  open: number;
  closedEarly: string;
}

export interface ClientOptions {
  urls: string[];
  clients: number;
  seconds: number;
  /** Connects in flight at once (default 100). */
  inFlight?: number;
  /** Called when every client is connected, just before measuring starts. */
  onConnected?: () => void;
}

/** Connects the clients in a worker, measures for `seconds`, then closes them. */
export async function runClients(opts: ClientOptions): Promise<ClientRun> {
  const worker = new Worker(CLIENT_CODE, {
    eval: true,
    workerData: { urls: opts.urls, clients: opts.clients, seconds: opts.seconds, inFlight: opts.inFlight ?? 100, ws: createRequire(import.meta.url).resolve('ws') },
  });
  try {
    let connected = { connectSeconds: 0, openAfterConnect: 0, failed: 0 };
    const done = await new Promise<Omit<ClientRun, 'clients' | 'connectSeconds' | 'openAfterConnect' | 'failed'>>((resolve, reject) => {
      worker.on('message', (m: { type: string; message?: string } & Record<string, unknown>) => {
        if (m.type === 'connected') {
          connected = m as unknown as typeof connected;
          opts.onConnected?.();
        } else if (m.type === 'done') resolve(m as unknown as Omit<ClientRun, 'clients' | 'connectSeconds' | 'openAfterConnect' | 'failed'>);
        else reject(new Error(m.message));
      });
      worker.on('error', reject);
    });
    return {
      clients: opts.clients,
      connectSeconds: connected.connectSeconds,
      openAfterConnect: connected.openAfterConnect,
      failed: connected.failed,
      ...done,
      delays: [...done.delays].sort((a, b) => a - b),
    };
  } finally {
    await worker.terminate();
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The figures both fan-out benches report, named the same way (`label` e.g. 'publish' or 'engine publish'). */
export function clientFigures(r: ClientRun, label: string): Record<string, number | string> {
  const p99 = percentile(r.delays, 99);
  return {
    clients: r.clients,
    'seconds to connect all': Number(r.connectSeconds.toFixed(1)),
    'open after connecting': r.openAfterConnect,
    'connects failed': r.failed,
    'open at the end': r.open,
    'closed by the server (code:count)': r.closedEarly,
    seconds: Number(r.elapsed.toFixed(2)),
    framesPerSecond: Math.round(r.frames / r.elapsed),
    mbPerSecond: Number((r.bytes / r.elapsed / 1e6).toFixed(2)),
    [`p50 ${label}→receipt ms`]: percentile(r.delays, 50),
    [`p99 ${label}→receipt ms`]: p99,
    [`max ${label}→receipt ms`]: r.delays[r.delays.length - 1] ?? Number.NaN,
    'delay samples': r.delays.length,
  };
}

/** The source with each depth/trade frame's `ts` set to the wall clock when it is published. */
export function stampedAtPublish(source: MarketSource): MarketSource {
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
