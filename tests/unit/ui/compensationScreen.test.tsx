// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { COMPENSATION_RESULT_HOLD_MS } from '../../../src/machines/compensationMachine.ts';
import { envelope } from '../../../src/ports/fakes.ts';
import type { HttpRequest } from '../../../src/ports/types.ts';
import type { CompensationList, CompensationOrder, CompensationStatus } from '../../../src/protocol/compensation.ts';
import { KYC_REQUIRED_MSG } from '../../../src/protocol/user.ts';
import type { Voucher } from '../../../src/protocol/vouchers.ts';
import { CompensationOrdersScreen } from '../../../src/ui/screens/compensation/CompensationOrdersScreen.tsx';
import type { Lang } from '../../../src/ui/i18n/languages.ts';
import { renderAssets, installClickClock } from './assetsHarness.tsx';

/**
 * The compensation screen over a real app core on scripted ports: the scripted Http plays a tiny
 * server (orders in memory, the three actions change them), the user socket is fed by hand.
 */

installClickClock();

function order(id: number, status: CompensationStatus, over: Partial<CompensationOrder> = {}): CompensationOrder {
  return {
    id, status, totalUserPnl: '-305.850000', totalUserCompensation: '152.925000', amount: '152.925000', paid: '0.000000', durationDays: 30, daysLeft: 30,
    dailyReturn: '5.097500', boosts: 0, createdAt: 1_700_000_000_000 + id, activatedAt: null, nextPayoutAt: null, completedAt: null, ...over,
  };
}

function voucher(id: number, kind: Voucher['kind'], value: string): Voucher {
  return { id, kind, value, status: 'use', expiresAt: null, source: 'welcome', usedRef: null, mergedInto: null, createdAt: 0, usedAt: null };
}

interface FakeServer {
  orders: CompensationOrder[];
  kycVerified: boolean;
}

function script(srv: FakeServer) {
  return (http: Parameters<NonNullable<Parameters<typeof renderAssets>[0]['script']>>[0]) => {
    http.on('GET', '/compensation/orders', (req: HttpRequest) => {
      const st = req.query?.status;
      const list = srv.orders.filter((o) => st === undefined || o.status === st);
      const data: CompensationList = {
        list, total: list.length, page: 1, pageSize: 10,
        summary: { totalUserPnl: '-305.850000', totalUserCompensation: '305.850000', totalPaid: '30.585000', pendingWithdrawal: '152.925000' },
      };
      return envelope(200, 'success', data);
    });
    http.on('GET', '/vouchers', (req: HttpRequest) => {
      const all = [voucher(7, 'lossProtection', '20.000000'), voucher(8, 'speed', '50')];
      const list = all.filter((v) => v.kind === req.query?.kind);
      return envelope(200, 'success', { list, total: list.length, page: 1, pageSize: 50 });
    });
    const change = (id: number, patch: Partial<CompensationOrder>) => {
      srv.orders = srv.orders.map((o) => (o.id === id ? { ...o, ...patch } : o));
      return srv.orders.find((o) => o.id === id);
    };
    http.on('POST', '/compensation/claim', (req: HttpRequest) => {
      if (!srv.kycVerified) return envelope(403, KYC_REQUIRED_MSG, null);
      const b = req.body as { id: number; voucherId?: number };
      return envelope(200, 'success', change(b.id, { status: 'active', amount: b.voucherId ? '172.925000' : '152.925000' }));
    });
    http.on('POST', '/compensation/boost', (req: HttpRequest) => envelope(200, 'success', change((req.body as { id: number }).id, { daysLeft: 12, boosts: 1 })));
    http.on('POST', '/compensation/withdraw', (req: HttpRequest) => envelope(200, 'success', change((req.body as { id: number }).id, { status: 'completed' })));
  };
}

function renderScreen(srv: FakeServer, opts: { url?: string; width?: number; lang?: Lang } = {}) {
  return renderAssets({ path: '/my/compensation/orders', url: opts.url, screen: <CompensationOrdersScreen />, width: opts.width, lang: opts.lang, script: script(srv) });
}

const posts = (h: ReturnType<typeof renderScreen>, path: string) => h.http.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.body);

