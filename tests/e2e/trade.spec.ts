import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { apiSignUp, presetStorage } from './authHelpers.ts';

/**
 * Futures trading end to end (issue 4), against the real server and the built app, at desktop
 * (1440×900) and phone (390×844) size: a fresh account (10 000 USDT demo balance in the perp
 * wallet) opens /mFutures/BTCUSDT, sees the SPEC message for a limit order without a price,
 * places a market and a limit order (and cancels the limit order), sees the position with its liquidation price, sets a TP,
 * closes the position and finds it in order history, trade history and the fee in the
 * transaction history. Screenshots in both themes go to screenshots/.
 */

const uniqueEmail = (tag: string) => `${tag}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;

async function openTrade(page: Page, theme: 'dark' | 'light' = 'dark'): Promise<void> {
  const token = await apiSignUp(page.request, uniqueEmail('trade'), 'secret123');
  await presetStorage(page, { token, theme });
  await page.goto('/mFutures/BTCUSDT');
  await expect(page.getByTestId('last-price')).not.toHaveText('--');
  await expect(page.getByTestId('available')).toContainText('10,000.00');
}

const panel = (page: Page) => page.getByRole('region', { name: 'Place order' });

async function lastPrice(page: Page): Promise<number> {
  return Number((await page.getByTestId('last-price').innerText()).replace(/,/g, ''));
}

async function tradeFlow(page: Page, shot: string): Promise<void> {
  const p = panel(page);
  // SPEC §5: a limit order needs a price.
  await p.getByLabel('Quantity').fill('0.01');
  await p.getByRole('button', { name: 'Buy / Long' }).click();
  await expect(p.getByRole('alert')).toHaveText('Please enter the limit order price!');

  // Market buy.
  await p.getByRole('tab', { name: 'Market' }).click();
  await p.getByLabel('Quantity').fill('0.01');
  await p.getByRole('button', { name: 'Buy / Long' }).click();
  await expect(p.getByText(/Order (filled|placed)/)).toBeVisible();

  // The position with its liquidation price.
  const row = page.getByTestId('position-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('liq-price')).toHaveText(/^\d{1,3}(,\d{3})*\.\d+$/);
  if (shot === 'phone') {
    // Phones: the position is a card (no sideways table), and every account tab, once chosen,
    // shows its whole label inside the row (no 'Trade histor').
    await expect(page.locator('article[data-testid="position-row"]')).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
    const tabs = page.getByRole('tablist', { name: 'Account' }).getByRole('tab');
    for (let i = (await tabs.count()) - 1; i >= 0; i--) {
      await tabs.nth(i).click();
      const fits = await tabs.nth(i).evaluate((el) => {
        const r = (el.parentElement as HTMLElement).getBoundingClientRect();
        const b = el.getBoundingClientRect();
        return b.left >= r.left - 1 && b.right <= r.right + 1 && el.scrollWidth <= el.clientWidth + 1;
      });
      expect(fits, `tab ${i} fully visible`).toBe(true);
    }
    await tabs.first().click();
  }

  // A limit buy well under the market rests in open orders.
  const price = Math.floor((await lastPrice(page)) * 0.8);
  await p.getByRole('tab', { name: 'Limit' }).click();
  await p.getByLabel('Price', { exact: true }).fill(String(price));
  await p.getByLabel('Quantity').fill('0.01');
  await p.getByRole('button', { name: 'Buy / Long' }).click();
  await expect(p.getByText('Order placed')).toBeVisible();
  await page.getByRole('tab', { name: /Open orders/ }).click();
  await expect(page.getByTestId('open-order-row')).toHaveCount(1);
  await page.screenshot({ path: `screenshots/trade-${shot}-open-order.png`, fullPage: true });
  // Cancel it: the open order goes, the margin comes back.
  await page.getByTestId('open-order-row').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('open-order-row')).toHaveCount(0);

  // Set a take-profit on the position.
  await page.getByRole('tab', { name: /Positions/ }).click();
  await row.getByRole('button', { name: 'TP/SL' }).click();
  const tp = Math.ceil((await lastPrice(page)) * 1.5);
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Take profit').fill(String(tp));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Take profit set')).toBeVisible();
  await expect(row.getByTestId('position-tpsl')).toContainText(tp.toLocaleString('en-US'));
  await page.screenshot({ path: `screenshots/trade-${shot}-position.png`, fullPage: true });

  // Close it.
  await row.getByRole('button', { name: 'Close', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText(/^Position closed 0\.0\d+ BTC at [\d,]+\.\d+$/)).toBeVisible();
  await expect(page.getByTestId('position-row')).toHaveCount(0);

  // Order history, trade history and the fee in the transaction history.
  await page.getByRole('tab', { name: 'Order history' }).click();
  await expect(page.getByTestId('order-history-row').filter({ hasText: 'Market close' })).toHaveCount(1);
  await expect(page.getByTestId('order-history-row').filter({ hasText: 'Canceled' })).not.toHaveCount(0);
  await page.getByRole('tab', { name: 'Trade history' }).click();
  await expect(page.getByTestId('trade-history-row')).toHaveCount(2);
  await page.getByRole('tab', { name: 'Transaction history' }).click();
  await expect(page.locator('[data-testid="transaction-row"][data-type="CONTRACT_OPEN_FEE"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="transaction-row"][data-type="CONTRACT_CLOSE_FEE"]')).toHaveCount(1);
}

test.describe('trade desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('market and limit order, position with liquidation price, TP, close, histories', async ({ page }) => {
    await openTrade(page);
    await expect(page.getByTestId('candle-chart').locator('canvas').first()).toBeVisible();
    await tradeFlow(page, 'desktop');
  });

  for (const theme of ['dark', 'light'] as const) {
    test(`screenshot ${theme}`, async ({ page }) => {
      await openTrade(page, theme);
      await expect(page.getByTestId('ob-bid').first()).toBeVisible();
      await page.waitForTimeout(800);
      await page.screenshot({ path: `screenshots/trade-desktop-${theme}.png` });
      if (theme === 'dark') {
        await page.getByTestId('indicator-menu').click();
        await page.getByLabel('BOLL').check();
        await page.getByLabel('MACD').check();
        await page.waitForTimeout(300);
        await page.screenshot({ path: 'screenshots/trade-desktop-indicators.png' });
        await page.getByTestId('indicator-menu').click();
        await page.getByRole('tab', { name: 'Depth' }).click();
        await expect(page.getByTestId('depth-chart')).toBeVisible();
        await page.screenshot({ path: 'screenshots/trade-desktop-depth.png' });
        await page.getByRole('tab', { name: 'Info & rules' }).click();
        await expect(page.getByTestId('rules')).toContainText('Maintenance margin ratio');
        await page.screenshot({ path: 'screenshots/trade-desktop-rules.png' });
      }
    });
  }
});

test.describe('trade phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the same flow at phone width, without sideways scrolling', async ({ page }) => {
    await openTrade(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await tradeFlow(page, 'phone');
  });

  for (const theme of ['dark', 'light'] as const) {
    test(`screenshot ${theme}`, async ({ page }) => {
      await openTrade(page, theme);
      await page.waitForTimeout(800);
      await page.screenshot({ path: `screenshots/trade-phone-${theme}.png`, fullPage: true });
    });
  }
});

test('a visitor sees the screen with a login prompt', async ({ page }) => {
  await presetStorage(page, {});
  await page.goto('/stdFuture/BTCUSDT');
  await expect(panel(page).getByText('Log in or register to start trading')).toBeVisible();
  await expect(page.getByTestId('last-price')).not.toHaveText('--');
});
