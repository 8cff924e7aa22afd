import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { DEMO_ACCOUNT as DEMO, demoToken, presetStorage, themeShots } from './authHelpers.ts';
import { operatorHeaders } from './operator.ts';

/**
 * The compensation programme end to end (E2E_PORT=8212) with the seeded demo account, against the
 * real server and the built app: open /my/compensation/orders (seeded: one unclaimed, one being
 * paid, one completed), claim the unclaimed one (the demo is seeded identity-verified), boost the
 * running one with a seeded speed voucher, fast-forward the payout schedule through the dev endpoint (the page
 * follows the user-socket frames), withdraw every order awaiting withdrawal, and see the fund
 * account grow by exactly what was paid. Screenshots (desktop 1440 and phone 390, both themes) go
 * to screenshots/.
 */

interface Order {
  id: number;
  status: string;
  amount: string;
  paid: string;
}

async function orders(request: APIRequestContext, token: string): Promise<Order[]> {
  const res = await request.get('/api/compensation/orders?pageSize=50', { headers: { Authorization: token } });
  return ((await res.json()) as { data: { list: Order[] } }).data.list;
}

async function fundUsdt(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.get('/api/wallet/balances', { headers: { Authorization: token } });
  const list = ((await res.json()) as { data: { wallet: string; coin: string; available: string }[] }).data;
  return Number(list.find((b) => b.wallet === 'fund' && b.coin === 'USDT')?.available ?? NaN);
}

const money = (n: number): string => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });

test('demo: claim, boost, fast-forward the payouts, withdraw into the fund account', async ({ page, request }) => {
  const token = await demoToken(request);
  await presetStorage(page, { token, theme: 'dark' });
  const fundBefore = await fundUsdt(request, token);

  await page.goto('/my/compensation/orders');
  await expect(page.getByRole('heading', { name: 'Compensation orders' })).toBeVisible();
  const rows = page.getByTestId('comp-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('Not active');
  await expect(rows.nth(1)).toContainText('In compensation');
  await expect(rows.nth(2)).toContainText('Completed');
  await expect(page.getByTestId('comp-summaryPnl')).toContainText('-807.70');
  await themeShots(page, 'compensation-desktop');

  const seeded = await orders(request, token);
  const fresh = seeded.find((o) => o.status === 'notActive');
  if (!fresh) throw new Error('no seeded notActive order');
  await page.getByTestId(`comp-claim-${fresh.id}`).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Claim compensation');
  await page.screenshot({ path: 'screenshots/compensation-claim-desktop-dark.png' });
  await dialog.getByTestId('comp-confirm').click();
  await expect(page.getByText('Compensation claimed')).toBeVisible();
  await expect(rows.nth(0)).toContainText('Active');

  // boost the order being paid with a speed voucher (the demo's seeded coupons)
  const running = seeded.find((o) => o.status === 'inCompensation');
  if (!running) throw new Error('no seeded inCompensation order');
  await page.getByTestId(`comp-boost-${running.id}`).click();
  await expect(dialog).toContainText('Boost payouts');
  const speed = dialog.locator('input[data-testid^="comp-voucher-"]').first();
  await speed.check();
  await expect(dialog.getByTestId('comp-boost-preview')).toContainText('Days left after the boost:');
  await page.screenshot({ path: 'screenshots/compensation-boost-desktop-dark.png' });
  await dialog.getByTestId('comp-confirm').click();
  await expect(page.getByText('Payouts boosted')).toBeVisible();
  await expect(rows.nth(1)).toContainText('Boosted ×1');

  // 30 days later (dev endpoint): every running schedule is paid in full; the page follows the frames
  const ff = await request.post('/api/dev/compensation/fast-forward', { data: { email: DEMO.email, days: 30 }, headers: operatorHeaders() });
  expect(((await ff.json()) as { code: number }).code).toBe(200);
  const due = (await orders(request, token)).filter((o) => o.status === 'pending');
  expect(due.length).toBeGreaterThanOrEqual(1);
  for (const o of due) await expect(page.getByTestId(`comp-withdraw-${o.id}`)).toBeVisible();
  await expect(page.getByTestId('comp-summaryPending')).not.toContainText('0.00');

  let withdrawn = 0;
  for (const o of due) {
    await page.getByTestId(`comp-withdraw-${o.id}`).click();
    await expect(dialog).toContainText(`${money(Number(o.paid))} USDT will be credited to your fund account.`);
    await dialog.getByTestId('comp-confirm').click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId(`comp-withdraw-${o.id}`)).toHaveCount(0);
    withdrawn += Number(o.paid);
  }
  await expect(page.getByTestId('comp-summaryPending')).toContainText('0.00');
  expect(due.map((o) => o.id).sort()).toEqual([fresh.id, running.id].sort());
  expect((await orders(request, token)).filter((o) => o.status === 'completed').length).toBe(3);
  const fundAfter = await fundUsdt(request, token);
  expect(fundAfter).toBeCloseTo(fundBefore + withdrawn, 6);

  await page.goto('/my/assets/fund-account');
  await expect(page.getByTestId('coin-row').filter({ hasText: 'USDT' }).first()).toContainText(money(fundAfter));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/my/compensation/orders');
  await expect(rows).toHaveCount(3);
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(over).toBeLessThanOrEqual(0);
  await themeShots(page, 'compensation-mobile');

  // translated (Traditional Chinese, the default language)
  await page.evaluate(() => window.localStorage.setItem('lang', 'hk'));
  const hk = await page.context().newPage(); // no init script: keeps the stored language
  await hk.setViewportSize({ width: 1440, height: 900 });
  await hk.goto('/my/compensation/orders');
  await expect(hk.getByRole('heading', { name: '補償訂單' })).toBeVisible();
  await expect(hk.getByTestId('comp-row').first()).toContainText('已完成');
  await hk.screenshot({ path: 'screenshots/compensation-desktop-hk.png', fullPage: true });
});
