/**
 * Market socket fan-out: 500 ws clients subscribed to btcusdt@depth and btcusdt@trade on a real
 * port, the simulator (all instruments) driven by the plugin's real 100 ms timer.
 *
 * The delay measured is the "publish to receipt": the bench's source stamps each frame's
 * `ts` with the wall clock at the moment the hub is handed the frame (the hub then frames it once
 * and writes the same bytes to every subscriber, one write per socket per burst), and the client
 * reads the wall clock when the message arrives. The clients (bench/fanoutClients.ts) run in a
 * worker thread, so the server's event loop serves only the server; both read the same Date.now().
 * Reports frames delivered per second across all clients, p50/p99/max delay and the CPU share of
 * both threads (the machine's other load shows in the delays: see 'load average').
 */
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { loadavg } from 'node:os';
import type { MarketHub } from '../server/market/hub.ts';
import { marketPlugin } from '../server/market/plugin.ts';
import { createSimulator } from '../server/market/simulator.ts';
import { clientFigures, percentile, runClients, stampedAtPublish } from './fanoutClients.ts';

const CLIENTS = Number(process.env.BENCH_WS_CLIENTS ?? 500);
const SECONDS = Number(process.env.BENCH_WS_SECONDS ?? 10);

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
  try {
    let connected = 0;
    let cpu0 = process.cpuUsage();
    let t0 = performance.now();
    const r = await runClients({
      urls: [`ws://127.0.0.1:${port}/api/ws/market`],
      clients: CLIENTS,
      seconds: SECONDS,
      onConnected: () => {
        connected = (hub as MarketHub | null)?.stats().connections ?? 0;
        cpu0 = process.cpuUsage();
        t0 = performance.now();
      },
    });
    // process.cpuUsage covers both threads (server and clients).
    const cpu = process.cpuUsage(cpu0);
    const measured = (performance.now() - t0) / 1000;
    return {
      ...clientFigures(r, 'publish'),
      'connected (server count)': connected,
      'target p99 < 50 ms': percentile(r.delays, 99) < 50 ? 'met' : 'not met',
      cpuPercentBothThreads: Number((((cpu.user + cpu.system) / 1e6 / measured) * 100).toFixed(1)),
      'load average (1 min, whole machine)': Number((loadavg()[0] ?? 0).toFixed(2)),
    };
  } finally {
    await app.close();
  }
}
