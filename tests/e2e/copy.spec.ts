import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSignUp, presetStorage, themeShots, uniqueEmail } from './authHelpers.ts';
import { operatorHeaders } from './operator.ts';

/**
 * Issue 15, copy trading in the browser at 1440x900 and 390x844: a new user copies a simulated
 * lead trader (seeded on a fresh start), the trader's next order is placed now through the dev
 * endpoint (POST /api/dev/copy/trade, only with EXPOSE_OUTBOX like every dev route), the copied
 * position appears live in "My copied positions" at the copy's ratio of the trader's position
 * (rounded down to the 0.001 step), then the user stops copying and closes it.
 */

const AURORA = 9_000_001;
const RATIO = 0.5;

interface LeadPosition {
  symbol: string;
  side: 'long' | 'short';
  qty: number;
}

async function leaderQty(request: APIRequestContext): Promise<number> {
  const res = await request.get(`/api/copy/traders/${AURORA}`);
  const env = (await res.json()) as { data: { positions: LeadPosition[] } };
  const p = env.data.positions.find((x) => x.symbol === 'BTCUSDT');
  return p ? p.qty : 0;
}

async function traderOrder(request: APIRequestContext): Promise<void> {
  const res = await request.post('/api/dev/copy/trade', { data: { traderId: AURORA, symbol: 'BTCUSDT', side: 'buy', qty: 0.02, kind: 'marketOpen', leverage: 10 }, headers: operatorHeaders() });
  const env = (await res.json()) as { code: number; msg: string };
  expect(env.code, env.msg).toBe(200);
}

/** The copied BTC quantity shown on the page, or 0 when no copied position is listed. */
async function shownQty(page: Page): Promise<number> {
  const cell = page.getByTestId('cp-my-position-qty').first();
  if ((await cell.count()) === 0) return 0;
  return Number(await cell.textContent());
}

async function fillFollow(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('cp-amount').fill('2000');
  await dialog.getByTestId('cp-ratio').fill(String(RATIO));
  await dialog.getByTestId('cp-follow-submit').click();
  await expect(dialog.getByRole('status')).toContainText('Aurora Quant');
  await dialog.getByTestId('cp-follow-done').click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

async function expectCopiedLive(page: Page, request: APIRequestContext): Promise<void> {
  await traderOrder(request);
  // The copy holds floor(ratio × the trader's position) to the step. The test servers run no simulated
  // round by themselves (MARKET_STEERING), so the trader's position is only what the tests ordered.
  await expect
    .poll(async () => {
      const lead = await leaderQty(request);
      return (await shownQty(page)) === Math.floor(lead * RATIO * 1000 + 1e-6) / 1000 && lead > 0;
    }, { timeout: 15_000 })
    .toBe(true);
}

async function unfollowClosing(page: Page, opener: string): Promise<void> {
  await page.getByTestId(opener).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByTestId('cp-unfollow-close').check();
  await dialog.getByTestId('cp-unfollow-confirm').click();
  await expect(dialog.getByRole('status')).toBeVisible();
  await dialog.getByTestId('cp-unfollow-done').click();
  await expect(page.getByTestId('cp-my-positions-empty')).toBeVisible();
}

test.describe('copy trading', () => {
  test('desktop 1440x900: copy a simulated trader from /copy, see its next order copied live, stop copying', async ({ page, request }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const token = await apiSignUp(request, uniqueEmail('copyd'), 'secret12');
    await presetStorage(page, { token, theme: 'dark' });
    await page.goto('/copy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Copy trading');
    const card = page.getByTestId(`cp-trader-${AURORA}`);
    await expect(card).toContainText('Aurora Quant');
    // search narrows the list
    await page.getByTestId('cp-search').fill('kestrel');
    await expect(page.getByTestId(`cp-trader-${AURORA}`)).toHaveCount(0);
    await page.getByTestId('cp-search').fill('');
    await page.getByTestId('cp-sort').selectOption('followers');
    await page.getByTestId(`cp-copy-${AURORA}`).click();
    await fillFollow(page);
    await expect(page.getByTestId(`cp-follow-${AURORA}`)).toBeVisible();
    await expect(page.getByTestId(`cp-copy-${AURORA}`)).toBeDisabled();
    await expectCopiedLive(page, request);
    await themeShots(page, 'copy-desktop');
    await unfollowClosing(page, `cp-unfollow-${AURORA}`);
    await expect(page.getByTestId(`cp-follow-${AURORA}`)).toHaveCount(0);
  });

  test('phone 390x844: copy from the trader page, see the copied order live, stop copying', async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const token = await apiSignUp(request, uniqueEmail('copym'), 'secret12');
    await presetStorage(page, { token, theme: 'light' });
    await page.goto(`/copy/trader/${AURORA}`);
    await expect(page.getByTestId('cp-trader-name')).toHaveText('Aurora Quant');
    await page.getByTestId('cp-trader-copy').click();
    await fillFollow(page);
    await expect(page.getByTestId('cp-trader-unfollow')).toBeVisible();
    await expectCopiedLive(page, request);
    await themeShots(page, 'copy-phone');
    await unfollowClosing(page, 'cp-trader-unfollow');
    await expect(page.getByTestId('cp-trader-copy')).toBeVisible();
  });
});

test('the copy screens in Japanese and Korean, both themes (screenshots)', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const [lang, title] of [['jp', 'コピートレード'], ['ko', '카피 트레이딩']] as const) {
    await presetStorage(page, { lang, theme: 'dark' });
    await page.goto('/copy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByTestId(`cp-trader-${AURORA}`)).toBeVisible();
    await themeShots(page, `copy-${lang}`);
    await page.goto(`/copy/trader/${AURORA}`);
    await expect(page.getByTestId('cp-trader-name')).toHaveText('Aurora Quant');
    await themeShots(page, `copy-trader-${lang}`);
  }
});
