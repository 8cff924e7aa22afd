import { WALLETS, type Balance, type Position, type WalletType } from '../protocol/trading.ts';

/**
 * The account's balance book and open positions as pure reducers over REST snapshots and
 * user-socket frames. The core's user streams (src/core/userStreams.ts) own one of each; the
 * assets pages and the dashboard read them.
 *
 * Ordering rule (the race between a snapshot and live frames): frames that arrive while a
 * snapshot request is in flight are buffered and re-applied, in arrival order, on top of the
 * snapshot when it lands. A frame is pushed after its change commits, so re-applying it either
 * repeats what the snapshot already holds or moves the row forward; the newest frame per row
 * always wins. Frames arriving with no request in flight apply at once. The state starts with
 * the first load in flight; an answer while none is in flight is ignored. A failed load keeps
 * what was shown (plus the frames) and says why.
 *
 * Invariants (property-tested in tests/unit/ui/assetsModel.prop.test.ts and
 * tests/unit/core/accountBooks.prop.test.ts): one row per (wallet, coin) / per position id,
 * whatever order frames for different rows arrive in; a frame received after the latest request
 * wins over that request's snapshot.
 */

/** `wallet|coin`: one row of the book. */
export type BalanceKey = `${WalletType}|${string}`;
export type BalanceBook = ReadonlyMap<BalanceKey, Balance>;

export function balanceKey(wallet: WalletType, coin: string): BalanceKey {
  return `${wallet}|${coin}`;
}

/** A book from a REST snapshot (a later row for the same key wins). */
export function bookFromList(list: readonly Balance[]): BalanceBook {
  const m = new Map<BalanceKey, Balance>();
  for (const b of list) m.set(balanceKey(b.wallet, b.coin), b);
  return m;
}

/** The book with `b` replacing its (wallet, coin) row; a new map, the input is not touched. */
export function applyBalance(book: BalanceBook, b: Balance): BalanceBook {
  const m = new Map(book);
  m.set(balanceKey(b.wallet, b.coin), b);
  return m;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Narrows an untrusted socket payload to a Balance (null when it is not one). */
export function asBalance(v: unknown): Balance | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const wallet = o.wallet;
  if (typeof wallet !== 'string' || !(WALLETS as readonly string[]).includes(wallet)) return null;
  if (typeof o.coin !== 'string' || o.coin === '') return null;
  for (const k of ['available', 'frozen', 'total'] as const) {
    const x = o[k];
    if (typeof x !== 'string' || !DECIMAL.test(x)) return null;
  }
  return { wallet: wallet as WalletType, coin: o.coin, available: o.available as string, frozen: o.frozen as string, total: o.total as string };
}

/** Accepts `Balance[]` or `{ list: Balance[] }` (whichever the server answers) and drops bad rows. */
export function asBalanceList(data: unknown): Balance[] {
  const raw = Array.isArray(data) ? data : typeof data === 'object' && data !== null && Array.isArray((data as { list?: unknown }).list) ? (data as { list: unknown[] }).list : [];
  return raw.map(asBalance).filter((b): b is Balance => b !== null);
}

/** A position frame: the position, and whether it was closed (then it leaves the list). */
export type PositionFrame = Position & { closed: boolean };

/** Open positions by id, updated by `position` frames (`closed: true` removes; an update keeps its place). */
export function applyPositionFrame(list: readonly Position[], p: Position & { closed?: boolean }): Position[] {
  const rest = list.filter((x) => x.id !== p.id);
  if (p.closed === true) return rest;
  const { closed: _closed, ...pos } = p;
  const i = list.findIndex((x) => x.id === p.id);
  if (i < 0) return [...rest, pos];
  const out = [...list];
  out[i] = pos;
  return out;
}

/** Narrows an untrusted `position` frame payload (null when it lacks the fields the pages read). */
export function asPositionFrame(v: unknown): PositionFrame | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.id !== 'string' || typeof o.symbol !== 'string' || (o.contract !== 'perp' && o.contract !== 'std')) return null;
  if (typeof o.unrealizedPnl !== 'string' || typeof o.margin !== 'string') return null;
  return { ...(o as unknown as Position), closed: o.closed === true };
}

/** A REST answer of GET /trade/positions as a list of open positions (bad rows dropped). */
export function asPositionList(data: unknown): Position[] {
  if (!Array.isArray(data)) return [];
  return data
    .map(asPositionFrame)
    .filter((p): p is PositionFrame => p !== null && !p.closed)
    .map(({ closed: _closed, ...p }) => p);
}

// ---- the snapshot-plus-frames reducer, shared by both books ----------------------------------

export type LiveBookStatus = 'loading' | 'ready' | 'error';

export interface LiveBookState<B, F> {
  status: LiveBookStatus;
  book: B;
  /** Frames received since the in-flight request was sent (empty when none is in flight). */
  buffered: readonly F[];
  inFlight: boolean;
  error: string | null;
}

export type LiveBookEvent<S, F> = { type: 'requested' } | { type: 'snapshot'; list: S } | { type: 'failed'; msg: string } | { type: 'frame'; item: F };

/** The reducer for one book, from how a snapshot becomes a book and how a frame changes it. */
export function liveBookReducer<B, F, S>(fromSnapshot: (list: S) => B, apply: (book: B, frame: F) => B) {
  return (s: LiveBookState<B, F>, e: LiveBookEvent<S, F>): LiveBookState<B, F> => {
    switch (e.type) {
      case 'requested':
        return { ...s, inFlight: true, buffered: [] };
      case 'snapshot': {
        if (!s.inFlight) return s; // an answer nobody waits for
        return { status: 'ready', book: s.buffered.reduce(apply, fromSnapshot(e.list)), buffered: [], inFlight: false, error: null };
      }
      case 'failed':
        if (!s.inFlight) return s;
        // Keep what we had (a refresh failing after a good load still shows the last book + frames).
        return { ...s, status: s.status === 'ready' ? 'ready' : 'error', buffered: [], inFlight: false, error: e.msg };
      case 'frame':
        return { ...s, buffered: s.inFlight ? [...s.buffered, e.item] : s.buffered, book: apply(s.book, e.item) };
    }
  };
}

export type BalancesStatus = LiveBookStatus;
export type BalancesState = LiveBookState<BalanceBook, Balance>;
export type BalancesEvent = LiveBookEvent<readonly Balance[], Balance>;
export type PositionsState = LiveBookState<readonly Position[], PositionFrame>;
export type PositionsEvent = LiveBookEvent<readonly Position[], PositionFrame>;

/** The first load counts as in flight from the start, so a frame that beats the request is still re-applied. */
export function initialBalances(): BalancesState {
  return { status: 'loading', book: new Map(), buffered: [], inFlight: true, error: null };
}

export function initialPositions(): PositionsState {
  return { status: 'loading', book: [], buffered: [], inFlight: true, error: null };
}

export const reduceBalances = liveBookReducer<BalanceBook, Balance, readonly Balance[]>(bookFromList, applyBalance);
export const reducePositions = liveBookReducer<readonly Position[], PositionFrame, readonly Position[]>((list) => list.reduce<Position[]>(applyPositionFrame, []), applyPositionFrame);
