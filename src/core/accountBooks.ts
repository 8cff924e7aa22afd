import { Observable } from 'rxjs';
import type { ApiClient, Query } from '../api/client.ts';
import { errorMessage } from '../api/client.ts';
import type { InboundFrame } from '../machines/socketMachine.ts';
import { TRADING_PATHS, type Balance, type Position } from '../protocol/trading.ts';
import {
  asBalance,
  asBalanceList,
  asPositionFrame,
  asPositionList,
  initialBalances,
  initialPositions,
  reduceBalances,
  reducePositions,
  type BalancesState,
  type LiveBookEvent,
  type LiveBookState,
  type PositionsState,
} from '../streams/accountBooks.ts';

/** One account book owned by the core: its state as it changes, and a reload. */
export interface AccountBook<St> {
  /** The current state at once, then every change (the UI throttles with useStream). */
  state$: Observable<St>;
  /** Loads the snapshot again (after a transfer); frames keep applying meanwhile. Calls in one synchronous run are one request. */
  refresh(): void;
  /** The state while a reader holds the book, else null (what replay hashes). */
  current(): St | null;
}

interface BookDeps {
  api: ApiClient;
  frames$: Observable<InboundFrame>;
  defer: (fn: () => void) => void;
}

/** TRADING_PATHS carry the `/api` base; the api client adds it itself. */
export function apiPath(path: string): string {
  return path.startsWith('/api/') ? path.slice(4) : path;
}

/**
 * A book loaded when its first reader subscribes and kept live by one user-socket frame type
 * while any reader lives (the reducer's ordering rule settles a frame racing the snapshot). When
 * the last reader leaves the book is dropped and an answer still on its way is ignored (rather
 * than aborted: the api client turns aborts into network-error toasts); the next reader loads
 * again.
 */
function ownBook<B, F, S>(
  deps: BookDeps,
  spec: {
    path: string;
    query?: Query;
    frameType: string;
    asFrame: (data: unknown) => F | null;
    asSnapshot: (data: unknown) => S;
    reduce: (s: LiveBookState<B, F>, e: LiveBookEvent<S, F>) => LiveBookState<B, F>;
    initial: () => LiveBookState<B, F>;
  },
): AccountBook<LiveBookState<B, F>> {
  let state = spec.initial();
  const listeners = new Set<(s: LiveBookState<B, F>) => void>();
  let generation = 0;
  let queued = false;
  let frames: { unsubscribe(): void } | null = null;

  const dispatch = (e: LiveBookEvent<S, F>) => {
    const next = spec.reduce(state, e);
    if (next === state) return;
    state = next;
    for (const fn of [...listeners]) fn(state);
  };
  const request = () => {
    queued = false;
    if (listeners.size === 0) return;
    const gen = ++generation;
    dispatch({ type: 'requested' });
    deps.api.get<unknown>(spec.path, spec.query).then(
      (data) => gen === generation && dispatch({ type: 'snapshot', list: spec.asSnapshot(data) }),
      (e: unknown) => gen === generation && dispatch({ type: 'failed', msg: errorMessage(e) }),
    );
  };

  const state$ = new Observable<LiveBookState<B, F>>((sub) => {
    const fn = (s: LiveBookState<B, F>) => sub.next(s);
    const first = listeners.size === 0;
    listeners.add(fn);
    if (first) {
      state = spec.initial();
      frames = deps.frames$.subscribe((f) => {
        if (f.type !== spec.frameType) return;
        const item = spec.asFrame((f as { data?: unknown }).data);
        if (item !== null) dispatch({ type: 'frame', item });
      });
      request();
    }
    sub.next(state);
    return () => {
      listeners.delete(fn);
      if (listeners.size > 0) return;
      generation += 1;
      frames?.unsubscribe();
      frames = null;
      state = spec.initial();
    };
  });

  return {
    state$,
    refresh() {
      if (queued || listeners.size === 0) return;
      queued = true;
      deps.defer(request);
    },
    current: () => (listeners.size > 0 ? state : null),
  };
}

/** The caller's balances in every wallet (GET /wallet/balances, `balance` frames). */
export function balancesBook(deps: BookDeps): AccountBook<BalancesState> {
  return ownBook<BalancesState['book'], Balance, readonly Balance[]>(deps, {
    path: apiPath(TRADING_PATHS.balances),
    frameType: 'balance',
    asFrame: asBalance,
    asSnapshot: asBalanceList,
    reduce: reduceBalances,
    initial: initialBalances,
  });
}

/** The caller's open positions of both contracts (GET /trade/positions, `position` frames). */
export function positionsBook(deps: BookDeps): AccountBook<PositionsState> {
  return ownBook<readonly Position[], NonNullable<ReturnType<typeof asPositionFrame>>, readonly Position[]>(deps, {
    path: apiPath(TRADING_PATHS.positions),
    frameType: 'position',
    asFrame: asPositionFrame,
    asSnapshot: asPositionList,
    reduce: reducePositions,
    initial: initialPositions,
  });
}

/** A held book as plain data for the state hash (undefined when no reader holds it, so logs without the pages hash as before). */
export function bookState(b: BalancesState | PositionsState | null): Record<string, unknown> | undefined {
  if (b === null) return undefined;
  const rows = b.book instanceof Map ? Object.fromEntries(b.book) : b.book;
  return { status: b.status, rows, error: b.error ?? undefined };
}
