import { useCallback, useMemo, useState } from 'react';
import type { Storage } from '../../ports/types.ts';
import { favoritesKey, parseFavorites, serializeFavorites, toggleFavorite } from '../screens/market/favorites.ts';

export interface MarketFavorites {
  /** Favourite symbols of the current user (or guest). */
  set: ReadonlySet<string>;
  toggle: (symbol: string) => void;
}

/**
 * The current user's favourite contracts, read from and written to the Storage port under
 * `favorites:<uid>` (`favorites:guest` when logged out), so each user keeps their own list
 * and the writes are recorded like every other storage write. Switching user (login,
 * logout) switches lists: the list is re-read whenever the key changes.
 */
export function useMarketFavorites(storage: Storage, uid: number | string | null | undefined): MarketFavorites {
  const key = favoritesKey(uid);
  // NOTE: state is keyed by the storage key, so a user switch shows the new user's list in the
  // same render instead of one frame of the previous user's stars.
  const [state, setState] = useState<{ key: string; list: string[] }>(() => ({ key, list: parseFavorites(storage.get(key)) }));
  const list = state.key === key ? state.list : parseFavorites(storage.get(key));
  if (state.key !== key) setState({ key, list });

  const toggle = useCallback(
    (symbol: string) => {
      // Storage is the source of truth: re-reading it makes two quick toggles compose.
      const next = toggleFavorite(parseFavorites(storage.get(key)), symbol);
      storage.set(key, serializeFavorites(next));
      setState({ key, list: next });
    },
    [storage, key],
  );
  const set = useMemo(() => new Set(list), [list]);
  return { set, toggle };
}
