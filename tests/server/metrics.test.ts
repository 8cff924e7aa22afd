import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess } from '../../server/cli/cluster.ts';
import type { Proc } from '../../server/cli/cluster.ts';
import type { Order } from '../../src/protocol/trading.ts';
import { http, signUp } from './clusterHarness.ts';
import type { Client } from './clusterHarness.ts';

/**
 * The metrics endpoint (issue 28 point 9, server/http/metrics.ts): a real server process (node +
 * tsx, `server/server.ts`) with METRICS_PORT, on the SQL engine and on ENGINE=memory, N orders placed
 * over HTTP, `/metrics` scraped over real HTTP on its own 127.0.0.1 port: the command counter moved
 * by exactly N (and a refused order counted as refused), the journal histograms and the lag gauges
 * are there with sane values on the memory engine, the HTTP counter saw the requests, event-loop
 * delay is reported, and the public port does not serve the metrics.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1] as string] = l[2] as string;
    out.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return out;
}

function get(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function scrape(port: number): Promise<Sample[]> {
  const r = await get(`http://127.0.0.1:${port}/metrics`);
  expect(r.status).toBe(200);
  expect(r.type).toContain('text/plain');
  return parse(r.body);
}

/** The one sample of `name` whose labels include `labels` (0 when there is none: a counter not moved yet). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const hits = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (hits.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${hits.length} series`);
  return hits[0]?.value ?? 0;
}

const has = (samples: Sample[], name: string): boolean => samples.some((s) => s.name === name);

const procs: Proc[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const p of procs) {
    if (p.alive()) p.child.kill('SIGKILL');
    await p.exited;
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const N = 12;

describe.each(['sql', 'memory'] as const)('GET /metrics on ENGINE=%s', (engine) => {
  it(`counts ${N} orders placed over HTTP exactly, reports the journal, lag, queue, HTTP and event-loop figures, and is not served on the public port`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), `rf-metrics-${engine}-`));
    dirs.push(dataDir);
    const [port, metricsPort] = [await freePort(), await freePort()];
    const proc = await startServerProcess(`metrics-${engine}`, port, {
      DATA_DIR: dataDir, DATABASE_URL: '', ENGINE: engine, METRICS_PORT: String(metricsPort), SERVE_STATIC: '0', LOG_LEVEL: 'warn',
      RATE_LIMIT_SCALE: '50', MARKET_STEERING: '1', TEST_PASSWORD_HASH_LOG_N: '10', MAIL_CODE_SECRET: randomBytes(32).toString('hex'), ROLE: 'all', BROKER_URL: '',
    }, { waitMs: 90_000 });
    procs.push(proc);
    const c: Client = { ip: '127.0.0.1' };
    const { token } = await signUp(c, proc.url, `metrics-${engine}@example.com`);

    const before = await scrape(metricsPort);
    const placeAccepted = value(before, 'rf_engine_commands_total', { kind: 'place', result: 'accepted' });
    const placeRefused = value(before, 'rf_engine_commands_total', { kind: 'place', result: 'refused' });
    const httpOrders = value(before, 'rf_http_requests_total', { method: 'POST', route: '/api/trade/order', status: '200' });
    const fsyncs = value(before, 'rf_journal_fsync_seconds_count');
    const batchRecords = value(before, 'rf_journal_batch_records_sum');

    const ids = new Set<string>();
    for (let i = 0; i < N; i++) {
      const r = await http<Order>(c, proc.url, '/trade/order', {
        token,
        body: { clientOrderId: `m-${i}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: i % 2 ? 'sell' : 'buy', qty: 0.001, leverage: 10 },
      });
      expect(r.code, r.msg).toBe(200);
      ids.add(r.data.id);
    }
    expect(ids.size).toBe(N);
    // Refused by the engine (the margin is far beyond the demo credit): counted as refused, not accepted.
    const refused = await http<Order>(c, proc.url, '/trade/order', { token, body: { clientOrderId: 'm-refused', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 50, leverage: 10 } });
    expect(refused.code, refused.msg).not.toBe(200);

    const after = await scrape(metricsPort);
    expect(value(after, 'rf_engine_commands_total', { kind: 'place', result: 'accepted' }) - placeAccepted).toBe(N);
    expect(value(after, 'rf_engine_commands_total', { kind: 'place', result: 'refused' }) - placeRefused).toBe(1);
    // Every /api answer is HTTP 200 with the envelope: the N orders and the refused one.
    expect(value(after, 'rf_http_requests_total', { method: 'POST', route: '/api/trade/order', status: '200' }) - httpOrders).toBe(N + 1);
    expect(value(after, 'rf_http_request_duration_seconds_count', { method: 'POST', route: '/api/trade/order' })).toBeGreaterThanOrEqual(N + 1);
    expect(after.every((s) => s.labels.role === 'all')).toBe(true);
    // Event-loop delay (prom-client's default metrics, monitorEventLoopDelay).
    expect(has(after, 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    const loopP99 = value(after, 'nodejs_eventloop_lag_p99_seconds');
    expect(loopP99).toBeGreaterThan(0);
    expect(loopP99).toBeLessThan(60);
    const depth = value(after, 'rf_engine_queue_depth');
    expect(has(after, 'rf_engine_queue_depth')).toBe(true);
    expect(depth).toBeGreaterThanOrEqual(0);
    expect(depth).toBeLessThan(1_000);

    if (engine === 'memory') {
      // Each order is at least one journal record made durable by a write and an fdatasync.
      const newFsyncs = value(after, 'rf_journal_fsync_seconds_count') - fsyncs;
      expect(newFsyncs).toBeGreaterThanOrEqual(1);
      expect(value(after, 'rf_journal_write_seconds_count')).toBeGreaterThanOrEqual(value(after, 'rf_journal_batch_records_count'));
      expect(value(after, 'rf_journal_batch_records_sum') - batchRecords).toBeGreaterThanOrEqual(N + 1);
      const meanSync = value(after, 'rf_journal_fsync_seconds_sum') / value(after, 'rf_journal_fsync_seconds_count');
      expect(meanSync).toBeGreaterThan(0);
      expect(meanSync).toBeLessThan(5);
      expect(value(after, 'rf_journal_fsync_seconds_bucket', { le: '+Inf' })).toBe(value(after, 'rf_journal_fsync_seconds_count'));
      const seq = value(after, 'rf_engine_seq');
      expect(seq).toBeGreaterThanOrEqual(N + 1);
      for (const g of ['rf_projector_lag_commands', 'rf_projector_lag_seconds', 'rf_snapshot_age_seconds', 'rf_snapshot_seq', 'rf_projector_seq', 'rf_journal_durable_seq']) expect(has(after, g), g).toBe(true);
      const lag = value(after, 'rf_projector_lag_commands');
      expect(lag).toBeGreaterThanOrEqual(0);
      expect(lag).toBeLessThanOrEqual(seq);
      expect(value(after, 'rf_projector_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(value(after, 'rf_projector_lag_seconds')).toBeLessThan(60);
      expect(value(after, 'rf_projector_seq')).toBeGreaterThan(0);
      // The first start wrote snapshot 0 (the tables' state) a moment ago.
      const age = value(after, 'rf_snapshot_age_seconds');
      expect(age).toBeGreaterThan(0);
      expect(age).toBeLessThan(600);
    } else {
      // The SQL engine has no journal and no projector: the histograms are empty, the gauges absent.
      expect(value(after, 'rf_journal_fsync_seconds_count')).toBe(0);
      expect(has(after, 'rf_projector_lag_commands')).toBe(false);
    }

    // The public port serves the app, not the metrics.
    for (const path of ['/metrics', '/api/metrics']) {
      const pub = await get(`${proc.url}${path}`);
      expect(pub.status === 404 || pub.body.startsWith('{'), `${path} answered ${pub.status}`).toBe(true);
      expect(pub.body).not.toContain('rf_engine_commands_total');
      expect(pub.body).not.toContain('nodejs_eventloop_lag');
    }
    // Only GET /metrics on the metrics port.
    expect((await get(`http://127.0.0.1:${metricsPort}/api/trade/order`)).status).toBe(404);
  }, 180_000);
});
