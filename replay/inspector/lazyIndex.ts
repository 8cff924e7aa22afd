import type { LogRecord } from '../../src/ports/eventLog.ts';
import { replayLog, type ReplayOptions, type ReplayResult, type ReplayState } from '../../src/core/replay/driver.ts';
import { jsonDiff, lastAtOrBefore, type StateChange } from '../../src/core/replay/inspect.ts';
import type { ParsedLog } from '../../src/core/replay/parse.ts';

/**
 * The inspector's time-travel index over a big log (issue 27 point 6): the same states as
 * src/core/replay/inspect.ts's full index (tests/unit/replay/lazyIndex.prop.test.ts checks them
 * equal at every record), kept compact so a one-hour market log (≈148,000 records, 58 MB) loads in
 * seconds and a little memory:
 * - records are not kept: the log's bytes are, with each record's byte offset, and a record is
 *   parsed again from its line when asked for (the timeline, the record at a seq);
 * - one headless replay runs through the log (the same driver and core as `npm run replay`); after
 *   each record the index keeps only the operations that turn the previous `core.state()` into the
 *   new one: a changed leaf, a list that gained or lost items at its ends (trades, candles) as the
 *   items that came and the run that stayed, an order book side as the levels that changed (in a
 *   shared Float64Array pool), paths interned once;
 * - every `every` records a checkpoint keeps the whole state, its book levels packed in
 *   Float64Arrays (the rest of a state is shared with the streams' own immutable values).
 * {@link LazyIndex.stateAt} unpacks the checkpoint at or before the seq and applies at most
 * `every - 1` records' operations, copying only what they touch.
 */

type Key = string | number;

/** The operations kept per record (flat triples: path id, kind, payload). */
const SET = 0; // payload: the new value (a new key too)
const DELETE = 1; // payload: unused
const SPLICE = 2; // payload: [head, from, run, tail]: new = head ++ old[from, from + run) ++ tail
const LEVELS = 3; // payload: [start, count, descending] in the level pool; pairs (price, qty), qty NaN = removed

/** How deep the state is followed before a changed value is kept whole. */
const DEPTH = 8;
/** How far into a list an anchor (its old first item, or its new first item) is looked for. */
const ANCHOR = 8;

type Level = [number, number];
type Ops = unknown[];

const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};
const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isLevel = (v: unknown): v is Level => Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number';

/** One interned state path (`streams` → `books` → `BTCUSDT` → `bids`): its id and its children. */
interface PathNode {
  id: number;
  path: Key[];
  children: Map<Key, PathNode>;
}

/** Interned state paths: an operation names its path by id. */
class Paths {
  readonly list: Key[][] = [];
  readonly root: PathNode = { id: -1, path: [], children: new Map() };
  child(parent: PathNode, key: Key): PathNode {
    let node = parent.children.get(key);
    if (!node) {
      node = { id: this.list.length, path: [...parent.path, key], children: new Map() };
      this.list.push(node.path);
      parent.children.set(key, node);
    }
    return node;
  }
}

