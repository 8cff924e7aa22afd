import type { DepthDiffFrame, DepthSnapshotFrame, Level, MarketFrame } from '../protocol/market.ts';

/**
 * Order book stream: a pure, deterministic reducer from depth frames to a raw book
 * (docs/STREAMS.md "Order book"). Derived views (top N, grouping, spread, depth chart) are
 * memoised selectors in orderBookSelectors.ts.
 *
 * Sync rule (Binance futures, generalised through prevSeq):
 * - diffs that arrive before a snapshot are buffered (at most {@link MAX_BUFFERED_DIFFS}, oldest dropped);
 * - a snapshot resets the book, drops buffered diffs with lastSeq <= seq and replays the rest;
 * - the first diff applied after a snapshot must connect to it: `firstSeq <= seq + 1` (contiguous
 *   ids, spot) or `prevSeq <= seq` (pu-chained ids, futures), and `lastSeq > seq`;
 * - afterwards every diff's prevSeq must equal the previous diff's lastSeq;
 * - a diff with lastSeq <= the book's seq is a duplicate and is ignored;
 * - anything else is a gap: status 'resync' with a reason, the diff is NOT applied, the levels stay
 *   as last known good (stale), later diffs are buffered and the next snapshot recovers.
 *
 * Crossing rule: every level remembers the seq of the update that set it. While best bid >= best
 * ask, the top level with the older seq is removed (the newer update wins, as in dYdX); when both
 * were set by the same update both are removed, since neither can be trusted.
 */

export type OrderBookStatus = 'idle' | 'pending' | 'live' | 'resync';

/** Why the book stopped being live. The socket machine reacts by resubscribing / refetching the snapshot. */
export type ResyncReason =
  /** A diff did not chain: its prevSeq differs from the last applied lastSeq (missed or reordered frame). */
  | { code: 'gap'; expectedPrevSeq: number; prevSeq: number; firstSeq: number; lastSeq: number }
  /** The first diff after a snapshot starts after seq + 1: diffs between the snapshot and the stream are missing. */
  | { code: 'snapshotGap'; snapshotSeq: number; prevSeq: number; firstSeq: number; lastSeq: number };

/**
 * One side of the book, sorted best first (bids descending, asks ascending), no zero quantities.
 *
 * Stored as a chunked sorted array (a two-level B-tree): `chunks` are non-empty runs of levels
 * interleaved as [price, qty, seq] (stride {@link STRIDE}), at most {@link MAX_CHUNK_LEVELS} levels
 * each, in order. A side and its chunks are never mutated once published in a state: the reducer
 * copies the chunk directory and only the chunks a frame touches (path copying), and untouched
 * chunks are shared between consecutive states.
 *
 * `data` is the flat [price, qty, seq] view of all `length` levels, materialised on first read and
 * cached per side (O(length) once); prefer `priceAt` / `qtyAt` / the selectors on hot paths.
 */
export class BookSide {
  readonly chunks: readonly (readonly number[])[];
  readonly length: number;
  constructor(chunks: readonly (readonly number[])[], length: number) {
    this.chunks = chunks;
    this.length = length;
  }
  get data(): readonly number[] {
    let flat = flatCache.get(this);
    if (flat === undefined) {
      flat = [];
      for (const c of this.chunks) for (let i = 0; i < c.length; i++) flat.push(c[i] as number);
      flatCache.set(this, flat);
    }
    return flat;
  }
}

/** Materialised flat views (a WeakMap rather than a field so equal states stay deep-equal). */
const flatCache = new WeakMap<BookSide, number[]>();

