import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSignUp, presetStorage } from './authHelpers.ts';
import { axeSerious } from './axe.ts';

/**
 * The positions / account panel of the trade screen (issue 14), against the real server and the
 * built app, at 1440×900 and 390×844 (phones show positions as cards): partial close 50 % with
 * its confirmation (the position halves, 'Position closed …'), a limit close that rests as an
 * order, the order edited in place (new price, same order), the TP/SL dialog's figures and its
 * refusal of a trigger on the wrong side of the mark, close all with its confirmation, and
 * 'Do not ask again' (the next close has no dialog) turned back on in /my/settings/preference.
 * Positions are opened through the API so the spec does not depend on the order form.
 */

const uniqueEmail = (tag: string) => `${tag}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;

interface Env<T> {
  code: number;
  msg: string;
  data: T;
}

async function api<T>(request: APIRequestContext, token: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = method === 'GET' ? await request.get(`/api${path}`, { headers: { Authorization: token } }) : await request.post(`/api${path}`, { headers: { Authorization: token }, data: body });
  const env = (await res.json()) as Env<T>;
  if (env.code !== 200) throw new Error(`${path}: ${env.msg}`);
  return env.data;
}

let seq = 0;
async function openLong(request: APIRequestContext, token: string, symbol: string, qty: string): Promise<void> {
  seq += 1;
  await api(request, token, 'POST', '/trade/order', { clientOrderId: `e2e-pos-${Date.now().toString(36)}-${seq}`, symbol, contract: 'perp', kind: 'marketOpen', side: 'buy', qty, leverage: 10 });
}

interface Pos {
  id: string;
  symbol: string;
  qty: number;
  markPrice: number;
}
async function positions(request: APIRequestContext, token: string): Promise<Pos[]> {
  const d = await api<Pos[] | { list: Pos[] }>(request, token, 'GET', '/trade/positions?contract=perp');
  return Array.isArray(d) ? d : d.list;
}

async function openTrade(page: Page, qty = '0.02'): Promise<string> {
  const token = await apiSignUp(page.request, uniqueEmail('pos'), 'secret123');
  await openLong(page.request, token, 'BTCUSDT', qty);
  await presetStorage(page, { token, theme: 'dark' });
  await page.goto('/mFutures/BTCUSDT');
  await expect(page.getByTestId('last-price')).not.toHaveText('--');
  await expect(page.getByTestId('position-row')).toHaveCount(1);
  return token;
}

const row = (page: Page) => page.getByTestId('position-row').first();
const sizeOf = async (page: Page) => (await row(page).getByTestId('position-size').innerText()).trim();

async function panelFlow(page: Page, token: string): Promise<void> {
  // 1. Partial close 50 % with the confirmation: figures, then the position halves.
  await expect.poll(() => sizeOf(page)).toBe('0.020');
  await row(page).getByRole('button', { name: 'Close', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText('Close BTCUSDT Long');
  await dialog.getByRole('button', { name: '50% of the position' }).click();
  await expect(dialog.getByTestId('close-qty')).toHaveText('0.010 BTC');
  await expect(dialog.getByTestId('close-price')).toHaveText(/^[\d,]+\.\d+ \(mark\)$/);
  await expect(dialog.getByTestId('close-pnl')).toHaveText(/^[+-]?[\d,]+\.\d{2} USDT$/);
  expect(await axeSerious(page)).toEqual([]);
  await page.screenshot({ path: `screenshots/positions-${page.viewportSize()?.width}-close.png` });
  await dialog.getByTestId('close-confirm').click();
  await expect(page.getByText(/^Position closed 0\.010 BTC at [\d,]+\.\d+$/)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => sizeOf(page)).toBe('0.010');

  // 2. A limit close far above the market rests as an order.
  const [pos] = await positions(page.request, token);
  const limit = Math.ceil((pos?.markPrice ?? 60000) * 1.3);
  await row(page).getByRole('button', { name: 'Partial / limit' }).click();
  await dialog.getByRole('radio', { name: 'Limit' }).click();
  await dialog.getByLabel('Limit price').fill(String(limit));
  await dialog.getByLabel('Amount (BTC)').fill('0.005');
  await expect(dialog.getByTestId('close-price')).toHaveText(new RegExp(`^${limit.toLocaleString('en-US')}(\\.0+)? \\(your limit\\)$`));
  await expect(dialog.getByTestId('close-pnl')).toHaveText(/^\+[\d,]+\.\d{2} USDT$/);
  await dialog.getByTestId('close-confirm').click();
  await expect(page.getByText(/^Limit close placed: 0\.005 BTC at [\d,]+/)).toBeVisible();
  await page.getByRole('tab', { name: /Open orders/ }).click();
  const order = page.getByTestId('open-order-row');
  await expect(order).toHaveCount(1);
  await expect(order).toContainText('Limit close');
  await expect(order).toContainText(limit.toLocaleString('en-US'));

  // 3. The order edited in place: a new price, the same order.
  await order.getByRole('button', { name: 'Edit' }).click();
  const newPrice = limit + 100;
  await dialog.getByLabel('Price', { exact: true }).fill(String(newPrice));
  await dialog.getByTestId('edit-order-save').click();
  await expect(page.getByText(/^Order updated: 0\.005 BTC at /)).toBeVisible();
  await expect(order).toHaveCount(1);
  await expect(order).toContainText(newPrice.toLocaleString('en-US'));
  const open = await api<{ list: { price: number; kind: string }[] }>(page.request, token, 'GET', '/trade/orders/open?contract=perp');
  expect(open.list.map((o) => [o.kind, o.price])).toEqual([['limitClose', newPrice]]);

  // 4. TP/SL: entry, mark, liquidation; a take profit under the mark is refused with the reason, nothing sent.
  await page.getByRole('tab', { name: /Positions/ }).click();
  await row(page).getByRole('button', { name: 'TP/SL' }).click();
  for (const id of ['tpsl-entry', 'tpsl-mark', 'tpsl-liq']) await expect(dialog.getByTestId(id)).toHaveText(/^[\d,]+\.\d+$/);
  const mark = Number((await dialog.getByTestId('tpsl-mark').innerText()).replace(/,/g, ''));
  await dialog.getByLabel('Take profit').fill(String(Math.floor(mark * 0.9)));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByTestId('tpsl-tp-error')).toHaveText(/^A long's take profit must be above the mark price \([\d,]+\.\d+\)$/);
  await expect(dialog).toBeVisible();
  await expect(row(page).getByTestId('position-tpsl')).toHaveText('-- / --');
  await dialog.getByLabel('Take profit').fill(String(Math.ceil(mark * 1.2)));
  await dialog.getByLabel('Stop loss').fill(String(Math.ceil(mark * 1.1)));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByTestId('tpsl-sl-error')).toHaveText(/^A long's stop loss must be below the mark price/);
  await dialog.getByLabel('Stop loss').fill(String(Math.floor(mark * 0.7)));
  await expect(dialog.getByTestId('tpsl-tp-pnl')).toHaveText(/^\+[\d,]+\.\d{2} USDT$/);
  await expect(dialog.getByTestId('tpsl-sl-pnl')).toHaveText(/^-[\d,]+\.\d{2} USDT$/);
  await page.screenshot({ path: `screenshots/positions-${page.viewportSize()?.width}-tpsl.png` });
  expect(await axeSerious(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Take profit and stop loss set')).toBeVisible();
  await expect(row(page).getByTestId('position-tpsl')).toContainText(Math.ceil(mark * 1.2).toLocaleString('en-US'));
}

async function confirmFlow(page: Page, token: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  // Close all with the confirmation (two positions).
  await openLong(page.request, token, 'ETHUSDT', '0.1');
  await expect(page.getByTestId('position-row')).toHaveCount(2);
  await page.getByTestId('close-all').click();
  await expect(dialog.getByRole('heading')).toHaveText('Close all positions');
  await expect(dialog).toContainText('(2)');
  await expect(dialog.getByTestId('close-all-pnl')).toHaveText(/USDT$/);
  expect(await axeSerious(page)).toEqual([]);
  await dialog.getByTestId('close-all-confirm').click();
  await expect(page.getByText('All positions closed (2)')).toBeVisible();
  await expect(page.getByTestId('position-row')).toHaveCount(0);

  // 'Do not ask again': confirmed once, the next close has no dialog.
  await openLong(page.request, token, 'BTCUSDT', '0.02');
  await expect(page.getByTestId('position-row')).toHaveCount(1);
  await row(page).getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.getByRole('button', { name: '25% of the position' }).click();
  await dialog.getByLabel('Do not ask again').check();
  await dialog.getByTestId('close-confirm').click();
  await expect(page.getByText(/^Position closed 0\.005 BTC at /)).toBeVisible();
  await expect.poll(() => sizeOf(page)).toBe('0.015');
  await row(page).getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByText(/^Position closed 0\.015 BTC at /)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('position-row')).toHaveCount(0);

  // Back on in the settings; the close asks again.
  await page.goto('/my/settings/preference');
  const sw = page.getByLabel('Ask before closing a position');
  await expect(sw).not.toBeChecked();
  await expect(page.getByLabel('Ask before closing all positions')).toBeChecked();
  await sw.check();
  await expect(sw).toBeChecked();
  await page.screenshot({ path: `screenshots/positions-${page.viewportSize()?.width}-settings.png`, fullPage: true });
  expect(await axeSerious(page)).toEqual([]);
  await openLong(page.request, token, 'BTCUSDT', '0.01');
  await page.goto('/mFutures/BTCUSDT');
  await expect(page.getByTestId('position-row')).toHaveCount(1);
  await row(page).getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog.getByRole('heading')).toHaveText('Close BTCUSDT Long');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('position-row')).toHaveCount(1);
}

for (const [name, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test.describe(`positions ${name}`, () => {
    test.use(name === 'phone' ? { viewport, isMobile: true, hasTouch: true, bypassCSP: true } : { viewport, bypassCSP: true });

    test('partial close 50 %, limit close, order edit, TP/SL figures and refusal', async ({ page }) => {
      const token = await openTrade(page);
      if (name === 'phone') await expect(page.locator('article[data-testid="position-row"]')).toHaveCount(1);
      await panelFlow(page, token);
    });

    test('close all, do not ask again, turned back on in settings', async ({ page }) => {
      const token = await openTrade(page);
      await confirmFlow(page, token);
    });
  });
}