/** A growing Float64Array of (price, qty) pairs. */
class Pool {
  data = new Float64Array(1 << 16);
  length = 0;
  push(p: number, q: number): void {
    if (this.length + 2 > this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = p;
    this.data[this.length++] = q;
  }
  /** Drops the unused tail once the log is indexed. */
  trim(): void {
    this.data = this.data.slice(0, this.length);
  }
}

/** Whether `levels` are [price, qty] pairs, prices strictly sorted in `dir`, no NaN quantity. */
function sortedAs(levels: readonly unknown[], dir: 1 | -1): boolean {
  let last = Number.NaN;
  for (let i = 0; i < levels.length; i++) {
    const v = levels[i];
    if (!isLevel(v) || Number.isNaN(v[1]) || (i > 0 && !((v[0] - last) * dir > 0))) return false;
    last = v[0];
  }
  return true;
}

/** The direction a level list is strictly sorted in (1 ascending, -1 descending), 0: neither or too short to tell. */
function directionOf(levels: readonly unknown[]): 1 | -1 | 0 {
  const a = levels[0];
  const b = levels[1];
  if (!isLevel(a) || !isLevel(b) || a[0] === b[0]) return 0;
  const dir = b[0] > a[0] ? 1 : -1;
  return sortedAs(levels, dir) ? dir : 0;
}

/** How many items of `a` from `from` equal (the same values) those of `b` from `at`, in a row. */
function runLength(a: readonly unknown[], b: readonly unknown[], from: number, at: number): number {
  let r = 0;
  while (from + r < a.length && at + r < b.length && a[from + r] === b[at + r]) r++;
  return r;
}

/** Records into `ops` what turns `a` into `b` (see the module comment). */
class Differ {
  /** Per book-side path, the last level list found strictly sorted (and which way): the next record's `a`. */
  private readonly sorted = new Map<PathNode, { list: readonly unknown[]; dir: 1 | -1 }>();
  constructor(
    private readonly paths: Paths,
    private readonly pool: Pool,
  ) {}

  /** The operations that turn the state `a` (null: none yet) into `b`. */
  diffStates(a: ReplayState | null, b: ReplayState, ops: Ops): void {
    this.members((a ?? {}) as Record<string, unknown>, b as unknown as Record<string, unknown>, ops, this.paths.root, DEPTH);
  }

  private members(a: Record<string, unknown>, b: Record<string, unknown>, ops: Ops, node: PathNode, depth: number): void {
    // for-in, not Object.keys: no array per changed object per record (both are plain objects, whose
    // prototype has no enumerable key; the same keys in the same order).
    let shared = 0;
    for (const k in b) {
      const y = b[k];
      const x = a[k];
      // Most members are the same value as before (the state's sections are shared): no own-key lookup.
      if (x === y && y !== undefined) shared++;
      else if (hasOwn(a, k)) {
        shared++;
        this.diff(x, y, ops, node, k, depth - 1);
      } else ops.push(this.paths.child(node, k).id, SET, y);
    }
    // Every key of `a` is in `b` when they share as many as `a` has.
    let count = 0;
    for (const _ in a) count++;
    if (count !== shared) for (const k in a) if (!hasOwn(b, k)) ops.push(this.paths.child(node, k).id, DELETE, undefined);
  }

  private diff(a: unknown, b: unknown, ops: Ops, parent: PathNode, key: Key, depth: number): void {
    if (a === b) return;
    if (depth > 0 && isPlain(a) && isPlain(b)) return this.members(a, b, ops, this.paths.child(parent, key), depth);
    if (depth > 0 && Array.isArray(a) && Array.isArray(b) && this.list(a, b, ops, parent, key, depth)) return;
    if (typeof a === 'number' && typeof b === 'number' && Object.is(a, b)) return;
    ops.push(this.paths.child(parent, key).id, SET, b);
  }

