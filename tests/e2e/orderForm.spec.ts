import { createRequire } from 'node:module';
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { apiSignUp, presetStorage } from './authHelpers.ts';
import { onTick as onTickOf, releaseMarket, steerMarket } from './steer.ts';

/**
 * The order form of issue 14 end to end, against the real server (live simulated market) and the
 * built app, at 1440×900 and 390×844: the netting preview line as side and quantity change
 * ('Opens long', 'Increases', 'Reduces', 'Closes', 'Flips to short'), a flip from long to short
 * through the form, stop-market orders that trigger when the test moves the market across them, a reduce-only order
 * that would increase (refused with the message, nothing sent), a post-only order that would take
 * (refused by the server with the message), and the keyboard shortcuts with their '?' dialog.
 */

const uniqueEmail = (tag: string) => `${tag}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;

interface Session {
  token: string;
}

/** Order requests the page sent over its sockets (issue 28: the ticket places over the user socket when it is open). */
const socketOrders = new WeakMap<Page, string[]>();

async function openTrade(page: Page): Promise<Session> {
  const token = await apiSignUp(page.request, uniqueEmail('oform'), 'secret123');
  await presetStorage(page, { token, theme: 'dark' });
  const sent: string[] = [];
  socketOrders.set(page, sent);
  page.on('websocket', (ws) => {
    ws.on('framesent', (f) => {
      if (typeof f.payload === 'string' && f.payload.includes('"method":"order.place"')) sent.push(f.payload);
    });
  });
  await page.goto('/mFutures/BTCUSDT');
  await expect(page.getByTestId('last-price')).not.toHaveText('--');
  await expect(page.getByTestId('available')).toContainText('10,000.00');
  return { token };
}

const panel = (page: Page) => page.getByRole('region', { name: 'Place order' });
const preview = (page: Page) => panel(page).getByTestId('order-preview');

async function lastPrice(page: Page): Promise<number> {
  return Number((await page.getByTestId('last-price').innerText()).replace(/,/g, ''));
}

/** BTCUSDT prices are on a 0.1 tick: a price as the decimal string of a whole number of ticks. */
const onTick = (p: number) => onTickOf(p, 0.1);

interface OrderRow {
  id: string;
  kind: string;
  side: string;
  status: string;
  triggered?: boolean;
  cancelReason?: string | null;
}

async function orders(request: APIRequestContext, s: Session, which: 'open' | 'history'): Promise<OrderRow[]> {
  const res = await request.get(`/api/trade/orders/${which}?contract=perp&page=1&pageSize=50`, { headers: { Authorization: s.token } });
  const env = (await res.json()) as { data: { list: OrderRow[] } };
  return env.data.list;
}

/** Leaves every field, as a trader clicking on the page's background does. */
async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
}

async function selectSide(page: Page, side: 'Buy' | 'Sell'): Promise<void> {
  const radio = panel(page).getByRole('radiogroup', { name: 'Side' }).getByRole('radio', { name: side, exact: true });
  await radio.click();
  await expect(radio).toHaveAttribute('aria-checked', 'true');
}

async function previewAndFlip(page: Page): Promise<void> {
  const p = panel(page);
  await p.getByRole('tab', { name: 'Market' }).click();
  await selectSide(page, 'Buy');
  await p.getByLabel('Quantity').fill('0.05');
  await expect(preview(page)).toHaveText('Opens long 0.05');
  await p.getByRole('button', { name: 'Buy / Long' }).click();
  await expect(p.getByText(/Order (filled|placed)/)).toBeVisible();
  const row = page.getByTestId('position-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Long');

  // The preview follows side and quantity against the open long 0.05, live.
  await expect(preview(page)).toHaveText('Increases long 0.05 → 0.1');
  await p.getByLabel('Quantity').fill('0.01');
  await expect(preview(page)).toHaveText('Increases long 0.05 → 0.06');
  await selectSide(page, 'Sell');
  await expect(preview(page)).toHaveText('Reduces long 0.05 → 0.04');
  await p.getByLabel('Quantity').fill('0.05');
  await expect(preview(page)).toHaveText('Closes long 0.05');
  await p.getByLabel('Quantity').fill('0.08');
  await expect(preview(page)).toHaveText('Flips to short 0.03');

  // Sell more than the position: the long closes and a short opens with the rest.
  await p.getByRole('button', { name: 'Sell / Short' }).click();
  await expect(row).toContainText('Short');
  await expect(row).toHaveCount(1);
  await expect(row.locator('.rf-num').first()).toHaveText(/^0\.030?$/);
  await expect(preview(page)).toHaveText('Increases short 0.03 → 0.11');
}

async function reduceOnlyAndPostOnly(page: Page): Promise<void> {
  const p = panel(page);
  // Reduce-only with no position would open one: refused in the form with the reason, nothing sent.
  await p.getByRole('tab', { name: 'Limit' }).click();
  await selectSide(page, 'Buy');
  const below = onTick(Math.floor((await lastPrice(page)) * 0.9));
  await p.getByLabel('Price', { exact: true }).fill(below);
  await p.getByLabel('Quantity').fill('0.01');
  await p.getByLabel('Reduce-only').check();
  await expect(preview(page)).toHaveText('Reduce-only: nothing to reduce on this side');
  let posted = 0;
  const count = (r: { url(): string; method(): string }) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/trade/order')) posted++;
  };
  page.on('request', count);
  const overSocket = socketOrders.get(page)?.length ?? 0;
  await p.getByRole('button', { name: 'Buy / Long' }).click();
  await expect(p.getByRole('alert')).toHaveText('Reduce-only order would increase the position');
  page.off('request', count);
  expect(posted).toBe(0);
  expect(socketOrders.get(page)?.length ?? 0, 'nothing placed over the user socket either').toBe(overSocket);
  await p.getByLabel('Reduce-only').uncheck();

  // Post-only at a price that crosses the asks would take: the server refuses it, the form says why.
  const above = onTick(Math.ceil((await lastPrice(page)) * 1.02));
  await p.getByLabel('Price', { exact: true }).fill(above);
  await p.getByLabel('Post-only').check();
  await expect(p.getByLabel('Time in force')).toHaveValue('GTC');
  await p.getByRole('button', { name: 'Buy / Long' }).click();
  await expect(p.getByRole('alert')).toHaveText('Order rejected: Post-only order would take liquidity');
  // The refused order went over the user socket (open since the page loaded), not HTTP.
  expect(socketOrders.get(page)?.length ?? 0).toBe(overSocket + 1);
  await p.getByLabel('Post-only').uncheck();
}

/** Places a stop-market `side` order with its trigger at `trigger` (the market is held elsewhere, so it cannot trigger at once). */
async function placeStop(page: Page, side: 'Buy' | 'Sell', trigger: string): Promise<void> {
  const p = panel(page);
  await selectSide(page, side);
  await p.getByLabel('Trigger price').fill(trigger);
  await p.getByRole('button', { name: side === 'Buy' ? 'Buy / Long' : 'Sell / Short' }).click();
  await expect(p.getByText(/^Order placed$/)).toBeVisible();
}

/**
 * Two stop-market orders around a market held at a known price (tests/e2e/steer.ts), then the
 * market is moved across the buy stop's trigger: it, and only it, fills as a market order.
 */
async function stopTriggers(page: Page, s: Session): Promise<void> {
  const p = panel(page);
  const held = onTick(Math.round(await lastPrice(page)));
  await steerMarket(page.request, 'BTCUSDT', held);
  try {
    await expect.poll(() => lastPrice(page)).toBe(Number(held));
    await p.getByRole('tab', { name: 'Stop' }).click();
    await expect(p.getByRole('radio', { name: 'Stop market' })).toHaveAttribute('aria-checked', 'true');
    await expect(p.getByLabel('Price', { exact: true })).toBeDisabled();
    await expect(p.getByLabel('Trigger on')).toHaveValue('last');
    await p.getByLabel('Quantity').fill('0.01');
    await expect(preview(page)).toHaveText('Opens long 0.01');
    await placeStop(page, 'Buy', onTick(Number(held) + 3));
    await placeStop(page, 'Sell', onTick(Number(held) - 3));
    const stops = async (which: 'open' | 'history') => (await orders(page.request, s, which)).filter((o) => o.kind === 'stopMarket');
    expect((await stops('open')).map((o) => o.side).sort()).toEqual(['buy', 'sell']);
    await page.getByRole('tab', { name: /Open orders/ }).click();
    await expect(page.getByTestId('open-order-row')).toHaveCount(2);

    // The market goes through the buy stop's trigger: the buy fills as a market order and opens a long; the sell stop still waits.
    await steerMarket(page.request, 'BTCUSDT', onTick(Number(held) + 5));
    await expect.poll(async () => (await stops('history')).filter((o) => o.status === 'filled' && o.triggered === true).map((o) => o.side)).toEqual(['buy']);
    expect((await stops('open')).map((o) => o.side)).toEqual(['sell']);
    await expect(page.getByTestId('open-order-row')).toHaveCount(1);
    await expect(page.getByRole('tab', { name: /Positions \(1\)/ })).toBeVisible();
  } finally {
    await releaseMarket(page.request, 'BTCUSDT');
  }
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Serious and critical axe violations on the page as it is now. */
async function axeHits(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** The form with every option on show (stop-limit, trigger, time in force, TP/SL, preview, an error), then the help dialog: no serious axe violation in either theme. */
async function axeForm(browser: Browser, request: APIRequestContext, viewport: { width: number; height: number }, withHelp: boolean): Promise<void> {
  const token = await apiSignUp(request, uniqueEmail('oforma11y'), 'secret123');
  for (const theme of ['dark', 'light'] as const) {
    const ctx = await browser.newContext({ viewport, bypassCSP: true });
    const page = await ctx.newPage();
    await presetStorage(page, { token, theme });
    await page.goto('/mFutures/BTCUSDT');
    await expect(page.getByTestId('last-price')).not.toHaveText('--');
    const p = panel(page);
    await p.getByRole('tab', { name: 'Stop' }).click();
    await p.getByRole('radio', { name: 'Stop limit' }).click();
    await p.getByLabel('Quantity').fill('0.01');
    await p.getByText('TP/SL').click();
    await p.getByRole('button', { name: 'Sell / Short' }).click();
    await expect(p.getByRole('alert')).toBeVisible();
    await p.getByRole('tab', { name: 'Limit' }).click();
    await p.getByLabel('Post-only').check();
    await expect(preview(page)).toHaveText('Opens short 0.01');
    expect(await axeHits(page), `${theme} form`).toEqual([]);
    if (withHelp) {
      await blur(page);
      await page.keyboard.press('?');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      expect(await axeHits(page), `${theme} help dialog`).toEqual([]);
    }
    await ctx.close();
  }
}

test.describe('order form desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('preview lines and a flip from long to short through the form', async ({ page }) => {
    await openTrade(page);
    await previewAndFlip(page);
    await page.screenshot({ path: 'screenshots/order-form-desktop-flip.png' });
  });

  test('reduce-only that would increase and post-only that would take are refused with the reason', async ({ page }) => {
    await openTrade(page);
    await reduceOnlyAndPostOnly(page);
  });

  test('axe: the form with its options and the shortcuts dialog, both themes', async ({ browser, request }) => {
    await axeForm(browser, request, { width: 1440, height: 900 }, true);
  });

  test('stop-market orders trigger when the market crosses them', async ({ page }) => {
    const s = await openTrade(page);
    await stopTriggers(page, s);
  });

  test('keyboard shortcuts and the help dialog', async ({ page }) => {
    await openTrade(page);
    const p = panel(page);
    await blur(page);

    // '?' opens the list in a dialog that keeps focus inside; Escape closes it.
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(dialog).toBeVisible();
    for (const what of ['Buy side', 'Sell side', 'Focus the price', 'Focus the amount', 'Place the order (in the form)', 'Cancel all open orders (asks first)', 'Show this list']) {
      await expect(dialog.getByText(what, { exact: true })).toBeVisible();
    }
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    // Letters do nothing while the dialog is open.
    await page.keyboard.press('s');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    const buy = p.getByRole('radio', { name: 'Buy', exact: true });
    const sell = p.getByRole('radio', { name: 'Sell', exact: true });
    await expect(buy).toHaveAttribute('aria-checked', 'true');

    // B / S choose the side.
    await blur(page);
    await page.keyboard.press('s');
    await expect(sell).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('b');
    await expect(buy).toHaveAttribute('aria-checked', 'true');

    // P focuses the price (the key itself is not typed), and letters typed there stay text.
    await page.keyboard.press('p');
    const price = p.getByLabel('Price', { exact: true });
    await expect(price).toBeFocused();
    await expect(price).toHaveValue('');
    const below = onTick(Math.floor((await lastPrice(page)) * 0.8));
    await page.keyboard.type(below);
    await page.keyboard.press('a');
    await expect(price).toBeFocused();
    await price.fill(below);

    // A focuses the amount (only when not typing).
    await blur(page);
    await page.keyboard.press('a');
    const qty = p.getByLabel('Quantity');
    await expect(qty).toBeFocused();
    await page.keyboard.type('0.01');
    await expect(preview(page)).toHaveText('Opens long 0.01');

    // Enter in the form places the order.
    await page.keyboard.press('Enter');
    await expect(p.getByText('Order placed')).toBeVisible();
    await expect(page.getByRole('tab', { name: /Open orders \(1\)/ })).toBeVisible();

    // Shift+C asks, then cancels every open order of the pair.
    await blur(page);
    await page.keyboard.press('Shift+C');
    const ask = page.getByRole('dialog', { name: 'Cancel all open orders?' });
    await expect(ask).toContainText('Open orders of BTCUSDT to cancel: 1.');
    await ask.getByRole('button', { name: 'Keep them' }).click();
    await expect(ask).toHaveCount(0);
    await expect(page.getByRole('tab', { name: /Open orders \(1\)/ })).toBeVisible();
    await page.keyboard.press('Shift+C');
    await page.getByRole('dialog', { name: 'Cancel all open orders?' }).getByRole('button', { name: 'Cancel all' }).click();
    await expect(page.getByText('Orders canceled: 1')).toBeVisible();
    await expect(page.getByRole('tab', { name: /Open orders \(1\)/ })).toHaveCount(0);

    // The help link under the buttons opens the same list.
    await p.getByRole('button', { name: 'Press ? for keyboard shortcuts' }).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toHaveCount(0);
  });
});

test.describe('order form phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('axe: the form with its options, both themes', async ({ browser, request }) => {
    await axeForm(browser, request, { width: 390, height: 844 }, false);
  });

  test('preview lines and a flip from long to short at phone width', async ({ page }) => {
    await openTrade(page);
    await previewAndFlip(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: 'screenshots/order-form-phone-flip.png', fullPage: true });
  });

  test('refusals and a stop-market order that triggers at phone width', async ({ page }) => {
    const s = await openTrade(page);
    await reduceOnlyAndPostOnly(page);
    await stopTriggers(page, s);
  });
});
