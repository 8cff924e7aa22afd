import { useMemo } from 'react';
import type { FavoritesStore } from '../../core/favorites.ts';
import { useCurrent } from './useCurrent.ts';

export interface MarketFavorites {
  /** Favourite symbols of the current user (or guest). */
  set: ReadonlySet<string>;
  toggle: (symbol: string) => void;
}

/**
 * The current user's favourite contracts from the core's store (src/core/favorites.ts: per user
 * through the Storage port, recorded like every other storage write). Switching user (login,
 * logout) switches lists: the store reads the new user's list when the user changes.
 */
export function useMarketFavorites(store: FavoritesStore): MarketFavorites {
  const list = useCurrent(store.list$, store.get);
  const set = useMemo(() => new Set(list), [list]);
  return { set, toggle: store.toggle };
}
