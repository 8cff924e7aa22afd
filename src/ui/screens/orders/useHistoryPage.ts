import type { Page } from '../../../protocol/envelope.ts';
import { useLiveGet, type Load } from '../../hooks/useLiveGet.ts';
import { historyRequest, type HistoryFilters, type OrderTab } from './historyQuery.ts';

export type HistoryLoad<T> = Load<Page<T>>;

const ORDER_FRAMES = ['order'];
const BALANCE_FRAMES = ['balance'];

/**
 * One page of a tab. Reloads when the tab, filters or page change, when `reload()` is called
 * (after a cancel) and when the user socket reports a change that tab shows (order frames for the
 * order tabs, balance frames for the ledger).
 */
export function useHistoryPage<T>(tab: OrderTab, filters: HistoryFilters, page: number): { load: HistoryLoad<T>; reload: () => void } {
  const { path, query } = historyRequest(tab, filters, page);
  return useLiveGet<Page<T>>(path, query, tab === 'ledger' ? BALANCE_FRAMES : ORDER_FRAMES);
}
