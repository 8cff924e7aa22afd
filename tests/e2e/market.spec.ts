import { expect, test } from '@playwright/test';
import type { Locator, Page, WebSocketRoute } from '@playwright/test';
import { onTick, releaseMarket, steerMarket } from './steer.ts';

/**
 * Live market data on Home and Market against the real server and built app: every instrument
 * is listed, prices follow the market (the test moves it), a dropped market socket shows "Reconnecting…" and the app reconnects
 * (SPEC §4: 10 s after the close) and prices move again. The drop is done by Playwright's
 * WebSocket routing: the page's socket is proxied to the real server and the test closes the
 * page side, which the browser sees exactly like a server drop.
 */

interface SymbolDto {
  symbol: string;
  kinds: ('perp' | 'std')[];
  category: string;
  hot: boolean;
  tickSize: number;
}

async function startEnglish(page: Page, path: string, theme: 'dark' | 'light' = 'dark'): Promise<void> {
  await page.goto('/');
  await page.evaluate((th) => {
    localStorage.clear();
    localStorage.setItem('lang', 'en');
    localStorage.setItem('theme', th);
  }, theme);
  await page.goto(path);
}

/**
 * /market in English with every market socket proxied by Playwright to the real server (`routes`,
 * one per connection, so a test can drop one), once the connection badge says Live.
 */
async function liveMarketThroughProxy(page: Page): Promise<{ routes: WebSocketRoute[]; conn: Locator }> {
  // The page's timers run on Playwright's clock: time flows as usual, and a test jumps over the
  // app's 10 s waits (reconnect delay, background threshold) with fastForward instead of sleeping.
  await page.clock.install();
  const routes: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api\/ws\/market/, (ws) => {
    ws.connectToServer();
    routes.push(ws);
  });
  await startEnglish(page, '/market');
  const conn = page.getByTestId('market-conn');
  await expect(conn).toHaveText('Live', { timeout: 15_000 });
  return { routes, conn };
}

async function symbols(page: Page): Promise<SymbolDto[]> {
  const res = await page.request.get('/api/market/symbols');
  const body = (await res.json()) as { code: number; data: SymbolDto[] };
  expect(body.code).toBe(200);
  return body.data;
}

/** Text of every price cell in the contract list, keyed by symbol. */
async function listPrices(page: Page): Promise<Record<string, string>> {
  return page.getByTestId('market-table').evaluate((table) => {
    const out: Record<string, string> = {};
    for (const tr of table.querySelectorAll('tbody tr[data-symbol]')) {
      out[tr.getAttribute('data-symbol') ?? ''] = tr.querySelector('[data-testid="price"]')?.textContent ?? '';
    }
    return out;
  });
}

async function listedSymbols(page: Page): Promise<string[]> {
  return Object.keys(await listPrices(page));
}

/**
 * Moves the first listed symbol's price away from what the list shows (the test steers the market:
 * tests/e2e/steer.ts) and resolves when its row shows the new price; the symbol walks again after.
 */
async function expectPricesToMove(page: Page, before: Record<string, string>): Promise<void> {
  const [symbol, shown] = Object.entries(before)[0] ?? [];
  if (symbol === undefined || shown === undefined) throw new Error('no listed price to move');
  const info = (await symbols(page)).find((s) => s.symbol === symbol);
  if (info === undefined) throw new Error(`${symbol} missing from /api/market/symbols`);
  const target = onTick(Number(shown.replace(/,/g, '')) * 1.01, info.tickSize);
  await steerMarket(page.request, symbol, target);
  try {
    await expect.poll(async () => Number((await listPrices(page))[symbol]?.replace(/,/g, ''))).toBe(Number(target));
  } finally {
    await releaseMarket(page.request, symbol);
  }
}

