import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, startServerProcess, freePort } from '../../server/cli/cluster.ts';
import type { Cluster } from '../../server/cli/cluster.ts';
import { openDatabase } from '../../server/db/connection.ts';
import { createPgDatabase, dropPgDatabase, TEST_DIALECT } from './testDb.ts';
import type { Order } from '../../src/protocol/trading.ts';
import { COPY_MSG } from '../../src/protocol/copy.ts';
import { RECONNECT_DELAY_MS, USER_SOCKET_CLOSE_UNAUTHORIZED } from '../../src/protocol/market.ts';
import { ClientBook, expectLedgerBalanced, http, marketSocket, signUp, userSocket } from './clusterHarness.ts';
import type { Client, DepthFrame, Sock } from './clusterHarness.ts';

/**
 * The cluster with REAL processes (docs/SCALING.md): one engine and three gateways (node + tsx),
 * a redis-server started in a temp dir, one SQLite file shared by every process (or, in the
 * `postgres` vitest project, one PostgreSQL database). Production rate
 * limits (RATE_LIMIT_SCALE=1): every test speaks from its own loopback address.
 */

let cluster: Cluster;
let dataDir: string;
/** PostgreSQL run (the vitest `postgres` project): every process on one fresh database. */
let databaseUrl: string | null = null;
const A: Client = { ip: '127.0.0.2' };
const B: Client = { ip: '127.0.0.3' };
let alice: { token: string; userId: number };
let bob: { token: string; userId: number };
let seq = 0;

const gw = (i: number): string => {
  const g = cluster.gateways[i];
  if (!g) throw new Error(`no gateway ${i}`);
  return g.url;
};