export interface OrderBookState {
  readonly symbol: string;
  readonly status: OrderBookStatus;
  /** lastSeq of the last applied diff, or the snapshot seq; -1 before the first snapshot. */
  readonly seq: number;
  /** True between a snapshot and the first diff applied after it (the connect rule applies). */
  readonly awaitingFirstDiff: boolean;
  readonly bids: BookSide;
  readonly asks: BookSide;
  /** Diffs held until the next snapshot (status 'pending' or 'resync'). */
  readonly buffer: readonly DepthDiffFrame[];
  readonly reason: ResyncReason | null;
  /** ts of the last applied depth frame (exchange time), 0 before any. */
  readonly ts: number;
  /** Increases by one on every change; cheap change detection for memoisation and UI. */
  readonly version: number;
}

export const STRIDE = 3;
/** Bound of the pre-snapshot / resync buffer; older diffs are dropped first. */
export const MAX_BUFFERED_DIFFS = 1000;

/** A chunk is split in two halves when it grows past this many levels. */
export const MAX_CHUNK_LEVELS = 32;

const EMPTY_SIDE: BookSide = new BookSide([], 0);

/** The book before any frame: status 'idle', no levels. */
export function initialOrderBook(symbol: string): OrderBookState {
  return { symbol, status: 'idle', seq: -1, awaitingFirstDiff: false, bids: EMPTY_SIDE, asks: EMPTY_SIDE, buffer: [], reason: null, ts: 0, version: 0 };
}

/**
 * The reducer's private draft of one side: a copy of the chunk directory, with `own[i]` true once
 * chunk i has been copied during this reduction (then it may be mutated in place). Published chunks
 * are never written: a chunk is copied (≤ MAX_CHUNK_LEVELS levels) before its first change.
 */
interface Draft {
  chunks: number[][];
  /**
   * `stamp[i] === epoch` once chunk i has been copied during this reduction. A fresh epoch per
   * reduction marks every chunk unowned without clearing the array.
   */
  stamp: number[];
  epoch: number;
  length: number;
  /** -1 for bids (descending), 1 for asks (ascending). */
  sign: number;
}

/**
 * The two drafts are module-level scratch objects reused by every reduction (the reducer is
 * synchronous and never re-entered); only `chunks` escapes, as the published side's directory.
 */
const bidDraft: Draft = { chunks: [], stamp: [], epoch: 0, length: 0, sign: -1 };
const askDraft: Draft = { chunks: [], stamp: [], epoch: 0, length: 0, sign: 1 };

function draftOf(side: BookSide, d: Draft): Draft {
  d.chunks = side.chunks.slice() as number[][];
  d.epoch++;
  const stamp = d.stamp;
  // keep stamp at least as long as the directory (stale entries hold older epochs)
  while (stamp.length < d.chunks.length) stamp.push(0);
  d.length = side.length;
  return d;
}

function owned(d: Draft, i: number): boolean {
  return d.stamp[i] === d.epoch;
}

/** The chunk index i of a draft, copied first if this reduction does not own it yet. */
function ownChunk(d: Draft, i: number): number[] {
  const c = d.chunks[i] as number[];
  if (owned(d, i)) return c;
  const copy = c.slice();
  d.chunks[i] = copy;
  d.stamp[i] = d.epoch;
  return copy;
}

/** Inserts chunk `c` (owned) into the directory at index i, shifting the stamps with it. */
function insertChunk(d: Draft, i: number, c: number[]): void {
  d.chunks.splice(i, 0, c);
  d.stamp.splice(i, 0, d.epoch);
}

const PAD: readonly number[] = [0, 0, 0];

/** Inserts a level at offset `at` of chunk i; an unowned chunk is copied with the gap in one pass. */
function insertInChunk(d: Draft, i: number, at: number, price: number, qty: number, seq: number): number[] {
  const c = d.chunks[i] as number[];
  if (owned(d, i)) {
    const n = c.length;
    c.push(0, 0, 0);
    for (let k = n - 1; k >= at; k--) c[k + STRIDE] = c[k] as number;
    c[at] = price;
    c[at + 1] = qty;
    c[at + 2] = seq;
    return c;
  }
  // NOTE: concat allocates the copy at its final size in one go (push-growing reallocates).
  const copy = c.concat(PAD);
  for (let k = c.length - 1; k >= at; k--) copy[k + STRIDE] = c[k] as number;
  copy[at] = price;
  copy[at + 1] = qty;
  copy[at + 2] = seq;
  d.chunks[i] = copy;
  d.stamp[i] = d.epoch;
  return copy;
}

