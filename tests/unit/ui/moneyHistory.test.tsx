// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { HttpRequest } from '../../../src/ports/types.ts';
import type { Conversion } from '../../../src/protocol/convert.ts';
import { WALLET_MSG } from '../../../src/protocol/wallet.ts';
import type { HistoryRow } from '../../../src/protocol/wallet.ts';
import { ConvertHistoryScreen } from '../../../src/ui/screens/convert/ConvertHistoryScreen.tsx';
import { WalletHistoryScreen } from '../../../src/ui/screens/wallet/WalletHistoryScreen.tsx';
import { installClickClock, renderAssets } from './assetsHarness.tsx';

/**
 * The two money history pages over a real core: filters become the query (page back to 1), the
 * pager walks the pages, a user-socket frame refetches so a status changes live, and each row
 * shows its status and transaction id.
 */

installClickClock();

function row(id: number, status: string, type: HistoryRow['type'] = 'withdrawal'): HistoryRow {
  return { type, id, coin: 'USDT', network: 'TRC20', amount: '20.000000', fee: '1.000000', status, txid: status === 'completed' ? `tx${id}` : '', address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', from: '', to: '', time: 1_700_000_000_000 + id, };
}

describe('WalletHistoryScreen', () => {
  it('filters, pages, and follows withdrawal frames live', async () => {
    let status = 'pending';
    const gets: HttpRequest[] = [];
    const h = renderAssets({
      path: '/my/order/wallet-history',
      screen: <WalletHistoryScreen />,
      script: (http) =>
        http.on('GET', '/money/history', (req) => {
          gets.push(req);
          const page = Number((req.query as { page?: number } | undefined)?.page ?? 1);
          return envelope(200, 'success', { list: [row(page, status), row(100 + page, 'credited', 'deposit')], total: 25, page, pageSize: 10 });
        }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Wallet history' })).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('history-status').map((e) => e.textContent)).toEqual(['Pending review', 'Credited']));
    expect(screen.getByTestId('page-of').textContent).toBe('Page 1 of 3');

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('page-of').textContent).toBe('Page 2 of 3'));
    fireEvent.change(screen.getByTestId('history-type'), { target: { value: 'withdrawal' } });
    await waitFor(() => expect(gets.at(-1)?.query).toEqual({ page: 1, pageSize: 10, type: 'withdrawal' }));

    status = 'completed';
    h.push({ type: 'withdrawal', data: { id: 1, status: 'completed' } });
    await waitFor(() => expect(screen.getAllByTestId('history-status')[0]?.textContent).toBe('Completed'));
    expect(screen.getByTestId('history-txid').textContent).toBe('tx1');
    h.core.stop();
  });
});

describe('WalletHistoryScreen notes (issue 29)', () => {
  it('says, translated, that a withdrawal was cancelled by a password change; a reviewer reason shows as written', async () => {
    const cancelled = { ...row(1, 'cancelled'), note: WALLET_MSG.cancelledPasswordChange };
    const rejected = { ...row(2, 'rejected'), note: 'address on a sanctions list' };
    for (const [lang, text] of [['en', WALLET_MSG.cancelledPasswordChange], ['zh', '因登录密码已修改而取消，资金已退回资金账户']] as const) {
      const h = renderAssets({
        path: '/my/order/wallet-history',
        lang,
        screen: <WalletHistoryScreen />,
        script: (http) => http.on('GET', '/money/history', envelope(200, 'success', { list: [cancelled, rejected, row(3, 'pending')], total: 3, page: 1, pageSize: 10 })),
      });
      await waitFor(() => expect(screen.getAllByTestId('history-note').map((e) => e.textContent)).toEqual([text, 'address on a sanctions list']));
      h.core.stop();
      cleanup();
    }
  });
});

describe('ConvertHistoryScreen', () => {
  it('shows pair, amounts, rate, fee 0 and account, filters by coin and refreshes on a convert frame', async () => {
    const c: Conversion = { id: 1, quoteId: 'q', from: 'USDT', to: 'BTC', rate: '0.0000150000000000', fromAmount: '100.000000', toAmount: '0.00150000', fee: '0', account: 'spot', createdAt: 1, expiresAt: 2, time: 1_700_000_000_000 };
    let list: Conversion[] = [c];
    const gets: HttpRequest[] = [];
    const h = renderAssets({
      path: '/my/order/convert',
      screen: <ConvertHistoryScreen />,
      script: (http) =>
        http.on('GET', '/convert/history', (req) => {
          gets.push(req);
          return envelope(200, 'success', { list, total: list.length, page: 1, pageSize: 10 });
        }),
    });
    expect(await screen.findByText('USDT → BTC')).toBeTruthy();
    expect(screen.getByText('100.00 USDT')).toBeTruthy();
    expect(screen.getByText('0.0015 BTC')).toBeTruthy();
    expect(screen.getByText('0.000015')).toBeTruthy();
    expect(screen.getByText('Spot account', { selector: 'td' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('From'), { target: { value: 'BTC' } });
    await waitFor(() => expect(gets.at(-1)?.query).toEqual({ page: 1, pageSize: 10, from: 'BTC' }));
    list = [{ ...c, id: 2 }, c];
    h.push({ type: 'convert', data: list[0] });
    await waitFor(() => expect(screen.getAllByTestId('history-row')).toHaveLength(2));
    h.core.stop();
  });
});

describe('date filters in the language order (issue 26 cosmetics)', () => {
  it('jp and ko show their own day order, not mm/dd/yyyy, and a typed day becomes the same query', async () => {
    for (const [lang, from, to, fromText] of [['jp', '開始日 (yyyy/mm/dd)', '終了日 (yyyy/mm/dd)', '2023/11/14'], ['ko', '시작일 (yyyy. mm. dd.)', '종료일 (yyyy. mm. dd.)', '2023. 11. 14.']] as const) {
      const gets: HttpRequest[] = [];
      const h = renderAssets({
        path: '/my/order/wallet-history',
        screen: <WalletHistoryScreen />,
        lang,
        script: (http) => http.on('GET', '/money/history', (req) => (gets.push(req), envelope(200, 'success', { list: [], total: 0, page: 1, pageSize: 10 }))),
      });
      const fromField = await screen.findByLabelText(from);
      expect(fromField.getAttribute('type')).toBe('text');
      expect(fromField.getAttribute('placeholder')).toBe(from.slice(from.indexOf('(') + 1, -1));
      expect(screen.getByLabelText(to).getAttribute('placeholder')).not.toBe('mm/dd/yyyy');
      // Half typed: nothing asked; a whole day: the same local-day bound as the native input gave.
      fireEvent.change(fromField, { target: { value: '2023/11' } });
      fireEvent.change(fromField, { target: { value: fromText } });
      await waitFor(() => expect(gets.at(-1)?.query).toEqual({ page: 1, pageSize: 10, from: new Date(2023, 10, 14).getTime() }));
      expect(gets.some((g) => (g.query as { from?: number }).from !== undefined && (g.query as { from: number }).from !== new Date(2023, 10, 14).getTime())).toBe(false);
      // An impossible day is marked and not sent.
      fireEvent.change(screen.getByLabelText(to), { target: { value: lang === 'jp' ? '2023/02/30' : '2023. 02. 30.' } });
      expect(screen.getByLabelText(to).getAttribute('aria-invalid')).toBe('true');
      // Reset empties both fields.
      fireEvent.click(screen.getByRole('button', { name: lang === 'jp' ? 'リセット' : '초기화' }));
      await waitFor(() => expect((screen.getByLabelText(from) as HTMLInputElement).value).toBe(''));
      h.core.stop();
      cleanup();
    }
  });
});
