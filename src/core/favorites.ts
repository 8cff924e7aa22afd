import type { Observable } from 'rxjs';
import type { Storage } from '../ports/types.ts';
import { createUserStored } from './userStored.ts';

/**
 * Favourite contracts, stored per user (SPEC §3 "favorites" category) under
 * `favorites:<uid>` for a logged-in user and `favorites:guest` for a visitor, as a JSON
 * array of symbols.
 *
 * Invariants (property-tested): a parsed list never contains duplicates or non-strings,
 * whatever the stored text is; `toggleFavorite` twice is the identity; toggling one symbol
 * never touches the others.
 */

const FAVORITES_KEY = 'favorites';
const GUEST = 'guest';

/** Storage key of one user's favourites; `uid` null or empty means the guest list. */
export function favoritesKey(uid: string | number | null | undefined): string {
  return `${FAVORITES_KEY}:${uid === null || uid === undefined || uid === '' ? GUEST : uid}`;
}

/** Reads a stored list defensively: anything malformed gives what could be salvaged, or []. */
export function parseFavorites(raw: string | null): string[] {
  if (raw === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  for (const item of value) {
    if (typeof item === 'string' && item.length > 0 && item.length <= 32) seen.add(item);
  }
  return [...seen];
}

export function serializeFavorites(list: readonly string[]): string {
  return JSON.stringify(list);
}

/** Adds the symbol at the end, or removes it if present. */
export function toggleFavorite(list: readonly string[], symbol: string): string[] {
  return list.includes(symbol) ? list.filter((s) => s !== symbol) : [...list, symbol];
}

/**
 * The current user's favourites as the core keeps them (issue 27: the screens reach the Storage
 * port through the core): read through the core's storage port (recorded as `storage.*`) under
 * {@link favoritesKey} of the user (the guest list while nobody is logged in), again on every user
 * switch; a toggle writes the whole list back.
 */
export interface FavoritesStore {
  /** The current user's (or guest's) favourite symbols now. */
  get(): readonly string[];
  /** The current list, then every change (a user switch included). */
  list$: Observable<readonly string[]>;
  /** Adds or removes one symbol for the current user (or guest). */
  toggle(symbol: string): void;
  stop(): void;
}

export function createFavorites(deps: { storage: Storage; userId$: Observable<number | null> }): FavoritesStore {
  const stored = createUserStored<readonly string[]>({ ...deps, prefix: FAVORITES_KEY, parse: parseFavorites, guestOwner: GUEST });
  return {
    get: stored.get,
    list$: stored.value$,
    toggle: (symbol) => stored.update((list) => toggleFavorite(list, symbol)),
    stop: stored.stop,
  };
}
