/**
 * Instant convert throughput through the real HTTP API: a fresh server (file SQLite in a temp
 * DATA_DIR, the features registered as server.ts does, on a ControlledMarketSource) and
 * CONNECTIONS concurrent clients, each looping the UI's flow: POST /api/convert/quote, then POST
 * /api/convert with the quote id (alternating USDT→BTC and BTC→USDT so the balance never runs out).
 * Reports converts per second, the p50 / p99 latency of the convert call and of the whole
 * quote + convert round, and checks afterwards that every convert was filled exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { dbFile, openDb } from '../server/db/connection.ts';
import { migrateToLatest } from '../server/db/migrations.ts';
import { createSession } from '../server/db/repos/sessions.ts';
import { createFeatures } from '../server/features.ts';
import { adminCredit } from '../server/ledger/post.ts';
import { INSTRUMENTS } from '../server/market/instruments.ts';
import { createAccount } from '../server/services/accounts.ts';
import { hashToken, newToken } from '../server/services/tokens.ts';
import { ControlledMarketSource } from '../server/trading/controlledSource.ts';

const SECONDS = Number(process.env.BENCH_CONVERTS_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONVERTS_CONNECTIONS ?? 20);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** CONNECTIONS client loops (quote, then convert with its id), in a worker thread. */
const CLIENT_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, headers, seconds, connections } = workerData;
const post = async (path, body) => (await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) })).json();
const convertMs = [];
const roundMs = [];
let errors = 0;
const deadline = performance.now() + seconds * 1000;
Promise.all(Array.from({ length: connections }, async (_, worker) => {
  let i = worker;
  while (performance.now() < deadline) {
    i += 1;
    const body = i % 2 === 0 ? { from: 'USDT', to: 'BTC', amount: '60' } : { from: 'BTC', to: 'USDT', amount: '0.001' };
    const t0 = performance.now();
    const q = await post('/convert/quote', body);
    if (q.code !== 200 || !q.data.quoteId) { errors += 1; continue; }
    const t1 = performance.now();
    const c = await post('/convert', { quoteId: q.data.quoteId });
    const t2 = performance.now();
    if (c.code !== 200) errors += 1;
    else { convertMs.push(t2 - t1); roundMs.push(t2 - t0); }
  }
})).then(() => parentPort.postMessage({ ok: true, r: { convertMs, roundMs, errors } }), (e) => parentPort.postMessage({ ok: false, message: String(e) }));
`;

export async function run(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rf-bench-converts-'));
  const config = { ...loadConfig({}), dataDir, logLevel: 'silent' as const, serveStatic: false };
  const db = openDb({ filename: dbFile(dataDir) });
  await migrateToLatest(db);
  const clock = { now: () => Date.now() };
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), clock.now());
  source.setPrice('BTCUSDT', 60_000);
  source.setPrice('ETHUSDT', 3_000);
  const app = buildApp({ db, clock, config, plugins: createFeatures({ db, clock, source, periodicMs: 0 }, ['money']) });
  const user = await createAccount(db, { email: 'bench@example.com', passwordHash: '!', invitedBy: null, now: clock.now() });
  await adminCredit(db, user.id, 'fund', 'USDT', 10n ** 15n, clock.now());
  await adminCredit(db, user.id, 'fund', 'BTC', 10n ** 12n, clock.now());
  const token = newToken();
  await createSession(db, { userId: user.id, tokenHash: hashToken(token), now: clock.now(), ip: '127.0.0.1', client: 'web' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`;
  const headers = { 'content-type': 'application/json', authorization: token, client: 'web' };
  // The clients run in a worker thread, off the server's event loop (a quote then a convert per
  // round: wrk cannot pair the two, so fetch it is).
  const worker = new Worker(CLIENT_CODE, { eval: true, workerData: { base, headers, seconds: SECONDS, connections: CONNECTIONS } });
  try {
    const { convertMs, roundMs, errors } = await new Promise<{ convertMs: number[]; roundMs: number[]; errors: number }>((resolve, reject) => {
      worker.on('message', (m: { ok: boolean; r?: { convertMs: number[]; roundMs: number[]; errors: number }; message?: string }) => (m.ok && m.r ? resolve(m.r) : reject(new Error(m.message))));
      worker.on('error', reject);
    });
    const filled = await db.selectFrom('convert_quotes').select((eb) => eb.fn.countAll<number>().as('n')).where('filled_at', 'is not', null).executeTakeFirstOrThrow();
    convertMs.sort((a, b) => a - b);
    roundMs.sort((a, b) => a - b);
    return {
      convertsPerSec: convertMs.length / SECONDS,
      convertP50Ms: Number(percentile(convertMs, 50).toFixed(2)),
      convertP99Ms: Number(percentile(convertMs, 99).toFixed(2)),
      quoteAndConvertP99Ms: Number(percentile(roundMs, 99).toFixed(2)),
      filledMatches: Number(filled.n) === convertMs.length ? 'yes' : `no (${filled.n} filled, ${convertMs.length} ok)`,
      errors,
      connections: CONNECTIONS,
      'load generator': 'fetch in a worker thread',
      'load average (1 min) at end': Number(loadavg()[0]?.toFixed(2)),
    };
  } finally {
    await worker.terminate();
    await app.close();
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