  /** A list's change, when it is worth keeping as one; false: keep the new list whole. */
  private list(a: readonly unknown[], b: readonly unknown[], ops: Ops, parent: PathNode, key: Key, depth: number): boolean {
    const n = a.length;
    const m = b.length;
    if (n === 0 || m === 0) return false;
    // An order book side: its levels are copied out afresh, so they are compared by price.
    if (isLevel(b[0]) && isLevel(a[0])) {
      // Both lists strictly sorted the same way, no NaN quantity (the pool's mark of a removed level).
      // `a` is, nearly always, the list this path held at the record before: checked then already.
      const node = this.paths.child(parent, key);
      const dir = directionOf(b);
      const checked = this.sorted.get(node);
      if (dir === 0 || !((checked?.list === a && checked.dir === dir) || sortedAs(a, dir))) return false;
      this.sorted.set(node, { list: b, dir });
      const start = this.pool.length;
      let i = 0;
      let j = 0;
      while (i < n || j < m) {
        const x = a[i] as Level | undefined;
        const y = b[j] as Level | undefined;
        if (x && y && x[0] === y[0]) {
          if (!Object.is(x[1], y[1])) this.pool.push(y[0], y[1]);
          i++;
          j++;
        } else if (y && (!x || (y[0] - x[0]) * dir < 0)) {
          this.pool.push(y[0], y[1]);
          j++;
        } else if (x) {
          this.pool.push(x[0], Number.NaN);
          i++;
        }
      }
      const count = (this.pool.length - start) / 2;
      if (count > 0) ops.push(node.id, LEVELS, [start, count, dir]);
      return true;
    }
    let p = 0;
    while (p < n && p < m && a[p] === b[p]) p++;
    if (p === n && p === m) return true;
    // The longest run of old items kept in order: from the start, or shifted by a few (a trade
    // list gains one at its head and drops its last; a candle list drops its first).
    let best = { from: 0, at: 0, run: p };
    for (let at = 1; at <= ANCHOR && at < m; at++) {
      if (b[at] !== a[0]) continue;
      const r = runLength(a, b, 0, at);
      if (r > best.run) best = { from: 0, at, run: r };
      break;
    }
    for (let from = 1; from <= ANCHOR && from < n; from++) {
      if (a[from] !== b[0]) continue;
      const r = runLength(a, b, from, 0);
      if (r > best.run) best = { from, at: 0, run: r };
      break;
    }
    const fresh = m - best.run;
    if (best.run > 0 && fresh <= m / 2) {
      ops.push(this.paths.child(parent, key).id, SPLICE, [b.slice(0, best.at), best.from, best.run, b.slice(best.at + best.run)]);
      return true;
    }
    // Same length, a few items changed in place (one ticker of many).
    if (n === m && depth > 1) {
      let changed = 0;
      for (let i = 0; i < m; i++) if (a[i] !== b[i]) changed++;
      if (changed <= m / 2) {
        const here = this.paths.child(parent, key);
        for (let i = 0; i < m; i++) if (a[i] !== b[i]) this.diff(a[i], b[i], ops, here, i, depth - 1);
        return true;
      }
    }
    return false;
  }
}

/** A state being rebuilt: copies each object or list once, the first time an operation reaches into it. */
class Builder {
  private readonly owned = new Set<object>();
  readonly root: Record<string, unknown>;
  constructor(
    base: Record<string, unknown>,
    private readonly paths: Paths,
    private readonly pool: Pool,
    own: boolean,
  ) {
    this.root = own ? base : { ...base };
    this.owned.add(this.root);
  }

  private own(parent: Record<Key, unknown>, key: Key): Record<Key, unknown> {
    const child = parent[key] as Record<Key, unknown> | unknown[];
    if (this.owned.has(child)) return child as Record<Key, unknown>;
    const copy = (Array.isArray(child) ? child.slice() : { ...child }) as Record<Key, unknown>;
    parent[key] = copy;
    this.owned.add(copy);
    return copy;
  }

  apply(ops: Ops): void {
    for (let o = 0; o < ops.length; o += 3) {
      const path = this.paths.list[ops[o] as number] as Key[];
      const kind = ops[o + 1] as number;
      const payload = ops[o + 2];
      let node = this.root as Record<Key, unknown>;
      for (let i = 0; i < path.length - 1; i++) node = this.own(node, path[i] as Key);
      const key = path[path.length - 1] as Key;
      if (kind === SET) node[key] = payload;
      else if (kind === DELETE) delete node[key];
      else if (kind === SPLICE) {
        const [head, from, run, tail] = payload as [unknown[], number, number, unknown[]];
        const old = node[key] as unknown[];
        node[key] = [...head, ...old.slice(from, from + run), ...tail];
      } else node[key] = this.levels(node[key] as Level[], payload as [number, number, 1 | -1]);
    }
  }

