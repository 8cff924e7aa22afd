import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { apiSignUp, presetStorage, uniqueEmail } from './authHelpers.ts';
import { axeSerious } from './axe.ts';

/**
 * Issue 26, the cosmetics measured in the browser (built app, real server) at 1440x900 and
 * 390x844: what a jsdom test cannot see because it has no layout. Each test measures boxes
 * (boundingBox) or computed styles and fails on the defect the issue describes.
 */

type Box = { x: number; y: number; width: number; height: number };

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (b === null) throw new Error('element has no box (not rendered)');
  return b;
}

/** `inner` lies inside `outer` (0.5 px of rounding allowed). */
function inside(inner: Box, outer: Box): boolean {
  return inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;
}

async function api<T>(page: Page, token: string, path: string, body?: unknown): Promise<T> {
  const headers = { Authorization: token };
  const res = body === undefined ? await page.request.get(`/api${path}`, { headers }) : await page.request.post(`/api${path}`, { headers, data: body });
  const env = (await res.json()) as { code: number; msg: string; data: T };
  if (env.code !== 200) throw new Error(`${path}: ${env.msg}`);
  return env.data;
}

/** A 10x long of 0.02 BTC with a TP and an SL set, so the positions table shows every figure. */
async function positionWithTpSl(page: Page, token: string): Promise<void> {
  await api(page, token, '/trade/order', { clientOrderId: `l26-${Date.now().toString(36)}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: '0.02', leverage: 10 });
  const list = await api<{ id: string; markPrice: number }[] | { list: { id: string; markPrice: number }[] }>(page, token, '/trade/positions?contract=perp');
  const pos = (Array.isArray(list) ? list : list.list)[0];
  if (!pos) throw new Error('no position');
  await api(page, token, '/trade/position/tpsl', { positionId: pos.id, tp: String(Math.ceil(pos.markPrice * 1.2)), sl: String(Math.floor(pos.markPrice * 0.8)) });
}

/** Computed styles of the first element `selector` matches. */
async function styles(page: Page, selector: string, props: readonly string[]): Promise<Record<string, string>> {
  return page.locator(selector).first().evaluate((el, ps) => {
    const cs = getComputedStyle(el);
    return Object.fromEntries(ps.map((p) => [p, cs.getPropertyValue(p)]));
  }, props);
}

async function signedIn(page: Page, tag: string, theme: 'dark' | 'light' = 'dark'): Promise<string> {
  const token = await apiSignUp(page.request, uniqueEmail(tag), 'secret123');
  await presetStorage(page, { token, theme });
  return token;
}

for (const vp of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`issue 26 layout at ${vp.width}x${vp.height}`, () => {
    test.use({ viewport: vp });

    test('the withdraw form keeps a field\'s spacing between "Amount received" and Next', async ({ page }) => {
      await signedIn(page, 'l26wd');
      await page.goto('/my/wallet/withdrawal');
      await page.getByTestId('withdraw-amount').fill('20');
      await expect(page.getByTestId('withdraw-received')).toHaveText('20.00 USDT');
      const received = await box(page.getByTestId('withdraw-received'));
      const next = await box(page.getByTestId('withdraw-next'));
      // The fields of the form are 14 px apart (.auth-field) plus the form's 4 px gap; it was 4 px.
      expect(next.y - (received.y + received.height)).toBeGreaterThanOrEqual(14);
    });

    test("a toast's close button lies inside the toast, at its right edge and vertically centred", async ({ page }) => {
      await signedIn(page, 'l26toast');
      await page.goto('/my/dashboard');
      // Copying the UID toasts (copied, or the clipboard's refusal): any toast has the close button.
      await page.getByRole('button', { name: 'UID' }).click();
      const toast = page.locator('[data-sonner-toast]').first();
      await expect(toast).toBeVisible();
      const close = toast.locator('[data-close-button]');
      await expect(close).toBeVisible();
      // Measured once sonner's entry animation (0.4 s of transform and height) is over.
      await expect.poll(async () => (await toast.getAttribute('data-mounted')) === 'true' && (await toast.evaluate((el) => el.getAnimations({ subtree: true }).length)) === 0).toBe(true);
      const t = await box(toast);
      const c = await box(close);
      expect(inside(c, t), `close ${JSON.stringify(c)} in toast ${JSON.stringify(t)}`).toBe(true);
      expect(Math.abs(c.y + c.height / 2 - (t.y + t.height / 2))).toBeLessThanOrEqual(1);
      expect(t.x + t.width - (c.x + c.width)).toBeGreaterThanOrEqual(4);
      expect(c.x - t.x).toBeGreaterThan(t.width / 2);
    });
  });
}

test.describe('issue 26 layout at 1440x900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  for (const lang of ['en', 'jp'] as const) {
    test(`the positions table (TP/SL set) fits the panel and its Actions show whole (${lang})`, async ({ page }) => {
      const token = await signedIn(page, 'l26pos');
      await positionWithTpSl(page, token);
      await presetStorage(page, { lang });
      await page.goto('/mFutures/BTCUSDT');
      const row = page.getByTestId('position-row');
      await expect(row).toHaveCount(1);
      await expect(row.getByTestId('position-tpsl')).not.toContainText('--');
      const region = page.locator('.rf-at-body');
      const visible = await box(region);
      const buttons = row.locator('.rf-at-actions button');
      await expect(buttons).toHaveCount(3);
      for (const b of await buttons.all()) expect(inside(await box(b), visible), await b.innerText()).toBe(true);
      const { scroll, client } = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll, 'the positions table scrolls sideways').toBeLessThanOrEqual(client);
    });
  }

  test("the 'Report a problem' card looks like the other cards (settings and help centre)", async ({ page }) => {
    await signedIn(page, 'l26rep');
    await page.goto('/my/settings/preference');
    await expect(page.getByTestId('report-problem')).toBeVisible();
    const CARD = ['background-color', 'border-radius', 'padding-top', 'padding-left', 'border-top-width'] as const;
    const TITLE = ['font-size', 'font-weight', 'color', 'margin-top'] as const;
    const card = await styles(page, '.settings-card', CARD);
    const title = await styles(page, '.settings-card__title', TITLE);
    expect(await styles(page, '[data-testid="report-problem"]', CARD)).toEqual(card);
    expect(await styles(page, '[data-testid="report-problem"] h2', TITLE)).toEqual(title);
    await page.goto('/help-center');
    await expect(page.getByTestId('report-problem')).toBeVisible();
    expect(await styles(page, '[data-testid="report-problem"]', CARD)).toEqual(card);
    expect(await styles(page, '[data-testid="report-problem"] h2', TITLE)).toEqual(title);
  });

  test("the 'Become a lead trader' intro keeps its distance from the form's first label", async ({ page }) => {
    await signedIn(page, 'l26apply');
    await page.goto('/copy');
    const apply = page.getByTestId('cp-apply');
    const intro = apply.locator('> p.cp-muted').first();
    const label = apply.locator('label').first();
    await expect(label).toBeVisible();
    const gap = (await box(label)).y - ((await box(intro)).y + (await box(intro)).height);
    expect(gap).toBeGreaterThanOrEqual(8);
  });

  test("the copy list's sparklines span their card; the dashboard's copy labels stay on one line", async ({ page }) => {
    await signedIn(page, 'l26copy');
    await page.goto('/copy');
    const card = page.locator('.cp-trader').first();
    await expect(card).toBeVisible();
    const spark = await box(card.locator('svg.cp-spark'));
    const padding = await card.evaluate((el) => parseFloat(getComputedStyle(el).paddingLeft) + parseFloat(getComputedStyle(el).paddingRight));
    expect(spark.width).toBeGreaterThanOrEqual((await box(card)).width - padding - 3);
    await page.goto('/my/dashboard');
    const labels = page.getByTestId('dash-copy').locator('dt');
    await expect(labels).toHaveCount(3);
    for (const dt of await labels.all()) {
      const lineHeight = await dt.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.5);
      expect((await box(dt)).height, await dt.innerText()).toBeLessThan(lineHeight * 1.5);
    }
  });
});

test.describe('issue 26 layout at 390x844', () => {
  test.use({ viewport: { width: 390, height: 844 }, bypassCSP: true });

  test('the dashboard keeps Deposit, Withdraw and Transfer inside their card', async ({ page }) => {
    await signedIn(page, 'l26dash', 'light');
    await page.goto('/my/dashboard');
    const card = page.locator('.dash-assets');
    await expect(page.getByTestId('dash-total')).not.toHaveText('—');
    // The card's content box: a button running into the padding pokes out of the card's layout.
    const border = await box(card);
    const pad = await card.evaluate((el) => {
      const cs = getComputedStyle(el);
      return { l: parseFloat(cs.paddingLeft) + parseFloat(cs.borderLeftWidth), r: parseFloat(cs.paddingRight) + parseFloat(cs.borderRightWidth) };
    });
    const outer = { ...border, x: border.x + pad.l, width: border.width - pad.l - pad.r };
    for (const name of ['Deposit', 'Withdraw', 'Transfer']) {
      const b = card.getByRole(name === 'Transfer' ? 'button' : 'link', { name, exact: true });
      expect(inside(await box(b), outer), name).toBe(true);
    }
  });

  test("a flush list card (the dashboard's recent orders) gets no phone padding on top of its rows' own", async ({ page }) => {
    await signedIn(page, 'l26flush');
    await page.goto('/my/dashboard');
    const card = page.locator('.acct-card--flush').first();
    await expect(card).toBeVisible();
    expect(await card.evaluate((el) => getComputedStyle(el).padding)).toBe('0px');
  });

  test("the trade screen's Buy / Sell bar shows on the first screen, above the app's bottom bar", async ({ page }) => {
    await signedIn(page, 'l26bar');
    await page.goto('/mFutures/BTCUSDT');
    await expect(page.getByTestId('last-price')).not.toHaveText('--');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const nav = await box(page.getByTestId('bottom-bar'));
    for (const side of ['buy', 'sell'] as const) {
      const b = page.getByTestId(`trade-bar-${side}`);
      const r = await box(b);
      expect(inside(r, { x: 0, y: 0, width: 390, height: 844 }), `${side} in the viewport`).toBe(true);
      expect(r.y + r.height, `${side} above the bottom bar`).toBeLessThanOrEqual(nav.y + 0.5);
      // Nothing covers it: the element at its centre is the button (or inside it).
      const onTop = await b.evaluate((el) => {
        const rect = el.getBoundingClientRect();
        const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
        return hit !== null && el.contains(hit);
      });
      expect(onTop, `${side} is not covered`).toBe(true);
    }
    expect(await axeSerious(page)).toEqual([]);
  });
});
