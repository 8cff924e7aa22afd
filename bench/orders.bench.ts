/**
 * Order placement throughput through the real HTTP API: a fresh server (file SQLite in a temp
 * DATA_DIR, the trading engine on a ControlledMarketSource, production rate limits) and a load
 * generator (bench/loadGen.ts: Debian's `wrk` when installed, else autocannon in a worker thread;
 * the 'load generator' figure says which ran) POSTing market orders, each with a new
 * clientOrderId, rotating over USERS accounts (1 000) so the per-account order limits (300 per 10 s)
 * are not what is measured. Every placement is one serialised database operation (order, fill,
 * position, four ledger rows, group-committed), so this measures the engine's write path, not just
 * routing. Leverage 20: a position grows by 60 USDT of notional per order.
 *
 * The same run is made on SQLite (a file in a temp DATA_DIR, as `npm start`) and on PostgreSQL
 * (DATABASE_URL; a throw-away server started from the Debian binaries in a temp dir, with the
 * settings `npm run start:cluster` starts one with, server/cli/localPostgres.ts, but
 * synchronous_commit=off to match SQLite's synchronous=NORMAL),
 * one after the other, figures prefixed 'sqlite' / 'postgres'. BENCH_ORDERS_DB=sqlite|postgres
 * runs one only; without the PostgreSQL binaries the postgres figures say so.
 *
 * Where the time goes: 'server busy us/order' is the server's event-loop busy time per placement
 * (the load generator is another process), and 'engine alone' runs issue 28's command mix (60 %
 * limit, 30 % cancel, 10 % market, 1 000 users, one caller each in flight) straight into the
 * engine's queue without HTTP, the ceiling of one event loop running the engine. The socket run places the same orders over the
 * user socket (`order.place`, 400 accounts, 20 in flight). Figures are named as issue 28 names them
 * (`engine alone commands/s`, `sqlite orders/s`, `sqlite p99 ms`, `postgres orders/s`, `socket
 * orders/s`, `socket p99 ms`), with its targets: met or not met.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import type { FastifyPluginAsync } from 'fastify';
import { buildApp } from '../server/app.ts';
import { socketAuthenticator } from '../server/http/auth.ts';
import { createUserEventBus } from '../server/ws/userBus.ts';
import { userSocketPlugin } from '../server/ws/userSocket.ts';
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
import { createPrng } from '../server/market/prng.ts';
import { ControlledMarketSource } from '../server/trading/controlledSource.ts';
import { createTrading } from '../server/trading/wiring.ts';
import { MemoryTradingEngine } from '../server/engine/memoryEngine.ts';
import { ProjectorThread } from '../server/engine/projectorThread.ts';
import type { TradingEngine } from '../server/trading/engine.ts';
import { placeOrderBody } from '../src/protocol/trading.ts';
import { runLoad } from './loadGen.ts';

const SECONDS = Number(process.env.BENCH_ORDERS_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_ORDERS_CONNECTIONS ?? 20);
/** Accounts the load is spread over (issue 28: 1 000 users), so it stays under the per-account order limits. */
const USERS = Number(process.env.BENCH_ORDERS_USERS ?? 1000);
/**
 * Callers of the engine-alone mix, each awaiting its answer before the next command (default: one
 * per account, 1 000). With the journal durable an answer waits for its batch's fdatasync, so with
 * 20 callers a batch holds at most 20 commands and the figure is 20 / (fsync time), not the
 * engine's cost; the HTTP and socket runs keep CONNECTIONS in flight.
 */
const ENGINE_LANES = Number(process.env.BENCH_ORDERS_ENGINE_LANES ?? USERS);
/** ENGINE=memory (as the server reads it): the memory engine behind its journal (issue 28) instead of the SQL engine. */
const ENGINE_MODE: 'sql' | 'memory' = process.env.ENGINE === 'memory' ? 'memory' : 'sql';
/** Issue 28's targets on this 2-core machine. */
const TARGET = { ordersPerSecond: 3000, p99Ms: 20, socketOrdersPerSecond: 10_000, socketP99Ms: 10, engineCommandsPerSecond: 100_000, postgresWithin: 0.2 };
/**
 * BENCH_ORDERS_PROFILE=<dir> (diagnosis, issue 28): a CPU profile of the server's thread during each
 * measured phase only (`<dialect>-http.cpuprofile`, `-socket`, `-engine`; setup is not in them),
 * for Chrome DevTools or `node scripts/…` summaries. Profiling slows every figure: not for results.json.
 */