  private levels(old: readonly Level[], [start, count, dir]: [number, number, 1 | -1]): Level[] {
    const d = this.pool.data;
    const out: Level[] = [];
    let i = 0;
    let c = 0;
    while (i < old.length || c < count) {
      const x = old[i];
      const cp = c < count ? (d[start + 2 * c] as number) : Number.NaN;
      if (x && (c >= count || (cp - x[0]) * dir > 0)) {
        out.push(x);
        i++;
        continue;
      }
      const cq = d[start + 2 * c + 1] as number;
      if (x && x[0] === cp) i++;
      if (!Number.isNaN(cq)) out.push([cp, cq]);
      c++;
    }
    return out;
  }
}

/** A checkpoint: the state with its book sides packed (price, qty pairs in one Float64Array). */
interface Checkpoint {
  state: ReplayState;
  /** `streams.books.<symbol>.<side>` → packed levels. */
  sides: [string, 'bids' | 'asks', Float64Array][];
}

function pack(state: ReplayState): Checkpoint {
  const books = state.streams.books;
  if (!isPlain(books)) return { state, sides: [] };
  const sides: Checkpoint['sides'] = [];
  const packedBooks: Record<string, unknown> = {};
  for (const [sym, book] of Object.entries(books)) {
    if (!isPlain(book)) {
      packedBooks[sym] = book;
      continue;
    }
    const b: Record<string, unknown> = { ...book };
    for (const side of ['bids', 'asks'] as const) {
      const levels = book[side];
      if (!Array.isArray(levels) || !levels.every(isLevel)) continue;
      const flat = new Float64Array(levels.length * 2);
      levels.forEach(([p, q], i) => {
        flat[2 * i] = p;
        flat[2 * i + 1] = q;
      });
      sides.push([sym, side, flat]);
      b[side] = null;
    }
    packedBooks[sym] = b;
  }
  return { state: { ...state, streams: { ...state.streams, books: packedBooks } }, sides };
}

/** A fresh, owned copy of a checkpoint's state down to its book sides. */
function unpack(cp: Checkpoint): ReplayState {
  if (cp.sides.length === 0) return { ...cp.state, streams: { ...cp.state.streams } };
  const books = { ...(cp.state.streams.books as Record<string, Record<string, unknown>>) };
  for (const [sym, side, flat] of cp.sides) {
    const book = { ...(books[sym] as Record<string, unknown>) };
    const levels: Level[] = new Array<Level>(flat.length / 2);
    for (let i = 0; i < levels.length; i++) levels[i] = [flat[2 * i] as number, flat[2 * i + 1] as number];
    book[side] = levels;
    books[sym] = book;
  }
  return { ...cp.state, streams: { ...cp.state.streams, books } };
}

export interface LazyIndexOptions {
  /** Checkpoint spacing (records); default 200. */
  every?: number;
  /** Extra core options, as for replayLog. */
  core?: ReplayOptions['core'];
  /** Also keep the state hash after every record (for `--diff`). */
  hashEveryRecord?: boolean;
}

export interface LazyIndex {
  /** How many records the log has. */
  length: number;
  /** Checkpoint spacing in records. */
  every: number;
  /** The headless replay's result (divergences, final hash, ...). */
  result: ReplayResult;
  /** Invariant violations at the checkpoints that had some (seq → messages). */
  violations: ReadonlyMap<number, string[]>;
  /** The seq of the record at `i` (log order). */
  seqAt(i: number): number;
  /** The record at `i` (log order), parsed from its line. */
  recordAt(i: number): LogRecord;
  /** The record `seq`, or null when the log has none. */
  record(seq: number): LogRecord | null;
  /** The core's state after the record `seq` (the closest earlier record when `seq` is not in the log); null before the first record. */
  stateAt(seq: number): ReplayState | null;
  /** What record `seq` changed: a JSON diff of the state before and after it. */
  changesAt(seq: number, limit?: number): StateChange[];
  /** How many records' changes `stateAt(seq)` applies on top of its checkpoint. */
  costOf(seq: number): number;
}

/** Where each record's text is: the log's bytes and the byte range of each record's line. */
export interface RecordSource {
  bytes: Buffer;
  /** Byte offset of each 1-based line's start (index 0 = line 1), plus the end of the text. */
  lineStarts: Float64Array;
}

/** Byte offsets of every line of `bytes` (see {@link RecordSource.lineStarts}). */
export function lineStartsOf(bytes: Buffer): Float64Array {
  let count = 1;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) count++;
  const starts = new Float64Array(count + 1);
  let k = 1;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) starts[k++] = i + 1;
  starts[count] = bytes.length + 1;
  return starts;
}

