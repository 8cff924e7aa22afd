import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command, Outcome } from '../../server/engine/apply.ts';
import { FileJournal, realIo, scanJournalFile } from '../../server/engine/journalFile.ts';
import { recoverState } from '../../server/engine/recovery.ts';
import { EngineUnavailable, Sequencer } from '../../server/engine/sequencer.ts';
import { stateHash } from '../../server/engine/state.ts';
import { Code } from '../../src/protocol/envelope.ts';
import { ENGINE_MSG, journalUnavailableMsg } from '../../src/protocol/engineStatus.ts';
import { engineCommandArb, seededEngineState } from '../property/engineArbs.ts';
import type { EngineGen } from '../property/engineArbs.ts';

/**
 * The sequencer (server/engine/sequencer.ts) on the file journal, real files: a command's answer
 * comes only once its record is durable; the commands of one event-loop turn share one write and
 * sync; the journal replayed from the initial state gives the live state's hash; a failed write
 * (a simulated ENOSPC, half the batch reaching the file) refuses its commands with 503, brings the
 * state back to the last durable record, refuses new commands while it does, then tries one command
 * at a time and takes every command again once a write succeeds.
 */

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rf-sequencer-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.UTC(2026, 0, 1);

async function open(opts: { fail?: () => boolean } = {}) {
  const path = join(dir, `j${(n += 1)}.rfj`);
  const journal = await FileJournal.open(path, {
    io: (fh) => {
      const io = realIo(fh);
      return {
        async write(buf, pos) {
          if (opts.fail?.()) {
            // Half of it reaches the file, as a real ENOSPC can leave it.
            await io.write(buf.subarray(0, buf.length >> 1), pos);
            throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          }
          return io.write(buf, pos);
        },
        sync: () => io.sync(),
        truncate: (len) => io.truncate(len),
      };
    },
  });
  let t = T0;
  const clock = { now: () => (t += 1_000) };
  const recover = (seq: number) => recoverState({ journal: path, initial: seededEngineState, to: seq }).state;
  const seq = new Sequencer({ journal, clock, state: seededEngineState(), recover });
  /** Submits generated commands, each resolved against the live state when it is submitted. */
  const submit = (g: EngineGen, i: number) => seq.submit(g(seq.state, i));
  const replayedHash = () => stateHash(recoverState({ journal: path, initial: seededEngineState }).state);
  const records = () => {
    const out: { seq: number; t: number; body: unknown }[] = [];
    scanJournalFile(path, { onRecord: (r) => out.push(r) });
    return out;
  };
  return { path, journal, seq, submit, replayedHash, records };
}

const commands = (seed: number, count: number): EngineGen[] => fc.sample(engineCommandArb, { seed, numRuns: count });

function expectUnavailable(r: PromiseSettledResult<Outcome>): void {
  expect(r.status).toBe('rejected');
  const err = (r as PromiseRejectedResult).reason as EngineUnavailable;
  expect(err).toBeInstanceOf(EngineUnavailable);
  expect([err.code, err.message]).toEqual([Code.serviceUnavailable, ENGINE_MSG.journalUnavailable]);
}

