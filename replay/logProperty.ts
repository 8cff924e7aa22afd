import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseReplayText, type ParsedLog } from '../src/core/replay/parse.ts';

/**
 * Properties over generated event logs whose failures become replayable fixtures (issue 16,
 * docs/REPLAY.md "Shrunk failures"). When fast-check finds a log that breaks an invariant and
 * shrinks it, the shrunk log is written as `fixtures/generated/<property>-<seed>.jsonl` plus
 * `<property>-<seed>.expect.json` naming the broken invariant, so `npm run replay -- <that file>`
 * replays the failure and QA can keep it as a scenario once it is fixed.
 *
 * Invariants are named: a check wraps each assertion in {@link holds}; whatever else throws
 * (the replay itself crashing) is reported as {@link REPLAY_THROWS}.
 */

export const GENERATED_DIR = 'fixtures/generated';
export const REPLAY_THROWS = 'the replay completes without throwing';

/** A named invariant that did not hold. */
export class BrokenInvariant extends Error {
  readonly invariant: string;
  constructor(invariant: string, message: string) {
    super(`invariant "${invariant}" broke: ${message}`);
    this.name = 'BrokenInvariant';
    this.invariant = invariant;
  }
}

/** Runs `check` (assertions); a failure becomes a {@link BrokenInvariant} named `invariant`. */
export async function holds(invariant: string, check: () => void | Promise<void>): Promise<void> {
  try {
    await check();
  } catch (e) {
    if (e instanceof BrokenInvariant) throw e;
    throw new BrokenInvariant(invariant, e instanceof Error ? e.message : String(e));
  }
}

export interface LogPropertyOptions<T> {
  /** File-safe name of the property (the fixture's name starts with it). */
  property: string;
  arbitrary: fc.Arbitrary<T>;
  /** The generated value as rft-log JSON Lines (header first), exactly what gets written. */
  toLog(value: T): string;
  /** Replays the log and checks the invariants (throws through {@link holds}). */
  check(log: ParsedLog): Promise<void>;
  /** fast-check parameters (numRuns, seed, ...). */
  params?: fc.Parameters<[T]>;
  /** Where fixtures go (default fixtures/generated, relative to the working directory). */
  dir?: string;
}

export type LogPropertyResult =
  | { ok: true; runs: number }
  | { ok: false; seed: number; path: string; invariant: string; message: string; fixture: string; expectFile: string; events: number; shrinks: number };

/** Checks the property; on a failure writes the shrunk log as a fixture and says where. */
export async function runLogProperty<T>(opts: LogPropertyOptions<T>): Promise<LogPropertyResult> {
  const prop = fc.asyncProperty(opts.arbitrary, async (value) => {
    await opts.check(parseReplayText(opts.toLog(value)));
  });
  const details = await fc.check(prop, opts.params ?? {});
  if (!details.failed || !details.counterexample) return { ok: true, runs: details.numRuns };
  const [value] = details.counterexample;
  const text = opts.toLog(value);
  const log = parseReplayText(text);
  // Name the invariant from the shrunk value's own failure (re-checked: the error fast-check kept
  // may belong to a larger value met while shrinking).
  let invariant = REPLAY_THROWS;
  let message = String(details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance);
  try {
    await opts.check(log);
    message = `the property failed only while shrinking (flaky?): ${message}`;
  } catch (e) {
    if (e instanceof BrokenInvariant) {
      invariant = e.invariant;
      message = e.message;
    } else message = e instanceof Error ? e.message : String(e);
  }
  const dir = opts.dir ?? GENERATED_DIR;
  mkdirSync(dir, { recursive: true });
  const stem = `${opts.property}-${details.seed}`;
  const fixture = join(dir, `${stem}.jsonl`);
  const expectFile = join(dir, `${stem}.expect.json`);
  writeFileSync(fixture, text.endsWith('\n') ? text : `${text}\n`);
  const spec = {
    description: `Shrunk by fast-check from the property "${opts.property}" (seed ${details.seed}, path ${details.counterexamplePath ?? '-'}, ${details.numShrinks} shrinks): ${message}`,
    generated: { property: opts.property, seed: details.seed, path: details.counterexamplePath, invariant, message },
    expectations: [],
  };
  writeFileSync(expectFile, `${JSON.stringify(spec, null, 2)}\n`);
  return { ok: false, seed: details.seed, path: details.counterexamplePath ?? '', invariant, message, fixture, expectFile, events: log.records.length, shrinks: details.numShrinks };
}

/** {@link runLogProperty} for a test: throws, naming the invariant and the fixture, when it fails. */
export async function assertLogProperty<T>(opts: LogPropertyOptions<T>): Promise<void> {
  const r = await runLogProperty(opts);
  if (r.ok) return;
  throw new Error(
    `property "${opts.property}" failed (seed ${r.seed}, path ${r.path}): invariant "${r.invariant}" broke\n  ${r.message}\n` +
      `  shrunk log (${r.events} events) written to ${r.fixture} (+ ${r.expectFile}); replay it: npm run replay -- ${r.fixture}\n` +
      `  reproduce: fc.check(..., { seed: ${r.seed}, path: "${r.path}" })`,
  );
}
