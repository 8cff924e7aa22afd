import type { LogRecord } from '../../ports/eventLog.ts';
import { replayLog, type ReplayOptions, type ReplayResult, type ReplayState } from './driver.ts';
import type { ParsedLog } from './parse.ts';
import type { ScreenSnapshot } from '../screenMachines.ts';
import { stableStringify } from '../../ports/stateHash.ts';

/**
 * The time-travel index behind `npm run replay -- --inspect` (docs/REPLAY.md "Inspector").
 *
 * One headless replay (the same driver and core as `npm run replay`) runs through the log once.
 * After each record it compares `core.state()` with the state after the previous record, section
 * by section, and keeps only what changed:
 * - `session`, `market`, `user` (the actors' persisted snapshots) and every stream section but the
 *   books are compared by reference a few levels deep (the reducers and machines are immutable, so
 *   an unchanged reference means an unchanged value) and stored whole when they changed;
 * - each order book is stored as its changed levels (price → new quantity, 0 = removed) plus its
 *   small scalar fields, because the book's levels live in a mutable store shared along its lineage
 *   and `state()` copies them out fresh each time.
 * Every `every` records the whole state is kept as a snapshot. {@link InspectorIndex.stateAt}
 * starts from the nearest snapshot at or before the seq and applies at most `every - 1` records'
 * changes, so scrubbing anywhere costs the same on a 10-minute bundle and on a 1-hour market log.
 *
 * The reconstructed state is the one the replay hashes: tests/unit/replay/inspect.test.ts checks
 * `hashState(stateAt(seq))` against the driver's hash after every record.
 */

type Level = [number, number];
interface BookView {
  bids: Level[];
  asks: Level[];
  [k: string]: unknown;
}
interface BookPatch {
  meta: Record<string, unknown>;
  /** Changed bid / ask levels: [price, qty], qty 0 = the level went away. */
  bids: Level[];
  asks: Level[];
}
interface Patch {
  /** Section path (`session`, `streams.trades`, ...) → new value (undefined: removed). */
  sections: [string, unknown][];
  books: [string, BookPatch | null][];
}

export interface TimelineEntry {
  seq: number;
  t: number;
  kind: string;
}

export interface StateChange {
  path: string;
  before: unknown;
  after: unknown;
}

export interface MachineStates {
  session: unknown;
  market: unknown;
  user: unknown;
  /** Each book's status and resync machine state. */
  books: Record<string, { status: unknown; sync: unknown }>;
  /** Each engaged screen flow's state value, by key (`order:perp:BTCUSDT`, `kyc`, …). */
  screens: Record<string, unknown>;
}

export interface InspectorIndex {
  records: readonly LogRecord[];
  /** Snapshot spacing in records. */
  every: number;
  /** The headless replay's result (divergences, final hash, ...). */
  result: ReplayResult;
  /** Invariant violations at the snapshots that had some (seq → messages). */
  violations: ReadonlyMap<number, string[]>;
  /** The core's state after the record `seq` (the closest earlier record when `seq` is not in the log); null before the first record. */
  stateAt(seq: number): ReplayState | null;
  /** What record `seq` changed: a JSON diff of the state before and after it. */
  changesAt(seq: number, limit?: number): StateChange[];
  /** How many records' changes `stateAt(seq)` applies on top of its snapshot. */
  costOf(seq: number): number;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Equal by reference, or plain objects / arrays whose members are, down to `depth` levels. */
function same(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (depth <= 0 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i], depth - 1)) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth - 1)) return false;
  return true;
}

/** Level changes that turn `prev` into `next` (both sorted best first). */
function levelDiff(prev: readonly Level[], next: readonly Level[]): Level[] {
  const out: Level[] = [];
  if (prev === next) return out;
  const before = new Map<number, number>();
  for (const [p, q] of prev) before.set(p, q);
  for (const [p, q] of next) {
    if (before.get(p) !== q) out.push([p, q]);
    before.delete(p);
  }
  for (const p of before.keys()) out.push([p, 0]);
  return out;
}

