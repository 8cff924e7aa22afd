/**
 * Market socket fan-out: 500 local ws clients subscribed to btcusdt@depth and btcusdt@trade on a
 * real port, the simulator (all instruments) driven by the plugin's real 100 ms timer.
 * Reports frames delivered per second across all clients and the delay from the frame's
 * server timestamp (`ts`, the simulator grid time) to receipt; that delay includes up to one
 * timer tick (100 ms) of grid lag by design. Clients and server share the process and the CPU,
 * so the figures are a lower bound for a separate server.
 */
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { WebSocket } from 'ws';
import type { MarketHub } from '../server/market/hub.ts';
import { marketPlugin } from '../server/market/plugin.ts';
import { createSimulator } from '../server/market/simulator.ts';

const CLIENTS = Number(process.env.BENCH_WS_CLIENTS ?? 500);
const SECONDS = Number(process.env.BENCH_WS_SECONDS ?? 10);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function run(): Promise<Record<string, number | string>> {
  const clock = { now: () => Date.now() };
  const sim = createSimulator({ seed: 42, startMs: clock.now() });
  let hub: MarketHub | null = null;
  const app = Fastify();
  await app.register(websocket);
  await app.register(marketPlugin, { source: sim, clock, tickMs: 100, onHub: (h) => (hub = h) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const url = `ws://127.0.0.1:${port}/api/ws/market`;

  let measuring = false;
  let frames = 0;
  let bytes = 0;
  const delays: number[] = [];
  const sockets: WebSocket[] = [];
  const connectOne = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      sockets.push(ws);
      ws.on('message', (data: Buffer) => {
        if (!measuring) return;
        const now = Date.now();
        frames++;
        bytes += data.length;
        // Sample the delay on one frame in 10 to keep the clients' own CPU cost down.
        if (frames % 10 === 0) {
          const f = JSON.parse(data.toString()) as { ts?: number };
          if (typeof f.ts === 'number') delays.push(now - f.ts);
        }
      });
      ws.once('open', () => {
        ws.send(JSON.stringify({ action: 'subscribe', topics: ['btcusdt@depth', 'btcusdt@trade'] }));
        resolve();
      });
      ws.once('error', reject);
    });
  try {
    for (let i = 0; i < CLIENTS; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, CLIENTS - i) }, connectOne));
    }
    await new Promise((r) => setTimeout(r, 1000));
    const connected = (hub as MarketHub | null)?.stats().connections ?? 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    measuring = true;
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    measuring = false;
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    delays.sort((a, b) => a - b);
    return {
      clients: CLIENTS,
      connected,
      seconds: Number(seconds.toFixed(2)),
      framesPerSecond: Math.round(frames / seconds),
      mbPerSecond: Number((bytes / seconds / 1e6).toFixed(2)),
      p50DelayMs: percentile(delays, 50),
      p99DelayMs: percentile(delays, 99),
      maxDelayMs: delays[delays.length - 1] ?? Number.NaN,
      cpuPercentOneCore: Number((((cpu.user + cpu.system) / 1e6 / seconds) * 100).toFixed(1)),
    };
  } finally {
    for (const ws of sockets) ws.terminate();
    await app.close();
  }
}
