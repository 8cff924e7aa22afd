import type { AssetCategory, ContractKind, SymbolInfo, Ticker } from '../../../protocol/market.ts';

/**
 * Pure selectors behind the Market overview (SPEC §2, §3): joining instruments with their
 * live tickers, filtering by contract kind / asset category / favourites / search text,
 * sorting by a column, and the hot / top-gainer / top-volume boards.
 *
 * Invariants (pinned by property tests in tests/unit/ui/marketList.prop.test.ts):
 * - `selectRows` returns a subset of its input rows, without duplicates, and never a row
 *   whose instrument is not listed for the selected kind.
 * - Sorting is a permutation; rows without a ticker always sort last (in either direction);
 *   ties break by symbol, so the order is total and stable across renders.
 * - Nothing here reads a clock or mutates its input.
 */

/** One line of the list: the instrument and its latest 24 h ticker, if one has arrived. */
export interface MarketRow {
  info: SymbolInfo;
  ticker: Ticker | undefined;
}

/** The category tabs: the four asset categories plus the user's favourites. */
export type CategoryTab = 'favorites' | AssetCategory;
export const CATEGORY_TABS: readonly CategoryTab[] = ['favorites', 'crypto', 'commodity', 'stock', 'index'];

export type SortKey = 'pair' | 'last' | 'change' | 'high' | 'low' | 'volume';
export const SORT_KEYS: readonly SortKey[] = ['pair', 'last', 'change', 'high', 'low', 'volume'];
export type SortDir = 'asc' | 'desc';
/** `null` keeps the server's listing order. */
export type Sort = { key: SortKey; dir: SortDir } | null;

export interface ListFilter {
  kind: ContractKind;
  category: CategoryTab;
  /** Free text, matched case-insensitively against symbol, base and name; '/', '-' and spaces are ignored. */
  search: string;
  favorites: ReadonlySet<string>;
}

/** Joins instruments with tickers; `lookup` is whatever the ticker stream exposes. */
export function joinRows(
  symbols: readonly SymbolInfo[],
  lookup: (symbol: string) => Ticker | undefined,
): MarketRow[] {
  return symbols.map((info) => ({ info, ticker: lookup(info.symbol) }));
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/[\s/-]+/g, '');
}

/** Whether a row matches the search text (an empty search matches everything). */
export function matchesSearch(info: SymbolInfo, search: string): boolean {
  const q = normalise(search);
  if (q.length === 0) return true;
  return (
    normalise(info.symbol).includes(q) || normalise(info.base).includes(q) || normalise(info.name).includes(q)
  );
}

/** The numeric value a column sorts by, or `undefined` when the row has no ticker yet. */
export function sortValue(row: MarketRow, key: Exclude<SortKey, 'pair'>): number | undefined {
  const t = row.ticker;
  if (!t) return undefined;
  switch (key) {
    case 'last':
      return t.last;
    case 'change':
      return t.changePct;
    case 'high':
      return t.high;
    case 'low':
      return t.low;
    case 'volume':
      return t.quoteVolume;
  }
}

function finite(n: number | undefined): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

/** A total order for one column; rows without a (finite) value go last in both directions. */
export function compareRows(a: MarketRow, b: MarketRow, sort: NonNullable<Sort>): number {
  const sign = sort.dir === 'asc' ? 1 : -1;
  const bySymbol = a.info.symbol < b.info.symbol ? -1 : a.info.symbol > b.info.symbol ? 1 : 0;
  if (sort.key === 'pair') return sign * bySymbol;
  const va = sortValue(a, sort.key);
  const vb = sortValue(b, sort.key);
  const ha = finite(va);
  const hb = finite(vb);
  if (!ha || !hb) {
    if (ha === hb) return bySymbol;
    return ha ? -1 : 1;
  }
  if (va !== vb) return sign * (va < vb ? -1 : 1);
  return bySymbol;
}

/** Returns a sorted copy; `null` keeps the input order. */
export function sortRows(rows: readonly MarketRow[], sort: Sort): MarketRow[] {
  if (!sort) return rows.slice();
  return rows.slice().sort((a, b) => compareRows(a, b, sort));
}

/** Filters then sorts: what the contract list renders. */
export function selectRows(rows: readonly MarketRow[], filter: ListFilter, sort: Sort): MarketRow[] {
  const kept = rows.filter((row) => {
    const { info } = row;
    if (!info.kinds.includes(filter.kind)) return false;
    if (filter.category === 'favorites') {
      if (!filter.favorites.has(info.symbol)) return false;
    } else if (info.category !== filter.category) {
      return false;
    }
    return matchesSearch(info, filter.search);
  });
  return sortRows(kept, sort);
}

/**
 * Next sort when a column header is clicked: a new column starts descending for numbers
 * (biggest first, as exchanges do) and ascending for the pair name; the same column flips
 * asc/desc and then returns to the listing order.
 */
export function nextSort(current: Sort, key: SortKey): Sort {
  const first: SortDir = key === 'pair' ? 'asc' : 'desc';
  if (!current || current.key !== key) return { key, dir: first };
  if (current.dir === first) return { key, dir: first === 'asc' ? 'desc' : 'asc' };
  return null;
}

/** Hot instruments (hot=true) that have a ticker, in listing order. */
export function selectHot(rows: readonly MarketRow[], limit: number): MarketRow[] {
  return rows.filter((r) => r.info.hot && r.ticker).slice(0, limit);
}

/** Rows with a ticker, best 24 h change first. */
export function selectTopGainers(rows: readonly MarketRow[], limit: number): MarketRow[] {
  return sortRows(
    rows.filter((r) => r.ticker),
    { key: 'change', dir: 'desc' },
  ).slice(0, limit);
}

/** Rows with a ticker, biggest 24 h quote volume first. */
export function selectTopVolume(rows: readonly MarketRow[], limit: number): MarketRow[] {
  return sortRows(
    rows.filter((r) => r.ticker),
    { key: 'volume', dir: 'desc' },
  ).slice(0, limit);
}

/** The trade route of a row (SPEC §2): USDT-M goes to /mFutures, standard to /stdFuture. */
export function tradePath(kind: ContractKind, symbol: string): string {
  return kind === 'perp' ? `/mFutures/${symbol}` : `/stdFuture/${symbol}`;
}
