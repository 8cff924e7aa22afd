import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isTransferTarget } from '../../../src/ui/components/transfer/transferForm.ts';
import { isOrderIdOrNull } from '../../../src/ui/screens/trade/AccountTabs.tsx';
import { WALLETS } from '../../../src/protocol/trading.ts';
import { isPage, oneOf } from '../../../src/ui/hooks/useViewState.ts';
import { STATUS_FILTERS } from '../../../src/ui/screens/compensation/compensationModel.ts';
import { isConvertFilters } from '../../../src/ui/screens/convert/ConvertHistoryScreen.tsx';
import { CONVERT_ACCOUNTS } from '../../../src/protocol/convert.ts';
import { isMarketListState } from '../../../src/ui/screens/market/MarketView.tsx';
import { CATEGORY_TABS, SORT_KEYS } from '../../../src/ui/components/market/marketList.ts';

/**
 * Open dialogs and the last screens as view state (issue 16): what a screen reads from the view
 * store may come from a replayed log (external data), so every guard accepts exactly the shape
 * the screen writes and nothing else (anything else reads as "no dialog" / the default).
 */
const json = fc.jsonValue({ maxDepth: 3 });

describe('dialog view-state guards', () => {
  it('property: dialog.transfer accepts exactly {from, to, coin} (and the path "at" of its screen) with two different wallets and a coin symbol', () => {
    fc.assert(
      fc.property(json, (v) => {
        const ok = isTransferTarget(v);
        if (!ok) return;
        const o = v as Record<string, unknown>;
        const keys = Object.keys(o).sort();
        if (keys.length === 4) {
          expect(keys).toEqual(['at', 'coin', 'from', 'to']);
          expect(o.at).toMatch(/^\//);
        } else expect(keys).toEqual(['coin', 'from', 'to']);
        expect(WALLETS).toContain(o.from);
        expect(WALLETS).toContain(o.to);
        expect(o.from).not.toBe(o.to);
        expect(o.coin).toMatch(/^[A-Z0-9]{2,12}$/);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...WALLETS), fc.constantFrom(...WALLETS), fc.constantFrom('USDT', 'BTC', 'ETH'), (from, to, coin) => {
        expect(isTransferTarget({ from, to, coin })).toBe(from !== to);
        expect(isTransferTarget({ from, to, coin, extra: 1 })).toBe(false);
        expect(isTransferTarget({ from, to, coin, at: '/my/assets/overview' })).toBe(from !== to);
        expect(isTransferTarget({ from, to, coin, at: 'not-a-path' })).toBe(false);
        expect(isTransferTarget({ from, to })).toBe(false);
      }),
    );
    expect(isTransferTarget({ from: 'fund', to: 'perp', coin: 'usdt' })).toBe(false);
    expect(isTransferTarget({ from: 'bank', to: 'perp', coin: 'USDT' })).toBe(false);
    expect(isTransferTarget(null)).toBe(false);
  });

  it('property: trade.editOrder accepts null or a short non-empty id string only', () => {
    fc.assert(
      fc.property(json, (v) => {
        expect(isOrderIdOrNull(v)).toBe(v === null || (typeof v === 'string' && v.length >= 1 && v.length <= 64));
      }),
      { numRuns: 500 },
    );
    expect(isOrderIdOrNull('x'.repeat(65))).toBe(false);
  });

  it('property: compensation filter / page and the login tab accept only their values', () => {
    const filter = oneOf(STATUS_FILTERS as readonly string[]);
    const tab = oneOf(['password', 'qr'] as const);
    fc.assert(
      fc.property(json, (v) => {
        expect(filter(v as never)).toBe(typeof v === 'string' && STATUS_FILTERS.includes(v as never));
        expect(tab(v as never)).toBe(v === 'password' || v === 'qr');
        expect(isPage(v as never)).toBe(typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 1_000_000);
      }),
      { numRuns: 500 },
    );
  });

  it('property: the convert history filters accept exactly five strings with an empty or known account', () => {
    const keys = ['from', 'to', 'account', 'start', 'end'];
    const filters = fc.record({ from: fc.string(), to: fc.string(), account: fc.oneof(fc.constantFrom('', ...CONVERT_ACCOUNTS), fc.string()), start: fc.string(), end: fc.string() });
    fc.assert(
      fc.property(fc.oneof(json, filters), (v) => {
        const shaped = typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 5 && keys.every((k) => typeof (v as Record<string, unknown>)[k] === 'string');
        const known = shaped && ['', ...CONVERT_ACCOUNTS].includes((v as Record<string, string>).account ?? '?');
        expect(isConvertFilters(v as never)).toBe(known);
      }),
      { numRuns: 500 },
    );
  });

  it('property: the market list state accepts exactly a known kind, category and a null or known sort', () => {
    const anyString = fc.oneof(fc.string(), fc.constantFrom('perp', 'std', ...CATEGORY_TABS, ...SORT_KEYS, 'asc', 'desc'));
    const sort = fc.oneof(fc.constant(null), fc.record({ key: anyString, dir: anyString }), json);
    const state = fc.record({ kind: anyString, category: anyString, sort });
    // Three keys, but the third is not `sort`: refused even when kind and category are known.
    const noSort = fc.record({ kind: fc.constantFrom('perp', 'std'), category: fc.constantFrom(...CATEGORY_TABS), order: sort });
    fc.assert(
      fc.property(fc.oneof(json, state, noSort), (v) => {
        const shaped = typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 3;
        const r = (shaped ? v : {}) as { kind?: unknown; category?: unknown; sort?: unknown };
        const s = r.sort as { key?: unknown; dir?: unknown } | null | undefined;
        const sortOk =
          s === null ||
          (typeof s === 'object' && s !== undefined && !Array.isArray(s) && Object.keys(s).length === 2 && (SORT_KEYS as readonly unknown[]).includes(s.key) && (s.dir === 'asc' || s.dir === 'desc'));
        const ok = shaped && (r.kind === 'perp' || r.kind === 'std') && (CATEGORY_TABS as readonly unknown[]).includes(r.category) && 'sort' in r && sortOk;
        expect(isMarketListState(v as never)).toBe(ok);
      }),
      { numRuns: 800 },
    );
  });
});
