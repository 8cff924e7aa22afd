/**
 * Order placement throughput through the real HTTP API: a fresh server (file SQLite in a temp
 * DATA_DIR, the trading engine on a ControlledMarketSource) and autocannon POSTing market orders
 * (each with a new clientOrderId) with one user's token. Reports placements per second and latency
 * percentiles (autocannon in a worker thread, off the server's event loop). Every placement is one serialised database transaction (order, fill, position, four
 * ledger rows), so this measures the engine's write path, not just routing. Leverage 20: the
 * position grows by 60 USDT of notional per order, and a leverage above the maintenance bracket of
 * the grown notional is refused (100× is allowed only up to 500 000 USDT).
 *
 * The same run is made on SQLite (a file in a temp DATA_DIR, as `npm start`) and on PostgreSQL
 * (DATABASE_URL; a throw-away server started from the Debian binaries in a temp dir, with the
 * settings `npm run start:cluster` starts one with, server/cli/localPostgres.ts, but
 * synchronous_commit=off to match SQLite's synchronous=NORMAL),
 * one after the other, figures prefixed 'sqlite' / 'postgres'. BENCH_ORDERS_DB=sqlite|postgres
 * runs one only; without the PostgreSQL binaries the postgres figures say so.
 *
 * Where the time goes: 'server busy us/order' is the server's event-loop busy time per placement
 * (the load generator is another thread), and 'engine alone' places the same orders straight into
 * the engine's queue without HTTP, the ceiling of one event loop running the engine. The SQLite run
 * ends with issue 14's target line (2 000 orders/s with p99 under 20 ms): met or not met.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { dbFile, openDb, openPostgres, type Db } from '../server/db/connection.ts';
import type { DialectName } from '../server/db/migrations.ts';
import { findPgBin, startLocalPostgres } from '../server/cli/localPostgres.ts';
import { freePort } from '../server/cli/cluster.ts';
import { migrateToLatest } from '../server/db/migrations.ts';
import { adminCredit } from '../server/ledger/post.ts';
import { createSession } from '../server/db/repos/sessions.ts';
import { INSTRUMENTS } from '../server/market/instruments.ts';
import { createAccount } from '../server/services/accounts.ts';
import { hashToken, newToken } from '../server/services/tokens.ts';
import { ControlledMarketSource } from '../server/trading/controlledSource.ts';
import { createTrading } from '../server/trading/wiring.ts';
import type { TradingEngine } from '../server/trading/engine.ts';
import { placeOrderBody } from '../src/protocol/trading.ts';

/** What the load worker sends back: autocannon's figures (it ships no type declarations). */
interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number; max: number };
  non2xx: number;
  errors: number;
}

/**
 * The load generator runs in a worker thread so its own work (building and parsing HTTP) is on
 * the other core, not on the server's event loop it measures.
 */
const LOAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const autocannon = require(workerData.autocannon);
let n = 0;
autocannon({
  url: workerData.url,
  method: 'POST',
  connections: workerData.connections,
  duration: workerData.seconds,
  headers: { 'content-type': 'application/json', authorization: workerData.token, client: 'web' },
  requests: [{ setupRequest: (req) => {
    n += 1;
    return { ...req, body: JSON.stringify({ clientOrderId: 'b' + n, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.001, leverage: 20 }) };
  } }],
}).then(
  (raw) => {
    // Off the main thread autocannon returns encoded histograms: aggregate them here.
    const r = autocannon.aggregateResult([raw], { url: workerData.url, duration: workerData.seconds });
    parentPort.postMessage({ ok: true, r: { requests: { average: r.requests.total / workerData.seconds }, latency: { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max }, non2xx: r.non2xx, errors: r.errors } });
  },
  (e) => parentPort.postMessage({ ok: false, message: String(e) }),
);
`;

const SECONDS = Number(process.env.BENCH_ORDERS_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_ORDERS_CONNECTIONS ?? 20);
/** Issue 14's target for placements through HTTP on SQLite. */
const TARGET = { ordersPerSecond: 2000, p99Ms: 20 };

/** The same market order the load worker sends (a fresh clientOrderId each). */
const marketBuy = (clientOrderId: string) => placeOrderBody.parse({ clientOrderId, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.001, leverage: 20 });

/**
 * The engine without HTTP: CONNECTIONS callers placing market orders straight into the engine's
 * queue for `seconds` (the ceiling of one event loop running the engine; HTTP only adds to it).
 * Busy time is the main thread's event-loop utilization, so the figure is the engine's own cost.
 */
async function engineAlone(engine: TradingEngine, userId: number, seconds: number): Promise<Record<string, number>> {
  let n = 0;
  const end = Date.now() + seconds * 1000;
  const elu0 = performance.eventLoopUtilization();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, caller) => {
      while (Date.now() < end) {
        n += 1;
        await engine.placeOrder(userId, marketBuy(`alone-${caller}-${n}`));
      }
    }),
  );
  const elu = performance.eventLoopUtilization(elu0);
  return { 'engine alone orders/s': Number((n / seconds).toFixed(1)), 'engine alone busy us/order': Number(((elu.active * 1000) / n).toFixed(0)) };
}

/** One run against `db` (migrated here); the caller owns and closes it. */
async function measure(db: Db, dialect: DialectName, dataDir: string): Promise<Record<string, number | string>> {
  const config = { ...loadConfig({}), dataDir, logLevel: 'silent' as const, serveStatic: false };
  await migrateToLatest(db, dialect);
  const clock = { now: () => Date.now() };
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), clock.now());
  source.setPrice('BTCUSDT', 60_000);
  const trading = createTrading({ db, clock, source, periodicMs: 0 });
  const app = buildApp({ db, clock, config, plugins: [trading.plugin] });
  const user = await createAccount(db, { email: 'bench@example.com', passwordHash: '!', invitedBy: null, now: clock.now() });
  await adminCredit(db, user.id, 'perp', 'USDT', 10n ** 15n, clock.now());
  const token = newToken();
  await createSession(db, { userId: user.id, tokenHash: hashToken(token), now: clock.now(), ip: '127.0.0.1', client: 'web' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  // The server's own cost per placement: busy time of its event loop (the load worker is another thread).
  const elu0 = performance.eventLoopUtilization();
  const worker = new Worker(LOAD_CODE, {
    eval: true,
    workerData: { url: `http://127.0.0.1:${port}/api/trade/order`, token, connections: CONNECTIONS, seconds: SECONDS, autocannon: createRequire(import.meta.url).resolve('autocannon') },
  });
  try {
    const result = await new Promise<LoadResult>((resolve, reject) => {
      worker.on('message', (m: { ok: boolean; r?: LoadResult; message?: string }) => (m.ok && m.r ? resolve(m.r) : reject(new Error(m.message))));
      worker.on('error', reject);
    });
    const elu = performance.eventLoopUtilization(elu0);
    const placed = await db.selectFrom('trade_orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const ordersPerSecond = Number(placed.n) / SECONDS;
    // A second account, so the HTTP run's grown position does not change what the engine does.
    const other = await createAccount(db, { email: 'bench-engine@example.com', passwordHash: '!', invitedBy: null, now: clock.now() });
    await adminCredit(db, other.id, 'perp', 'USDT', 10n ** 15n, clock.now());
    const alone = await engineAlone(trading.engine, other.id, Math.max(1, SECONDS / 2));
    const met = ordersPerSecond >= TARGET.ordersPerSecond && result.latency.p99 < TARGET.p99Ms;
    return {
      'orders/s': ordersPerSecond,
      'requests/s': result.requests.average,
      'p50 ms': result.latency.p50,
      'p99 ms': result.latency.p99,
      // Group commit at work: how many placements shared one transaction on average.
      'orders per commit': Number((trading.engine.stats.operations / Math.max(1, trading.engine.stats.batches)).toFixed(2)),
      'max ms': result.latency.max,
      non2xx: result.non2xx,
      errors: result.errors,
      'server busy %': Number((elu.utilization * 100).toFixed(1)),
      'server busy us/order': Number(((elu.active * 1000) / Math.max(1, Number(placed.n))).toFixed(0)),
      ...alone,
      // The target is set for SQLite (the embedded default).
      ...(dialect === 'sqlite' ? { [`target >= ${TARGET.ordersPerSecond} orders/s, p99 < ${TARGET.p99Ms} ms`]: met ? 'met' : 'not met' } : {}),
    };
  } finally {
    await worker.terminate();
    await app.close();
  }
}

function prefixed(prefix: string, figures: Record<string, number | string>): Record<string, number | string> {
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${prefix} ${k}`, v]));
}

async function onSqlite(): Promise<Record<string, number | string>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rf-bench-orders-'));
  const db = openDb({ filename: dbFile(dataDir) });
  try {
    return prefixed('sqlite', await measure(db, 'sqlite', dataDir));
  } finally {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(): Promise<Record<string, number | string>> {
  const bin = findPgBin();
  if (bin === null) return { 'postgres orders/s': 'skipped: PostgreSQL binaries not found (apt-get install postgresql)' };
  const dir = mkdtempSync(join(tmpdir(), 'rf-bench-orders-pg-'));
  const pgServer = await startLocalPostgres(bin, dir, await freePort());
  // The durability class of the SQLite run (WAL, synchronous=NORMAL: a crash may lose the last
  // commits, never corrupts): commit without waiting for the WAL flush; fsync stays on.
  const admin = new pg.Client({ connectionString: pgServer.url });
  await admin.connect();
  await admin.query('ALTER SYSTEM SET synchronous_commit = off');
  // BENCH_PG_DEADLOCK_MS (diagnosis): a shorter deadlock_timeout than PostgreSQL's 1 s default
  // shows how much of the time is deadlock detection (the engine retries 40P01 in server/db/tx.ts).
  if (process.env.BENCH_PG_DEADLOCK_MS) await admin.query(`ALTER SYSTEM SET deadlock_timeout = '${Number(process.env.BENCH_PG_DEADLOCK_MS)}ms'`);
  await admin.query('SELECT pg_reload_conf()');
  await admin.end();
  const db = openPostgres({ url: pgServer.url });
  try {
    const deadlockTimeout = process.env.BENCH_PG_DEADLOCK_MS ? `${Number(process.env.BENCH_PG_DEADLOCK_MS)}ms` : '1s (default)';
    return { ...prefixed('postgres', await measure(db, 'postgres', join(dir, 'data'))), 'postgres deadlock_timeout': deadlockTimeout };
  } finally {
    await db.destroy();
    await pgServer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<Record<string, number | string>> {
  const which = process.env.BENCH_ORDERS_DB ?? 'both';
  return {
    connections: CONNECTIONS,
    seconds: SECONDS,
    ...(which === 'postgres' ? {} : await onSqlite()),
    ...(which === 'sqlite' ? {} : await onPostgres()),
  };
}
