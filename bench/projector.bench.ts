/**
 * The projector (server/engine/projector.ts, issue 28 step 3): how fast the engine's outcomes are
 * written behind into the tables, on a SQLite file (DATA_DIR-style, WAL). Issue 28's mix as the
 * engineState bench runs it (60 % limit placements, 30 % cancels, 10 % market orders, 1 000
 * accounts) is applied in memory first (not timed); then its outcomes are projected in batches of
 * BATCH commands, one transaction each with the mark, and timed. Figures: `projector commands/s`,
 * `projector ms per batch`, `projector rows per command` (every row written: orders, positions,
 * fills, ledger rows, balances …). Then the same outcomes through the projector thread's writer
 * (prepared statements, server/engine/projectorSqlite.ts) into a second file set up the same way,
 * timed on this thread: `projector prepared statements commands/s`, `… ms per batch`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { dbFile, openDb } from '../server/db/connection.ts';
import { balanceKey, SYSTEM_ACCOUNT_ID } from '../server/db/ledgerRule.ts';
import { migrateToLatest } from '../server/db/migrations.ts';
import { apply } from '../server/engine/apply.ts';
import type { Command, Outcome } from '../server/engine/apply.ts';
import { projectBatch, rowsOf } from '../server/engine/projector.ts';
import { SqliteProjectionWriter } from '../server/engine/projectorSqlite.ts';
import { sqliteFileOf } from '../server/engine/projectorThread.ts';
import type { Db } from '../server/db/connection.ts';
import SqliteDatabase from 'better-sqlite3';
import { emptyState } from '../server/engine/state.ts';
import { INSTRUMENTS } from '../server/market/instruments.ts';
import { createPrng } from '../server/market/prng.ts';
import type { PlaceOrderParsed } from '../src/protocol/trading.ts';

const COMMANDS = Number(process.env.BENCH_PROJECTOR_COMMANDS ?? 20_000);
const BATCH = Number(process.env.BENCH_PROJECTOR_BATCH ?? 1_000);
const USERS = 1_000;
const FIRST_USER = 1_000;
const T0 = Date.UTC(2026, 0, 1);

const base: PlaceOrderParsed = {
  clientOrderId: '', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.001, leverage: 20, price: null, tp: null, sl: null,
  reduceOnly: false, postOnly: false, timeInForce: 'GTC', triggerPrice: null, triggerBy: 'last',
};

/** The accounts and seed balances of `from` copied into `to` (the prepared writer's file starts where projectBatch's did). */
async function copySetup(from: Db, to: Db): Promise<void> {
  const users = await from.selectFrom('users').selectAll().where('id', '>=', FIRST_USER).execute();
  for (let i = 0; i < users.length; i += 200) await to.insertInto('users').values(users.slice(i, i + 200)).execute();
  const balances = await from.selectFrom('balances').selectAll().where('user_id', '>=', FIRST_USER).execute();
  for (let i = 0; i < balances.length; i += 200) await to.insertInto('balances').values(balances.slice(i, i + 200)).execute();
}

