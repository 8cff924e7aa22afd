import { useMemo, useRef } from 'react';
import type { Query } from '../../api/client.ts';
import type { Load } from '../../core/liveQuery.ts';
import { useAppCore } from '../app/AppCoreProvider.tsx';
import { useStream } from './useStream.ts';

export type { Load };

const LOADING = { status: 'loading' } as const;

/**
 * One GET that follows the server live, owned by the core (src/core/liveQuery.ts): made again
 * when `path` or `query` change, on `reload()`, and on every user-socket frame whose type is in
 * `reloadOn`. The last answer stays on screen while the next loads.
 */
export function useLiveGet<T>(path: string, query: Query, reloadOn: readonly string[]): { load: Load<T>; reload: () => void } {
  const queries = useAppCore().streams.queries;
  // NOTE: the query object is new on every render; its JSON (undefined fields dropped, as the
  // request itself drops them) is the key, and the query is read back from it.
  const queryKey = JSON.stringify(query);
  const frameKey = reloadOn.join(' ');
  const live = useMemo(() => queries.get<T>(path, JSON.parse(queryKey) as Query, frameKey.split(' ')), [queries, path, queryKey, frameKey]);
  const load = useStream(live.load$, LOADING as Load<T>);
  // Another page or filter is a new query: keep showing the last answer while it loads.
  const shown = useRef<Load<T>>(LOADING);
  if (load.status !== 'loading') shown.current = load;
  return { load: shown.current, reload: live.reload };
}
