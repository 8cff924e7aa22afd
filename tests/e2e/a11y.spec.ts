import { createRequire } from 'node:module';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { apiSignUp, presetStorage, uniqueEmail } from './authHelpers.ts';
import { pushRoute } from './navigate.ts';
import { animationsSettled } from './axe.ts';

/**
 * Issue 14, accessibility: an axe-core scan of every route, as a guest and signed in, in both
 * themes at 1440x900 and 390x844, each sweep in one page that moves from route to route as the
 * router does on a link (the app starts once per sweep, not once per route). Any serious or critical violation, or a screen without exactly
 * one h1, fails the test, listed with its route, rule and the nodes it hit. axe is injected from node_modules into a context that
 * bypasses the app's CSP (tests only).
 */

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const GUEST_ROUTES = ['/login', '/register', '/reset-password', '/', '/market', '/copy', '/copy/trader/9000001', '/help-center', '/help-center?q=fees', '/help-list/21', '/help-detail/8', '/help-detail/999999', '/mFutures/BTCUSDT', '/stdFuture/BTCUSDT', '/mFutures/NOPEUSDT', '/no-such-page'];
const USER_ROUTES = [
  '/', '/market', '/convert', '/copy', '/copy/trader/9000001', '/help-center', '/help-list', '/help-list/16', '/help-detail/15', '/help-detail/85', '/mFutures/BTCUSDT', '/stdFuture/ETHUSDT',
  '/my/dashboard', '/my/assets/overview', '/my/assets/futures-account', '/my/assets/spot-account', '/my/assets/fund-account',
  '/my/order/futures', '/my/order/wallet-history', '/my/order/convert', '/my/rebate', '/my/compensation/orders', '/my/coupon',
  '/my/settings/preference', '/my/settings/security', '/my/settings/password', '/my/settings/login-history', '/my/settings/kyc',
  '/my/wallet/deposit', '/my/wallet/withdrawal', '/my/wallet/addresses',
];

interface Hit {
  route: string;
  rule: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * Resolves once the page has had no request in flight for 300 ms (sockets aside): the screen's
 * data has arrived. Counts requests itself because a client-side navigation has no load state.
 */
async function settle(page: Page, inflight: Set<unknown>): Promise<void> {
  let quietSince = Date.now();
  const deadline = Date.now() + 8_000;
  while (Date.now() < deadline) {
    if (inflight.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 300) return;
    await page.waitForTimeout(50);
  }
}

/**
 * One page that visits `routes` in turn as a user clicking links would (client-side navigation:
 * the app, its sockets and axe load once), scanning each screen once its data has arrived.
 */
async function sweep(page: Page, routes: readonly string[]): Promise<Hit[]> {
  const inflight = new Set<unknown>();
  page.on('request', (r) => {
    if (r.resourceType() !== 'websocket') inflight.add(r);
  });
  page.on('requestfinished', (r) => inflight.delete(r));
  page.on('requestfailed', (r) => inflight.delete(r));
  const hits: Hit[] = [];
  for (const [i, route] of routes.entries()) {
    if (i === 0) {
      await page.goto(route);
      await page.addScriptTag({ path: AXE });
    } else {
      await pushRoute(page, route);
    }
    await expect.poll(() => page.evaluate(() => window.location.pathname + window.location.search)).toBe(route);
    hits.push(...(await scan(page, route, inflight)));
  }
  return hits;
}

async function scan(page: Page, route: string, inflight: Set<unknown>): Promise<Hit[]> {
  await page.locator('main').first().waitFor();
  await settle(page, inflight);
  // A route's screen can render after the shell's main (lazy chunk, first data): give its h1 a moment to appear.
  await page.locator('h1').first().waitFor({ timeout: 5000 }).catch(() => undefined);
  await animationsSettled(page);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')} :: ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`) }));
  });
  const h1 = await page.locator('h1').count();
  const headings = h1 === 1 ? [] : [{ route, rule: 'one-h1', impact: 'serious', help: `one h1 per screen, found ${h1}`, nodes: [] }];
  return [
    ...headings,
    ...violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ route, rule: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 6) })),
  ];
}

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

// The four sweeps (and the focus test) are independent: spread them over the workers.
test.describe.configure({ mode: 'parallel' });

for (const size of SIZES) {
  for (const theme of ['dark', 'light'] as const) {
    test(`no serious or critical axe violation on any route, ${size.name}, ${theme}`, async ({ browser, request }) => {
      test.setTimeout(240_000);
      const guest = await browser.newContext({ viewport: { width: size.width, height: size.height }, bypassCSP: true });
      const gp = await guest.newPage();
      await presetStorage(gp, { theme });
      const hits = await sweep(gp, GUEST_ROUTES);
      await guest.close();

      const token = await apiSignUp(request, uniqueEmail('a11y'), 'Passw0rd!');
      const user = await browser.newContext({ viewport: { width: size.width, height: size.height }, bypassCSP: true });
      const up = await user.newPage();
      await presetStorage(up, { token, theme });
      hits.push(...(await sweep(up, USER_ROUTES)));
      await user.close();

      const report = hits.map((h) => `${h.route} [${h.impact}] ${h.rule}: ${h.help}\n    ${h.nodes.join('\n    ')}`).join('\n');
      expect(hits, report).toEqual([]);
    });
  }
}

/** Tabs `presses` times and reports whether focus ever left the open dialog. */
async function tabStaysInside(page: Page, presses: number): Promise<boolean> {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
    const inside = await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null);
    if (!inside) return false;
  }
  return true;
}

test('a dialog and the menu drawer keep focus inside and give it back on close', async ({ browser, request }) => {
  const token = await apiSignUp(request, uniqueEmail('focus'), 'Passw0rd!');
  const desk = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await desk.newPage();
  await presetStorage(page, { token });
  await page.goto('/my/assets/overview');
  const opener = page.locator('.acct-head__actions').getByRole('button', { name: 'Transfer' });
  await opener.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null)).toBe(true);
  expect(await tabStaysInside(page, 12)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(opener).toBeFocused();
  await desk.close();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const p = await phone.newPage();
  await presetStorage(p, { token });
  await p.goto('/market');
  const menu = p.getByRole('button', { name: 'Menu' });
  await menu.click();
  await expect(p.getByTestId('mobile-drawer')).toBeVisible();
  expect(await tabStaysInside(p, 30)).toBe(true);
  await p.keyboard.press('Escape');
  await expect(p.getByTestId('mobile-drawer')).toHaveCount(0);
  await expect(menu).toBeFocused();
  await phone.close();
});
