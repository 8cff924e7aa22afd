// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { envelope } from '../../../src/ports/fakes.ts';
import type { HttpRequest } from '../../../src/ports/types.ts';
import { mergePreview, VOUCHER_MSG } from '../../../src/protocol/vouchers.ts';
import type { Voucher, VoucherKind, VoucherStatus } from '../../../src/protocol/vouchers.ts';
import { CouponScreen } from '../../../src/ui/screens/coupon/CouponScreen.tsx';
import { formatDay } from '../../../src/ui/screens/coupon/couponModel.ts';
import type { Lang } from '../../../src/ui/i18n/languages.ts';
import { renderAssets, installClickClock } from './assetsHarness.tsx';

/**
 * The coupon screen over a real app core on scripted ports: the scripted Http plays a tiny voucher
 * server (vouchers in memory, filters, a real merge with the shared formula, scripted rejections),
 * the user socket is fed by hand.
 */

installClickClock();

const NOW = 1_700_000_000_000;
const DAY = 86_400_000;

function v(id: number, kind: VoucherKind, value: string, over: Partial<Voucher> = {}): Voucher {
  return { id, kind, value, status: 'use', expiresAt: null, source: 'seed', usedRef: null, mergedInto: null, createdAt: NOW - id, usedAt: null, ...over };
}

interface FakeServer {
  vouchers: Voucher[];
  /** When set, the next merge is rejected with this msg. */
  reject: string | null;
}

function script(srv: FakeServer) {
  return (http: Parameters<NonNullable<Parameters<typeof renderAssets>[0]['script']>>[0]) => {
    http.on('GET', '/vouchers', (req: HttpRequest) => {
      const q = req.query ?? {};
      const list = srv.vouchers.filter((x) => (q.kind === undefined || x.kind === q.kind) && (q.status === undefined || x.status === q.status));
      return envelope(200, 'success', { list, total: list.length, page: 1, pageSize: 12 });
    });
    http.on('POST', '/vouchers/merge', (req: HttpRequest) => {
      if (srv.reject !== null) {
        const msg = srv.reject;
        srv.reject = null;
        return envelope(409, msg, null);
      }
      const ids = (req.body as { ids: number[] }).ids;
      const inputs = srv.vouchers.filter((x) => ids.includes(x.id));
      const p = mergePreview(inputs);
      const made = v(100, inputs[0]?.kind ?? 'lossProtection', p.value, { expiresAt: p.expiresAt, source: 'merge', createdAt: NOW });
      srv.vouchers = [made, ...srv.vouchers.map((x) => (ids.includes(x.id) ? { ...x, status: 'merged' as VoucherStatus, mergedInto: 100, usedAt: NOW } : x))];
      return envelope(200, 'success', made);
    });
  };
}

function renderScreen(srv: FakeServer, opts: { width?: number; lang?: Lang } = {}) {
  return renderAssets({ path: '/my/coupon', screen: <CouponScreen />, width: opts.width, lang: opts.lang, script: script(srv) });
}

const merges = (h: ReturnType<typeof renderScreen>) => h.http.requests.filter((r) => r.method === 'POST' && r.path === '/vouchers/merge').map((r) => r.body);
const card = (id: number) => screen.getByTestId(`cpn-card-${id}`);

function demo(): FakeServer {
  return {
    reject: null,
    vouchers: [
      v(1, 'lossProtection', '20.000000', { source: 'welcome', expiresAt: NOW + 30 * DAY }),
      v(2, 'speed', '50', { source: 'welcome' }),
      v(3, 'lossProtection', '50.000000', { expiresAt: NOW + 14 * DAY }),
      v(4, 'lossProtection', '1234.5', {}),
      v(5, 'lossProtection', '10.000000', { status: 'used', usedRef: 'compensation:9', usedAt: NOW - DAY }),
      v(6, 'speed', '20', { status: 'expired', expiresAt: NOW - 2 * DAY }),
    ],
  };
}

