import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';

/**
 * The app shell in a real browser against the built app and the real server: desktop
 * (1440x900) and phone (390x844) layouts, language switching with reload, theme persistence,
 * history-mode routing (not-found, pair redirect) and the footer's help links.
 */

const HELP_DETAIL = [15, 16, 17, 53, 85, 86, 58, 75, 80, 81, 82, 83, 84, 8, 9, 14, 13, 11, 12, 10];
const HELP_LIST = [23, 16, 18, 21, 22, 20, 19];

/** Fresh storage with English UI (the product default is hk). */
async function startEnglish(page: Page, path = '/'): Promise<void> {
  await page.goto('/');
  await page.evaluate(() => {
    localStorage.clear();
    localStorage.setItem('lang', 'en');
  });
  await page.goto(path);
}

test.describe('desktop shell', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('home loads inside the shell with the dark theme by default', async ({ page }) => {
    await startEnglish(page);
    const bar = page.getByTestId('topbar-desktop');
    await expect(bar).toBeVisible();
    await expect(bar.getByRole('link', { name: 'Home', exact: true })).toBeVisible();
    await expect(bar.getByTestId('login-link')).toHaveAttribute('href', '/login?redirect=%2F');
    await expect(page.getByTestId('footer')).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/theme-dark/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('switching the language to zh changes the menus and <html lang> after the reload', async ({ page }) => {
    await startEnglish(page);
    await page.getByRole('button', { name: /^Language: / }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitemradio', { name: '简体中文' }).click()]);
    const bar = page.getByTestId('topbar-desktop');
    await expect(bar.getByRole('link', { name: '首页' })).toBeVisible();
    await expect(bar.getByRole('link', { name: '行情' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('zh');
  });

  test('theme toggle switches the root class and persists after reload', async ({ page }) => {
    await startEnglish(page);
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveClass(/theme-light/);
    await page.reload();
    await expect(page.locator('html')).toHaveClass(/theme-light/);
    await expect(page.locator('html')).not.toHaveClass(/theme-dark/);
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveClass(/theme-dark/);
  });

  test('an unknown path shows the not-found screen inside the shell', async ({ page }) => {
    await startEnglish(page, '/this/does/not/exist');
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByTestId('topbar-desktop')).toBeVisible();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('/mFutures redirects to /mFutures/BTCUSDT, /stdFuture to the stored pair', async ({ page }) => {
    await startEnglish(page, '/mFutures');
    await expect(page).toHaveURL(/\/mFutures\/BTCUSDT$/);
    // The trade screen (a lazy chunk) stores the pair it shows once mounted: wait for that before
    // storing another, or its write lands after ours.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('trade_pair'))).toBe('BTCUSDT');
    await page.evaluate(() => localStorage.setItem('trade_pair', 'ETHUSDT'));
    await page.goto('/stdFuture');
    await expect(page).toHaveURL(/\/stdFuture\/ETHUSDT$/);
  });

  test('the footer links to every help id and the product pages', async ({ page }) => {
    await startEnglish(page);
    const footer = page.getByTestId('footer');
    await expect(footer).toBeVisible();
    const hrefs = await footer.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    for (const id of HELP_DETAIL) expect(hrefs).toContain(`/help-detail/${id}`);
    for (const id of HELP_LIST) expect(hrefs).toContain(`/help-list/${id}`);
    for (const p of ['/convert', '/market', '/stdFuture/BTCUSDT', '/mFutures/BTCUSDT']) expect(hrefs).toContain(p);
    await expect(footer).toContainText('© 2026 RiskFree. All rights reserved.');
    await footer.getByTestId('badge-appStore').click();
    await expect(page.getByRole('region', { name: /Notifications/ }).getByText('Coming Soon')).toBeVisible();
  });
});

test.describe('mobile shell', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('home loads with the mobile top bar and bottom bar, no footer', async ({ page }) => {
    await startEnglish(page);
    await expect(page.getByTestId('topbar-mobile')).toBeVisible();
    const bottom = page.getByTestId('bottom-bar');
    await expect(bottom).toBeVisible();
    await expect(bottom.locator('.is-active')).toHaveAttribute('data-key', 'home');
    await expect(page.getByTestId('footer')).toHaveCount(0);
    await page.goto('/login');
    await expect(page.getByTestId('bottom-bar')).toHaveCount(0);
  });

  test('language drawer switches to zh; dark-mode switch persists', async ({ page }) => {
    await startEnglish(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    const drawer = page.getByTestId('mobile-drawer');
    await drawer.getByRole('switch').uncheck();
    await expect(page.locator('html')).toHaveClass(/theme-light/);
    await drawer.getByRole('button', { name: /Language/ }).click();
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('dialog', { name: 'Language' }).getByRole('button', { name: '简体中文' }).click(),
    ]);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.locator('html')).toHaveClass(/theme-light/);
    await expect(page.getByTestId('bottom-bar')).toContainText('首页');
  });

  test('not-found and the pair redirect work on a phone too', async ({ page }) => {
    await startEnglish(page, '/nope');
    await expect(page.getByTestId('not-found')).toBeVisible();
    await page.goto('/mFutures');
    await expect(page).toHaveURL(/\/mFutures\/BTCUSDT$/);
    await expect(page.getByTestId('bottom-bar').locator('.is-active')).toHaveAttribute('data-key', 'trade');
  });
});
