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
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRedisBroker } from '../server/broker/redis.ts';
import { marketState, publishMarket } from '../server/broker/mirror.ts';
import { serveEngine } from '../server/broker/rpc.ts';
import { freePort, startRedis, startServerProcess } from '../server/cli/cluster.ts';
import type { Proc } from '../server/cli/cluster.ts';
import { createSimulator } from '../server/market/simulator.ts';
import { clientFigures, runClients, stampedAtPublish } from './fanoutClients.ts';

const CLIENTS = Number(process.env.BENCH_CLUSTER_CLIENTS ?? 2000);
const GATEWAYS = Number(process.env.BENCH_CLUSTER_GATEWAYS ?? 4);
const SECONDS = Number(process.env.BENCH_WS_SECONDS ?? 10);

/** The single-process figures (wsFanout in results.json), shown next to these. */
function previousSingleProcess(): Record<string, number | string> {
  try {
    const results = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'results.json'), 'utf8')) as {
      benches?: Record<string, { at: string; figures: Record<string, number | string> }>;
    };
    const one = results.benches?.wsFanout;
    if (one === undefined) return {};
    const f = one.figures;
    return {
      'single process (wsFanout, at)': one.at,
      'single process clients': f.clients ?? Number.NaN,
      'single process framesPerSecond': f.framesPerSecond ?? Number.NaN,
      'single process p50 ms': f['p50 publish→receipt ms'] ?? Number.NaN,
      'single process p99 ms': f['p99 publish→receipt ms'] ?? Number.NaN,
    };
  } catch {
    return {};
  }
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
  try {
    const env = { ROLE: 'gateway', BROKER_URL: redis.url, DATA_DIR: join(dir, 'data'), SERVE_STATIC: '0', LOG_LEVEL: 'warn', MAIL_CODE_SECRET: 'bench' };
    // The first gateway migrates the database alone; the others find it ready.
    for (let i = 0; i < GATEWAYS; i++) gateways.push(await startServerProcess(`gateway-${i + 1}`, await freePort(), env));
    const urls = gateways.map((g) => `${g.url.replace('http', 'ws')}/api/ws/market`);
    const r = await runClients({ urls, clients: CLIENTS, seconds: SECONDS, inFlight: 200 });
    const single = previousSingleProcess();
    return {
      gateways: GATEWAYS,
      ...clientFigures(r, 'engine publish'),
      'load average (1 min, whole machine)': Number((loadavg()[0] ?? 0).toFixed(2)),
      ...single,
    };
  } finally {
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
