import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throw-away PostgreSQL server for the tests: initdb in a temp dir, `postgres` on a free port of
 * 127.0.0.1 (and a Unix socket in the same dir), fsync off. Started from the Debian binaries
 * (package postgresql; PG_BIN overrides the directory). As root it runs as `nobody`, since
 * PostgreSQL refuses to run as root.
 */
export interface PgServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export function pgBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  for (const v of ['17', '16', '15', '14', '13']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(join(dir, 'postgres'))) return dir;
  }
  throw new Error('PostgreSQL binaries not found: apt-get install postgresql (or set PG_BIN)');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Runs a binary as `nobody` when we are root (setpriv execs, so signals reach postgres itself). */
function asUser(bin: string, args: string[]): [string, string[]] {
  if (process.getuid?.() === 0) return ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', bin, ...args]];
  return [bin, args];
}

async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode}): ${log()}`);
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      return;
    } catch {
      await c.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`postgres did not start: ${log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function startPostgres(): Promise<PgServer> {
  const bin = pgBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'rf-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) chownSync(dir, 65534, 65534);
  const [initCmd, initArgs] = asUser(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8', cwd: dir });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  const [cmd, args] = asUser(join(bin, 'postgres'), [
    '-D', data, '-k', dir, '-p', String(port),
    '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
    '-c', 'max_connections=300', '-c', 'shared_buffers=64MB', '-c', 'deadlock_timeout=20ms',
  ]);
  const child = spawn(cmd, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (b: Buffer): void => {
    out = (out + b.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT'); // fast shutdown
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, () => out);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, stop };
}

/** The URL of the same server with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
