import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSignUp, presetStorage } from './authHelpers.ts';
import { onTick, releaseMarket, steerMarket } from './steer.ts';

/**
 * Issue 26, Major 1, in the browser against the real server: the position row (desktop) and card
 * (phone) follow the mark between position frames. The test holds BTCUSDT at one price, then at
 * another (tests/e2e/steer.ts), and the row's mark, PnL and distance to liquidation move with it,
 * although the position itself never changes (so the server sends no position frame).
 */

const uniqueEmail = () => `live.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;

async function lastPrice(request: APIRequestContext): Promise<number> {
  const res = await request.get('/api/market/tickers');
  const env = (await res.json()) as { data: { symbol: string; last: number }[] };
  return env.data.find((t) => t.symbol === 'BTCUSDT')?.last ?? 60_000;
}

const number = (s: string) => Number(s.replace(/[^\d.+-]/g, ''));

async function follows(page: Page): Promise<void> {
  const token = await apiSignUp(page.request, uniqueEmail(), 'secret123');
  const start = onTick(Math.round(await lastPrice(page.request)), 0.1);
  await steerMarket(page.request, 'BTCUSDT', start);
  try {
    const res = await page.request.post('/api/trade/order', {
      headers: { Authorization: token },
      data: { clientOrderId: `e2e-live-${Date.now().toString(36)}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: '0.02', leverage: 10 },
    });
    expect(((await res.json()) as { code: number }).code).toBe(200);
    await presetStorage(page, { token, theme: 'dark' });
    await page.goto('/mFutures/BTCUSDT');
    const row = page.getByTestId('position-row').first();
    await expect(row.getByTestId('position-mark')).toHaveText(Number(start).toLocaleString('en-US', { minimumFractionDigits: 1 }));
    const pnlBefore = number((await row.getByTestId('position-pnl').innerText()).split('(')[0] ?? '');
    const distBefore = await row.getByTestId('liq-distance').innerText();

    // The market moves up 2 %: the row follows, with no change to the position.
    const up = onTick(Number(start) * 1.02, 0.1);
    await steerMarket(page.request, 'BTCUSDT', up);
    await expect(row.getByTestId('position-mark')).toHaveText(Number(up).toLocaleString('en-US', { minimumFractionDigits: 1 }));
    await expect.poll(async () => number((await row.getByTestId('position-pnl').innerText()).split('(')[0] ?? '')).toBeGreaterThan(pnlBefore + 5);
    await expect(row.getByTestId('liq-distance')).not.toHaveText(distBefore);
    await page.screenshot({ path: `screenshots/live-position-${page.viewportSize()?.width}.png` });
  } finally {
    await releaseMarket(page.request, 'BTCUSDT');
  }
}

test.describe('live position figures', () => {
  test('desktop: the position row follows the mark', async ({ page }) => {
    await follows(page);
  });

  test.describe('phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });
    test('the position card follows the mark', async ({ page }) => {
      await follows(page);
    });
  });
});
