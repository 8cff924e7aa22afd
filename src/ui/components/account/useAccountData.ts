import { useMemo } from 'react';
import { NEVER } from 'rxjs';
import { apiPath } from '../../../core/accountBooks.ts';
import type { Load } from '../../../core/liveQuery.ts';
import type { Ticker } from '../../../protocol/market.ts';
import type { Position } from '../../../protocol/trading.ts';
import { asBalanceList, initialBalances, initialPositions, type BalancesStatus } from '../../../streams/accountBooks.ts';
import { useAppCore } from '../../app/AppCoreProvider.tsx';
import { useStream } from '../../hooks/useStream.ts';
import { parseScaled } from '../../../protocol/decimal.ts';
import { currencyOf, needsPrice, pricesFromTickers, type BalanceBook, type Currency, type PriceMap } from './assetsModel.ts';

export { apiPath, asBalanceList };

export interface BalancesView {
  status: BalancesStatus;
  book: BalanceBook;
  error: string | null;
  /** Reloads the snapshot (after a transfer); frames keep flowing meanwhile. */
  refresh: () => void;
}

const FIRST_BALANCES = initialBalances();
const FIRST_POSITIONS = initialPositions();

/**
 * The caller's balances, owned by the core (`core.streams.user.balances`, src/core/accountBooks.ts):
 * GET /wallet/balances when the first reader mounts and on `refresh()`, kept live by the user
 * socket's `balance` frames (ordering rule in src/streams/accountBooks.ts).
 */
export function useBalances(): BalancesView {
  const book = useAppCore().streams.user.balances;
  const s = useStream(book.state$, FIRST_BALANCES);
  return useMemo(() => ({ status: s.status, book: s.book, error: s.error, refresh: book.refresh }), [s, book]);
}

/** Open positions of both contracts (GET /trade/positions, `position` frames), owned by the core. */
export function usePositions(): { positions: Position[]; loaded: boolean } {
  const s = useStream(useAppCore().streams.user.positions.state$, FIRST_POSITIONS);
  return useMemo(() => ({ positions: s.book as Position[], loaded: s.status !== 'loading' }), [s]);
}

const NO_TICKERS: Load<Ticker[]> = { status: 'loading' };

/**
 * USD prices for the coins in `book` that are not dollars: /market/tickers through a core live
 * query, asked only when such a coin has a non-zero balance (an all-USDT account makes no market call).
 */
export function useCoinPrices(book: BalanceBook): PriceMap {
  const queries = useAppCore().streams.queries;
  const needed = useMemo(() => [...book.values()].some((b) => needsPrice(b.coin) && (parseScaled(b.total) ?? 0n) !== 0n), [book]);
  const load$ = useMemo(() => (needed ? queries.get<Ticker[]>('/market/tickers', {}, []).load$ : NEVER), [queries, needed]);
  const load = useStream(load$, NO_TICKERS);
  return useMemo(() => (load.status === 'ready' && Array.isArray(load.data) ? pricesFromTickers(load.data) : {}), [load]);
}

/** The display currency from the session store's `currency_icon` (default USD; src/core/devicePrefs.ts). */
export function useCurrency(): Currency {
  return currencyOf(useAppCore().device.currency());
}
