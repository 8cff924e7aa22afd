import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startCluster } from '../../server/cli/cluster.ts';
import type { Cluster } from '../../server/cli/cluster.ts';
import { openDatabase } from '../../server/db/connection.ts';
import type { Order } from '../../src/protocol/trading.ts';
import { expectLedgerBalanced, http, signUp } from './clusterHarness.ts';
import type { Client } from './clusterHarness.ts';

/**
 * Failover of the memory engine on a cluster (issue 28 point 8, docs/SCALING.md "Failover"): real
 * processes (redis-server, an engine, a gateway, and a standby engine started with
 * ENGINE_STANDBY=1) on one SQLite file and one DATA_DIR (the engine's file journal and snapshots).
 * The standby waits for the broker lock; the engine is killed with SIGKILL; the standby takes the
 * lock once the lease expires, recovers snapshot + journal and goes on: the gateway places orders
 * again, every order acknowledged before the kill answers its same id when re-sent, and the ledger
 * balances. Before the kill, the gateway's and the engine's metrics endpoints (METRICS_PORT) count
 * the gateway's HTTP requests and the engine's commands. The user signs up on the engine process: a gateway's postings (the demo credit) do not
 * reach the memory engine yet (docs/SCALING.md "Failover", what remains).
 */

let cluster: Cluster | undefined;

async function scrape(port: number | undefined): Promise<string> {
  if (port === undefined) throw new Error('no metrics port');
  const r = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(r.status).toBe(200);
  return r.text();
}
let dataDir = '';
let standby: ReturnType<typeof spawn> | undefined;

afterAll(async () => {
  if (standby && standby.exitCode === null) {
    const gone = new Promise((r) => standby?.once('exit', r));
    standby.kill('SIGKILL');
    await gone;
  }
  await cluster?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('ENGINE=memory on a cluster: a standby engine takes over', () => {
  it('the standby takes the lock after the engine is killed, recovers the journal and answers the acknowledged orders with their ids', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'rf-standby-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', ENGINE: 'memory', SERVE_STATIC: '0', LOG_LEVEL: 'warn', RATE_LIMIT_SCALE: '100', MARKET_STEERING: '1', TEST_PASSWORD_HASH_LOG_N: '10', METRICS_PORT: '' };
    cluster = await startCluster({ gateways: 1, env, metricsPort: 0 });
    const gw = cluster.gateways[0]?.url as string;
    const c: Client = { ip: '127.0.0.1' };
    const log: string[] = [];
    standby = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'server/server.ts')], {
      cwd: process.cwd(),
      env: { ...process.env, ...cluster.env, ROLE: 'engine', ENGINE_STANDBY: '1', PORT: String(await freePort()), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    standby.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
    standby.stderr?.on('data', (d: Buffer) => log.push(d.toString()));

    const { token, userId } = await signUp(c, cluster.engine.url, 'standby@example.com');
    let n = 0;
    const order = (): Promise<{ code: number; msg: string; data: Order }> => {
      n += 1;
      return http<Order>(c, gw, '/trade/order', { token, body: { clientOrderId: `sb-${n}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: n % 2 ? 'buy' : 'sell', qty: 0.001, leverage: 10 } });
    };
    const acked: string[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await order();
      expect(r.code, r.msg).toBe(200);
      acked.push(r.data.id);
    }
    // The cluster's metrics: the gateway counts the HTTP requests, the engine the commands.
    const gwMetrics = await scrape(cluster.gateways[0]?.metricsPort);
    expect(gwMetrics).toMatch(/^rf_http_requests_total\{method="POST",route="\/api\/trade\/order",status="200",role="gateway"\} 8$/m);
    expect(gwMetrics).not.toMatch(/^rf_engine_commands_total/m);
    const engineMetrics = await scrape(cluster.engine.metricsPort);
    expect(engineMetrics).toMatch(/^rf_engine_commands_total\{kind="place",result="accepted",role="engine"\} 8$/m);
    expect(engineMetrics).toMatch(/^rf_projector_lag_commands\{role="engine"\} \d+$/m);
    expect(engineMetrics).toMatch(/^rf_journal_fsync_seconds_count\{role="engine"\} [1-9]\d*$/m);

    for (let i = 0; !log.join('').includes('engine standby: waiting'); i++) {
      if (standby.exitCode !== null || i > 1200) throw new Error(`the standby did not wait for the lock:\n${log.join('')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(log.join('')).not.toContain('took the broker lock');

    const killed = Date.now();
    cluster.engine.child.kill('SIGKILL');
    await cluster.engine.exited;
    // The gateway answers its timeout while no engine runs; the standby takes over within the lease plus its start.
    let r = await order().catch(() => null);
    while (r?.code !== 200) {
      if (standby.exitCode !== null) throw new Error(`the standby exited:\n${log.join('')}`);
      if (Date.now() - killed > 240_000) throw new Error(`no order through the gateway 240 s after the kill (last ${r?.code} ${r?.msg}):\n${log.join('')}`);
      await new Promise((x) => setTimeout(x, 200));
      r = await order().catch(() => null);
    }
    console.log(`clusterStandby: first order through the gateway ${Date.now() - killed} ms after the kill`);
    expect(log.join('')).toContain('engine standby: took the broker lock');

    // Re-sent with the same clientOrderIds: the orders acknowledged before the kill, nothing new.
    n = 0;
    for (const id of acked) {
      const again = await order();
      expect(again.code, again.msg).toBe(200);
      expect(again.data.id).toBe(id);
    }
    const { db } = openDatabase({ databaseUrl: null, dataDir });
    try {
      const rows = await db.selectFrom('trade_orders').select(['id', 'client_order_id']).where('user_id', '=', userId).execute();
      for (const [i, id] of acked.entries()) expect(rows.filter((x) => x.client_order_id === `sb-${i + 1}`).map((x) => x.id)).toEqual([id]);
      await expectLedgerBalanced(db);
    } finally {
      await db.destroy();
    }
  }, 600_000);
});
