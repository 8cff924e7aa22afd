import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findPgBin, startLocalPostgres } from './localPostgres.ts';

/**
 * `npm run start:cluster [-- --gateways N --port P --sqlite]` (METRICS_PORT=M: Prometheus metrics of gateway i on M+i, of the engine on M+N): one trading engine and N gateway
 * processes (docs/SCALING.md) on the BROKER_URL and DATABASE_URL it is given, or on a redis-server
 * and a PostgreSQL it starts itself from the system's binaries in a temporary directory (--sqlite:
 * the SQLite file in DATA_DIR). Gateways listen
 * on P, P+1, ...; the engine on P+N (internal: put only the gateways behind the load balancer).
 * Ctrl-C stops everything. The functions are exported for the cross-process tests.
 */

export interface Proc {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  /** stdout and stderr so far. */
  log: string[];
  /** Its Prometheus metrics port on 127.0.0.1 (METRICS_PORT), when it has one. */
  metricsPort?: number;
  /** Resolves with the exit code (null after a signal). */
  exited: Promise<number | null>;
  alive(): boolean;
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => res(port));
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts `redis-server` (no persistence) in `dir` on a free port. */
export async function startRedis(dir: string, bin = process.env.REDIS_SERVER ?? 'redis-server'): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  // Own process group (detached): Ctrl-C reaches only the cluster, which stops the servers first.
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore', detached: true });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await canConnect(port)) return { url, stop: async () => void (child.kill('SIGTERM'), await exited) };
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start (${bin}); install the Debian package redis-server or give BROKER_URL`);
}

async function canConnect(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((res) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      res(true);
    });
    s.once('error', () => res(false));
  });
}

/** Spawns `server/server.ts` (node --import tsx) with `env` on `port`; resolves once it answers HTTP. */
export async function startServerProcess(name: string, port: number, env: NodeJS.ProcessEnv, opts: { root?: string; waitMs?: number; echo?: boolean } = {}): Promise<Proc> {
  const root = opts.root ?? process.cwd();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/server.ts')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const log: string[] = [];
  const onData = (d: Buffer): void => {
    const text = d.toString();
    log.push(text);
    if (opts.echo) process.stdout.write(text.replace(/^/gm, `[${name}] `));
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  const proc: Proc = { name, port, url, child, log, exited, alive: () => child.exitCode === null && child.signalCode === null };
  const until = Date.now() + (opts.waitMs ?? 60_000);
  while (Date.now() < until) {
    if (!proc.alive()) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${log.join('')}`);
    try {
      const r = await fetch(`${url}/api/market/symbols`);
      if (r.ok) return proc;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`${name} did not answer on ${url}:\n${log.join('')}`);
}

export interface ClusterOptions {
  gateways?: number;
  /** First gateway port; 0 = free ports. */
  basePort?: number;
  /** Extra environment for every process (DATA_DIR, DATABASE_URL, RATE_LIMIT_SCALE, ...). */
  env?: NodeJS.ProcessEnv;
  /** Default: env.BROKER_URL, else a redis-server started here. */
  brokerUrl?: string;
  echo?: boolean;
  /**
   * Prometheus metrics (server/http/metrics.ts) on 127.0.0.1: gateway i on metricsPort + i, the
   * engine on metricsPort + gateways; 0: a free port each (`Proc.metricsPort`). Unset: none
   * (METRICS_PORT is not passed down).
   */
  metricsPort?: number;
}

export interface Cluster {
  engine: Proc;
  gateways: Proc[];
  brokerUrl: string;
  /** The environment every process got (without PORT / ROLE). */
  env: NodeJS.ProcessEnv;
  /**
   * Starts the engine; `waitForLease` retries while a dead engine's lease on the lock has not
   * expired yet (exit code 3), as a supervisor restarting it would.
   */
  startEngine(opts?: { waitForLease?: boolean }): Promise<Proc>;
  startGateway(port?: number): Promise<Proc>;
  stop(): Promise<void>;
}

async function stopProc(p: Proc): Promise<void> {
  if (!p.alive()) return;
  p.child.kill('SIGTERM');
  const t = setTimeout(() => p.child.kill('SIGKILL'), 5000);
  await p.exited;
  clearTimeout(t);
}

