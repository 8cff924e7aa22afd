import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { SymbolInfo, Ticker } from '../../../src/protocol/market.ts';
import {
  CATEGORY_TABS,
  SORT_KEYS,
  compareRows,
  joinRows,
  matchesSearch,
  nextSort,
  selectRows,
  selectTopGainers,
  selectTopVolume,
  sortRows,
  sortValue,
  tradePath,
  type MarketRow,
  type Sort,
} from '../../../src/ui/components/market/marketList.ts';
import { symbol } from './marketFixtures.ts';
import { favoritesKey, parseFavorites, serializeFavorites, toggleFavorite } from '../../../src/core/favorites.ts';


const price = fc.double({ min: 0.0001, max: 1e6, noNaN: true });
const tickerArb = (symbol: string): fc.Arbitrary<Ticker> =>
  fc.record({
    symbol: fc.constant(symbol),
    last: price,
    open: price,
    high: price,
    low: price,
    volume: price,
    quoteVolume: fc.oneof(price, fc.constant(Number.NaN)),
    change: fc.double({ min: -1000, max: 1000, noNaN: true }),
    changePct: fc.double({ min: -99, max: 500, noNaN: true }),
    ts: fc.nat(),
  });

const rowsArb: fc.Arbitrary<MarketRow[]> = fc
  .uniqueArray(fc.stringMatching(/^[A-Z]{2,5}$/), { minLength: 0, maxLength: 12 })
  .chain((bases) =>
    fc.tuple(
      ...bases.map((b) =>
        fc.record({
          info: fc.record({
            category: fc.constantFrom('crypto', 'commodity', 'stock', 'index' as const),
            kinds: fc.constantFrom<SymbolInfo['kinds']>(['perp'], ['std'], ['perp', 'std']),
            hot: fc.boolean(),
          }).map((o) => symbol(`${b}USDT`, { ...o, name: `${b} coin` })),
          ticker: fc.option(tickerArb(`${b}USDT`), { nil: undefined }),
        }),
      ),
    ),
  );

const sortArb: fc.Arbitrary<Sort> = fc.option(
  fc.record({ key: fc.constantFrom(...SORT_KEYS), dir: fc.constantFrom('asc' as const, 'desc' as const) }),
  { nil: null },
);