const CATEGORIES = ['Crypto', 'Commodities', 'Stocks', 'Indices'] as const;
const CAT_KEY: Record<(typeof CATEGORIES)[number], string> = { Crypto: 'crypto', Commodities: 'commodity', Stocks: 'stock', Indices: 'index' };

test.describe('market overview (1440x900)', () => {
  test('lists every instrument under its kind and category, with live prices', async ({ page }) => {
    const all = await symbols(page);
    expect(all.length).toBeGreaterThan(0);
    await startEnglish(page, '/market');
    await expect(page.getByTestId('market-conn')).toHaveText('Live', { timeout: 15_000 });
    for (const [kindLabel, kind] of [['USDT-M Perpetual', 'perp'], ['Standard Futures', 'std']] as const) {
      await page.getByRole('tab', { name: kindLabel }).click();
      for (const cat of CATEGORIES) {
        await page.getByRole('tab', { name: cat, exact: true }).click();
        const expected = all.filter((s) => s.kinds.includes(kind) && s.category === CAT_KEY[cat]).map((s) => s.symbol).sort();
        await expect.poll(async () => (await listedSymbols(page)).sort()).toEqual(expected);
      }
    }
    await page.getByRole('tab', { name: 'USDT-M Perpetual' }).click();
    await page.getByRole('tab', { name: 'Crypto', exact: true }).click();
    const prices = await listPrices(page);
    expect(Object.values(prices).every((p) => /^\d{1,3}(,\d{3})*(\.\d+)?$/.test(p) && p !== '0.00')).toBe(true);
    await expectPricesToMove(page, prices);
    await expect(page.getByTestId('hot-coins').locator('[data-symbol]').first()).toBeVisible();
    await expect(page.getByTestId('top-gainers').locator('[data-symbol]').first()).toBeVisible();
    await expect(page.getByTestId('top-volume').locator('[data-symbol]').first()).toBeVisible();
  });

  test('a dropped market socket shows Reconnecting…, reconnects within ~10 s and prices move again', async ({ page }) => {
    const { routes, conn } = await liveMarketThroughProxy(page);
    await expectPricesToMove(page, await listPrices(page));

    const dropped = routes.length;
    await routes[dropped - 1]?.close({ code: 1006, reason: 'test drop' });
    await expect(conn).toHaveText('Reconnecting…');
    await expect(page.getByRole('status')).toHaveText('Reconnecting…');
    const frozen = await listPrices(page);
    await page.waitForTimeout(2_000);
    expect(await listPrices(page)).toEqual(frozen);

    // The reconnect waits 10 s on the app's clock: still waiting after 2 s, then jump over the rest.
    await expect(conn).toHaveText('Reconnecting…');
    expect(routes.length).toBe(dropped);
    await page.clock.fastForward(8_100);
    await expect(conn).toHaveText('Live');
    expect(routes.length).toBe(dropped + 1);
    await expectPricesToMove(page, frozen);
  });

  test('a tab back after 10 s in the background reconnects at once; back online skips the 10 s wait', async ({ page }) => {
    const { routes, conn } = await liveMarketThroughProxy(page);
    const setVisibility = (state: 'hidden' | 'visible') =>
      page.evaluate((st) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => st });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);

    // Hidden for less than 10 s: the socket is kept.
    const before = routes.length;
    await setVisibility('hidden');
    await page.clock.fastForward(2_000);
    await setVisibility('visible');
    await page.waitForTimeout(1_000);
    expect(routes.length).toBe(before);

    // Hidden for 10 s or more: a new socket at once (fresh snapshots), prices move on it.
    await setVisibility('hidden');
    await page.clock.fastForward(10_500);
    await setVisibility('visible');
    await expect.poll(() => routes.length, { timeout: 3_000 }).toBe(before + 1);
    await expect(conn).toHaveText('Live', { timeout: 5_000 });
    await expectPricesToMove(page, await listPrices(page));

    // Dropped, then the browser reports the network back: reconnects without waiting 10 s.
    await routes[routes.length - 1]?.close({ code: 1006, reason: 'test drop' });
    await expect(conn).toHaveText('Reconnecting…');
    const dropped = Date.now();
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect(conn).toHaveText('Live', { timeout: 5_000 });
    expect(Date.now() - dropped).toBeLessThan(8_000);
    expect(routes.length).toBe(before + 2);
  });

  test('a row opens the trade screen of its kind', async ({ page }) => {
    await startEnglish(page, '/market');
    const first = page.getByTestId('market-table').locator('tbody tr[data-symbol]').first();
    const sym = await first.getAttribute('data-symbol');
    await first.click();
    await expect(page).toHaveURL(new RegExp(`/mFutures/${sym}$`));
  });
});