function applyLevels(prev: readonly Level[], changes: readonly Level[], descending: boolean): Level[] {
  if (changes.length === 0) return prev as Level[];
  const m = new Map<number, number>();
  for (const [p, q] of prev) m.set(p, q);
  for (const [p, q] of changes) {
    if (q === 0) m.delete(p);
    else m.set(p, q);
  }
  const out = [...m].map(([p, q]) => [p, q] as Level);
  out.sort((x, y) => (descending ? y[0] - x[0] : x[0] - y[0]));
  return out;
}

const SECTION_DEPTH = 4;

function sectionsOf(state: ReplayState): Map<string, unknown> {
  const out = new Map<string, unknown>([
    ['session', state.session],
    ['market', state.market],
    ['user', state.user],
  ]);
  for (const [k, v] of Object.entries(state.streams)) if (k !== 'books') out.set(`streams.${k}`, v);
  if (state.view) out.set('view', state.view);
  // The screen flows' snapshots are JSON copies made afresh by state(): one section per flow, compared by value.
  for (const [k, v] of Object.entries(state.screens ?? {})) out.set(`screens.${k}`, v);
  return out;
}

const sameSection = (k: string, a: unknown, b: unknown) => (k.startsWith('screens.') ? stableStringify(a) === stableStringify(b) : same(a, b, SECTION_DEPTH));

function diffState(prev: ReplayState | null, next: ReplayState): Patch {
  const sections: Patch['sections'] = [];
  const before = prev ? sectionsOf(prev) : new Map<string, unknown>();
  const after = sectionsOf(next);
  for (const [k, v] of after) if (!before.has(k) || !sameSection(k, before.get(k), v)) sections.push([k, v]);
  for (const k of before.keys()) if (!after.has(k)) sections.push([k, undefined]);
  const books: Patch['books'] = [];
  const pb = (prev?.streams.books ?? {}) as Record<string, BookView>;
  const nb = (next.streams.books ?? {}) as Record<string, BookView>;
  for (const [sym, b] of Object.entries(nb)) {
    const { bids, asks, ...meta } = b;
    const old = pb[sym];
    if (!old) {
      books.push([sym, { meta, bids, asks }]);
      continue;
    }
    const { bids: ob, asks: oa, ...oldMeta } = old;
    const db = levelDiff(ob, bids);
    const da = levelDiff(oa, asks);
    if (db.length > 0 || da.length > 0 || !same(oldMeta, meta, SECTION_DEPTH)) books.push([sym, { meta, bids: db, asks: da }]);
  }
  for (const sym of Object.keys(pb)) if (!(sym in nb)) books.push([sym, null]);
  return { sections, books };
}

function applyPatch(state: ReplayState, patch: Patch): ReplayState {
  if (patch.sections.length === 0 && patch.books.length === 0) return state;
  const next: ReplayState = { ...state, streams: { ...state.streams } };
  for (const [k, v] of patch.sections) {
    if (k.startsWith('streams.')) {
      const key = k.slice('streams.'.length);
      if (v === undefined) delete next.streams[key];
      else next.streams[key] = v;
    } else if (k.startsWith('screens.')) {
      const screens = { ...(next.screens ?? {}) };
      const key = k.slice('screens.'.length);
      if (v === undefined) delete screens[key];
      else screens[key] = v as ScreenSnapshot;
      if (Object.keys(screens).length > 0) next.screens = screens;
      else delete next.screens;
    } else if (v === undefined) delete (next as unknown as Record<string, unknown>)[k];
    else (next as unknown as Record<string, unknown>)[k] = v;
  }
  if (patch.books.length > 0) {
    const books = { ...((state.streams.books ?? {}) as Record<string, BookView>) };
    for (const [sym, p] of patch.books) {
      if (p === null) {
        delete books[sym];
        continue;
      }
      const old = books[sym];
      books[sym] = old ? { ...p.meta, bids: applyLevels(old.bids, p.bids, true), asks: applyLevels(old.asks, p.asks, false) } : { ...p.meta, bids: p.bids, asks: p.asks };
    }
    next.streams.books = books;
  }
  return next;
}

