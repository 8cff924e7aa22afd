import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileJournal } from '../../server/engine/journalFile.ts';
import { latestSnapshot, readSnapshot, recoverState, snapshotPath, writeSnapshot } from '../../server/engine/recovery.ts';
import { Sequencer } from '../../server/engine/sequencer.ts';
import { SnapshotWriter } from '../../server/engine/snapshots.ts';
import { stateHash } from '../../server/engine/state.ts';
import { engineCommandArb, seededEngineState } from '../property/engineArbs.ts';

/**
 * Snapshots and recovery (issue 28 step 4), real files: generated command sequences run through the
 * sequencer on the file journal while a worker thread writes a snapshot at a random seq k; then the
 * live state's hash = the journal replayed from the initial state = the snapshot at k + the journal
 * after it = `npm run engine -- replay`; a replay to any seq gives the hash the live state had there;
 * a torn last record is dropped (the state before it); a damaged snapshot is skipped, never trusted.
 */

let dir: string;
let n = 0;
let writer: SnapshotWriter;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rf-snapshot-'));
  writer = new SnapshotWriter();
});
afterAll(async () => {
  await writer.close();
  rmSync(dir, { recursive: true, force: true });
});

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/engine.ts', ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const hashOf = (out: string): string | undefined => /state sha256: ([0-9a-f]{64})/.exec(out)?.[1];

async function run(count: number, seed: number, k: number) {
  const base = join(dir, `r${(n += 1)}`);
  const snaps = join(base, 'engine');
  mkdirSync(snaps, { recursive: true });
  const path = join(base, 'journal.rfj');
  const journal = await FileJournal.open(path);
  let t = Date.UTC(2026, 0, 1);
  const seq = new Sequencer({ journal, clock: { now: () => (t += 2_000) }, state: seededEngineState(), recover: () => seededEngineState() });
  const hashes = [stateHash(seq.state)];
  let written: Promise<string> | null = null;
  for (const [i, g] of fc.sample(engineCommandArb, { seed, numRuns: count }).entries()) {
    await seq.submit(g(seq.state, i + 1));
    hashes.push(stateHash(seq.state));
    // The snapshot at k: the worker gets a copy now; the engine goes on without waiting for the file.
    if (seq.seq === k) written = writer.write(snaps, k, seq.state);
  }
  await journal.close();
  return { path, snaps, hashes, written, live: stateHash(seq.state) };
}

describe('engine snapshots and replay (issue 28 step 4)', () => {
  it('live = replayed = snapshot at k + tail, for any k; a replay to any seq gives that seq’s hash; a torn last record is dropped', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 40 }), fc.integer(), fc.nat(), fc.nat(), async (count, seed, kPick, toPick) => {
        const k = 1 + (kPick % count);
        const r = await run(count, seed, k);
        expect(await r.written).toBe(snapshotPath(r.snaps, k));
        const full = recoverState({ journal: r.path, initial: seededEngineState });
        expect([full.seq, stateHash(full.state)]).toEqual([count, r.live]);
        const fromSnap = recoverState({ journal: r.path, snapshots: r.snaps, initial: () => { throw new Error('the snapshot is used'); } });
        expect([fromSnap.fromSnapshot, fromSnap.seq, stateHash(fromSnap.state)]).toEqual([k, count, r.live]);
        const to = toPick % (count + 1);
        expect(stateHash(recoverState({ journal: r.path, initial: seededEngineState, to }).state)).toBe(r.hashes[to]);
        // A crash mid-write of the last record: a cut anywhere inside it leaves the state before it
        // (a snapshot is only taken at a durable seq, so one at the torn record's seq cannot exist).
        truncateSync(r.path, statSync(r.path).size - 1 - ((seed >>> 0) % 20));
        const torn = recoverState({ journal: r.path, snapshots: k < count ? r.snaps : undefined, initial: seededEngineState });
        expect([torn.seq, stateHash(torn.state)]).toEqual([count - 1, r.hashes[count - 1]]);
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it('a damaged snapshot is skipped for the one before it (or the journal from the start), never trusted', async () => {
    const r = await run(12, 5, 6);
    await r.written;
    await writeSnapshot(r.snaps, 3, recoverState({ journal: r.path, initial: seededEngineState, to: 3 }).state);
    const file = snapshotPath(r.snaps, 6);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] as number) ^ 0x01;
    writeFileSync(file, bytes);
    expect(readSnapshot(file)).toEqual({ ok: false, reason: 'the body does not match its SHA-256' });
    const skipped: string[] = [];
    const rec = recoverState({ journal: r.path, snapshots: r.snaps, initial: seededEngineState, onSkipped: (p) => skipped.push(p) });
    expect(skipped).toEqual([file]);
    expect([rec.fromSnapshot, rec.seq, stateHash(rec.state)]).toEqual([3, 12, r.live]);
    expect(latestSnapshot(r.snaps, 2)).toBeNull();
  });

  it('npm run engine -- replay prints the state hash at the journal’s end or at --to, from a snapshot', async () => {
    const r = await run(10, 9, 4);
    await r.written;
    const zero = await writeSnapshot(join(r.snaps, 'zero'), 0, seededEngineState());
    const all = cli('replay', r.path, '--snapshot', zero);
    expect(all.status, all.stderr).toBe(0);
    expect(all.stdout).toContain('seq 10');
    expect(hashOf(all.stdout)).toBe(r.live);
    const at7 = cli('replay', r.path, '--snapshot', snapshotPath(r.snaps, 4), '--to', '7');
    expect([at7.status, hashOf(at7.stdout)]).toEqual([0, r.hashes[7]]);
    expect(hashOf(cli('replay', r.path, '--snapshot', zero, '--to', '3').stdout)).toBe(r.hashes[3]);
    const bad = readFileSync(zero);
    bad[bad.length - 3] = (bad[bad.length - 3] as number) ^ 0x02;
    const badPath = join(r.snaps, 'bad.json');
    writeFileSync(badPath, bad);
    const damaged = cli('replay', r.path, '--snapshot', badPath);
    expect(damaged.status).toBe(2);
    expect(damaged.stderr).toContain('the body does not match its SHA-256');
  }, 60_000);
});