const PROFILE_DIR = process.env.BENCH_ORDERS_PROFILE;

async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/** The market order the HTTP load sends (the load generator sets a fresh clientOrderId each). */
const MARKET_BUY = { symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.001, leverage: 20 } as const;

/**
 * The engine without HTTP, issue 28's mix: 60 % limit placements (resting under / over the price),
 * 30 % cancels of a resting order, 10 % market orders, over `users` accounts, ENGINE_LANES callers
 * straight into the engine's queue for `seconds`. Busy time is the main thread's event-loop
 * utilization, so the figure is the engine's own cost (the ceiling of one event loop running it).
 */
async function engineMix(engine: TradingEngine, users: readonly number[], seconds: number): Promise<Record<string, number | string>> {
  const rng = createPrng(28);
  const random = rng.next;
  // Resting orders of every account: a cancel takes one at random (with 1 000 accounts few have one of their own yet).
  const resting: { userId: number; orderId: string }[] = [];
  const counts = { limit: 0, cancel: 0, market: 0, refused: 0 };
  let n = 0;
  const end = Date.now() + seconds * 1000;
  const elu0 = performance.eventLoopUtilization();
  await Promise.all(
    Array.from({ length: ENGINE_LANES }, async (_, caller) => {
      while (Date.now() < end) {
        n += 1;
        const r = random();
        try {
          if (r < 0.3 && resting.length > 0) {
            const i = Math.floor(random() * resting.length);
            const { userId, orderId } = resting[i] as { userId: number; orderId: string };
            resting[i] = resting[resting.length - 1] as { userId: number; orderId: string };
            resting.pop();
            counts.cancel += 1;
            await engine.cancelOrder(userId, { orderId });
            continue;
          }
          const userId = users[Math.floor(random() * users.length)] as number;
          if (r >= 0.3 && r < 0.4) {
            counts.market += 1;
            await engine.placeOrder(userId, placeOrderBody.parse({ ...MARKET_BUY, side: random() < 0.5 ? 'buy' : 'sell', clientOrderId: `m-${caller}-${n}` }));
          } else {
            // A limit under the price (buy) or over it (sell): it rests, locking its margin.
            const buy = random() < 0.5;
            const price = buy ? 59_000 + Math.floor(random() * 900) : 61_000 + Math.floor(random() * 900);
            counts.limit += 1;
            const o = await engine.placeOrder(userId, placeOrderBody.parse({ ...MARKET_BUY, kind: 'limitOpen', side: buy ? 'buy' : 'sell', price, clientOrderId: `l-${caller}-${n}` }));
            if (o.status === 'pending') resting.push({ userId, orderId: o.id });
          }
        } catch {
          counts.refused += 1;
        }
      }
    }),
  );
  const elu = performance.eventLoopUtilization(elu0);
  const total = counts.limit + counts.cancel + counts.market;
  const pct = (k: number) => ((100 * k) / Math.max(1, total)).toFixed(1);
  return {
    'engine alone commands/s': Number((total / seconds).toFixed(1)),
    'engine alone busy us/command': Number(((elu.active * 1000) / Math.max(1, total)).toFixed(0)),
    'engine alone mix': `${pct(counts.limit)} % limit, ${pct(counts.cancel)} % cancel, ${pct(counts.market)} % market; ${counts.refused} refused`,
    'engine alone callers in flight': ENGINE_LANES,
  };
}

