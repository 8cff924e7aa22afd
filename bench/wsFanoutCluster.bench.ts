/**
 * Market socket fan-out across processes (issue 13): 2 000 ws clients spread over 4 gateway
 * processes (ROLE=gateway, real `server/server.ts`), fed through a redis-server by an engine.
 *
 * The engine runs in this process (the simulator on a real 100 ms timer, published with
 * server/broker/mirror.ts publishMarket, answering the gateways' market requests) so that, as in
 * wsFanout.bench.ts, each depth/trade frame's `ts` is the wall clock at the moment the engine
 * publishes it; the clients run in a worker thread and read the same clock on receipt. Delay =
 * engine publish → Redis → gateway mirror → gateway hub → client. Compare with wsFanout (one
 * process, 500 clients).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MarketFrame } from '../src/protocol/market.ts';
import { createRedisBroker } from '../server/broker/redis.ts';
import { marketState, publishMarket } from '../server/broker/mirror.ts';
import { serveEngine } from '../server/broker/rpc.ts';
import { freePort, startRedis, startServerProcess } from '../server/cli/cluster.ts';
import type { Proc } from '../server/cli/cluster.ts';
import { createSimulator } from '../server/market/simulator.ts';
import type { MarketSource } from '../server/market/source.ts';

const CLIENTS = Number(process.env.BENCH_CLUSTER_CLIENTS ?? 2000);
const GATEWAYS = Number(process.env.BENCH_CLUSTER_GATEWAYS ?? 4);
const SECONDS = Number(process.env.BENCH_WS_SECONDS ?? 10);

const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { WebSocket } = require(workerData.ws);
const { urls, clients, seconds } = workerData;
let measuring = false, frames = 0, bytes = 0;
const delays = [];
const sockets = [];
const closes = {};
function connectOne(i) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(urls[i % urls.length]);
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
    ws.once('error', reject);
    ws.once('close', (code) => { closes[code] = (closes[code] || 0) + 1; });
  });
}
const pinger = setInterval(() => { for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ action: 'ping', ts: Math.floor(Date.now() / 1000) })); }, 30000);
(async () => {
  const c0 = performance.now();
  for (let i = 0; i < clients; i += 50) await Promise.all(Array.from({ length: Math.min(50, clients - i) }, (_, k) => connectOne(i + k)));
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

/** The simulator with each depth/trade frame's ts set to the wall clock when the engine publishes it. */
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
  const dir = mkdtempSync(join(tmpdir(), 'rf-bench-cluster-'));
  const redis = await startRedis(dir);
  const broker = await createRedisBroker(redis.url, { onError: () => {} });
  const sim = stampedAtPublish(createSimulator({ seed: 42, startMs: Date.now() }));
  const offPublish = publishMarket(sim, broker, 'bench');
  const offServe = serveEngine(broker, { 'market.state': () => marketState(sim, 'bench'), 'market.depth': (s: string) => sim.snapshot(s, 1000) ?? null }, () => {});
  const timer = setInterval(() => sim.advanceTo(Date.now()), 100);
  const gateways: Proc[] = [];
  let worker: Worker | null = null;
  try {
    const env = { ROLE: 'gateway', BROKER_URL: redis.url, DATA_DIR: join(dir, 'data'), SERVE_STATIC: '0', LOG_LEVEL: 'warn', MAIL_CODE_SECRET: 'bench' };
    // The first gateway migrates the database alone; the others find it ready.
    for (let i = 0; i < GATEWAYS; i++) gateways.push(await startServerProcess(`gateway-${i + 1}`, await freePort(), env));
    const urls = gateways.map((g) => `${g.url.replace('http', 'ws')}/api/ws/market`);
    const w = new Worker(CLIENT_CODE, { eval: true, workerData: { urls, clients: CLIENTS, seconds: SECONDS, ws: createRequire(import.meta.url).resolve('ws') } });
    worker = w;
    let connectSeconds = 0;
    const done = await new Promise<{ frames: number; bytes: number; elapsed: number; delays: number[]; open: number; closedEarly: string }>((resolve, reject) => {
      w.on('message', (m: { type: string; message?: string; frames: number; bytes: number; elapsed: number; delays: number[]; open: number; closedEarly: string; connectSeconds?: number }) => {
        if (m.type === 'connected') connectSeconds = m.connectSeconds ?? 0;
        else if (m.type === 'done') resolve(m);
        else reject(new Error(m.message));
      });
      w.on('error', reject);
    });
    const delays = done.delays.sort((a, b) => a - b);
    return {
      clients: CLIENTS,
      gateways: GATEWAYS,
      'seconds to connect all': Number(connectSeconds.toFixed(1)),
      'open at the end': done.open,
      'closed by the server (code:count)': done.closedEarly,
      seconds: Number(done.elapsed.toFixed(2)),
      framesPerSecond: Math.round(done.frames / done.elapsed),
      mbPerSecond: Number((done.bytes / done.elapsed / 1e6).toFixed(2)),
      'p50 engine publish→receipt ms': percentile(delays, 50),
      'p99 engine publish→receipt ms': percentile(delays, 99),
      'max engine publish→receipt ms': delays[delays.length - 1] ?? Number.NaN,
    };
  } finally {
    await worker?.terminate();
    clearInterval(timer);
    offServe();
    offPublish();
    for (const g of gateways) {
      g.child.kill('SIGTERM');
      await g.exited;
    }
    await broker.close();
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
