import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '../../server/cli/cluster.ts';
import type { Proc } from '../../server/cli/cluster.ts';
import { dbFile, dialectOf, openDb, openPostgres } from '../../server/db/connection.ts';
import type { Db } from '../../server/db/connection.ts';
import { scanJournalFile } from '../../server/engine/journalFile.ts';
import { createPrng } from '../../server/market/prng.ts';
import { checkProjection, PROJECTION_NAME } from '../../server/engine/projector.ts';
import type { Order } from '../../src/protocol/trading.ts';
import { expectLedgerBalanced, http, signUp } from './clusterHarness.ts';
import type { Client } from './clusterHarness.ts';
import { createPgDatabase, dropPgDatabase, TEST_DIALECT } from './testDb.ts';

/**
 * Faults (issue 28 point 8): a real server process (`server/server.ts`, ENGINE=memory) on SQLite (and
 * on PostgreSQL in the `postgres` project) under a mixed load over HTTP (several accounts, two lanes
 * each, placing limit and market orders with clientOrderIds and cancelling them) is killed with
 * SIGKILL ten times at random moments (drawn from a seeded generator; the lanes' interleaving is the
 * machine's) and restarted on the same DATA_DIR and database. Every acknowledged (HTTP envelope
 * 200) command is recorded. After each restart (the server starts only if its projection check
 * passes: tables = the engine's state at its seq), once the projection's mark reached the journal's
 * durable seq (read from the metrics endpoint: with ack 'durable' an answer may come before its
 * rows are written):
 * - 0 lost: every acknowledged placement is in trade_orders with the acknowledged id, an
 *   acknowledged cancel left its order canceled, an order acknowledged filled is still filled;
 * - 0 applied twice: no (user, clientOrderId) has two rows, no row carries a clientOrderId that was
 *   never sent; re-sending an acknowledged placement answers the same order (its id) and creates
 *   nothing; a placement whose answer the kill swallowed is re-sent with its clientOrderId (as a
 *   client retries) and exists once after it;
 * - ledger = balances (every balance its ledger sum, per asset the sums 0, read in one snapshot) and
 *   the projection check (checkProjection) finds nothing.
 */

const KILLS = 10;
const ACCOUNTS = 3;
const LANES = 2;

interface Account {
  email: string;
  token: string;
  userId: number;
  client: Client;
}

interface Placed {
  account: Account;
  body: Record<string, unknown>;
  /** Acknowledged: the order id and status the answer gave. */
  id: string;
  status: Order['status'];
  /** An acknowledged cancel of it. */
  canceled: boolean;
}

const procs: Proc[] = [];
let dataDir = '';
let databaseUrl: string | null = null;

afterAll(async () => {
  for (const p of procs) {
    if (p.alive()) p.child.kill('SIGKILL');
    await p.exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (databaseUrl) await dropPgDatabase(databaseUrl);
});

/** The journal's durable seq, from the server's metrics endpoint (server/http/metrics.ts). */
async function durableSeq(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const m = /^rf_journal_durable_seq\{[^}]*\} (\d+)$/m.exec(text);
  if (!m) throw new Error(`no rf_journal_durable_seq in the metrics:\n${text.slice(0, 500)}`);
  return Number(m[1]);
}

function openCheckDb(): Db {
  return databaseUrl ? openPostgres({ url: databaseUrl, max: 2 }) : openDb({ filename: dbFile(dataDir) });
}