/**
 * The socket run: SOCKETS sockets, each authenticated as its own account, and as many requests in
 * flight as the HTTP run has connections (CONNECTIONS lanes; a lane sends on the next of its
 * sockets each time its answer came), so the two latencies compare. 400 accounts keep every one
 * under the per-account order limit (300 per 10 s) up to 12 000 placements/s.
 */
const SOCKETS = Number(process.env.BENCH_ORDERS_SOCKETS ?? 400);

/**
 * Placements over the user socket (`order.place`, src/protocol/socketApi.ts), the sockets in a
 * worker thread (off the server's event loop). Latency is request sent → response received.
 */
const SOCKET_LOAD_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.ws);
const { url, tokens, seconds, body, lanes } = workerData;
const latencies = [];
const waiting = new Map();
let errors = 0;
let n = 0;
const open = (token) => new Promise((resolve, reject) => {
  const ws = new WebSocket(url);
  ws.once('error', reject);
  ws.once('open', () => ws.send(JSON.stringify({ action: 'auth', token })));
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString());
    if (f.type === 'authed') resolve(ws);
    else if (f.type === 'response') {
      const done = waiting.get(f.id);
      waiting.delete(f.id);
      if (done) done(f);
    }
  });
});
const request = (ws, id, params) => new Promise((resolve) => {
  waiting.set(id, resolve);
  ws.send(JSON.stringify({ id, method: 'order.place', params }));
});
(async () => {
  const sockets = [];
  for (let i = 0; i < tokens.length; i += 50) sockets.push(...(await Promise.all(tokens.slice(i, i + 50).map(open))));
  const end = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: lanes }, async (_, lane) => {
    for (let j = lane % sockets.length; Date.now() < end; j = (j + lanes) % sockets.length) {
      n += 1;
      const id = 's' + n;
      const sentAt = performance.now();
      const f = await request(sockets[j], id, { ...body, clientOrderId: 'ws' + process.pid + id });
      latencies.push(performance.now() - sentAt);
      if (f.code !== 200) errors += 1;
    }
  }));
  for (const ws of sockets) ws.close();
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN;
  parentPort.postMessage({ ok: true, r: { answered: latencies.length, refused: errors, p50: at(0.5), p99: at(0.99), max: latencies[latencies.length - 1] ?? NaN } });
})().catch((e) => parentPort.postMessage({ ok: false, message: String(e) }));
`;

async function socketLoad(port: number, tokens: readonly string[], seconds: number): Promise<Record<string, number>> {
  const worker = new Worker(SOCKET_LOAD_CODE, {
    eval: true,
    workerData: { url: `ws://127.0.0.1:${port}/api/ws/user`, tokens: [...tokens], seconds, lanes: CONNECTIONS, body: MARKET_BUY, ws: createRequire(import.meta.url).resolve('ws') },
  });
  try {
    const r = await new Promise<{ answered: number; refused: number; p50: number; p99: number; max: number }>((resolve, reject) => {
      worker.on('message', (m: { ok: boolean; r?: { answered: number; refused: number; p50: number; p99: number; max: number }; message?: string }) => (m.ok && m.r ? resolve(m.r) : reject(new Error(m.message))));
      worker.on('error', reject);
    });
    return {
      'socket orders/s': Number(((r.answered - r.refused) / seconds).toFixed(1)),
      'socket p50 ms': Number(r.p50.toFixed(2)),
      'socket p99 ms': Number(r.p99.toFixed(2)),
      'socket max ms': Number(r.max.toFixed(2)),
      'socket refused': r.refused,
      sockets: tokens.length,
      'socket requests in flight': CONNECTIONS,
    };
  } finally {
    await worker.terminate();
  }
}

