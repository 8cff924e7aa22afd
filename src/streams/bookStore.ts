import type { Level } from '../protocol/market.ts';

/**
 * The storage of the order book's two sides: a partially persistent sorted array with an undo log.
 *
 * The states of one book lineage (everything reduced from one snapshot) share one mutable
 * {@link BookStore}: a flat sorted array per side of [price, qty, seq] triples (stride
 * {@link STRIDE}, best first: bids descending, asks ascending, no zero quantities). Reducing the
 * newest state of the lineage edits the arrays in place (a binary search and one native
 * `splice`), and appends, for every level it changes, an undo entry tagged with the reduction's
 * epoch. A {@link BookSide} is a view (store, side, epoch, length):
 * - while its side of the store has not changed since its epoch, its levels ARE the store's array;
 * - otherwise they are materialised once (a copy of the array with the newer undo entries of that
 *   side applied backwards) and cached on the side.
 * So every state the reducer ever returned still reads exactly as it did (replay checkpoints and
 * the selectors memoised on side identity rely on it), while the newest state costs no copying.
 * Reducing an OLDER state (a branch) first forks a new store from that state's levels, so the
 * lineage it left is never edited for it.
 *
 * The undo log keeps the last {@link MAX_UNDO_OPS} level changes per store (about 1.3 MB at most);
 * reading or reducing a state whose changes were dropped from it throws, naming the horizon. States
 * that old are not held by the app: the stream keeps the newest, React the last rendered one.
 */

export const STRIDE = 3;
/** Undo entries kept per store (two generations of half this; the older is dropped when the newer fills). */
export const MAX_UNDO_OPS = 1 << 15;
/** Fields per undo entry: epoch, side (0 bids, 1 asks), price, old qty (0: absent), old seq. */
const UNDO = 5;

export type SideIndex = 0 | 1;

/** The mutable arrays shared by the states of one lineage. Private to this module and orderBook.ts. */
export interface BookStore {
  readonly sides: [number[], number[]];
  /** Epoch of the newest state's levels. */
  epoch: number;
  /** Epoch of the last change to each side. */
  readonly changedAt: [number, number];
  /**
   * Undo entries, oldest first, in two generations: `prev[0..prevLen)` (older) then
   * `log[0..logLen)`. Typed arrays filled by index: appending five numbers with `push` was half
   * of the reducer's time.
   */
  log: Float64Array;
  logLen: number;
  prev: Float64Array;
  prevLen: number;
  /** States with an epoch below this can no longer be read (their undo entries were dropped). */
  floor: number;
}

/** One side of one state: a view of a store at an epoch (see the module comment). */
export class BookSide {
  readonly store: BookStore | null;
  readonly side: SideIndex;
  readonly epoch: number;
  readonly length: number;
  constructor(store: BookStore | null, side: SideIndex, epoch: number, length: number) {
    this.store = store;
    this.side = side;
    this.epoch = epoch;
    this.length = length;
  }
  /** A plain copy of the flat [price, qty, seq] levels, built on first read and cached. */
  get data(): readonly number[] {
    let flat = dataCache.get(this);
    if (flat === undefined) {
      flat = levelsOf(this).slice(0, this.length * STRIDE);
      dataCache.set(this, flat);
    }
    return flat;
  }
}

const dataCache = new WeakMap<BookSide, number[]>();
const materialised = new WeakMap<BookSide, readonly number[]>();

export const EMPTY_BIDS = new BookSide(null, 0, 0, 0);
export const EMPTY_ASKS = new BookSide(null, 1, 0, 0);
const NONE: readonly number[] = [];

/**
 * The flat levels of a side, valid now. The store's own array when the side has not changed since
 * this view's epoch (do not keep it across a reduction), else a materialised copy.
 */
export function levelsOf(side: BookSide): readonly number[] {
  const s = side.store;
  if (s === null) return NONE;
  if (s.changedAt[side.side] <= side.epoch) return s.sides[side.side];
  let copy = materialised.get(side);
  if (copy === undefined) {
    copy = undoTo(s, side.side, side.epoch);
    materialised.set(side, copy);
  }
  return copy;
}

