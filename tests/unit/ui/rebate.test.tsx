// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { Invitee, ReferralSummary } from '../../../src/protocol/referral.ts';
import { RebateScreen } from '../../../src/ui/screens/rebate/RebateScreen.tsx';
import { ReferralCard } from '../../../src/ui/screens/dashboard/ReferralCard.tsx';
import { installClickClock, renderAssets } from './assetsHarness.tsx';

installClickClock();

const SUMMARY: ReferralSummary = {
  code: 'ABCD2345',
  link: '/register?code=ABCD2345',
  ratePercent: '20',
  coin: 'USDT',
  totalEarnings: '12.345600',
  yesterdayEarnings: '1.200000',
  todayEarnings: '0.006000',
  totalInvited: 25,
};

const invitee = (i: number): Invitee => ({
  email: `u${i}***@example.com`,
  registeredAt: 1_700_000_000_000 - i * 60_000,
  volume: '130.000800',
  fees: '0.065002',
  rebate: '0.013000',
});

function script(http: Parameters<NonNullable<Parameters<typeof renderAssets>[0]['script']>>[0], summary = SUMMARY): void {
  http.on('GET', '/referral/summary', () => envelope(200, 'success', summary));
  http.on('GET', '/referral/invitees', (req) => {
    const page = Number((req.query as { page?: number } | undefined)?.page ?? 1);
    const list = Array.from({ length: page === 3 ? 5 : 10 }, (_, k) => invitee((page - 1) * 10 + k));
    return envelope(200, 'success', { list, total: 25, page, pageSize: 10 });
  });
}

describe('/my/rebate', () => {
  it('shows the code, the link on this origin, the figures and the invitees, paged (desktop)', async () => {
    const h = renderAssets({ path: '/my/rebate', screen: <RebateScreen />, script: (http) => script(http) });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Referral rebate');
    await waitFor(() => expect(screen.getByTestId('rebate-code').textContent).toBe('ABCD2345'));
    expect(screen.getByTestId('rebate-link').textContent).toBe(`${window.location.origin}/register?code=ABCD2345`);
    expect(screen.getByTestId('rebate-rate').textContent).toBe('20%');
    expect(screen.getByTestId('rebate-total').textContent).toBe('12.3456 USDT');
    expect(screen.getByTestId('rebate-yesterday').textContent).toBe('1.2000 USDT');
    expect(screen.getByTestId('rebate-today').textContent).toBe('Today so far (UTC): 0.0060 USDT');
    expect(screen.getByTestId('rebate-invited').textContent).toBe('25');
    expect(screen.getByText('Invite friends to trade and earn 20% of every trading fee they pay.')).toBeTruthy();
    const table = await screen.findByTestId('rebate-invitees');
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(table.textContent).toContain('u0***@example.com');
    expect(table.textContent).toContain('130.0008 USDT');
    expect(table.textContent).toContain('0.0130 USDT');
    expect(screen.getByTestId('page-of').textContent).toBe('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByTestId('rebate-invitees').textContent).toContain('u10***@example.com'));
    expect(h.http.requests.filter((r) => r.path === '/referral/invitees').map((r) => r.query)).toEqual([{ page: 1, pageSize: 10 }, { page: 2, pageSize: 10 }]);
    // no clipboard in this environment: the SPEC §8 manual-copy message
    fireEvent.click(screen.getByTestId('rebate-copy-link'));
    expect(await screen.findByText('Copy Failed, please copy manually')).toBeTruthy();
  });

  it('reloads the figures on a balance frame (a rebate was credited)', async () => {
    let total = '0.000000';
    const h = renderAssets({ path: '/my/rebate', screen: <RebateScreen />, script: (http) => {
      script(http);
      http.on('GET', '/referral/summary', () => envelope(200, 'success', { ...SUMMARY, totalEarnings: total }));
    } });
    await waitFor(() => expect(screen.getByTestId('rebate-total').textContent).toBe('0.0000 USDT'));
    total = '0.600000';
    h.push({ type: 'balance', data: { wallet: 'fund', coin: 'USDT', available: '10000.600000', frozen: '0.000000', total: '10000.600000' } });
    await waitFor(() => expect(screen.getByTestId('rebate-total').textContent).toBe('0.6000 USDT'));
  });

  it('lays the invitees out as cards on a phone, in Chinese, and says when there are none', async () => {
    renderAssets({ path: '/my/rebate', screen: <RebateScreen />, width: 390, lang: 'zh', script: (http) => {
      script(http, { ...SUMMARY, totalInvited: 0 });
      http.on('GET', '/referral/invitees', envelope(200, 'success', { list: [], total: 0, page: 1, pageSize: 10 }));
    } });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('邀请返佣');
    await waitFor(() => expect(screen.getByTestId('rebate-invited').textContent).toBe('0'));
    expect(await screen.findByText('暂无好友。分享您的链接，开始赚取返佣。')).toBeTruthy();
    expect(screen.getByRole('button', { name: '复制邀请链接' })).toBeTruthy();
  });

  it('an error answer is shown, not swallowed', async () => {
    renderAssets({ path: '/my/rebate', screen: <RebateScreen />, script: (http) => {
      script(http);
      http.on('GET', '/referral/summary', envelope(500, 'Internal server error'));
    } });
    expect((await screen.findAllByRole('alert')).some((a) => a.textContent === 'Internal server error')).toBe(true);
  });
});

describe('dashboard referral card', () => {
  it('shows total, yesterday and invited count and links to /my/rebate', async () => {
    const h = renderAssets({ path: '/my/dashboard', screen: <ReferralCard />, script: (http) => script(http) });
    await waitFor(() => expect(screen.getByTestId('dash-referral-total').textContent).toBe('12.3456 USDT'));
    const card = screen.getByTestId('dash-referral');
    expect(card.textContent).toContain('Yesterday: 1.2000 USDT');
    expect(card.textContent).toContain('Invited users: 25');
    act(() => fireEvent.click(within(card).getByRole('link', { name: 'Invite friends' })));
    await waitFor(() => expect(h.location()).toBe('/my/rebate'));
  });
});