describe('coupon screen', () => {
  it('shows usable loss-protection vouchers with value, validity, source and status; tabs and filters ask the server', async () => {
    const h = renderScreen(demo());
    await screen.findByTestId('cpn-card-1');
    expect(screen.getByTestId('cpn-value-1').textContent).toBe('20.00 USDT');
    expect(screen.getByTestId('cpn-value-4').textContent).toBe('1,234.50 USDT');
    expect(within(card(1)).getByText(`Valid until ${formatDay(NOW + 30 * DAY)}`)).toBeTruthy();
    expect(within(card(1)).getByText('Source: Welcome gift')).toBeTruthy();
    expect(within(card(4)).getByText('Permanently valid')).toBeTruthy();
    expect(within(card(3)).getByText('Usable')).toBeTruthy();
    expect(screen.queryByTestId('cpn-card-2')).toBeNull();
    expect(h.http.requests.find((r) => r.path === '/vouchers')?.query).toMatchObject({ kind: 'lossProtection', status: 'use', page: 1 });

    fireEvent.click(screen.getByRole('tab', { name: 'Speed' }));
    await screen.findByTestId('cpn-card-2');
    expect(screen.getByTestId('cpn-value-2').textContent).toBe('50%');
    expect(within(card(2)).getByText('Permanently valid')).toBeTruthy();

    fireEvent.click(screen.getByTestId('cpn-filter-expired'));
    await screen.findByTestId('cpn-card-6');
    expect(within(card(6)).getByText(`Expired on ${formatDay(NOW - 2 * DAY)}`)).toBeTruthy();
    expect(within(card(6)).queryByRole('button', { name: 'Use' })).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: 'Loss protection' }));
    fireEvent.click(screen.getByTestId('cpn-filter-used'));
    await screen.findByTestId('cpn-card-5');
    expect(within(card(5)).getByText('Used for compensation order #9')).toBeTruthy();
    expect(within(card(5)).getByText('Used')).toBeTruthy();
    expect(h.http.requests.filter((r) => r.path === '/vouchers').at(-1)?.query).toMatchObject({ kind: 'lossProtection', status: 'used' });
  });

  it('the kind tab, status filter and page are view state (issue 16): set by the user, shown again when the store says so', async () => {
    const h = renderScreen(demo());
    await screen.findByTestId('cpn-card-1');
    fireEvent.click(screen.getByRole('tab', { name: 'Speed' }));
    fireEvent.click(screen.getByTestId('cpn-filter-expired'));
    await screen.findByTestId('cpn-card-6');
    expect([h.core.view.get('coupon.kind'), h.core.view.get('coupon.status'), h.core.view.get('coupon.page')]).toEqual(['speed', 'expired', 1]);
    // A replay applies recorded values: the screen follows (tab, chip and the list it asks for).
    act(() => {
      h.core.view.apply('coupon.kind', 'lossProtection');
      h.core.view.apply('coupon.status', 'used');
    });
    await screen.findByTestId('cpn-card-5');
    expect(screen.getByRole('tab', { name: 'Loss protection' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('cpn-filter-used').getAttribute('aria-checked')).toBe('true');
    expect(h.http.requests.filter((r) => r.path === '/vouchers').at(-1)?.query).toMatchObject({ kind: 'lossProtection', status: 'used' });
    // A value the screen does not know reads as its default.
    act(() => h.core.view.apply('coupon.status', 'stolen'));
    await screen.findByTestId('cpn-card-1');
    expect(screen.getByTestId('cpn-filter-use').getAttribute('aria-checked')).toBe('true');
  });

  it('"Use" opens the compensation orders with the voucher preselected', async () => {
    const h = renderScreen(demo());
    fireEvent.click(await screen.findByTestId('cpn-use-3'));
    await waitFor(() => expect(h.location()).toBe('/my/compensation/orders?voucher=3&kind=lossProtection'));
  });

  it('merges two loss-protection vouchers: select, preview, confirm, result, the list follows', async () => {
    const srv = demo();
    const h = renderScreen(srv);
    await screen.findByTestId('cpn-card-1');
    fireEvent.click(screen.getByTestId('cpn-merge-start'));
    const next = screen.getByTestId('cpn-merge-next') as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    fireEvent.click(screen.getByTestId('cpn-select-1'));
    fireEvent.click(screen.getByTestId('cpn-select-3'));
    expect(screen.getByTestId('cpn-mergebar').textContent).toContain('Selected: 2 / 10 · Result: 70.00 USDT');
    expect(next.disabled).toBe(false);
    fireEvent.click(next);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('cpn-preview-value').textContent).toBe('70.00 USDT');
    expect(within(dialog).getByText(`Validity: Valid until ${formatDay(NOW + 14 * DAY)}`)).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('cpn-merge-confirm'));
    const result = await screen.findByTestId('cpn-result-value');
    expect(result.textContent).toBe('70.00 USDT');
    expect(merges(h)).toEqual([{ ids: [1, 3] }]);
    fireEvent.click(screen.getByTestId('cpn-done-close'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await screen.findByTestId('cpn-card-100');
    expect(screen.queryByTestId('cpn-card-1')).toBeNull();
    expect(within(card(100)).getByText('Source: Merged voucher')).toBeTruthy();
  });

  it('a rejected merge shows the translated server msg; a frame drops a voucher used elsewhere from the selection', async () => {
    const srv = demo();
    srv.reject = VOUCHER_MSG.notUsable;
    const h = renderScreen(srv, { lang: 'zh' });
    await screen.findByTestId('cpn-card-1');
    fireEvent.click(screen.getByTestId('cpn-merge-start'));
    for (const id of [1, 3, 4]) fireEvent.click(screen.getByTestId(`cpn-select-${id}`));
    fireEvent.click(screen.getByTestId('cpn-merge-next'));
    fireEvent.click(within(await screen.findByRole('dialog')).getByTestId('cpn-merge-confirm'));
    expect((await screen.findByTestId('cpn-merge-error')).textContent).toBe('该卡券已无法使用');
    // voucher 4 was used by a compensation claim in another tab
    const used = { ...v(4, 'lossProtection', '1234.5'), status: 'used' as VoucherStatus, usedRef: 'compensation:2', usedAt: NOW };
    srv.vouchers = srv.vouchers.map((x) => (x.id === 4 ? used : x));
    h.push({ type: 'voucher', data: used });
    await waitFor(() => expect(within(screen.getByRole('dialog')).queryByText('#4')).toBeNull());
    fireEvent.click(within(screen.getByRole('dialog')).getByTestId('cpn-merge-confirm'));
    await screen.findByTestId('cpn-result-value');
    expect(merges(h)).toEqual([{ ids: [1, 3, 4] }, { ids: [1, 3] }]);
  });

  it('shows the translated empty state on a phone', async () => {
    renderScreen({ vouchers: [], reject: null }, { lang: 'ko', width: 390 });
    expect(await screen.findByText('이 유형의 사용 가능한 쿠폰이 없습니다.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: '가속' })).toBeTruthy();
  });
});