/** A JSON diff of two values: the paths whose value differs (objects by key, arrays by index). */
export function jsonDiff(a: unknown, b: unknown, limit = 200): StateChange[] {
  const out: StateChange[] = [];
  const walk = (x: unknown, y: unknown, path: string): void => {
    if (out.length >= limit || x === y) return;
    if (Array.isArray(x) && Array.isArray(y)) {
      const n = Math.max(x.length, y.length);
      for (let i = 0; i < n && out.length < limit; i++) walk(x[i], y[i], `${path}[${i}]`);
      return;
    }
    if (isPlain(x) && isPlain(y)) {
      const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
      for (const k of [...keys].sort()) {
        if (out.length >= limit) return;
        walk(x[k], y[k], path ? `${path}.${k}` : k);
      }
      return;
    }
    if (typeof x === 'number' && typeof y === 'number' && Object.is(x, y)) return;
    out.push({ path, before: x, after: y });
  };
  walk(a, b, '');
  return out;
}

/** The machines an inspector shows: the three core actors' states and each book's resync state. */
export function machineStates(state: ReplayState | null): MachineStates | null {
  if (!state) return null;
  const v = (s: unknown) => (isPlain(s) ? s.value : undefined);
  const books: MachineStates['books'] = {};
  for (const [sym, b] of Object.entries((state.streams.books ?? {}) as Record<string, BookView>)) books[sym] = { status: b.status, sync: b.sync };
  const screens: MachineStates['screens'] = {};
  for (const [key, f] of Object.entries(state.screens ?? {})) screens[key] = f.value;
  return { session: v(state.session), market: v(state.market), user: v(state.user), books, screens };
}

export interface IndexOptions {
  /** Snapshot spacing (records); default 200. */
  every?: number;
  /** Extra core options, as for replayLog. */
  core?: ReplayOptions['core'];
  /** Also keep the state hash after every record (for `--diff`). */
  hashEveryRecord?: boolean;
}

/** Replays `log` once and builds the index (see the module comment). */
export async function buildInspectorIndex(log: ParsedLog, opts: IndexOptions = {}): Promise<InspectorIndex> {
  const every = Math.max(1, Math.floor(opts.every ?? 200));
  const records: LogRecord[] = [];
  const patches: Patch[] = [];
  const snapshots: ReplayState[] = [];
  const violations = new Map<number, string[]>();
  let prev: ReplayState | null = null;
  const result = await replayLog(log, {
    core: opts.core,
    hashEveryRecord: opts.hashEveryRecord,
    onRecord(rec, core) {
      const state = core.state();
      const i = records.length;
      records.push(rec);
      patches.push(diffState(prev, state));
      if (i % every === 0) {
        snapshots.push(state);
        // Invariants are checked at snapshots (a check walks every book level: too dear per record).
        const v = core.violations();
        if (v.length > 0) violations.set(rec.seq, v);
      }
      prev = state;
    },
  });

  const indexOf = (seq: number): number => lastAtOrBefore(records.length, (i) => records[i]?.seq ?? Infinity, seq);
  const stateAtIndex = (i: number): ReplayState | null => {
    if (i < 0) return null;
    const base = Math.floor(i / every);
    let state = snapshots[base] ?? null;
    if (!state) return null;
    for (let j = base * every + 1; j <= i; j++) state = applyPatch(state, patches[j] as Patch);
    return state;
  };
  return {
    records,
    every,
    result,
    violations,
    stateAt: (seq) => stateAtIndex(indexOf(seq)),
    changesAt(seq, limit = 200) {
      const i = indexOf(seq);
      if (i < 0 || records[i]?.seq !== seq) return [];
      // One walk from the snapshot: the state before the record, then its own change on top.
      const before = i % every === 0 ? (i > 0 ? stateAtIndex(i - 1) : null) : stateAtIndex(i - 1);
      const after = i % every === 0 ? stateAtIndex(i) : applyPatch(before as ReplayState, patches[i] as Patch);
      return jsonDiff(before, after, limit);
    },
    costOf: (seq) => {
      const i = indexOf(seq);
      return i < 0 ? 0 : i % every;
    },
  };
}

/** The index of the last of `n` seq-ordered items whose seq (`seqAt`) is at most `seq`, or -1 (binary search). */
export function lastAtOrBefore(n: number, seqAt: (i: number) => number, seq: number): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (seqAt(mid) <= seq) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
