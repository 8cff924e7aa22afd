/**
 * Favourite contracts, stored per user (SPEC §3 "favorites" category) under
 * `favorites:<uid>` for a logged-in user and `favorites:guest` for a visitor, as a JSON
 * array of symbols.
 *
 * Invariants (property-tested): a parsed list never contains duplicates or non-strings,
 * whatever the stored text is; `toggleFavorite` twice is the identity; toggling one symbol
 * never touches the others.
 */

/** Storage key of one user's favourites; `uid` null or empty means the guest list. */
export function favoritesKey(uid: string | number | null | undefined): string {
  return uid === null || uid === undefined || uid === '' ? 'favorites:guest' : `favorites:${uid}`;
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