test.describe('home (1440x900)', () => {
  test('six banners, claims and live hot tickers', async ({ page }) => {
    const hot = (await symbols(page)).filter((s) => s.hot && s.kinds.includes('perp')).map((s) => s.symbol);
    await startEnglish(page, '/');
    await expect(page.getByTestId('home-banner')).toHaveCount(6);
    await expect(page.getByRole('heading', { name: 'Risk-free futures trading' })).toBeVisible();
    await expect(page.getByTestId('home-claims')).toContainText('100M USD');
    const rows = page.getByTestId('home-hot').locator('[data-symbol]');
    await expect(rows).toHaveCount(Math.min(6, hot.length));
    // The first hot symbol's price follows the market: the test moves it and the row shows it.
    const first = rows.first();
    const symbol = (await first.getAttribute('data-symbol')) ?? '';
    const info = (await symbols(page)).find((s) => s.symbol === symbol);
    const shownPrice = async () => Number(((await first.getByTestId('price').textContent()) ?? '').replace(/,/g, ''));
    await expect.poll(shownPrice).toBeGreaterThan(0);
    const target = onTick((await shownPrice()) * 0.99, info?.tickSize ?? 1);
    await steerMarket(page.request, symbol, target);
    try {
      await expect.poll(shownPrice).toBe(Number(target));
    } finally {
      await releaseMarket(page.request, symbol);
    }
    await rows.first().click();
    await expect(page).toHaveURL(/\/mFutures\/[A-Z0-9]+$/);
  });
});

test.describe('screenshots', () => {
  for (const [w, h] of [[1440, 900], [390, 844]] as const) {
    for (const theme of ['dark', 'light'] as const) {
      test(`home and market at ${w}x${h} ${theme}`, async ({ page }) => {
        await page.setViewportSize({ width: w, height: h });
        await startEnglish(page, '/', theme);
        await expect(page.getByTestId('home-hot').locator('[data-symbol]').first()).toBeVisible({ timeout: 15_000 });
        await page.screenshot({ path: `screenshots/home-${w}-${theme}.png`, fullPage: true });
        await page.goto('/market');
        await expect(page.getByTestId('market-table').locator('tbody tr[data-symbol]').first()).toBeVisible({ timeout: 15_000 });
        await page.screenshot({ path: `screenshots/market-${w}-${theme}.png`, fullPage: true });
      });
    }
  }
});

test('market and home in Japanese on a phone (390x844): translated tabs, connection badge and banners', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.evaluate(() => {
    localStorage.clear();
    localStorage.setItem('lang', 'jp');
  });
  await page.goto('/market');
  await expect(page.getByRole('tab', { name: 'お気に入り' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'USDT-M 無期限' })).toBeVisible();
  await expect(page.getByTestId('market-conn')).toHaveText('ライブ', { timeout: 15_000 });
  await expect(page.getByTestId('market-table').locator('tbody tr[data-symbol]').first()).toBeVisible();
  await page.screenshot({ path: 'screenshots/market-390-jp.png', fullPage: true });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'リスクフリーの先物取引' })).toBeVisible();
  await page.screenshot({ path: 'screenshots/home-390-jp.png', fullPage: true });
});