export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const n = opts.gateways ?? 2;
  const tmp = mkdtempSync(join(tmpdir(), 'rf-cluster-'));
  let redis: { url: string; stop(): Promise<void> } | null = null;
  const brokerUrl = opts.brokerUrl ?? opts.env?.BROKER_URL ?? process.env.BROKER_URL ?? (redis = await startRedis(tmp)).url;
  const env: NodeJS.ProcessEnv = {
    MAIL_CODE_SECRET: process.env.MAIL_CODE_SECRET ?? randomBytes(32).toString('hex'),
    DATA_DIR: process.env.DATA_DIR ?? resolve('./data'),
    ...opts.env,
    BROKER_URL: brokerUrl,
  };
  const port = (i: number): Promise<number> => (opts.basePort ? Promise.resolve(opts.basePort + i) : freePort());
  const enginePort = await port(n);
  const metricsPortOf = async (i: number): Promise<number | undefined> => (opts.metricsPort === undefined ? undefined : opts.metricsPort === 0 ? freePort() : opts.metricsPort + i);
  const withMetrics = async (i: number, start: (env: NodeJS.ProcessEnv) => Promise<Proc>): Promise<Proc> => {
    const mp = await metricsPortOf(i);
    const p = await start({ METRICS_PORT: mp === undefined ? '' : String(mp) });
    if (mp !== undefined) p.metricsPort = mp;
    return p;
  };
  const procs: Proc[] = [];
  const cluster: Cluster = {
    engine: null as unknown as Proc,
    gateways: [],
    brokerUrl,
    env,
    async startEngine(o = {}) {
      const until = Date.now() + 30_000;
      for (;;) {
        try {
          const p = await withMetrics(n, (m) => startServerProcess('engine', enginePort, { ...env, ROLE: 'engine', ...m }, { echo: opts.echo ?? false }));
          procs.push(p);
          cluster.engine = p;
          return p;
        } catch (err) {
          if (!o.waitForLease || Date.now() > until || !String(err).includes('refusing to start')) throw err;
          await sleep(1000);
        }
      }
    },
    async startGateway(at) {
      const i = cluster.gateways.length;
      const gwPort = at ?? (await port(i));
      const p = await withMetrics(i, (m) => startServerProcess(`gateway-${i + 1}`, gwPort, { ...env, ROLE: 'gateway', FRESH_DB: '0', ...m }, { echo: opts.echo ?? false }));
      procs.push(p);
      cluster.gateways.push(p);
      return p;
    },
    async stop() {
      await Promise.all(procs.map(stopProc));
      await redis?.stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
  try {
    await cluster.startEngine();
    for (let i = 0; i < n; i++) await cluster.startGateway();
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 0) throw new Error(`Invalid --${name}`);
  return v;
}

async function main(): Promise<void> {
  const gateways = arg('gateways', 2);
  if (gateways < 1) throw new Error('--gateways must be at least 1');
  const basePort = arg('port', Number(process.env.PORT ?? 8080));
  // The database: DATABASE_URL; else a local PostgreSQL from the system's binaries; --sqlite (or no binaries): the SQLite file in DATA_DIR.
  let postgres: { url: string; stop(): Promise<void> } | null = null;
  let pgDir: string | null = null;
  const bin = process.env.DATABASE_URL || process.argv.includes('--sqlite') ? null : findPgBin();
  if (bin) {
    pgDir = mkdtempSync(join(tmpdir(), 'rf-cluster-pg-'));
    postgres = await startLocalPostgres(bin, pgDir, await freePort());
  } else if (!process.env.DATABASE_URL && !process.argv.includes('--sqlite')) {
    console.log('No PostgreSQL binaries (apt-get install postgresql, or PG_BIN): every process shares the SQLite file in DATA_DIR.');
  }
  const databaseUrl = process.env.DATABASE_URL || postgres?.url || '';
  console.log(`Starting 1 engine and ${gateways} gateways${process.env.BROKER_URL ? '' : ' (and a local redis-server)'}${postgres ? ' (and a local PostgreSQL)' : ''}...`);
  const cleanupPg = async (): Promise<void> => {
    await postgres?.stop();
    if (pgDir) rmSync(pgDir, { recursive: true, force: true });
  };
  const metricsPort = process.env.METRICS_PORT ? Number(process.env.METRICS_PORT) : undefined;
  const cluster = await startCluster({ gateways, basePort, echo: true, env: { DATABASE_URL: databaseUrl }, ...(metricsPort ? { metricsPort } : {}) }).catch(async (err: unknown) => {
    await cleanupPg();
    throw err;
  });
  const lines = [
    '',
    `  Database: ${databaseUrl || 'SQLite in DATA_DIR'}`,
    `  Broker: ${cluster.brokerUrl}`,
    `  Engine (internal): ${cluster.engine.url}/`,
    ...cluster.gateways.map((g) => `  Gateway: ${g.url}/`),
    ...(metricsPort ? [`  Metrics (127.0.0.1 only): gateways on ${metricsPort}-${metricsPort + gateways - 1}, the engine on ${metricsPort + gateways} (GET /metrics)`] : []),
    '  Put the gateways behind one load balancer (docs/SCALING.md). Ctrl-C stops everything.',
    '',
  ];
  console.log(lines.join('\n'));
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    cluster
      .stop()
      .then(cleanupPg)
      .then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