/** Removes the level at offset `at` of chunk i; an unowned chunk is copied without it in one pass. */
function removeInChunk(d: Draft, i: number, at: number): void {
  const c = d.chunks[i] as number[];
  const n = c.length - STRIDE;
  if (owned(d, i)) {
    for (let k = at; k < n; k++) c[k] = c[k + STRIDE] as number;
    c.pop();
    c.pop();
    c.pop();
    return;
  }
  const copy = c.slice(0, n);
  for (let k = at; k < n; k++) copy[k] = c[k + STRIDE] as number;
  d.chunks[i] = copy;
  d.stamp[i] = d.epoch;
}

function removeChunk(d: Draft, i: number): void {
  d.chunks.splice(i, 1);
  d.stamp.splice(i, 1);
}

/**
 * Sets one level in a draft; qty 0 removes the level (absent is fine). Two binary searches (chunk
 * directory, then inside the chunk) and a shift of at most MAX_CHUNK_LEVELS levels (manual loops and pops: `splice` and `length =` are runtime calls).
 */
function setLevel(d: Draft, price: number, qty: number, seq: number): void {
  const sign = d.sign;
  const key = sign * price;
  const chunks = d.chunks;
  if (chunks.length === 0) {
    if (qty !== 0) {
      insertChunk(d, 0, [price, qty, seq]);
      d.length = 1;
    }
    return;
  }
  // last chunk whose first level is <= key (chunk 0 when key sorts before everything)
  let lo = 1;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sign * ((chunks[mid] as number[])[0] as number) <= key) lo = mid + 1;
    else hi = mid;
  }
  const ci = lo - 1;
  let c = chunks[ci] as number[];
  const n = c.length / STRIDE;
  lo = 0;
  hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sign * (c[mid * STRIDE] as number) < key) lo = mid + 1;
    else hi = mid;
  }
  const at = lo * STRIDE;
  if (lo < n && c[at] === price) {
    if (qty === 0) {
      if (n === 1) removeChunk(d, ci);
      else removeInChunk(d, ci, at);
      d.length--;
    } else {
      c = ownChunk(d, ci);
      c[at + 1] = qty;
      c[at + 2] = seq;
    }
  } else if (qty !== 0) {
    c = insertInChunk(d, ci, at, price, qty, seq);
    d.length++;
    if (n + 1 > MAX_CHUNK_LEVELS) {
      insertChunk(d, ci + 1, c.splice(((n + 1) >>> 1) * STRIDE));
    }
  }
}

/** Levels per chunk when a side is built in bulk (room left to grow before a split). */
const BULK_CHUNK_LEVELS = 20;

/**
 * Fast path for an empty side (a snapshot): when the levels are already strictly sorted best
 * first with no zero quantity, applying them one by one would give exactly this list, so the
 * chunks are filled directly. Returns false (draft untouched) otherwise.
 */
function bulkLoad(d: Draft, levels: readonly Level[], seq: number): boolean {
  const sign = d.sign;
  let prev = -Infinity;
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as Level;
    const key = sign * level[0];
    if (!(key > prev) || level[1] === 0) return false;
    prev = key;
  }
  for (let i = 0; i < levels.length; i += BULK_CHUNK_LEVELS) {
    const end = Math.min(levels.length, i + BULK_CHUNK_LEVELS);
    const c: number[] = [];
    for (let k = i; k < end; k++) {
      const level = levels[k] as Level;
      c.push(level[0], level[1], seq);
    }
    insertChunk(d, d.chunks.length, c);
  }
  d.length = levels.length;
  return true;
}

