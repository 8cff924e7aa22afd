import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileJournal } from '../../server/engine/journalFile.ts';
import { MAGIC } from '../../server/engine/journalFormat.ts';

/** `npm run engine -- verify | show` as a real process on journals written by the file adapter. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rf-engine-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.UTC(2026, 10, 27);
async function journal(name: string): Promise<string> {
  const path = join(dir, name);
  const j = await FileJournal.open(path);
  await Promise.all([1, 2, 3].map((seq) => j.append({ seq, t: T + seq, body: { k: 'place', seq } })));
  await j.close();
  return path;
}
function cli(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/engine.ts', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('npm run engine', () => {
  it('verify: counts, ranges, a clean end and a hash that equal journals share', async () => {
    const a = cli('verify', await journal('a.rfj'));
    const b = cli('verify', await journal('b.rfj'));
    expect(a.code, a.err).toBe(0);
    expect(a.out).toContain(`3 records, seq 1 … 3, time ${new Date(T + 1).toISOString()} … ${new Date(T + 3).toISOString()}`);
    expect(a.out).toContain('ends cleanly');
    const hashOf = (out: string) => /sha256 of the records: ([0-9a-f]{64})/.exec(out)?.[1];
    expect(hashOf(a.out)).toBeDefined();
    expect(hashOf(a.out)).toBe(hashOf(b.out));
    // A torn last write is reported (the file is not changed) and the hash is the valid records'.
    const torn = await journal('torn.rfj');
    appendFileSync(torn, Buffer.from([1, 2, 3, 4, 5]));
    const t = cli('verify', torn);
    expect(t.code).toBe(0);
    expect(t.out).toMatch(/torn last write: 5 bytes at offset \d+/);
    expect(hashOf(t.out)).toBe(hashOf(a.out));
    expect(readFileSync(torn).length).toBe(readFileSync(join(dir, 'a.rfj')).length + 5);
  });

  it('verify: damage inside exits 2 with the reason; show prints the records of a range', async () => {
    const path = await journal('bad.rfj');
    const bytes = readFileSync(path);
    bytes[MAGIC.length + 20] = (bytes[MAGIC.length + 20] as number) ^ 0xff; // inside the first record
    const bad = join(dir, 'bad2.rfj');
    writeFileSync(bad, bytes);
    const r = cli('verify', bad);
    expect(r.code).toBe(2);
    expect(r.err).toContain('DAMAGED:');
    expect(r.err).toContain('damaged inside, not at a torn end');
    const show = cli('show', path, '--from', '2', '--to', '2');
    expect(show.code, show.err).toBe(0);
    expect(show.out.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([{ seq: 2, t: T + 2, body: { k: 'place', seq: 2 } }]);
    expect(cli('frobnicate', path).code).toBe(1);
  });
});
