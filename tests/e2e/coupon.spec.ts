import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { apiSignUp, demoToken, presetStorage, themeShots, uniqueEmail } from './authHelpers.ts';

/**
 * Vouchers end to end (E2E_PORT=8213), against the real server and the built app: a fresh account
 * sees its two welcome vouchers on /my/coupon; the seeded demo account merges two loss-protection
 * vouchers in the browser and sees the new one (value summed, earliest expiry) while the inputs
 * move to "Merged". Screenshots (desktop 1440 and phone 390, both themes) go to screenshots/.
 */

interface Voucher {
  id: number;
  kind: string;
  value: string;
  status: string;
  source: string;
  expiresAt: number | null;
}

async function vouchers(request: APIRequestContext, token: string, query: string): Promise<Voucher[]> {
  const res = await request.get(`/api/vouchers?pageSize=100&${query}`, { headers: { Authorization: token } });
  return ((await res.json()) as { data: { list: Voucher[] } }).data.list;
}

test('a fresh account sees its two welcome vouchers', async ({ page, request }) => {
  const token = await apiSignUp(request, uniqueEmail('coupon'), 'secret12');
  await presetStorage(page, { token, theme: 'dark' });
  await page.goto('/my/coupon');
  await expect(page.getByRole('heading', { name: 'My coupons' })).toBeVisible();
  const cards = page.getByTestId('cpn-list').locator('li');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('20.00 USDT');
  await expect(cards.first()).toContainText('Valid until');
  await expect(cards.first()).toContainText('Source: Welcome gift');
  await expect(cards.first()).toContainText('Usable');
  await page.getByRole('tab', { name: 'Speed' }).click();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('50%');
  await expect(cards.first()).toContainText('Permanently valid');
  const all = await vouchers(request, token, '');
  expect(all.map((v) => `${v.kind}:${v.value}:${v.source}`).sort()).toEqual(['lossProtection:20.000000:welcome', 'speed:50:welcome']);

  // "Use" opens the compensation orders with the voucher in the query
  await cards.first().getByRole('button', { name: 'Use' }).click();
  await expect(page).toHaveURL(/\/my\/compensation\/orders/);
});

test('demo: merge two loss-protection vouchers and see the result', async ({ page, request }) => {
  const token = await demoToken(request);
  await presetStorage(page, { token, theme: 'dark' });
  const usable = await vouchers(request, token, 'kind=lossProtection&status=use');
  expect(usable.length).toBeGreaterThanOrEqual(3);
  const [a, b] = usable;
  if (!a || !b) throw new Error('no seeded vouchers');
  const sum = (Number(a.value) + Number(b.value)).toFixed(2);

  await page.goto('/my/coupon');
  await expect(page.getByTestId(`cpn-card-${a.id}`)).toBeVisible();
  await themeShots(page, 'coupon-desktop');
  await page.getByRole('tab', { name: 'Speed' }).click();
  await expect(page.getByTestId('cpn-list')).toContainText('44%');
  await themeShots(page, 'coupon-speed-desktop');
  await page.getByTestId('cpn-filter-merged').click();
  await expect(page.getByTestId('cpn-list').locator('li')).toHaveCount(2);
  await page.screenshot({ path: 'screenshots/coupon-speed-merged-desktop-dark.png' });
  await page.getByTestId('cpn-filter-use').click();
  await page.getByRole('tab', { name: 'Loss protection' }).click();
  await page.getByTestId('cpn-filter-used').click();
  await expect(page.getByTestId('cpn-list')).toContainText('Used for compensation order #');
  await page.getByTestId('cpn-filter-use').click();

  await page.getByTestId('cpn-merge-start').click();
  await page.getByTestId(`cpn-select-${a.id}`).check();
  await page.getByTestId(`cpn-select-${b.id}`).check();
  await expect(page.getByTestId('cpn-mergebar')).toContainText(`Result: ${sum} USDT`);
  await page.screenshot({ path: 'screenshots/coupon-merge-select-desktop-dark.png' });
  await page.getByTestId('cpn-merge-next').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('cpn-preview-value')).toHaveText(`${sum} USDT`);
  await page.screenshot({ path: 'screenshots/coupon-merge-confirm-desktop-dark.png' });
  await dialog.getByTestId('cpn-merge-confirm').click();
  await expect(dialog.getByTestId('cpn-result-value')).toHaveText(`${sum} USDT`);
  await page.screenshot({ path: 'screenshots/coupon-merge-done-desktop-dark.png' });
  await dialog.getByTestId('cpn-done-close').click();
  await expect(dialog).toHaveCount(0);

  const made = (await vouchers(request, token, 'kind=lossProtection&status=use')).find((v) => v.source === 'merge');
  expect(made).toBeDefined();
  expect(Number(made?.value).toFixed(2)).toBe(sum);
  const earliest = [a.expiresAt, b.expiresAt].filter((e): e is number => e !== null);
  expect(made?.expiresAt ?? null).toBe(earliest.length ? Math.min(...earliest) : null);
  await expect(page.getByTestId(`cpn-card-${made?.id ?? 0}`)).toContainText('Source: Merged voucher');
  await expect(page.getByTestId(`cpn-card-${a.id}`)).toHaveCount(0);
  await page.getByTestId('cpn-filter-merged').click();
  await expect(page.getByTestId(`cpn-card-${a.id}`)).toContainText(`Merged into voucher #${made?.id ?? 0}`);
  await page.getByTestId('cpn-filter-use').click();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/my/coupon');
  await expect(page.getByTestId(`cpn-card-${made?.id ?? 0}`)).toBeVisible();
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(over).toBeLessThanOrEqual(0);
  await themeShots(page, 'coupon-mobile');
  await page.getByTestId('cpn-merge-start').click();
  await page.screenshot({ path: 'screenshots/coupon-merge-select-mobile-dark.png', fullPage: true });
});
