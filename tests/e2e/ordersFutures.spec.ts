import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSignUp, presetStorage, uniqueEmail } from './authHelpers.ts';
import { releaseMarket, steerMarket } from './steer.ts';

/**
 * /my/order/futures at 1440x900 (issue 26, Minor 21): with open orders of every kind (limit, stop,
 * TP/SL), the Actions column shows its whole Edit and Cancel buttons inside the card, in English and
 * in Japanese (longer labels), and the page has its header (h1, and a header row over each column,
 * Actions included). Screenshots in both themes go to screenshots/.
 */

async function order(request: APIRequestContext, token: string, body: Record<string, unknown>): Promise<void> {
  const r = await request.post('/api/trade/order', { headers: { authorization: `Bearer ${token}` }, data: { symbol: 'BTCUSDT', contract: 'perp', leverage: 10, clientOrderId: `of-${Math.random().toString(36).slice(2)}`, ...body } });
  const j = (await r.json()) as { code: number; msg: string };
  expect(j.code, j.msg).toBe(200);
}

async function actionsFit(page: Page): Promise<void> {
  const card = page.locator('.orders-panel');
  const box = await card.boundingBox();
  expect(box).not.toBeNull();
  const buttons = page.getByTestId('history-row').first().getByRole('button');
  await expect(buttons).toHaveCount(2);
  for (const b of await buttons.all()) {
    const bb = await b.boundingBox();
    expect(bb).not.toBeNull();
    // the whole button inside the card, its label not clipped
    expect((bb?.x ?? 0) + (bb?.width ?? 0)).toBeLessThanOrEqual((box?.x ?? 0) + (box?.width ?? 0) + 0.5);
    expect(await b.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
  }
  // no horizontal scroll needed to reach the Actions column
  const wrap = page.locator('.orders-panel [role="region"]').first();
  if (await wrap.count()) expect(await wrap.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(1);
  await expect(page.getByRole('columnheader', { name: /Actions|操作/ })).toBeVisible();
  await expect(page.locator('h1')).toHaveCount(1);
}

test('1440 px: the Actions column fits, in English and Japanese, and the page has its header', async ({ page, request }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const token = await apiSignUp(request, uniqueEmail('ofut'), 'secret123');
  await steerMarket(request, 'BTCUSDT', '60000.0');
  await order(request, token, { kind: 'marketOpen', side: 'buy', qty: 0.01 });
  // the position is there before its TP is placed (a fresh server may still be settling the steered price)
  await expect
    .poll(async () => ((await (await request.get('/api/trade/positions', { headers: { authorization: `Bearer ${token}` } })).json()) as { data: unknown[] }).data.length, { timeout: 10_000 })
    .toBe(1);
  await order(request, token, { kind: 'limitOpen', side: 'buy', qty: 0.002, price: '48000.0' });
  await order(request, token, { kind: 'stopMarket', side: 'buy', qty: 0.003, triggerPrice: '72000.0', triggerBy: 'mark' });
  await order(request, token, { kind: 'limitTakeProfit', side: 'sell', qty: 0.01, price: '78000.0' });
  for (const [lang, heading] of [['en', 'Futures orders'], ['jp', null]] as const) {
    await presetStorage(page, { token, theme: 'dark', lang });
    await page.goto('/my/order/futures');
    if (heading) await expect(page.locator('h1')).toHaveText(heading);
    await expect(page.getByTestId('history-row')).toHaveCount(3);
    await actionsFit(page);
    await page.screenshot({ path: `screenshots/orders-futures-open-1440-${lang}-dark.png`, fullPage: true });
  }
  await releaseMarket(request, 'BTCUSDT');
});
