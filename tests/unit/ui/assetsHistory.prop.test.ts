import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillsQuery, ledgerQuery, LEDGER_ENTRY_TYPES, ORDER_KINDS, ordersQuery } from '../../../src/protocol/trading.ts';
import { dayEndMs, dayStartMs } from '../../../src/format/date.ts';
import { historyRequest, ORDER_TABS, type HistoryFilters } from '../../../src/ui/screens/orders/historyQuery.ts';

const day = fc.date({ min: new Date(2000, 0, 1), max: new Date(2099, 11, 31), noInvalidDate: true }).map(
  (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`,
);
const filters: fc.Arbitrary<HistoryFilters> = fc.record({
  contract: fc.constantFrom('', 'perp', 'std'),
  symbol: fc.constantFrom('', 'BTCUSDT', 'ETHUSDT'),
  kind: fc.constantFrom('', ...ORDER_KINDS, 'liquidation'),
  status: fc.constantFrom('', 'pending', 'filled', 'canceled'),
  ledgerType: fc.constantFrom('', ...LEDGER_ENTRY_TYPES),
  from: fc.oneof(fc.constant(''), day, fc.constant('2024-02-30')),
  to: fc.oneof(fc.constant(''), day),
}) as fc.Arbitrary<HistoryFilters>;

const SCHEMA = { open: ordersQuery, history: ordersQuery, trades: fillsQuery, ledger: ledgerQuery } as const;

describe('history requests', () => {
  it('every request is accepted by the endpoint’s own zod schema, carries no empty value and keeps the page', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ORDER_TABS), filters, fc.integer({ min: 1, max: 500 }), (tab, f, page) => {
        const { path, query } = historyRequest(tab, f, page);
        expect(path.startsWith('/api')).toBe(false);
        expect(Object.values(query).every((v) => v !== '' && v !== undefined)).toBe(true);
        const parsed = SCHEMA[tab].safeParse(query);
        expect(parsed.success).toBe(true);
        expect(query.page).toBe(page);
        // Filters reach only the tab that understands them.
        if (tab !== 'history') expect(query.status).toBeUndefined();
        if (tab === 'ledger') expect(query.wallet).toBe(f.contract || undefined);
        else expect(query.contract).toBe(f.contract || undefined);
        if (query.type === 'liquidation') expect(tab).toBe('trades');
        if (f.symbol) expect(query.symbol).toBe(f.symbol);
      }),
    );
  });

  it('a day range covers whole local days: from ≤ to whenever the from day ≤ the to day; invalid days are dropped', () => {
    fc.assert(
      fc.property(day, day, (a, b) => {
        const start = dayStartMs(a) as number;
        const end = dayEndMs(a) as number;
        expect(end).toBeGreaterThan(start);
        expect(new Date(start).getDate()).toBe(new Date(end).getDate());
        expect(new Date(end + 1).getDate()).not.toBe(new Date(end).getDate());
        if (a <= b) expect(start).toBeLessThanOrEqual(dayEndMs(b) as number);
      }),
    );
    expect(dayStartMs('2024-02-30')).toBeUndefined();
    expect(dayStartMs('24-1-1')).toBeUndefined();
  });
});