function applyLevels(side: BookSide, levels: readonly Level[], draft: Draft, seq: number): Draft | null {
  if (levels.length === 0) return null;
  const d = draftOf(side, draft);
  if (d.length === 0 && bulkLoad(d, levels, seq)) return d;
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] as Level;
    setLevel(d, level[0], level[1], seq);
  }
  return d;
}

function dropTop(d: Draft): void {
  if ((d.chunks[0] as number[]).length === STRIDE) removeChunk(d, 0);
  else removeInChunk(d, 0, 0);
  d.length--;
}

/** Top level field (0 price, 2 seq) of a non-empty side or draft. */
function top(side: BookSide | Draft, field: number): number {
  return (side.chunks[0] as readonly number[])[field] as number;
}

/** Resolves a crossed book in place (see the module comment). */
function uncross(bids: Draft, asks: Draft): void {
  while (bids.length > 0 && asks.length > 0 && top(bids, 0) >= top(asks, 0)) {
    const bidSeq = top(bids, 2);
    const askSeq = top(asks, 2);
    if (bidSeq > askSeq) dropTop(asks);
    else if (askSeq > bidSeq) dropTop(bids);
    else {
      dropTop(bids);
      dropTop(asks);
    }
  }
}

function isCrossed(bids: BookSide | Draft, asks: BookSide | Draft): boolean {
  return bids.length > 0 && asks.length > 0 && top(bids, 0) >= top(asks, 0);
}

/**
 * Builds a state with every field in one fixed order. NOTE: measured faster than `{ ...state, x }`
 * on the hot path (one hidden class, no generic clone).
 */
function makeState(
  s: OrderBookState,
  status: OrderBookStatus,
  seq: number,
  awaitingFirstDiff: boolean,
  bids: BookSide,
  asks: BookSide,
  buffer: readonly DepthDiffFrame[],
  reason: ResyncReason | null,
  ts: number,
): OrderBookState {
  return { symbol: s.symbol, status, seq, awaitingFirstDiff, bids, asks, buffer, reason, ts, version: s.version + 1 };
}

function publish(d: Draft | null, fallback: BookSide): BookSide {
  return d === null ? fallback : new BookSide(d.chunks, d.length);
}

function withBuffered(state: OrderBookState, frame: DepthDiffFrame, status: OrderBookStatus): OrderBookState {
  const buffer = state.buffer.length >= MAX_BUFFERED_DIFFS ? state.buffer.slice(state.buffer.length - MAX_BUFFERED_DIFFS + 1) : state.buffer.slice();
  buffer.push(frame);
  return makeState(state, status, state.seq, state.awaitingFirstDiff, state.bids, state.asks, buffer, state.reason, state.ts);
}

/** The two sides {@link applyUpdate} produced (module scratch: read right after the call). */
let outBids: BookSide = EMPTY_SIDE;
let outAsks: BookSide = EMPTY_SIDE;

/** Applies the levels of an accepted diff (or snapshot) and repairs crossing; results in outBids / outAsks. */
function applyUpdate(state: OrderBookState, bidLevels: readonly Level[], askLevels: readonly Level[], seq: number): void {
  let bids = applyLevels(state.bids, bidLevels, bidDraft, seq);
  let asks = applyLevels(state.asks, askLevels, askDraft, seq);
  const pb = bids ?? state.bids;
  const pa = asks ?? state.asks;
  if (isCrossed(pb, pa)) {
    bids ??= draftOf(state.bids, bidDraft);
    asks ??= draftOf(state.asks, askDraft);
    uncross(bids, asks);
  }
  outBids = publish(bids, state.bids);
  outAsks = publish(asks, state.asks);
}