/**
 * Replays `log` once and builds the index. `source` is where its records' lines are (an
 * `rft-log`'s own bytes); without it (a converted market fixture, whose records are made up from
 * its frames) the parsed records are kept.
 */
export async function buildLazyIndex(log: ParsedLog, source: RecordSource | null, opts: LazyIndexOptions = {}): Promise<LazyIndex> {
  const every = Math.max(1, Math.floor(opts.every ?? 200));
  const n = log.records.length;
  const seqs = new Float64Array(n);
  const lines = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    seqs[i] = (log.records[i] as LogRecord).seq;
    lines[i] = log.lines[i] ?? 0;
  }
  const kept = source && log.source === 'rft-log' ? null : log.records;

  const paths = new Paths();
  const pool = new Pool();
  const differ = new Differ(paths, pool);
  const opsOf: (Ops | undefined)[] = new Array<Ops | undefined>(n);
  const checkpoints: Checkpoint[] = [];
  const violations = new Map<number, string[]>();
  let prev: ReplayState | null = null;
  let i = 0;
  const result = await replayLog(log, {
    core: opts.core,
    hashEveryRecord: opts.hashEveryRecord,
    onRecord(rec, core) {
      const state = core.state();
      if (i % every === 0) {
        checkpoints.push(pack(state));
        // Invariants are checked at checkpoints (a check walks every book level: too dear per record).
        const v = core.violations();
        if (v.length > 0) violations.set(rec.seq, v);
      } else {
        const ops: Ops = [];
        differ.diffStates(prev, state, ops);
        if (ops.length > 0) opsOf[i] = ops;
      }
      prev = state;
      i++;
    },
  });
  pool.trim();

  const indexOf = (seq: number): number => lastAtOrBefore(n, (i) => seqs[i] as number, seq);
  const stateAtIndex = (at: number): ReplayState | null => {
    if (at < 0) return null;
    const base = Math.floor(at / every);
    const cp = checkpoints[base];
    if (!cp) return null;
    const b = new Builder(unpack(cp) as unknown as Record<string, unknown>, paths, pool, true);
    for (let j = base * every + 1; j <= at; j++) {
      const ops = opsOf[j];
      if (ops) b.apply(ops);
    }
    return b.root as unknown as ReplayState;
  };
  const recordAt = (at: number): LogRecord => {
    if (kept) return kept[at] as LogRecord;
    const src = source as RecordSource;
    const line = lines[at] as number;
    return JSON.parse(src.bytes.toString('utf8', src.lineStarts[line - 1], (src.lineStarts[line] as number) - 1)) as LogRecord;
  };

  return {
    length: n,
    every,
    result,
    violations,
    seqAt: (at) => seqs[at] as number,
    recordAt,
    record(seq) {
      const at = indexOf(seq);
      return at >= 0 && seqs[at] === seq ? recordAt(at) : null;
    },
    stateAt: (seq) => stateAtIndex(indexOf(seq)),
    changesAt(seq, limit = 200) {
      const at = indexOf(seq);
      if (at < 0 || seqs[at] !== seq) return [];
      const before = at > 0 ? stateAtIndex(at - 1) : null;
      let after: ReplayState | null;
      if (at % every === 0) after = stateAtIndex(at);
      else {
        // The record's own operations on top of the state before it (copied where they reach).
        const b = new Builder(before as unknown as Record<string, unknown>, paths, pool, false);
        const ops = opsOf[at];
        if (ops) b.apply(ops);
        after = b.root as unknown as ReplayState;
      }
      return jsonDiff(before, after, limit);
    },
    costOf: (seq) => {
      const at = indexOf(seq);
      return at < 0 ? 0 : at % every;
    },
  };
}
