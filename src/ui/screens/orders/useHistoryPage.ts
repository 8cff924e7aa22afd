import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import type { Page } from '../../../protocol/envelope.ts';
import { useApi, useUserFrames } from '../../app/AppCoreProvider.tsx';
import { historyRequest, type HistoryFilters, type OrderTab } from './historyQuery.ts';

export type HistoryLoad<T> = { status: 'loading' } | { status: 'error'; msg: string } | { status: 'ready'; page: Page<T> };

/**
 * One page of a tab. Reloads when the tab, filters or page change, when `reload()` is called
 * (after a cancel) and when the user socket reports a change that tab shows (order frames for the
 * order tabs, balance frames for the ledger). A stale answer is ignored, not aborted (an aborted
 * call would surface as a network-error toast).
 */
export function useHistoryPage<T>(tab: OrderTab, filters: HistoryFilters, page: number): { load: HistoryLoad<T>; reload: () => void } {
  const api = useApi();
  const frames$ = useUserFrames();
  const [load, setLoad] = useState<HistoryLoad<T>>({ status: 'loading' });
  const [nonce, setNonce] = useState(0);
  const reload = useCallback(() => setNonce((n) => n + 1), []);

  useEffect(() => {
    let live = true;
    const { path, query } = historyRequest(tab, filters, page);
    api
      .get<Page<T>>(path, query)
      .then((p) => {
        if (live) setLoad({ status: 'ready', page: p });
      })
      .catch((e: unknown) => {
        if (live) setLoad({ status: 'error', msg: errorMessage(e) });
      });
    return () => {
      live = false;
    };
  }, [api, tab, filters, page, nonce]);

  useEffect(() => {
    const wanted = tab === 'ledger' ? 'balance' : 'order';
    const sub = frames$.subscribe((f) => {
      if (f.type === wanted) reload();
    });
    return () => sub.unsubscribe();
  }, [frames$, tab, reload]);

  return { load, reload };
}