describe('engine sequencer on the file journal (issue 28 step 2)', () => {
  it('answers only once durable, one write per turn, the clock time and seq on each record; the journal replays to the live state', async () => {
    const e = await open();
    const gens = commands(7, 40);
    const durableAtAnswer: boolean[] = [];
    const answers = gens.map((g, i) =>
      e.submit(g, i + 1).then((o) => {
        durableAtAnswer.push(e.journal.durableSeq >= o.seq);
        return o;
      }),
    );
    const outcomes = await Promise.all(answers);
    expect(durableAtAnswer).toEqual(gens.map(() => true));
    // All 40 in one event-loop turn: one write and one sync.
    expect([e.journal.stats.batches, e.journal.stats.records]).toEqual([1, 40]);
    expect(outcomes.map((o) => o.seq)).toEqual(gens.map((_, i) => i + 1));
    const recs = e.records();
    expect(recs.map((r) => [r.seq, r.t])).toEqual(outcomes.map((o) => [o.seq, o.t]));
    expect(recs.map((r) => r.t)).toEqual(gens.map((_, i) => T0 + (i + 1) * 1_000));
    // The body is the command as submitted (plain JSON), the outcome apply's to recompute.
    expect((recs[0]?.body as Command).type).toBeTypeOf('string');
    expect(e.replayedHash()).toBe(stateHash(e.seq.state));
    expect(outcomes.some((o) => o.ok) && outcomes.some((o) => !o.ok)).toBe(true);
    await e.journal.close();
  });

  it('a failed write (disk full) refuses its commands with 503, brings the state back to the last durable record, refuses while recovering, then resumes after one successful write', async () => {
    let failures = 0;
    const e = await open({ fail: () => failures > 0 && (failures -= 1) >= 0 });
    const gens = commands(11, 30);
    for (const [i, g] of gens.slice(0, 8).entries()) await e.submit(g, i);
    const durable = stateHash(e.seq.state);
    expect(e.seq.seq).toBe(8);
    failures = 1;
    const lost = await Promise.allSettled(gens.slice(8, 12).map((g, i) => e.submit(g, 100 + i)));
    for (const r of lost) expectUnavailable(r);
    // Recovering: every command refused at once.
    expect(e.seq.status).toBe('recovering');
    expectUnavailable((await Promise.allSettled([e.submit(gens[12] as EngineGen, 200)]))[0] as PromiseSettledResult<Outcome>);
    await e.seq.idle();
    expect(e.seq.status).toBe('probing');
    expect(stateHash(e.seq.state)).toBe(durable);
    expect([e.seq.seq, e.journal.durableSeq, e.journal.nextSeq]).toEqual([8, 8, 9]);
    // Probing: one command is tried, the others refused at once; the write succeeds and every command is taken again.
    const [probe, other] = await Promise.allSettled([e.submit(gens[13] as EngineGen, 300), e.submit(gens[14] as EngineGen, 301)]);
    expect(probe?.status).toBe('fulfilled');
    expectUnavailable(other as PromiseSettledResult<Outcome>);
    expect(e.seq.status).toBe('open');
    const rest = await Promise.all(gens.slice(15).map((g, i) => e.submit(g, 400 + i)));
    expect(rest.map((o) => o.seq)).toEqual(gens.slice(15).map((_, i) => 10 + i));
    // The file holds exactly the answered commands: 8, the probe, the rest; the refused ones left no record.
    expect(e.records().map((r) => r.seq)).toEqual(Array.from({ length: 9 + rest.length }, (_, i) => i + 1));
    expect(e.replayedHash()).toBe(stateHash(e.seq.state));
    expect(e.seq.stats.recoveries).toBe(1);
    await e.journal.close();
  });

  it('a probe that fails again recovers again; the next write that succeeds resumes', async () => {
    let failures = 0;
    const e = await open({ fail: () => failures > 0 && (failures -= 1) >= 0 });
    const gens = commands(13, 12);
    for (const [i, g] of gens.slice(0, 3).entries()) await e.submit(g, i);
    failures = 2;
    expectUnavailable((await Promise.allSettled([e.submit(gens[3] as EngineGen, 10)]))[0] as PromiseSettledResult<Outcome>);
    await e.seq.idle();
    expectUnavailable((await Promise.allSettled([e.submit(gens[4] as EngineGen, 11)]))[0] as PromiseSettledResult<Outcome>);
    await e.seq.idle();
    expect(e.seq.stats.recoveries).toBe(2);
    const ok = await e.submit(gens[5] as EngineGen, 12);
    expect([ok.seq, e.seq.status]).toEqual([4, 'open']);
    expect(e.replayedHash()).toBe(stateHash(e.seq.state));
    await e.journal.close();
  });

  it('any turns and failures (property): every answered command is in the journal, no refused one is, and the journal replays to the live state', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ gens: fc.array(engineCommandArb, { minLength: 1, maxLength: 6 }), fail: fc.boolean() }), { minLength: 1, maxLength: 10 }),
        async (turns) => {
          let failures = 0;
          const e = await open({ fail: () => failures > 0 && (failures -= 1) >= 0 });
          const answered: number[] = [];
          let i = 0;
          for (const turn of turns) {
            if (turn.fail) failures = 1;
            const settled = await Promise.allSettled(turn.gens.map((g) => e.submit(g, (i += 1))));
            for (const r of settled) {
              if (r.status === 'fulfilled') answered.push(r.value.seq);
              else expect(r.reason).toBeInstanceOf(EngineUnavailable);
            }
            await e.seq.idle();
          }
          expect(e.records().map((r) => r.seq)).toEqual(answered);
          expect(e.replayedHash()).toBe(stateHash(e.seq.state));
          await e.journal.close();
        },
      ),
      { numRuns: 25 },
    );
  });

  it('the refusal is translated in the five languages', () => {
    const all = (['en', 'zh', 'hk', 'jp', 'ko'] as const).map((l) => journalUnavailableMsg(l));
    expect(new Set(all).size).toBe(5);
    expect(all[0]).toBe(ENGINE_MSG.journalUnavailable);
  });
});
