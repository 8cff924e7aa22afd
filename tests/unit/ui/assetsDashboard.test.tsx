// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import { DashboardScreen } from '../../../src/ui/screens/dashboard/DashboardScreen.tsx';
import { renderAssets, USER, installClickClock } from './assetsHarness.tsx';

installClickClock();

const filled = {
  id: 'o1', clientOrderId: 'c1', symbol: 'ETHUSDT', contract: 'perp', kind: 'marketOpen', side: 'sell', price: 3000, qty: 0.5, leverage: 5, status: 'filled',
  executedQty: 0.5, avgPrice: 3001.5, fee: '0.600300', realizedPnl: '0', margin: '0', positionId: 'p1', tp: null, sl: null, createdAt: 1_700_000_000_000, updatedAt: 1_700_000_000_000,
};

describe('dashboard', () => {
  it('shows the user card, total assets, quick links and the recent orders', async () => {
    const h = renderAssets({
      path: '/my/dashboard',
      screen: <DashboardScreen />,
      script: (http) => http.on('GET', '/trade/orders/history', envelope(200, 'success', { list: [filled], total: 1, page: 1, pageSize: 5 })),
    });
    act(() => h.core.session.send({ type: 'user.fetchInfo' }));
    await waitFor(() => expect(screen.getByTestId('dash-user').textContent).toContain('trader'));
    expect(screen.getByTestId('dash-user').textContent).toContain(String(USER.id));
    expect(screen.getByTestId('kyc-state').textContent).toBe('Verified');
    await waitFor(() => expect(screen.getByTestId('dash-total').textContent).toBe('$11,250.50'));
    const order = await screen.findByTestId('recent-order');
    expect(order.textContent).toContain('ETHUSDT');
    expect(order.textContent).toContain('Sell');
    expect(order.textContent).toContain('Market open');
    expect(order.textContent).toContain('0.5000 @ 3,001.50');
    expect(order.textContent).toContain('Filled');
    expect(h.http.requests.find((r) => r.path === '/trade/orders/history')?.query).toEqual({ page: 1, pageSize: 5 });
    expect(screen.getByRole('link', { name: 'Deposit' }).getAttribute('href')).toBe('/my/wallet/deposit');
    expect(screen.getByRole('link', { name: 'View all' }).getAttribute('href')).toBe('/my/order/futures');
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it("Today's PnL says what it counts, so it is not read as the compensation page's all-time PnL (issue 26, Minor 22)", async () => {
    renderAssets({
      path: '/my/dashboard',
      screen: <DashboardScreen />,
      script: (http) => http.on('GET', '/dashboard/summary', envelope(200, 'success', { dayStart: 0, todayRealizedPnl: '2.440000', todayFees: '0.600000', todayTrades: 3, usableVouchers: 0 })),
    });
    const card = await screen.findByTestId('dash-card-pnl');
    await waitFor(() => expect(screen.getByTestId('dash-card-pnl-value').textContent).toBe('+2.44 USDT'));
    expect(card.textContent).toContain("Today's PnL");
    expect(card.textContent).toContain('Your own futures trades since 00:00 UTC: realized PnL minus trading fees (copy trading and funding not included)');
  });

  it('explains the demo credit the account received, and shows nothing without one (issue 26, Major 7)', async () => {
    const summary = { dayStart: 0, todayRealizedPnl: '0.000000', todayFees: '0.000000', todayTrades: 0, usableVouchers: 2 };
    const h = renderAssets({
      path: '/my/dashboard',
      screen: <DashboardScreen />,
      script: (http) => http.on('GET', '/dashboard/summary', envelope(200, 'success', { ...summary, demoCredit: '20000.000000' })),
    });
    const note = await screen.findByRole('note', { name: 'Demo credit' });
    expect(note.textContent).toContain('This account received 20,000.00 USDT of demo funds at sign-up');
    expect(within(note).getByRole('link', { name: 'See it in the wallet history' }).getAttribute('href')).toBe('/my/order/wallet-history');
    h.unmount();
    h.core.stop();
    renderAssets({
      path: '/my/dashboard',
      screen: <DashboardScreen />,
      script: (http) => http.on('GET', '/dashboard/summary', envelope(200, 'success', { ...summary, demoCredit: null })),
    });
    await waitFor(() => expect(screen.getByTestId('dash-card-vouchers-value').textContent).toBe('2'));
    expect(screen.queryByTestId('dash-demo-credit')).toBeNull();
  });

  it('an unverified user gets a link to identity verification (jp)', async () => {
    const h = renderAssets({
      path: '/my/dashboard',
      screen: <DashboardScreen />,
      lang: 'jp',
      script: (http) => {
        http.on('GET', '/user/info', envelope(200, 'ok', { ...USER, kycStatus: 'unverified' }));
        http.on('GET', '/trade/orders/history', envelope(200, 'success', { list: [], total: 0, page: 1, pageSize: 5 }));
      },
    });
    act(() => h.core.session.send({ type: 'user.fetchInfo' }));
    await waitFor(() => expect(screen.getByTestId('kyc-state').textContent).toBe('未認証'));
    expect(screen.getByRole('link', { name: '今すぐ認証' }).getAttribute('href')).toBe('/my/settings/kyc');
  });
});