/** `n` funded accounts with a session each (the HTTP load rotates through their tokens). */
async function benchUsers(db: Db, n: number, now: number, name: string): Promise<{ ids: number[]; tokens: string[] }> {
  const ids: number[] = [];
  const tokens: string[] = [];
  for (let i = 0; i < n; i += 10) {
    const made = await Promise.all(
      Array.from({ length: Math.min(10, n - i) }, async (_, k) => {
        const user = await createAccount(db, { email: `${name}${i + k}@example.com`, passwordHash: '!', invitedBy: null, now });
        await adminCredit(db, user.id, 'perp', 'USDT', 10n ** 15n, now);
        const token = newToken();
        await createSession(db, { userId: user.id, tokenHash: hashToken(token), now, ip: '127.0.0.1', client: 'web' });
        return { id: user.id, token };
      }),
    );
    for (const m of made) {
      ids.push(m.id);
      tokens.push(m.token);
    }
  }
  return { ids, tokens };
}

/** One run against `db` (migrated here); the caller owns and closes it. */
async function measure(db: Db, dialect: DialectName, dataDir: string): Promise<Record<string, number | string>> {
  const config = { ...loadConfig({}), dataDir, logLevel: 'silent' as const, serveStatic: false };
  await migrateToLatest(db, dialect);
  const clock = { now: () => Date.now() };
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), clock.now());
  source.setPrice('BTCUSDT', 60_000);
  // The user socket as the platform registers it (server/platform.ts): order frames are pushed, socket orders answered.
  const bus = createUserEventBus();
  // Memory engine: answer once the journal is durable, the tables written behind (the default); ENGINE_ACK=projected also waits for the projector.
  const ack = process.env.ENGINE_ACK === 'projected' ? 'projected' : 'durable';
  const trading = createTrading({ db, clock, source, bus, periodicMs: 0, ...(ENGINE_MODE === 'memory' ? { engine: new MemoryTradingEngine({ db, clock, source, bus, ack }) } : {}) });
  const userSocket: FastifyPluginAsync = async (app) => {
    await app.register(userSocketPlugin, { bus, clock, revocations: app.deps.revocations, authenticate: socketAuthenticator(db, clock) });
  };
  // Production rate limits (RATE_LIMIT_SCALE 1): the load is spread over USERS accounts.
  const app = buildApp({ db, clock, config, plugins: [userSocket, trading.plugin] });
  const httpUsers = await benchUsers(db, USERS, clock.now(), 'http');
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  // The projector's thread loads its modules for seconds on a busy machine (batches are written in process meanwhile): a server takes load long after.
  if (trading.engine instanceof MemoryTradingEngine && trading.engine.projection instanceof ProjectorThread) await trading.engine.projection.whenReady();
  // The server's own cost per placement: busy time of its event loop (the load generator is another process or thread).
  const elu0 = performance.eventLoopUtilization();
  try {
    const result = await profiled(`${dialect}-http`, () => runLoad({ url: `http://127.0.0.1:${port}/api/trade/order`, connections: CONNECTIONS, seconds: SECONDS, tokens: httpUsers.tokens, body: MARKET_BUY, idField: 'clientOrderId' }));
    const elu = performance.eventLoopUtilization(elu0);
    // The memory engine's tables are written behind: count once the projector has caught up.
    await trading.engine.idle();
    const placed = await db.selectFrom('trade_orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const ordersPerSecond = Number(placed.n) / SECONDS;
    // The same placements over the user socket, from accounts the HTTP run used least.
    const socket = await profiled(`${dialect}-socket`, () => socketLoad(port, httpUsers.tokens.slice(-SOCKETS), SECONDS));
    // Other accounts, so the HTTP run's grown positions do not change what the engine does.
    const engineUsers = await benchUsers(db, USERS, clock.now(), 'engine');
    const alone = await profiled(`${dialect}-engine`, () => engineMix(trading.engine, engineUsers.ids, Math.max(1, SECONDS / 2)));
    const met = ordersPerSecond >= TARGET.ordersPerSecond && result.p99Ms < TARGET.p99Ms;
    return {
      'load generator': result.generator,
      'orders/s': Number(ordersPerSecond.toFixed(1)),
      'requests/s': result.requestsPerSecond,
      // Answers that were not an order (the envelope's code was not 200: a limit, a refusal).
      'requests not placed': Math.max(0, Math.round(result.requestsPerSecond * SECONDS - Number(placed.n))),
      'p50 ms': result.p50Ms,
      'p99 ms': result.p99Ms,
      // Group commit at work: how many placements shared one transaction on average.
      'orders per commit': commitFigure(trading.engine),
      ...projectorFigures(trading.engine),
      engine: ENGINE_MODE === 'memory' ? `memory (ack ${ack})` : 'sql',
      'max ms': result.maxMs,
      non2xx: result.non2xx,
      errors: result.errors,
      'server busy %': Number((elu.utilization * 100).toFixed(1)),
      'server busy us/order': Number(((elu.active * 1000) / Math.max(1, Number(placed.n))).toFixed(0)),
      ...socket,
      ...alone,
      // The targets are set for SQLite (the embedded default).
      ...(dialect === 'sqlite'
        ? {
            [`target >= ${TARGET.ordersPerSecond} orders/s, p99 < ${TARGET.p99Ms} ms`]: met ? 'met' : 'not met',
            [`target socket >= ${TARGET.socketOrdersPerSecond} orders/s, p99 < ${TARGET.socketP99Ms} ms`]: (socket['socket orders/s'] ?? 0) >= TARGET.socketOrdersPerSecond && (socket['socket p99 ms'] ?? Infinity) < TARGET.socketP99Ms ? 'met' : 'not met',
            [`target engine alone >= ${TARGET.engineCommandsPerSecond} commands/s`]: Number(alone['engine alone commands/s']) >= TARGET.engineCommandsPerSecond ? 'met' : 'not met',
          }
        : {}),
    };
  } finally {
    await app.close();
  }
}

