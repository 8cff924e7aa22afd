import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import type { Ticker } from '../../../protocol/market.ts';
import { TRADING_PATHS, type Balance, type Position } from '../../../protocol/trading.ts';
import { useApi, useUserFrames } from '../../app/AppCoreProvider.tsx';
import { useShellEnv } from '../../hooks/useShellEnv.ts';
import { parseScaled } from './decimal.ts';
import { asBalance, CURRENCY_STORAGE_KEY, currencyOf, needsPrice, pricesFromTickers, type BalanceBook, type Currency, type PriceMap } from './assetsModel.ts';
import { applyPositionFrame, asPositionFrame, initialBalances, reduceBalances, type BalancesStatus } from './balancesState.ts';

/** TRADING_PATHS carry the `/api` base; the api client adds it itself. */
export function apiPath(path: string): string {
  return path.startsWith('/api/') ? path.slice(4) : path;
}

/** Accepts `Balance[]` or `{ list: Balance[] }` (whichever the server answers) and drops bad rows. */
export function asBalanceList(data: unknown): Balance[] {
  const raw = Array.isArray(data) ? data : typeof data === 'object' && data !== null && Array.isArray((data as { list?: unknown }).list) ? (data as { list: unknown[] }).list : [];
  return raw.map(asBalance).filter((b): b is Balance => b !== null);
}

export interface BalancesView {
  status: BalancesStatus;
  book: BalanceBook;
  error: string | null;
  /** Reloads the snapshot (after a transfer); frames keep flowing meanwhile. */
  refresh: () => void;
}

/**
 * The caller's balances: GET /wallet/balances on mount and on `refresh()`, kept live by the user
 * socket's `balance` frames (ordering rule in balancesState.ts). A stale answer (component gone)
 * is ignored rather than aborted: the api client turns aborts into network-error toasts.
 */
export function useBalances(): BalancesView {
  const api = useApi();
  const frames$ = useUserFrames();
  const [state, dispatch] = useReducer(reduceBalances, undefined, initialBalances);
  const [nonce, setNonce] = useState(0);

  useEffect(() => {
    let live = true;
    dispatch({ type: 'requested' });
    api
      .get<unknown>(apiPath(TRADING_PATHS.balances))
      .then((data) => {
        if (live) dispatch({ type: 'snapshot', list: asBalanceList(data) });
      })
      .catch((e: unknown) => {
        if (live) dispatch({ type: 'failed', msg: errorMessage(e) });
      });
    return () => {
      live = false;
    };
  }, [api, nonce]);

  useEffect(() => {
    const sub = frames$.subscribe((f) => {
      if (f.type !== 'balance') return;
      const b = asBalance(f.data);
      if (b) dispatch({ type: 'frame', balance: b });
    });
    return () => sub.unsubscribe();
  }, [frames$]);

  const refresh = useCallback(() => setNonce((n) => n + 1), []);
  return { status: state.status, book: state.book, error: state.error, refresh };
}

/** Open positions (GET /trade/positions), kept live by `position` frames. */
export function usePositions(): { positions: Position[]; loaded: boolean } {
  const api = useApi();
  const frames$ = useUserFrames();
  const [positions, setPositions] = useState<Position[]>([]);
  const [loaded, setLoaded] = useState(false);
  // Frames that beat the snapshot are re-applied on top of it (same rule as balances).
  const early = useRef<(Position & { closed: boolean })[] | null>([]);

  useEffect(() => {
    let live = true;
    api
      .get<unknown>(apiPath(TRADING_PATHS.positions))
      .then((data) => {
        if (!live) return;
        const list = Array.isArray(data) ? (data.map(asPositionFrame).filter((p) => p !== null) as Position[]) : [];
        setPositions((early.current ?? []).reduce<Position[]>(applyPositionFrame, list));
        early.current = null;
        setLoaded(true);
      })
      .catch(() => {
        if (live) setLoaded(true);
      });
    return () => {
      live = false;
    };
  }, [api]);

  useEffect(() => {
    const sub = frames$.subscribe((f) => {
      if (f.type !== 'position') return;
      const p = asPositionFrame(f.data);
      if (!p) return;
      if (early.current) early.current.push(p);
      setPositions((list) => applyPositionFrame(list, p));
    });
    return () => sub.unsubscribe();
  }, [frames$]);

  return { positions, loaded };
}

/**
 * USD prices for the coins in `book` that are not dollars. Fetches /market/tickers once, and only
 * when such a coin has a non-zero balance (an all-USDT account makes no market call).
 */
export function useCoinPrices(book: BalanceBook): PriceMap {
  const api = useApi();
  const needed = useMemo(() => [...book.values()].some((b) => needsPrice(b.coin) && (parseScaled(b.total) ?? 0n) !== 0n), [book]);
  const [prices, setPrices] = useState<PriceMap>({});
  useEffect(() => {
    if (!needed) return;
    let live = true;
    api
      .get<Ticker[]>('/market/tickers')
      .then((list) => {
        if (live && Array.isArray(list)) setPrices(pricesFromTickers(list));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api, needed]);
  return prices;
}

/** The display currency from the session store's `currency_icon` (default USD). */
export function useCurrency(): Currency {
  const { storage } = useShellEnv();
  return currencyOf(storage.get(CURRENCY_STORAGE_KEY));
}
