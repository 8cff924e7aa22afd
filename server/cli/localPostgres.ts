import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

/**
 * A throw-away PostgreSQL server for `npm run start:cluster` (the same recipe as the tests'
 * tests/server/pgServer.ts): initdb in `dir`, `postgres` on `port` of 127.0.0.1, from the Debian
 * binaries (package postgresql; PG_BIN overrides the directory). As root it runs as `nobody`.
 */
export function findPgBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  for (const v of ['18', '17', '16', '15', '14', '13']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(join(dir, 'postgres'))) return dir;
  }
  return null;
}

function asUser(bin: string, args: string[]): [string, string[]] {
  if (process.getuid?.() === 0) return ['setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', bin, ...args]];
  return [bin, args];
}

export async function startLocalPostgres(bin: string, dir: string, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const home = join(dir, 'pg');
  mkdirSync(home, { recursive: true });
  // As root, postgres runs as nobody: it must own the temp dir it lives in.
  if (process.getuid?.() === 0) {
    chownSync(dir, 65534, 65534);
    chownSync(home, 65534, 65534);
  }
  const data = join(home, 'data');
  const [initCmd, initArgs] = asUser(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C']);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8', cwd: home });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const [cmd, args] = asUser(join(bin, 'postgres'), ['-D', data, '-k', home, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200']);
  const child = spawn(cmd, args, { cwd: home, stdio: 'ignore', detached: true });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null) return;
    child.kill('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode})`);
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      return { url, stop };
    } catch {
      await c.end().catch(() => undefined);
      if (Date.now() > deadline) {
        await stop();
        throw new Error('postgres did not start within 30 s');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