/** Commands per database commit (SQL engine) or per journal write + fsync (memory engine, every command of the run: market and internal ones too). */
function commitFigure(engine: TradingEngine): number {
  if (engine instanceof MemoryTradingEngine) {
    const j = engine.journalStats;
    return Number(((j?.records ?? 0) / Math.max(1, j?.batches ?? 0)).toFixed(2));
  }
  return Number((engine.stats.operations / Math.max(1, engine.stats.batches)).toFixed(2));
}

/** The memory engine's projector: batches, the largest, how many its thread wrote (the rest in process), its write time per command. */
function projectorFigures(engine: TradingEngine): Record<string, number> {
  if (!(engine instanceof MemoryTradingEngine)) return {};
  const p = engine.projection;
  return {
    'projector batches': p.stats.batches,
    'projector largest batch': p.stats.maxBatch,
    'projector batches by its thread': p instanceof ProjectorThread ? p.threadBatches : 0,
    'projector write us/command': Number(((p.stats.writeMs * 1000) / Math.max(1, p.stats.records)).toFixed(1)),
  };
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
  const sqlite = which === 'postgres' ? {} : await onSqlite();
  const postgres = which === 'sqlite' ? {} : await onPostgres();
  const [s, p] = [sqlite['sqlite orders/s'], postgres['postgres orders/s']];
  return {
    connections: CONNECTIONS,
    seconds: SECONDS,
    users: USERS,
    // Other engineers' work on this shared 2-core machine shows here: figures under load are a floor.
    'load average (1 min) at end': Number(loadavg()[0]?.toFixed(2)),
    // Issue 28's name for the engine alone is the embedded default's (SQLite) figure.
    ...(sqlite['sqlite engine alone commands/s'] !== undefined ? { 'engine alone commands/s': sqlite['sqlite engine alone commands/s'] } : {}),
    // The socket figures under issue 28's names are the embedded default's (SQLite), as the engine's.
    ...(sqlite['sqlite socket orders/s'] !== undefined ? { 'socket orders/s': sqlite['sqlite socket orders/s'], 'socket p99 ms': sqlite['sqlite socket p99 ms'] as number } : {}),
    ...sqlite,
    ...postgres,
    ...(typeof s === 'number' && typeof p === 'number' ? { [`target postgres within ${TARGET.postgresWithin * 100} % of sqlite`]: p >= s * (1 - TARGET.postgresWithin) ? 'met' : `not met (${((100 * p) / s).toFixed(0)} % of sqlite)` } : {}),
  };
}
