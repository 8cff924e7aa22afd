import { stableStringify } from '../../ports/stateHash.ts';
import type { ReplayResult, ReplayState } from './driver.ts';

/**
 * QA expectations of a fixture (`<name>.expect.json` next to `<name>.jsonl`, docs/REPLAY.md):
 * `select` is a dotted path into the replayed state after record `atSeq`
 * (`session.value`, `user.context.connected`, `streams.books.BTCUSDT.status`); `equals` is
 * compared by stable serialisation (key order never matters), or `absent: true` when nothing may be
 * there; the screen flows are under `screens.<key>` (`screens.kyc.value`,
 * `screens.order:perp:BTCUSDT.context.failure.msg`). `hash` pins the final state hash:
 * equal logs give equal hashes, so a changed hash means the machines or reducers changed
 * behaviour on this recording (re-record or re-bless on purpose, see the docs).
 */
export interface Expectation {
  atSeq: number;
  select: string;
  /** The value there (compared by stable serialisation); omitted with `absent`. */
  equals?: unknown;
  /** Nothing is there (JSON has no `undefined`): a screen flow whose screen the user left, a stream never fed. */
  absent?: true;
  /** Why this matters, shown when it fails. */
  note?: string;
}

export interface FixtureExpect {
  description: string;
  /** Final state hash; omitted while a fixture is being written. */
  hash?: string;
  expectations: Expectation[];
  /** Divergences tolerated (default 0). */
  maxDivergences?: number;
}

/** Follows a dotted path; array indexes are numbers (`streams.books.BTCUSDT.bids.0`). */
export function select(state: unknown, path: string): unknown {
  let cur: unknown = state;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export interface ExpectationFailure {
  expectation: Expectation;
  actual: unknown;
  message: string;
}

/**
 * Checks the expectations against the checkpoints of a replay run with
 * `checkpointAt: expectations.map(e => e.atSeq)`. A missing checkpoint is a failure.
 */
export function checkExpectations(result: ReplayResult, expect: FixtureExpect): ExpectationFailure[] {
  const bySeq = new Map<number, ReplayState>(result.checkpoints.map((c) => [c.seq, c.state]));
  const out: ExpectationFailure[] = [];
  for (const e of expect.expectations) {
    const state = bySeq.get(e.atSeq);
    if (!state) {
      out.push({ expectation: e, actual: undefined, message: `no checkpoint at seq ${e.atSeq} (log ends at ${result.lastSeq})` });
      continue;
    }
    const actual = select(state, e.select);
    const ok = e.absent ? actual === undefined : stableStringify(actual) === stableStringify(e.equals);
    if (!ok) {
      const wanted = e.absent ? 'nothing' : JSON.stringify(e.equals);
      out.push({ expectation: e, actual, message: `@seq ${e.atSeq} ${e.select}: expected ${wanted}, got ${actual === undefined ? 'nothing' : JSON.stringify(actual)}${e.note ? ` (${e.note})` : ''}` });
    }
  }
  return out;
}