function applyDiff(state: OrderBookState, frame: DepthDiffFrame): OrderBookState {
  if (state.status !== 'live') return withBuffered(state, frame, state.status === 'resync' ? 'resync' : 'pending');
  if (frame.lastSeq <= state.seq) return state; // duplicate or already covered by the snapshot
  if (state.awaitingFirstDiff) {
    if (!(frame.firstSeq <= state.seq + 1 || frame.prevSeq <= state.seq)) {
      const reason: ResyncReason = { code: 'snapshotGap', snapshotSeq: state.seq, prevSeq: frame.prevSeq, firstSeq: frame.firstSeq, lastSeq: frame.lastSeq };
      return makeState(state, 'resync', state.seq, state.awaitingFirstDiff, state.bids, state.asks, [frame], reason, state.ts);
    }
  } else if (frame.prevSeq !== state.seq) {
    const reason: ResyncReason = { code: 'gap', expectedPrevSeq: state.seq, prevSeq: frame.prevSeq, firstSeq: frame.firstSeq, lastSeq: frame.lastSeq };
    return makeState(state, 'resync', state.seq, state.awaitingFirstDiff, state.bids, state.asks, [frame], reason, state.ts);
  }
  applyUpdate(state, frame.bids, frame.asks, frame.lastSeq);
  return makeState(state, 'live', frame.lastSeq, false, outBids, outAsks, state.buffer, null, frame.ts);
}

function applySnapshot(state: OrderBookState, frame: DepthSnapshotFrame): OrderBookState {
  const base = makeState(state, 'live', frame.seq, true, EMPTY_SIDE, EMPTY_SIDE, [], null, frame.ts);
  applyUpdate(base, frame.bids, frame.asks, frame.seq);
  let next = makeState(state, 'live', frame.seq, true, outBids, outAsks, [], null, frame.ts);
  for (const diff of state.buffer) {
    if (diff.lastSeq <= frame.seq) continue;
    next = applyDiff(next, diff);
  }
  return next;
}

/**
 * The order book reducer. Frames of another type or symbol return the same state object, so
 * reference equality means "nothing changed". Never throws; never mutates `state`.
 */
export function reduceOrderBook(state: OrderBookState, frame: MarketFrame): OrderBookState {
  if (frame.type !== 'depth' || frame.symbol !== state.symbol) return state;
  return frame.snapshot ? applySnapshot(state, frame) : applyDiff(state, frame);
}

/** Calls `f(price, qty, i)` for the levels of a side, best first, until `f` returns false or `limit` levels. */
export function forEachLevel(side: BookSide, f: (price: number, qty: number, i: number) => boolean | void, limit = Infinity): void {
  let i = 0;
  for (const c of side.chunks) {
    for (let j = 0; j < c.length; j += STRIDE) {
      if (i >= limit || f(c[j] as number, c[j + 1] as number, i) === false) return;
      i++;
    }
  }
}

/** Levels of a side as tuples, best first; at most `limit`. Allocates: for tests and small views. */
export function sideLevels(side: BookSide, limit = Infinity): Level[] {
  const out: Level[] = [];
  forEachLevel(side, (p, q) => void out.push([p, q]), limit);
  return out;
}

/** Field `field` (0 price, 1 qty) of the i-th best level, or NaN past the end. */
function fieldAt(side: BookSide, i: number, field: number): number {
  if (i < 0 || i >= side.length) return NaN;
  let k = i * STRIDE;
  for (const c of side.chunks) {
    if (k < c.length) return c[k + field] as number;
    k -= c.length;
  }
  return NaN;
}

/** Price of the i-th best level, or NaN past the end (O(1) for the best level, O(chunks) otherwise). */
export function priceAt(side: BookSide, i: number): number {
  return fieldAt(side, i, 0);
}

/** Quantity of the i-th best level, or NaN past the end. */
export function qtyAt(side: BookSide, i: number): number {
  return fieldAt(side, i, 1);
}

/** Best bid and ask as levels, or null per side when empty. */
export function topOfBook(state: OrderBookState): { bid: Level | null; ask: Level | null } {
  return {
    bid: state.bids.length > 0 ? [priceAt(state.bids, 0), qtyAt(state.bids, 0)] : null,
    ask: state.asks.length > 0 ? [priceAt(state.asks, 0), qtyAt(state.asks, 0)] : null,
  };
}
