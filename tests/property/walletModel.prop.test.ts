import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hoursMinutes, mergeLive, walletText } from '../../src/ui/components/wallet/walletModel.ts';
import { convertHistoryQuery } from '../../src/ui/screens/convert/ConvertHistoryScreen.tsx';
import { walletHistoryQuery } from '../../src/ui/screens/wallet/WalletHistoryScreen.tsx';
import type { TFunction } from 'i18next';

/**
 * The pure parts of the money screens: live rows merged over a fetched page (a pushed row always
 * shows its newest known state, nothing is lost or duplicated), the lock's time left, message
 * translation with the minimum's number kept, and the history queries dropping empty filters.
 */

interface Row {
  id: number;
  time: number;
  updatedAt: number;
  v: number;
}

const rowArb = fc.record({ id: fc.integer({ min: 1, max: 20 }), time: fc.integer({ min: 0, max: 100 }), updatedAt: fc.integer({ min: 0, max: 100 }), v: fc.nat() });

describe('mergeLive', () => {
  it('keeps one row per id, the newest state of each, pushed rows first, at most max', () => {
    fc.assert(
      fc.property(fc.uniqueArray(rowArb, { selector: (r) => r.id, maxLength: 10 }), fc.array(rowArb, { maxLength: 10 }), fc.integer({ min: 1, max: 15 }), (page, pushed, max) => {
        const live = new Map<number, Row>();
        for (const r of pushed) live.set(r.id, r);
        const out = mergeLive(page, live, max);
        expect(new Set(out.map((r) => r.id)).size).toBe(out.length);
        expect(out.length).toBe(Math.min(max, new Set([...page.map((r) => r.id), ...live.keys()]).size));
        for (const r of out) {
          const fetched = page.find((p) => p.id === r.id);
          const pushedRow = live.get(r.id);
          if (fetched && pushedRow) expect(r).toBe(pushedRow.updatedAt >= fetched.updatedAt ? pushedRow : fetched);
          else expect(r).toBe(fetched ?? pushedRow);
        }
      }),
    );
  });
});

describe('hoursMinutes', () => {
  it('rounds up to the minute and never reads 0 while time is left', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 48 * 3_600_000 }), (ms) => {
        const { h, m } = hoursMinutes(ms);
        expect(m).toBeLessThan(60);
        const total = (h * 60 + m) * 60_000;
        expect(total).toBeGreaterThanOrEqual(ms);
        expect(total - ms).toBeLessThan(60_000);
      }),
    );
    expect(hoursMinutes(24 * 3_600_000)).toEqual({ h: 24, m: 0 });
  });
});

describe('walletText', () => {
  const t = ((k: string) => `<${k}>`) as unknown as TFunction;
  it('translates known messages and keeps the minimum with its coin', () => {
    expect(walletText(t, 'Insufficient Balance')).toBe('<wallet:msg_insufficientBalance>');
    expect(walletText(t, 'The minimum withdrawal amount is:10 USDT')).toBe('<wallet:msg_minWithdrawal>10 USDT');
    expect(walletText(t, 'socket hang up')).toBe('socket hang up');
  });
});

describe('history queries', () => {
  it('drop empty filters and send local-day bounds', () => {
    expect(walletHistoryQuery({ type: '', coin: '', status: '', from: '', to: '' }, 2)).toEqual({ page: 2, pageSize: 10 });
    const q = walletHistoryQuery({ type: 'withdrawal', coin: 'USDT', status: 'pending', from: '2026-01-02', to: '2026-01-02' }, 1);
    expect(q).toMatchObject({ type: 'withdrawal', coin: 'USDT', status: 'pending' });
    expect(Number(q.to) - Number(q.from)).toBe(24 * 3_600_000 - 1);
    expect(convertHistoryQuery({ from: 'BTC', to: '', account: 'spot', start: '', end: 'bad' }, 3)).toEqual({ page: 3, pageSize: 10, from: 'BTC', account: 'spot' });
  });
});