describe('marketList selectors', () => {
  it('sortRows is a permutation and rows without a ticker go last', () => {
    fc.assert(
      fc.property(rowsArb, sortArb, (rows, sort) => {
        const out = sortRows(rows, sort);
        expect(out.map((r) => r.info.symbol).sort()).toEqual(rows.map((r) => r.info.symbol).sort());
        if (sort && sort.key !== 'pair') {
          const has = out.map((r) => Number.isFinite(sortValue(r, sort.key as Exclude<typeof sort.key, 'pair'>)));
          const firstMissing = has.indexOf(false);
          if (firstMissing >= 0) expect(has.slice(firstMissing).every((h) => !h)).toBe(true);
        }
        for (let i = 1; i < out.length && sort; i++) {
          expect(compareRows(out[i - 1]!, out[i]!, sort)).toBeLessThanOrEqual(0);
        }
      }),
    );
  });

  it('ascending numeric order really ascends over rows that have values', () => {
    fc.assert(
      fc.property(rowsArb, fc.constantFrom('last', 'change', 'high', 'low', 'volume' as const), (rows, key) => {
        const vals = sortRows(rows, { key, dir: 'asc' })
          .map((r) => sortValue(r, key))
          .filter((v): v is number => Number.isFinite(v));
        expect(vals).toEqual([...vals].sort((a, b) => a - b));
        const desc = sortRows(rows, { key, dir: 'desc' })
          .map((r) => sortValue(r, key))
          .filter((v): v is number => Number.isFinite(v));
        expect(desc).toEqual([...vals].sort((a, b) => b - a));
      }),
    );
  });

  it('selectRows keeps only rows of the kind and tab, matching the search, without duplicates', () => {
    fc.assert(
      fc.property(
        rowsArb,
        fc.constantFrom('perp' as const, 'std' as const),
        fc.constantFrom(...CATEGORY_TABS),
        fc.string({ maxLength: 4 }),
        fc.array(fc.stringMatching(/^[A-Z]{2,5}USDT$/)),
        sortArb,
        (rows, kind, category, search, favs, sort) => {
          const favorites = new Set(favs);
          const out = selectRows(rows, { kind, category, search, favorites }, sort);
          const symbols = out.map((r) => r.info.symbol);
          expect(new Set(symbols).size).toBe(symbols.length);
          for (const r of out) {
            expect(rows).toContain(r);
            expect(r.info.kinds).toContain(kind);
            if (category === 'favorites') expect(favorites.has(r.info.symbol)).toBe(true);
            else expect(r.info.category).toBe(category);
            expect(matchesSearch(r.info, search)).toBe(true);
          }
          // Completeness: every row passing all predicates is present.
          const expected = rows.filter(
            (r) =>
              r.info.kinds.includes(kind) &&
              (category === 'favorites' ? favorites.has(r.info.symbol) : r.info.category === category) &&
              matchesSearch(r.info, search),
          );
          expect(out.length).toBe(expected.length);
        },
      ),
    );
  });

  it('search ignores case, slashes and matches symbol, base or name', () => {
    const btc = symbol('BTCUSDT', { name: 'Bitcoin' });
    expect(matchesSearch(btc, 'btc')).toBe(true);
    expect(matchesSearch(btc, 'BTC/USDT')).toBe(true);
    expect(matchesSearch(btc, 'bitco')).toBe(true);
    expect(matchesSearch(btc, '  ')).toBe(true);
    expect(matchesSearch(btc, 'eth')).toBe(false);
  });

  it('nextSort cycles first direction → other direction → listing order', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SORT_KEYS), sortArb, (key, start) => {
        const a = nextSort(start, key);
        const first = key === 'pair' ? 'asc' : 'desc';
        if (start?.key !== key) expect(a).toEqual({ key, dir: first });
        else if (start.dir === first) expect(a).toEqual({ key, dir: first === 'asc' ? 'desc' : 'asc' });
        else expect(a).toBeNull();
        let s: Sort = null;
        const seen: Sort[] = [];
        for (let i = 0; i < 3; i++) {
          s = nextSort(s, key);
          seen.push(s);
        }
        expect(seen[2]).toBeNull();
        expect(seen[0]?.dir).not.toBe(seen[1]?.dir);
      }),
    );
  });

  it('top boards are ordered and only list rows with tickers', () => {
    fc.assert(
      fc.property(rowsArb, fc.integer({ min: 1, max: 6 }), (rows, n) => {
        const g = selectTopGainers(rows, n);
        expect(g.length).toBeLessThanOrEqual(n);
        g.forEach((r) => expect(r.ticker).toBeDefined());
        for (let i = 1; i < g.length; i++) expect(g[i - 1]!.ticker!.changePct).toBeGreaterThanOrEqual(g[i]!.ticker!.changePct);
        const v = selectTopVolume(rows, n);
        v.forEach((r) => expect(r.ticker).toBeDefined());
      }),
    );
  });

  it('joinRows pairs each instrument with its ticker and tradePath picks the screen', () => {
    const t: Ticker = { symbol: 'BTCUSDT', last: 1, open: 1, high: 1, low: 1, volume: 1, quoteVolume: 1, change: 0, changePct: 0, ts: 0 };
    const rows = joinRows([symbol('BTCUSDT'), symbol('ETHUSDT')], (s) => (s === 'BTCUSDT' ? t : undefined));
    expect(rows[0]?.ticker).toBe(t);
    expect(rows[1]?.ticker).toBeUndefined();
    expect(tradePath('perp', 'BTCUSDT')).toBe('/mFutures/BTCUSDT');
    expect(tradePath('std', 'ETHUSDT')).toBe('/stdFuture/ETHUSDT');
  });
});

describe('favorites', () => {
  it('keys per user and guest', () => {
    expect(favoritesKey(null)).toBe('favorites:guest');
    expect(favoritesKey('')).toBe('favorites:guest');
    expect(favoritesKey(1024)).toBe('favorites:1024');
  });

  it('parse never throws and never yields duplicates or non-strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.constant(null)), (raw) => {
        const list = parseFavorites(raw);
        expect(new Set(list).size).toBe(list.length);
        list.forEach((s) => expect(typeof s).toBe('string'));
      }),
    );
  });

  it('toggle twice is the identity, toggles only its symbol, and round-trips through storage', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[A-Z]{3,8}$/)), fc.stringMatching(/^[A-Z]{3,8}$/), (list, sym) => {
        const once = toggleFavorite(list, sym);
        expect(once.includes(sym)).toBe(!list.includes(sym));
        expect(once.filter((s) => s !== sym)).toEqual(list.filter((s) => s !== sym));
        const twice = toggleFavorite(once, sym);
        expect(new Set(twice)).toEqual(new Set(list));
        expect(parseFavorites(serializeFavorites(once))).toEqual(once);
      }),
    );
  });
});
