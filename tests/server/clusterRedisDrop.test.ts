import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startCluster } from '../../server/cli/cluster.ts';
import type { Cluster } from '../../server/cli/cluster.ts';
import { openDatabase } from '../../server/db/connection.ts';
import type { Order } from '../../src/protocol/trading.ts';
import { expectLedgerBalanced, http, marketSocket, signUp, userSocket } from './clusterHarness.ts';
import type { Client } from './clusterHarness.ts';

/**
 * The broker dies under a running cluster (docs/SCALING.md "Redis"): real processes (one engine,
 * two gateways), a real redis-server that the test kills with SIGKILL while clients are connected
 * and orders are flowing, then restarts empty on the same port. What must hold:
 * - the gateways and the engine reconnect to the broker by themselves (no restart of any process);
 * - a market socket opened before the outage gets market frames again after it (same socket);
 * - a user socket opened before the outage gets the frames of an order placed after it;
 * - trading works again through every gateway (the engine took its lock again);
 * - every order acknowledged (HTTP 200), before, during or after the outage, is in the database
 *   exactly once, and the ledger balances (no money lost or made).
 */

const A: Client = { ip: '127.0.0.6' };
let cluster: Cluster;
let dataDir: string;
let redisDir: string;
let redisPort: number;
let redis: ChildProcess | null = null;
let alice: { token: string; userId: number };
let seq = 0;

async function startRedisOn(port: number): Promise<ChildProcess> {
  const child = spawn(process.env.REDIS_SERVER ?? 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir], { stdio: 'ignore' });
  const { connect } = await import('node:net');
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((res) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), res(true)));
      s.once('error', () => res(false));
    });
    if (up) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not start');
}

function order(base: string): Promise<{ code: number; msg: string; data: Order }> {
  seq += 1;
  return http<Order>(A, base, '/trade/order', {
    token: alice.token,
    body: { clientOrderId: `rd-${process.pid}-${seq}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: seq % 2 ? 'buy' : 'sell', qty: 0.01, leverage: 10 },
  });
}

const gw = (i: number): string => {
  const g = cluster.gateways[i];
  if (!g) throw new Error(`no gateway ${i}`);
  return g.url;
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rf-redisdrop-data-'));
  redisDir = mkdtempSync(join(tmpdir(), 'rf-redisdrop-redis-'));
  redisPort = await freePort();
  redis = await startRedisOn(redisPort);
  cluster = await startCluster({
    gateways: 2,
    brokerUrl: `redis://127.0.0.1:${redisPort}`,
    env: { DATA_DIR: dataDir, SERVE_STATIC: '0', LOG_LEVEL: 'warn', RATE_LIMIT_SCALE: '1', MARKET_SEED: '11', DATABASE_URL: '' },
  });
  alice = await signUp(A, gw(0), 'alice-redis@example.com');
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
  redis?.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (redisDir) rmSync(redisDir, { recursive: true, force: true });
}, 60_000);

describe('cluster: Redis killed (-9) and restarted under traffic', () => {
  it('gateways and engine reconnect, sockets get frames again, every acknowledged order is there once, the ledger balances', async () => {
    const market = await marketSocket(A, gw(1), ['btcusdt@depth', 'btcusdt@trade']);
    await market.next((f) => f.type === 'depth' && f.snapshot === true);
    const user = await userSocket(A, gw(1), alice.token);
    await new Promise((r) => setTimeout(r, 200)); // the gateway's SUBSCRIBE for this user reaches Redis

    const acked: Order[] = [];
    const first = await order(gw(0));
    expect(first.code, first.msg).toBe(200);
    acked.push(first.data);

    // Orders keep flowing on gateway 0 while Redis dies and comes back.
    let stop = false;
    const lane = (async () => {
      while (!stop) {
        const r = await order(gw(0)).catch(() => null);
        if (r?.code === 200) acked.push(r.data);
        else await new Promise((res) => setTimeout(res, 200));
      }
    })();
    await new Promise((r) => setTimeout(r, 300));

    redis?.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 3000));
    // All processes still up: no one died with the broker.
    expect([cluster.engine, ...cluster.gateways].map((p) => p.alive())).toEqual([true, true, true]);
    const backAt = Date.now();
    redis = await startRedisOn(redisPort);

    // Trading works again through both gateways (the engine re-took its lock, RPC flows).
    for (const i of [0, 1]) {
      let r = await order(gw(i)).catch(() => null);
      for (let k = 0; k < 60 && r?.code !== 200; k++) {
        await new Promise((res) => setTimeout(res, 500));
        r = await order(gw(i)).catch(() => null);
      }
      expect(r?.code, r?.msg).toBe(200);
      if (r) acked.push(r.data);
    }
    stop = true;
    await lane;
    const afterOrder = acked[acked.length - 1] as Order;

    // The sockets opened before the outage get frames again (same sockets, not reconnected).
    expect(market.closed).toBeNull();
    const framesAt = market.frames.length;
    await market.next((f) => (f.type === 'depth' || f.type === 'trade') && market.frames.indexOf(f) >= framesAt, 20_000);
    expect(Date.now()).toBeGreaterThan(backAt);
    const uf = await user.next((f) => f.type === 'order' && (f.data as Order).id === afterOrder.id, 20_000);
    expect((uf.data as Order).clientOrderId).toBe(afterOrder.clientOrderId);
    market.close();
    user.close();

    const { db } = openDatabase({ databaseUrl: null, dataDir });
    try {
      const rows = await db.selectFrom('trade_orders').select(['id', 'client_order_id']).where('user_id', '=', alice.userId).execute();
      for (const o of acked) expect(rows.filter((r) => r.client_order_id === o.clientOrderId).map((r) => r.id), o.clientOrderId).toEqual([o.id]);
      // Nothing doubled: no clientOrderId twice among all rows.
      const ids = rows.map((r) => r.client_order_id);
      expect(new Set(ids).size).toBe(ids.length);
      await expectLedgerBalanced(db);
    } finally {
      await db.destroy();
    }
  }, 180_000);
});