export async function run(): Promise<Record<string, number | string>> {
  const btc = INSTRUMENTS.find((i) => i.info.symbol === 'BTCUSDT')?.info;
  if (!btc) throw new Error('no BTCUSDT');
  const s = emptyState([btc]);
  const seedAmount = 10_000_000_000n;
  for (let u = 0; u < USERS; u++) s.balances.set(balanceKey(FIRST_USER + u, 'perp', 'USDT'), seedAmount);
  s.balances.set(balanceKey(SYSTEM_ACCOUNT_ID, 'perp', 'USDT'), -seedAmount * BigInt(USERS));
  const outcomes: Outcome[] = [];
  let seq = 0;
  outcomes.push(apply(s, { type: 'market', symbol: 'BTCUSDT', last: 60_000, mark: 60_000 }, ++seq, T0));
  const random = createPrng(28).next;
  const resting: { userId: number; orderId: string }[] = [];
  while (seq < COMMANDS) {
    seq += 1;
    const r = random();
    let cmd: Command;
    if (r < 0.3 && resting.length > 0) {
      const i = Math.floor(random() * resting.length);
      const { userId, orderId } = resting[i] as { userId: number; orderId: string };
      resting[i] = resting[resting.length - 1] as { userId: number; orderId: string };
      resting.pop();
      cmd = { type: 'cancel', userId, by: { orderId } };
    } else {
      const userId = FIRST_USER + Math.floor(random() * USERS);
      if (r >= 0.3 && r < 0.4) cmd = { type: 'place', userId, body: { ...base, side: random() < 0.5 ? 'buy' : 'sell', clientOrderId: `m-${seq}` } };
      else {
        const buy = random() < 0.5;
        const price = buy ? 59_000 + Math.floor(random() * 900) : 61_000 + Math.floor(random() * 900);
        cmd = { type: 'place', userId, body: { ...base, kind: 'limitOpen', side: buy ? 'buy' : 'sell', price, clientOrderId: `l-${seq}` } };
      }
    }
    const out = apply(s, cmd, seq, T0 + seq);
    outcomes.push(out);
    if (out.ok && cmd.type === 'place' && cmd.body.kind === 'limitOpen' && out.result && !Array.isArray(out.result) && 'kind' in out.result && out.result.status === 'pending') {
      resting.push({ userId: cmd.userId, orderId: out.result.id });
    }
  }

  const dir = mkdtempSync(join(tmpdir(), 'rf-bench-projector-'));
  const db = openDb({ filename: dbFile(dir) });
  try {
    await migrateToLatest(db);
    // The accounts the outcomes name (users, their starting balances); setup, not timed.
    for (let u = 0; u < USERS; u += 200) {
      const ids = Array.from({ length: Math.min(200, USERS - u) }, (_, i) => FIRST_USER + u + i);
      await db
        .insertInto('users')
        .values(ids.map((id) => ({ id, email: `b${id}@example.com`, password_hash: '!', nickname: `B${id}`, invite_code: `B${id}`, invited_by: null, avatar: null, kyc_status: 'unverified' as const, google_secret: null, google_pending_secret: null, withdraw_lock_until: 0, google_last_step: 0, role: 'user' as const, created_at: T0 })))
        .execute();
      await db.insertInto('balances').values(ids.map((id) => ({ user_id: id, wallet: 'perp' as const, asset: 'USDT', amount: seedAmount.toString(), updated_at: T0 }))).execute();
    }
    // The prepared writer's file starts where projectBatch's does (setup, not timed).
    const db2 = openDb({ filename: dbFile(join(dir, 'prepared')) });
    await migrateToLatest(db2);
    await copySetup(db, db2);
    let rows = 0;
    for (let i = 0; i < outcomes.length; i += BATCH) {
      const b = rowsOf(outcomes.slice(i, i + BATCH));
      rows += b.orders.size + b.positions.size + b.fills.length + b.ledger.length + b.refs.size + b.balances.size + b.rebates.length + b.invitees.size + b.quotes.size + b.follows.size + b.copyPositions.size + b.copyOrders.length + b.jobs.size + b.traders.size + 1;
    }
    const started = performance.now();
    let batches = 0;
    for (let i = 0; i < outcomes.length; i += BATCH) {
      await projectBatch(db, outcomes.slice(i, i + BATCH));
      batches += 1;
    }
    const ms = performance.now() - started;
    // The same outcomes through the projector thread's writer (prepared statements, server/engine/projectorSqlite.ts) into a second file, on this thread (the worker adds only the copy of the batch).
    let preparedMs = 0;
    try {
      const file = await sqliteFileOf(db2);
      if (!file) throw new Error('no file');
      const conn = new SqliteDatabase(file);
      try {
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('foreign_keys = ON');
        const writer = new SqliteProjectionWriter(conn);
        const t0 = performance.now();
        for (let i = 0; i < outcomes.length; i += BATCH) writer.write(outcomes.slice(i, i + BATCH));
        preparedMs = performance.now() - t0;
      } finally {
        conn.close();
      }
      const count = (d: Db) => d.selectFrom('ledger_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const [a, b] = [await count(db), await count(db2)];
      if (Number(a.n) !== Number(b.n)) throw new Error(`the prepared writer wrote ${b.n} ledger rows, projectBatch ${a.n}`);
    } finally {
      await db2.destroy();
    }
    return {
      'projector prepared statements commands/s': Math.round((outcomes.length * 1000) / preparedMs),
      'projector prepared statements ms per batch': Number((preparedMs / batches).toFixed(1)),
      'projector commands/s': Math.round((outcomes.length * 1000) / ms),
      'projector ms per batch': Number((ms / batches).toFixed(1)),
      'projector batch commands': BATCH,
      'projector rows per command': Number((rows / outcomes.length).toFixed(2)),
      'projector commands': outcomes.length,
      'load average (1 min) at end': Number((loadavg()[0] ?? 0).toFixed(1)),
    };
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