describe('ENGINE=memory killed with SIGKILL under load', () => {
  it(`${KILLS} kills at random moments: 0 acknowledged commands lost, 0 applied twice, ledger = balances after each restart`, async () => {
    const seed = Number(process.env.ENGINE_CRASH_SEED ?? Date.now() % 1_000_000);
    // The kill moments (and the load's choices, interleaved as the machine runs the lanes) come from the seed printed.
    const random = createPrng(seed).next;
    const where = `(seed ${seed}; ENGINE_CRASH_SEED=${seed} repeats the run)`;
    dataDir = mkdtempSync(join(tmpdir(), 'rf-engine-crash-'));
    if (TEST_DIALECT === 'postgres') databaseUrl = await createPgDatabase();
    const port = await freePort();
    const metricsPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', ENGINE: 'memory', SERVE_STATIC: '0', LOG_LEVEL: 'warn', FRESH_DB: '0',
      RATE_LIMIT_SCALE: '100', MARKET_STEERING: '1', TEST_PASSWORD_HASH_LOG_N: '10', MAIL_CODE_SECRET: 'c'.repeat(64), ROLE: 'all', BROKER_URL: '', METRICS_PORT: String(metricsPort),
    };
    const start = async (): Promise<Proc> => {
      const p = await startServerProcess('engine-crash', port, env, { waitMs: 120_000 });
      procs.push(p);
      return p;
    };
    let proc = await start();
    const accounts: Account[] = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const client: Client = { ip: `127.0.0.${10 + i}` };
      const email = `crash-${i}@example.com`;
      const { token, userId } = await signUp(client, proc.url, email);
      accounts.push({ email, token, userId, client });
    }

    const placed = new Map<string, Placed>(); // by `${userId}|${clientOrderId}`
    const sent = new Set<string>();
    let unknown: { account: Account; body: Record<string, unknown> }[] = [];
    let n = 0;
    const stats = { placed: 0, canceled: 0, refused: 0, lost: 0, resent: 0, kills: 0, restartMs: [] as number[], journalRecords: 0 };

    const lastPrice = async (base: string): Promise<number> => {
      const t = await http<{ symbol: string; last: number }[]>(accounts[0]!.client, base, '/market/tickers');
      const btc = t.data.find((x) => x.symbol === 'BTCUSDT');
      if (!btc) throw new Error('no BTCUSDT ticker');
      return btc.last;
    };

    /** One lane of one account: requests one after the other until the server dies. */
    const lane = async (base: string, a: Account, price: number, alive: () => boolean): Promise<void> => {
      while (alive()) {
        const r = random();
        const mine = [...placed.values()].filter((p) => p.account === a && p.status === 'pending' && !p.canceled);
        if (r < 0.3 && mine.length > 0) {
          const target = mine[Math.floor(random() * mine.length)] as Placed;
          try {
            const c = await http<Order>(a.client, base, '/trade/order/cancel', { token: a.token, body: { clientOrderId: target.body.clientOrderId } });
            if (c.code === 200) {
              expect(c.data.id, where).toBe(target.id);
              expect(c.data.status, where).toBe('canceled');
              target.canceled = true;
              stats.canceled += 1;
            } else stats.refused += 1;
          } catch {
            return; // killed: the cancel's outcome is unknown and nothing relies on it
          }
          continue;
        }
        n += 1;
        const cid = `c${n}-${a.userId}`;
        const side = random() < 0.5 ? 'buy' : 'sell';
        const limit = r < 0.8;
        // Limits from 0.4 % through the market to 0.8 % away: some fill at once, most rest, some fill later.
        const off = (random() * 0.012 - 0.004) * (side === 'buy' ? -1 : 1);
        const body: Record<string, unknown> = limit
          ? { clientOrderId: cid, symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side, qty: 0.001, leverage: 10, price: Math.round(price * (1 + off)) }
          : { clientOrderId: cid, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side, qty: 0.001, leverage: 10 };
        sent.add(`${a.userId}|${cid}`);
        try {
          const res = await http<Order>(a.client, base, '/trade/order', { token: a.token, body });
          if (res.code === 200) {
            placed.set(`${a.userId}|${cid}`, { account: a, body, id: res.data.id, status: res.data.status, canceled: res.data.status === 'canceled' });
            stats.placed += 1;
          } else stats.refused += 1;
        } catch {
          unknown.push({ account: a, body });
          return;
        }
      }
    };

    for (let k = 1; k <= KILLS; k++) {
      const price = await lastPrice(proc.url);
      let up = true;
      const victim = proc;
      const lanes = accounts.flatMap((a) => Array.from({ length: LANES }, () => lane(victim.url, a, price, () => up)));
      // A random moment of the load: 150 ms to 1.5 s into it.
      await new Promise((r) => setTimeout(r, 150 + Math.floor(random() * 1350)));
      victim.child.kill('SIGKILL');
      await victim.exited;
      up = false;
      stats.kills += 1;
      await Promise.all(lanes);

      const t0 = Date.now();
      proc = await start();
      stats.restartMs.push(Date.now() - t0);

      // The placements the kill left unanswered, re-sent as a client retries: placed once, whatever the journal held.
      for (const u of unknown) {
        const res = await http<Order>(u.account.client, proc.url, '/trade/order', { token: u.account.token, body: u.body });
        stats.resent += 1;
        if (res.code !== 200) {
          stats.refused += 1;
          continue;
        }
        placed.set(`${u.account.userId}|${String(u.body.clientOrderId)}`, { account: u.account, body: u.body, id: res.data.id, status: res.data.status, canceled: res.data.status === 'canceled' });
      }
      unknown = [];

      // Re-sending acknowledged placements answers the same order (the latest ones: those near the kill).
      const recent = [...placed.values()].slice(-25);
      for (const p of recent) {
        const again = await http<Order>(p.account.client, proc.url, '/trade/order', { token: p.account.token, body: p.body });
        expect(again.code, `${again.msg} ${where}`).toBe(200);
        expect(again.data.id, `re-sent ${String(p.body.clientOrderId)} ${where}`).toBe(p.id);
        if (p.canceled) expect(again.data.status, where).toBe('canceled');
        if (p.status === 'filled') expect(again.data.status, where).toBe('filled');
      }

      const db = openCheckDb();
      try {
        // The answers may come before the projector wrote them (ack 'durable'): wait until the tables
        // hold every command durable now (the metrics endpoint's durable seq; the projection's mark).
        const durable = await durableSeq(metricsPort);
        for (let i = 0; ; i++) {
          const mark = await db.selectFrom('engine_projection').select('seq').where('name', '=', PROJECTION_NAME).executeTakeFirst();
          if (Number(mark?.seq ?? 0) >= durable) break;
          if (i > 600) throw new Error(`the projection stayed at ${mark?.seq} behind the durable seq ${durable} ${where}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        // The tables (the server started only once its projection check passed, and answers only once projected).
        const rows = await db.selectFrom('trade_orders').select(['id', 'user_id', 'client_order_id', 'status']).where('user_id', 'in', accounts.map((a) => a.userId)).execute();
        const byCid = new Map<string, typeof rows>();
        for (const r of rows) {
          if (r.client_order_id === null || r.client_order_id === '') continue;
          const key = `${Number(r.user_id)}|${r.client_order_id}`;
          byCid.set(key, [...(byCid.get(key) ?? []), r]);
        }
        const twice = [...byCid].filter(([, rs]) => rs.length > 1).map(([key]) => key);
        expect(twice, `applied twice ${where}`).toEqual([]);
        const phantom = [...byCid.keys()].filter((key) => !sent.has(key));
        expect(phantom, `rows for clientOrderIds never sent ${where}`).toEqual([]);
        const lost: string[] = [];
        for (const [key, p] of placed) {
          const row = byCid.get(key)?.[0];
          if (!row || row.id !== p.id) lost.push(`${key}: acknowledged ${p.id} ${p.status}, table ${row ? `${row.id} ${row.status}` : 'none'}`);
          else if (p.canceled && row.status !== 'canceled') lost.push(`${key}: cancel acknowledged, table ${row.status}`);
          else if (p.status === 'filled' && row.status !== 'filled') lost.push(`${key}: acknowledged filled, table ${row.status}`);
        }
        stats.lost += lost.length;
        expect(lost, `acknowledged commands lost after kill ${k} ${where}`).toEqual([]);
        await expectLedgerBalanced(db);
        const tx = db.transaction();
        const report = await (dialectOf(db) === 'postgres' ? tx.setIsolationLevel('repeatable read') : tx).execute((trx) => checkProjection(trx as unknown as Db));
        expect(report.problems, where).toEqual([]);
      } finally {
        await db.destroy();
      }
    }
    stats.journalRecords = scanJournalFile(join(dataDir, 'engine', 'journal.rfj')).records;
    console.log(`engineCrash ${TEST_DIALECT}: ${JSON.stringify(stats)} ${where}`);
    expect(stats.kills).toBe(KILLS);
    expect(stats.placed).toBeGreaterThan(KILLS);
    expect(stats.canceled).toBeGreaterThan(0);
  }, 900_000);
});