/** The side's levels as they were at `epoch`: the current array with newer changes undone. */
function undoTo(s: BookStore, which: SideIndex, epoch: number): number[] {
  if (epoch < s.floor) throw new Error(`order book: a state from epoch ${epoch} is older than the undo horizon (${s.floor}); keep newer states`);
  const a = s.sides[which].slice();
  for (const [log, len] of [[s.log, s.logLen], [s.prev, s.prevLen]] as const) {
    for (let k = len - UNDO; k >= 0; k -= UNDO) {
      if ((log[k] as number) <= epoch) return a;
      if (log[k + 1] !== which) continue;
      const price = log[k + 2] as number;
      const oldQty = log[k + 3] as number;
      const at = search(a, which, price);
      const present = at < a.length && a[at] === price;
      if (oldQty === 0) {
        if (present) a.splice(at, STRIDE);
      } else if (present) {
        a[at + 1] = oldQty;
        a[at + 2] = log[k + 4] as number;
      } else a.splice(at, 0, price, oldQty, log[k + 4] as number);
    }
  }
  return a;
}

/** First offset (multiple of STRIDE) whose price does not sort before `price` on that side. */
function search(a: readonly number[], which: SideIndex, price: number): number {
  let lo = 0;
  let hi = a.length / STRIDE;
  if (which === 0) {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((a[mid * STRIDE] as number) > price) lo = mid + 1;
      else hi = mid;
    }
  } else {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((a[mid * STRIDE] as number) < price) lo = mid + 1;
      else hi = mid;
    }
  }
  return lo * STRIDE;
}

/**
 * One reduction's write access to the sides of a state. Module-level scratch, reused by every
 * reduction (the reducer is synchronous and never re-entered).
 */
interface Writer {
  store: BookStore;
  /** The epoch this reduction's changes are tagged with. */
  epoch: number;
  changed: [boolean, boolean];
  /** True when the store was created for this reduction (a snapshot or a branch). */
  fresh: boolean;
  from: [BookSide, BookSide];
}

const NO_LOG = new Float64Array(0);
/** Entries in one generation of the log. */
const GENERATION = (MAX_UNDO_OPS / 2) * UNDO;

/** Appends one undo entry; grows the current generation, or retires the previous one when full. */
function logUndo(s: BookStore, epoch: number, which: SideIndex, price: number, oldQty: number, oldSeq: number): void {
  let log = s.log;
  let n = s.logLen;
  if (n + UNDO > log.length) {
    if (log.length < GENERATION) {
      const grown = new Float64Array(Math.min(GENERATION, Math.max(64 * UNDO, log.length * 2)));
      grown.set(log.subarray(0, n));
      log = grown;
    } else {
      // the previous generation is dropped: states older than its last entry become unreadable
      if (s.prevLen > 0) s.floor = s.prev[s.prevLen - UNDO] as number;
      const reuse = s.prev.length === GENERATION ? s.prev : new Float64Array(GENERATION);
      s.prev = log;
      s.prevLen = n;
      log = reuse;
      n = 0;
    }
    s.log = log;
  }
  log[n] = epoch;
  log[n + 1] = which;
  log[n + 2] = price;
  log[n + 3] = oldQty;
  log[n + 4] = oldSeq;
  s.logLen = n + UNDO;
}

const IDLE_STORE: BookStore = { sides: [[], []], epoch: 0, changedAt: [0, 0], log: NO_LOG, logLen: 0, prev: NO_LOG, prevLen: 0, floor: 0 };

const w: Writer = {
  store: IDLE_STORE,
  epoch: 0,
  changed: [false, false],
  fresh: false,
  from: [EMPTY_BIDS, EMPTY_ASKS],
};

function newStore(bids: number[], asks: number[], epoch: number): BookStore {
  return { sides: [bids, asks], epoch, changedAt: [epoch, epoch], log: NO_LOG, logLen: 0, prev: NO_LOG, prevLen: 0, floor: epoch };
}

