import { useCallback, useEffect, useState } from 'react';
import { errorMessage, type Query } from '../../api/client.ts';
import { useApi, useUserFrames } from '../app/AppCoreProvider.tsx';

/** A GET's state on screen: loading (only before the first answer), failed with the server msg, or ready. */
export type Load<T> = { status: 'loading' } | { status: 'error'; msg: string } | { status: 'ready'; data: T };

/**
 * One GET through the core's recorded Http port that follows the server live: it is made again
 * when `path` or `query` change, on `reload()`, and on every user-socket frame whose type is in
 * `reloadOn` (e.g. 'order' for the order tabs, 'voucher' for the coupon list). The last answer
 * stays on screen while the next loads. A stale answer is ignored rather than aborted (an aborted
 * call would surface as a network-error toast).
 */
export function useLiveGet<T>(path: string, query: Query, reloadOn: readonly string[]): { load: Load<T>; reload: () => void } {
  const api = useApi();
  const frames$ = useUserFrames();
  const [load, setLoad] = useState<Load<T>>({ status: 'loading' });
  const [nonce, setNonce] = useState(0);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  // NOTE: the query object is new on every render; its JSON (undefined fields dropped, as the
  // request itself drops them) is the dependency, and the effect reads the query back from it.
  const queryKey = JSON.stringify(query);
  const frameKey = reloadOn.join(' ');

  useEffect(() => {
    let live = true;
    api
      .get<T>(path, JSON.parse(queryKey) as Query)
      .then((data) => {
        if (live) setLoad({ status: 'ready', data });
      })
      .catch((e: unknown) => {
        if (live) setLoad({ status: 'error', msg: errorMessage(e) });
      });
    return () => {
      live = false;
    };
  }, [api, path, queryKey, nonce]);

  useEffect(() => {
    const types = frameKey.split(' ');
    const sub = frames$.subscribe((f) => {
      if (types.includes(f.type)) reload();
    });
    return () => sub.unsubscribe();
  }, [frames$, frameKey, reload]);

  return { load, reload };
}
