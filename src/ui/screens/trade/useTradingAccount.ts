import { useCallback, useMemo } from 'react';
import type { ContractKind } from '../../../protocol/market.ts';
import type { Order } from '../../../protocol/trading.ts';
import type { HistoryList, TradingApi } from '../../../core/tradingApi.ts';
import type { TradingAccountState } from '../../../core/userStreams.ts';
import { useAppCore } from '../../app/AppCoreProvider.tsx';
import { useStream } from '../../hooks/useStream.ts';

/** The logged-in user's futures account as the trade screen shows it. */
export interface TradingAccount extends TradingAccountState {
  api: TradingApi;
  /** Reload every list (after an action whose socket frame may not cover every list). */
  refresh: () => void;
  /** The next 50 rows of a history list (issue 14: histories page beyond the first 50). */
  loadMore: (list: HistoryList) => void;
  lastOrderFrame: Order | null;
}

const EMPTY: TradingAccountState = { loggedIn: false, balance: null, positions: [], openOrders: [], orderHistory: [], fills: [], ledger: [], lastOrderFrame: null };

/**
 * The trade screen's account of one contract kind, read from the core's user streams
 * (src/core/userStreams.ts: REST lists while a session exists, followed by the user socket).
 */
export function useTradingAccount(contract: ContractKind): TradingAccount {
  const user = useAppCore().streams.user;
  const state = useStream(useMemo(() => user.trading$(contract), [user, contract]), EMPTY);
  const refresh = useCallback(() => user.refreshTrading(contract), [user, contract]);
  const api = useMemo(() => user.tradingApi(contract), [user, contract]);
  const loadMore = useCallback((list: HistoryList) => user.loadMoreTrading(contract, list), [user, contract]);
  return { ...state, api, refresh, loadMore };
}