/**
 * Starts writing the levels of the state whose sides are `bids` / `asks`. The newest state of a
 * lineage is edited in place; anything else (an older state, empty sides) gets a fresh store.
 */
export function beginWrite(bids: BookSide, asks: BookSide): void {
  const s = bids.store;
  const head = s !== null && asks.store === s && Math.max(bids.epoch, asks.epoch) === s.epoch;
  if (head) {
    w.store = s;
    w.fresh = false;
  } else {
    const epoch = Math.max(bids.epoch, asks.epoch);
    w.store = newStore(levelsOf(bids).slice(0, bids.length * STRIDE), levelsOf(asks).slice(0, asks.length * STRIDE), epoch);
    w.fresh = true;
  }
  w.epoch = w.store.epoch + 1;
  w.changed[0] = false;
  w.changed[1] = false;
  w.from[0] = bids;
  w.from[1] = asks;
}

/**
 * Fast path for an empty side of a fresh store (a snapshot): strictly sorted levels with no zero
 * quantity are exactly what applying them one by one would give. Returns false (nothing done) otherwise.
 */
export function bulkLoad(which: SideIndex, levels: readonly Level[], seq: number): boolean {
  if (!w.fresh || w.store.sides[which].length > 0) return false;
  let prev = which === 0 ? Infinity : -Infinity;
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as Level;
    const p = level[0];
    if ((which === 0 ? !(p < prev) : !(p > prev)) || level[1] === 0) return false;
    prev = p;
  }
  // NOTE: pushed, not `new Array(n)`: a holey array stays holey, and holey arrays take V8's slow
  // paths for reads and splice (measured 2x slower on the hot path).
  const a: number[] = [];
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as Level;
    a.push(level[0], level[1], seq);
  }
  w.store.sides[which] = a;
  // a fresh store has no older state to undo to on this side: nothing is logged
  w.changed[which] = true;
  return true;
}

/** Sets one level (qty 0 removes it; absent is fine), logging how to undo it. */
export function setLevel(which: SideIndex, price: number, qty: number, seq: number): void {
  const s = w.store;
  const a = s.sides[which];
  const at = search(a, which, price);
  if (at < a.length && a[at] === price) {
    const oldQty = a[at + 1] as number;
    const oldSeq = a[at + 2] as number;
    if (qty === oldQty && seq === oldSeq) return;
    logUndo(s, w.epoch, which, price, oldQty, oldSeq);
    if (qty === 0) a.splice(at, STRIDE);
    else {
      a[at + 1] = qty;
      a[at + 2] = seq;
    }
  } else {
    if (qty === 0) return;
    logUndo(s, w.epoch, which, price, 0, 0);
    a.splice(at, 0, price, qty, seq);
  }
  w.changed[which] = true;
}

/** Levels on a side being written. */
export function writeLength(which: SideIndex): number {
  return w.store.sides[which].length / STRIDE;
}

/** Field (0 price, 2 seq) of the best level of a side being written (it must be non-empty). */
export function writeTop(which: SideIndex, field: 0 | 2): number {
  return w.store.sides[which][field] as number;
}

/**
 * Ends the reduction: the sides of the new state. A side nothing changed keeps its object (and
 * so its identity) unless the reduction moved to a fresh store, which both sides must then share.
 */
export function commitWrite(): [BookSide, BookSide] {
  const s = w.store;
  const any = w.changed[0] || w.changed[1];
  if (any) {
    s.epoch = w.epoch;
    if (w.changed[0]) s.changedAt[0] = w.epoch;
    if (w.changed[1]) s.changedAt[1] = w.epoch;
  }
  const out: [BookSide, BookSide] = [w.from[0], w.from[1]];
  if (any || w.fresh) {
    for (const which of [0, 1] as const) {
      if (w.changed[which] || w.fresh) out[which] = new BookSide(s, which, s.epoch, s.sides[which].length / STRIDE);
    }
  }
  // the scratch writer must not keep a finished book (and its undo log) alive
  w.store = IDLE_STORE;
  w.from[0] = EMPTY_BIDS;
  w.from[1] = EMPTY_ASKS;
  return out;
}