describe('compensation orders screen', () => {
  it('shows the summary and every field, filters by status, and claims with a chosen voucher', async () => {
    const srv: FakeServer = {
      orders: [order(3, 'notActive'), order(2, 'inCompensation', { paid: '30.585000', daysLeft: 24, activatedAt: 1 }), order(1, 'pending', { paid: '152.925000', daysLeft: 0 })],
      kycVerified: true,
    };
    const h = renderScreen(srv);
    const rows = await screen.findAllByTestId('comp-row');
    expect(rows).toHaveLength(3);
    // statements read in cents (issue 14: no six-decimal amounts); the withdraw dialog below stays exact
    expect(screen.getByTestId('comp-summaryPending').textContent).toContain('152.93');
    expect(screen.getByTestId('comp-summaryPending').textContent).not.toContain('152.925');
    // the all-time PnL says what it counts, unlike the dashboard's Today's PnL (issue 26, Minor 22)
    expect(screen.getByTestId('comp-summaryPnl').textContent).toContain('All-time PnL');
    expect(screen.getByTestId('comp-summaryPnl-hint').textContent).toBe('Since sign-up: your futures and copy trading, after fees and funding');
    expect(rows[2]?.textContent).toContain('152.93');
    expect(rows[2]?.textContent).not.toContain('152.925');
    const table = screen.getByRole('table');
    for (const head of ['Created', 'Status', 'Total user PnL', 'Total user compensation', 'Compensation amount', 'Paid amount', 'Duration (days)', 'Daily return']) {
      expect(within(table).getByText(head)).toBeTruthy();
    }
    const running = rows[1];
    if (!running) throw new Error('no row');
    expect(within(running).getByText('In compensation')).toBeTruthy();
    expect(within(running).getByText('24 days left')).toBeTruthy();
    expect(within(running).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('20');
    expect(within(running).getByText('-305.85').className).toBe('acct-down');

    fireEvent.click(screen.getByRole('tab', { name: 'Awaiting withdrawal' }));
    await waitFor(() => expect(screen.getAllByTestId('comp-row')).toHaveLength(1));
    expect(h.http.requests.at(-1)?.query).toMatchObject({ status: 'pending', page: 1 });
    fireEvent.click(screen.getByRole('tab', { name: 'All' }));
    await waitFor(() => expect(screen.getAllByTestId('comp-row')).toHaveLength(3));

    fireEvent.click(screen.getByTestId('comp-claim-3'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Claim compensation')).toBeTruthy();
    // issue 26: the daily payout is the daily return, not the total (152.925 over 30 days)
    expect(within(dialog).getByText(/pays 5\.0975(00)? USDT back to you each day for 30 days, 152\.925(000)? USDT in total/)).toBeTruthy();
    fireEvent.click(await within(dialog).findByTestId('comp-voucher-7'));
    fireEvent.click(within(dialog).getByTestId('comp-confirm'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(posts(h, '/compensation/claim')).toEqual([{ id: 3, voucherId: 7 }]);
    expect(await screen.findByText('Compensation claimed')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('comp-boost-3')).toBeTruthy());
    act(() => h.clock.increment(COMPENSATION_RESULT_HOLD_MS));
  });

  it('a claim without identity verification shows the KYC message and links to /my/settings/kyc', async () => {
    const srv: FakeServer = { orders: [order(3, 'notActive')], kycVerified: false };
    const h = renderScreen(srv);
    fireEvent.click(await screen.findByTestId('comp-claim-3'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByTestId('comp-confirm'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('To use RiskFree full services, please complete identity verification.');
    fireEvent.click(screen.getByTestId('comp-kyc-link'));
    await waitFor(() => expect(h.location()).toBe('/my/settings/kyc'));
  });

  it('boost needs a speed voucher, previews the days and withdraw posts the id only', async () => {
    const srv: FakeServer = {
      orders: [order(2, 'inCompensation', { paid: '30.585000', daysLeft: 24 }), order(1, 'pending', { paid: '152.925000', daysLeft: 0 })],
      kycVerified: true,
    };
    const h = renderScreen(srv);
    fireEvent.click(await screen.findByTestId('comp-boost-2'));
    const dialog = await screen.findByRole('dialog');
    const confirm = within(dialog).getByTestId('comp-confirm') as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.click(await within(dialog).findByTestId('comp-voucher-8'));
    expect(within(dialog).getByTestId('comp-boost-preview').textContent).toBe('Days left after the boost: 12');
    fireEvent.click(confirm);
    await waitFor(() => expect(posts(h, '/compensation/boost')).toEqual([{ id: 2, voucherId: 8 }]));
    await screen.findByText('Payouts boosted');
    act(() => h.clock.increment(COMPENSATION_RESULT_HOLD_MS));

    fireEvent.click(await screen.findByTestId('comp-withdraw-1'));
    expect(within(await screen.findByRole('dialog')).getByText('152.925 USDT will be credited to your fund account.')).toBeTruthy();
    fireEvent.click(within(screen.getByRole('dialog')).getByTestId('comp-confirm'));
    await waitFor(() => expect(posts(h, '/compensation/withdraw')).toEqual([{ id: 1 }]));
    await waitFor(() => expect(within(screen.getAllByTestId('comp-row')[1] as HTMLElement).getByText('Completed')).toBeTruthy());
  });

  it('follows compensation frames, and the coupon link preselects the voucher in the first eligible order', async () => {
    const srv: FakeServer = { orders: [order(5, 'active'), order(4, 'notActive')], kycVerified: true };
    const h = renderScreen(srv, { url: '/my/compensation/orders?voucher=8&kind=speed', width: 390 });
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Boost payouts')).toBeTruthy();
    await waitFor(() => expect((within(dialog).getByTestId('comp-voucher-8') as HTMLInputElement).checked).toBe(true));
    fireEvent.click(within(dialog).getByText('Cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // the preselection happens once: a reload does not reopen the dialog
    h.push({ type: 'compensation', data: srv.orders[0] });
    await waitFor(() => expect(h.http.requests.filter((r) => r.path === '/compensation/orders').length).toBe(2));
    expect(screen.queryByRole('dialog')).toBeNull();
    // phone cards
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getAllByTestId('comp-row')).toHaveLength(2);
    // a payout frame: the list reloads from the server
    srv.orders = [order(5, 'inCompensation', { paid: '5.097500', daysLeft: 29 }), order(4, 'notActive')];
    const before = h.http.requests.filter((r) => r.path === '/compensation/orders').length;
    h.push({ type: 'compensation', data: srv.orders[0] });
    await waitFor(() => expect(h.http.requests.filter((r) => r.path === '/compensation/orders').length).toBe(before + 1));
    await waitFor(() => expect(within(screen.getAllByTestId('comp-row')[0] as HTMLElement).getByText('In compensation')).toBeTruthy());
  });

  it('shows the empty state, translated', async () => {
    renderScreen({ orders: [], kycVerified: true }, { lang: 'jp' });
    expect(await screen.findByText('補償注文はまだありません。先物の確定純損失が 1 USDT 以上になると作成されます。')).toBeTruthy();
    expect(screen.getByText('リスクフリー取引')).toBeTruthy();
  });
});
