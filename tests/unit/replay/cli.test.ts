import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** `npm run replay` as a user runs it: a real child process, exit codes and output. */
const ROOT = join(import.meta.dirname, '../../..');
const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'replay/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

describe('replay CLI', () => {
  it('replays a fixture: timeline, checkpoints, the pinned hash, exit 0', () => {
    const spec = JSON.parse(readFileSync(join(ROOT, 'fixtures/sessions/orderbook-gap-ui.expect.json'), 'utf8')) as { hash: string };
    const r = run('fixtures/sessions/orderbook-gap-ui.jsonl', '--timeline', '5');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('timeline (');
    expect(r.stdout).toMatch(/checkpoint @seq \d+ \(t=\d+ ms\) hash [0-9a-f]{16}/);
    expect(r.stdout).toContain('bundle checkpoint: the replay reaches the exported state');
    expect(r.stdout).toContain(`state hash ${spec.hash}`);
  });

  it('stops at --until', () => {
    const r = run('fixtures/sessions/login-google.jsonl', '--until', '12', '--timeline', '0');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('replayed 12 records');
  });

  it('a truncated bundle is a clear error naming the line (exit 2, no stack trace)', () => {
    const text = readFileSync(join(ROOT, 'fixtures/sessions/login-google-ui.jsonl'), 'utf8');
    const dir = mkdtempSync(join(tmpdir(), 'rft-cli-'));
    const file = join(dir, 'cut.jsonl');
    const cut = text.slice(0, Math.floor(text.length / 2));
    writeFileSync(file, cut);
    const r = run(file);
    expect(r.status).toBe(2);
    expect(r.stderr.startsWith(`error: ${file}: line ${cut.split('\n').length}: `)).toBe(true);
    expect(r.stderr).toMatch(/not valid JSON .*truncated/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--diff names where two runs part (exit 1) and agrees with itself (exit 0)', () => {
    const same = run('fixtures/sessions/login-google.jsonl', '--diff', 'fixtures/sessions/login-google.jsonl');
    expect(same.status).toBe(0);
    expect(same.stdout).toMatch(/^same:/);
    const other = run('fixtures/sessions/login-google.jsonl', '--diff', 'fixtures/sessions/login-google-ui.jsonl');
    expect(other.status).toBe(1);
    expect(other.stdout).toMatch(/records part at event \d+:/);
    expect(other.stdout).toMatch(/state parts after position \d+/);
  });
});
