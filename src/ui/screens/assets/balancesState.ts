import type { Balance, Position } from '../../../protocol/trading.ts';
import { applyBalance, bookFromList, type BalanceBook } from './assetsModel.ts';

/**
 * The balance book as a reducer over REST loads and user-socket frames.
 *
 * Ordering rule (the race between a snapshot and live frames): frames that arrive while a
 * snapshot request is in flight are buffered and re-applied, in arrival order, on top of the
 * snapshot when it lands. A frame is pushed after its change commits, so re-applying it either
 * repeats what the snapshot already holds or moves the row forward; the newest frame per row
 * always wins. Frames arriving with no request in flight apply at once. The state starts with
 * the first load in flight; an answer while none is in flight is ignored.
 */
export type BalancesStatus = 'loading' | 'ready' | 'error';

export interface BalancesState {
  status: BalancesStatus;
  book: BalanceBook;
  /** Frames received since the in-flight request was sent (empty when none is in flight). */
  buffered: readonly Balance[];
  inFlight: boolean;
  error: string | null;
}

export type BalancesEvent =
  | { type: 'requested' }
  | { type: 'snapshot'; list: readonly Balance[] }
  | { type: 'failed'; msg: string }
  | { type: 'frame'; balance: Balance };

export function initialBalances(): BalancesState {
  // NOTE: the first load counts as in flight from the start, so a frame that beats the mount
  // effect's request is still buffered and re-applied.
  return { status: 'loading', book: new Map(), buffered: [], inFlight: true, error: null };
}

export function reduceBalances(s: BalancesState, e: BalancesEvent): BalancesState {
  switch (e.type) {
    case 'requested':
      return { ...s, inFlight: true, buffered: [] };
    case 'snapshot': {
      if (!s.inFlight) return s; // an answer nobody waits for (cannot happen via the hook; harmless)
      let book = bookFromList(e.list);
      for (const b of s.buffered) book = applyBalance(book, b);
      return { status: 'ready', book, buffered: [], inFlight: false, error: null };
    }
    case 'failed':
      if (!s.inFlight) return s;
      // Keep what we had (a refresh failing after a good load still shows the last book + frames).
      return {
        ...s,
        status: s.status === 'ready' ? 'ready' : 'error',
        book: s.buffered.reduce(applyBalance, s.book),
        buffered: [],
        inFlight: false,
        error: e.msg,
      };
    case 'frame':
      return s.inFlight
        ? { ...s, buffered: [...s.buffered, e.balance], book: applyBalance(s.book, e.balance) }
        : { ...s, book: applyBalance(s.book, e.balance) };
  }
}

/** Open positions by id, updated by `position` frames (`closed: true` removes). */
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
export function asPositionFrame(v: unknown): (Position & { closed: boolean }) | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.id !== 'string' || typeof o.symbol !== 'string' || (o.contract !== 'perp' && o.contract !== 'std')) return null;
  if (typeof o.unrealizedPnl !== 'string' || typeof o.margin !== 'string') return null;
  return { ...(o as unknown as Position), closed: o.closed === true };
}