function order(c: Client, base: string, token: string, extra: Record<string, unknown> = {}): Promise<{ code: number; msg: string; data: Order }> {
  seq += 1;
  return http<Order>(c, base, '/trade/order', {
    token,
    body: { clientOrderId: `cl-${process.pid}-${seq}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: seq % 2 ? 'buy' : 'sell', qty: 0.01, leverage: 10, ...extra },
  });
}

/** Waits until the client's book reaches a sequence the engine reports, and compares the top 20 levels there. */
async function expectEngineBook(book: ClientBook, alive: () => boolean = () => true): Promise<void> {
  for (let attempt = 0; attempt < 80; attempt++) {
    if (!alive()) throw new Error('the market socket was closed');
    const eng = await http<{ seq: number; bids: [number, number][]; asks: [number, number][] }>(B, cluster.engine.url, '/market/depth?symbol=BTCUSDT&limit=20');
    const until = Date.now() + 5000;
    while (book.seq < eng.data.seq && Date.now() < until && alive()) await new Promise((r) => setTimeout(r, 50));
    const mine = book.bySeq.get(eng.data.seq);
    if (mine === undefined) {
      // The engine's snapshot predates the client's, or falls inside one batched diff the client
      // got as a whole: ask again a moment later.
      await new Promise((r) => setTimeout(r, 37));
      continue;
    }
    expect(mine).toBe(JSON.stringify({ bids: eng.data.bids, asks: eng.data.asks }));
    return;
  }
  const eng = await http<{ seq: number }>(B, cluster.engine.url, '/market/depth?symbol=BTCUSDT&limit=20');
  throw new Error(`the client never held the sequence the engine reported (engine ${eng.data.seq}, client ${book.seq}, held ${book.bySeq.size})`);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rf-cluster-data-'));
  if (TEST_DIALECT === 'postgres') databaseUrl = await createPgDatabase();
  cluster = await startCluster({
    gateways: 3,
    env: { DATA_DIR: dataDir, SERVE_STATIC: '0', LOG_LEVEL: 'warn', RATE_LIMIT_SCALE: '1', MARKET_SEED: '7', DATABASE_URL: databaseUrl ?? '' },
  });
  alice = await signUp(A, gw(0), 'alice@example.com');
  bob = await signUp(B, gw(1), 'bob@example.com');
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  if (databaseUrl) await dropPgDatabase(databaseUrl);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('cluster: one engine, three gateways, Redis, real processes', () => {
  it('an order placed on gateway 1 reaches the user socket on gateway 2; a market socket on gateway 3 sees the market', async () => {
    const user = await userSocket(A, gw(1), alice.token);
    const market = await marketSocket(A, gw(2), ['btcusdt@depth', 'btcusdt@trade', 'all@ticker']);
    const snap = (await market.next((f) => f.type === 'depth' && f.snapshot === true)) as DepthFrame;
    expect(snap.bids.length).toBeGreaterThan(0);
    const diff = (await market.next((f) => f.type === 'depth' && f.snapshot === false)) as DepthFrame;
    expect(diff.lastSeq).toBeGreaterThan(snap.seq ?? Infinity);
    await market.next((f) => f.type === 'tickers');
    await new Promise((r) => setTimeout(r, 200)); // the gateway's SUBSCRIBE for this user reaches Redis
    const placed = await order(A, gw(0), alice.token);
    expect(placed.code, placed.msg).toBe(200);
    expect(placed.data.status).toBe('filled');
    const frame = await user.next((f) => f.type === 'order' && (f.data as Order).id === placed.data.id);
    expect((frame.data as Order).clientOrderId).toBe(placed.data.clientOrderId);
    await user.next((f) => f.type === 'position');
    await user.next((f) => f.type === 'balance');
    // Reads on another gateway go straight to the shared database.
    const open = await http<{ symbol: string }[]>(A, gw(2), '/trade/positions', { token: alice.token });
    expect(open.code).toBe(200);
    expect(open.data.some((p) => p.symbol === 'BTCUSDT')).toBe(true);
    user.close();
    market.close();
  }, 60_000);

  it('a login rate limit hit on gateways 1 and 2 holds on gateway 3 (shared counters)', async () => {
    const C: Client = { ip: '127.0.0.4' };
    const answers: number[] = [];
    // 10 per minute per IP, spread over two gateways: per-process counters would allow 20.
    for (let i = 0; i < 12; i++) {
      const r = await http(C, gw(i % 2), '/user/login', { form: { email: `nobody${i}@example.com`, password: 'wrong-pass1', code: '123456' } });
      answers.push(r.code);
    }
    expect(answers.slice(0, 10).every((c) => c !== 429)).toBe(true);
    expect(answers.slice(10)).toEqual([429, 429]);
    const third = await http(C, gw(2), '/user/login', { form: { email: 'nobody@example.com', password: 'wrong-pass1', code: '123456' } });
    expect(third.code).toBe(429);
    // Another address is not limited.
    const other = await http({ ip: '127.0.0.5' }, gw(2), '/user/login', { form: { email: 'nobody@example.com', password: 'wrong-pass1', code: '123456' } });
    expect(other.code).not.toBe(429);
  }, 60_000);

  it('a logout on gateway 1 closes that token’s user socket on gateway 2 (4001)', async () => {
    const D: Client = { ip: '127.0.0.6' };
    const dave = await signUp(D, gw(0), 'dave@example.com');
    const sock = await userSocket(D, gw(1), dave.token);
    await new Promise((r) => setTimeout(r, 200));
    const out = await http(D, gw(0), '/user/logout', { token: dave.token });
    expect(out.code).toBe(200);
    expect((await sock.whenClosed(5000)).code).toBe(USER_SOCKET_CLOSE_UNAUTHORIZED);
  }, 60_000);

  it('copy-trading commands on a gateway run in the engine and answer its envelope', async () => {
    const traders = await http<{ id: number }[]>(B, gw(1), '/copy/traders');
    const lead = traders.data[0];
    if (!lead) throw new Error('no seeded trader');
    const f = await http<{ id: number; cash: string }>(B, gw(1), '/copy/follow', { token: bob.token, body: { traderId: lead.id, amount: '100', mode: 'ratio', ratio: '0.5' } });
    expect(f.code, f.msg).toBe(200);
    expect(f.msg).toBe(COPY_MSG.followed);
    expect(Number(f.data.cash)).toBe(100);
    const again = await http(B, gw(2), '/copy/follow', { token: bob.token, body: { traderId: lead.id, amount: '10' } });
    expect(again.msg).toBe(COPY_MSG.alreadyFollowing);
    const u = await http<{ status: string }>(B, gw(0), '/copy/unfollow', { token: bob.token, body: { followId: f.data.id, closePositions: true } });
    expect(u.code, u.msg).toBe(200);
    expect(u.data.status).toBe('ended');
  }, 60_000);

  it('a second engine refuses to start while the first holds the lock', async () => {
    const port = await freePort();
    await expect(startServerProcess('engine-2', port, { ...cluster.env, ROLE: 'engine' }, { waitMs: 30_000 })).rejects.toThrow(/refusing to start/);
    expect(cluster.engine.alive()).toBe(true);
    // The first engine still answers through the gateways.
    const r = await order(A, gw(1), alice.token);
    expect(r.code, r.msg).toBe(200);
  }, 60_000);

  it('kill -9 of a gateway during traffic: its clients reconnect to another and get the engine’s book', async () => {
    const victim = cluster.gateways[2];
    if (!victim) throw new Error('no third gateway');
    const user = await userSocket(B, victim.url, bob.token);
    const market = await marketSocket(B, victim.url, ['btcusdt@depth']);
    await market.next((f) => f.type === 'depth');
    let traffic = true;
    const acked: string[] = [];
    const lane = (async () => {
      while (traffic) {
        const r = await order(B, gw(0), bob.token).catch(() => null);
        if (r?.code === 200) acked.push(r.data.id);
        await new Promise((res) => setTimeout(res, 50));
      }
    })();
    const book = new ClientBook();
    let user2: Sock | undefined;
    let market2: Sock | undefined;
    try {
      await new Promise((r) => setTimeout(r, 500));
      const killedAt = Date.now();
      victim.child.kill('SIGKILL');
      await user.whenClosed();
      await market.whenClosed();
      // The socket machine reconnects (after its delay) to whichever gateway the balancer gives it: here gateway 1.
      user2 = await userSocket(B, gw(0), bob.token);
      market2 = await marketSocket(B, gw(0), ['btcusdt@depth']);
      market2.ws.on('message', (d) => book.onFrame(JSON.parse(d.toString()) as DepthFrame));
      await market2.next((f) => f.type === 'depth' && f.snapshot === true);
      expect(Date.now() - killedAt).toBeLessThan(RECONNECT_DELAY_MS);
      // New orders reach the reconnected user socket.
      const before = new Set(acked);
      await user2.next((f) => f.type === 'order' && !before.has((f.data as Order).id), 15_000);
    } finally {
      traffic = false;
      await lane;
    }
    // The client's book, at the engine's sequence number, is the engine's book.
    await expectEngineBook(book);
    expect(book.gaps).toBe(0);
    user2?.close();
    market2?.close();
  }, 90_000);

  it('kill -9 of the engine: every acknowledged order is present exactly once after it restarts, and the ledger balances', async () => {
    const acked: Order[] = [];
    let stop = false;
    const lane = async (c: Client, base: string, token: string): Promise<void> => {
      while (!stop) {
        const r = await order(c, base, token).catch(() => null);
        if (r?.code === 200) acked.push(r.data);
        else return; // the engine is gone: the gateway answered its timeout
      }
    };
    const lanes = [lane(A, gw(0), alice.token), lane(B, gw(1), bob.token)];
    while (acked.length < 10) await new Promise((r) => setTimeout(r, 20));
    cluster.engine.child.kill('SIGKILL');
    await cluster.engine.exited;
    stop = true;
    await Promise.all(lanes);
    expect(acked.length).toBeGreaterThanOrEqual(10);
    // Restarted like a supervisor would: once the dead engine's lease expired.
    await cluster.startEngine({ waitForLease: true });
    // Gateways reach the new engine.
    let after = await order(A, gw(0), alice.token);
    for (let i = 0; i < 20 && after.code !== 200; i++) {
      await new Promise((r) => setTimeout(r, 500));
      after = await order(A, gw(0), alice.token);
    }
    expect(after.code, after.msg).toBe(200);
    // The restarted engine's market is a new one: the gateways resynced their books from it. A
    // gateway that sees the new engine only after this socket opened closes it with 1012, and the
    // app reconnects (pinging as it does): so does this client, up to six sockets, and says how each ended.
    const ended: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const book = new ClientBook();
      const market = await marketSocket(A, gw(1), ['btcusdt@depth']);
      market.ws.on('message', (d) => book.onFrame(JSON.parse(d.toString()) as DepthFrame));
      const ping = setInterval(() => market.ws.readyState === market.ws.OPEN && market.send({ action: 'ping' }), 10_000);
      try {
        await market.next((f) => f.type === 'depth' && f.snapshot === true);
        await expectEngineBook(book, () => market.ws.readyState === market.ws.OPEN);
        break;
      } catch (err) {
        ended.push(`${attempt}: ${err instanceof Error ? err.message : String(err)} (close code ${market.closed?.code ?? 'none'})`);
        if (attempt >= 6) throw new Error(`no socket matched the engine's book: ${ended.join('; ')}`, { cause: err });
      } finally {
        clearInterval(ping);
        market.close();
      }
    }
    const { db } = openDatabase({ databaseUrl, dataDir });
    try {
      const rows = await db.selectFrom('trade_orders').select(['id', 'client_order_id', 'status']).where('user_id', 'in', [alice.userId, bob.userId]).execute();
      for (const o of acked) {
        const same = rows.filter((r) => r.client_order_id === o.clientOrderId);
        expect(same.map((r) => r.id)).toEqual([o.id]);
      }
      await expectLedgerBalanced(db);
    } finally {
      await db.destroy();
    }
  }, 120_000);
});
