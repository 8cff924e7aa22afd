import { createRequire } from 'node:module';
import { formatStatement } from '../../src/format/number.ts';
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSignUp, lastMailId, mailCode, presetStorage, themeShots, uniqueEmail } from './authHelpers.ts';
import { animationsSettled } from './axe.ts';

/**
 * Referral rebates end to end (E2E_PORT=8225), real server and built app, on a desktop (1440x900)
 * and a phone (390x844): the inviter opens /my/rebate (code, link, QR, copy), the invitee signs up
 * through the invitation link (the register form arrives with the code filled in), logs in and
 * trades; the inviter's /my/rebate shows, live, the invited user and the rebate: floor(20 % × the
 * fee) the invitee paid. Screenshots in both themes go to screenshots/.
 */

const PASSWORD = 'secret12';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Serious or critical axe violations of the page as it is, in both themes (the a11y spec scans
 * the page of a fresh account, with no invitee yet). The theme is switched the app's way (stored,
 * then a reload) so the theme-dependent buy/sell text colours are the ones a user gets.
 */
async function axeHits(page: Page, ready: () => Promise<void>): Promise<string[]> {
  const hits: string[] = [];
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.reload();
    await ready();
    await animationsSettled(page); // colour transitions
    await page.addScriptTag({ path: AXE });
    hits.push(...(await page.evaluate(async (t) => {
      const axe = (window as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe;
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${t} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }, theme)));
  }
  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  return hits;
}

async function api<T>(request: APIRequestContext, token: string, path: string, body?: unknown): Promise<{ code: number; msg: string; data: T }> {
  const res = body === undefined
    ? await request.get(`/api${path}`, { headers: { Authorization: token } })
    : await request.post(`/api${path}`, { headers: { Authorization: token }, data: body });
  return (await res.json()) as { code: number; msg: string; data: T };
}

/** '3.012345' USDT → the rebate floor(fee × 20 %) as the page shows it (≥ 2 decimals, grouped). */
function rebateText(fee: string): string {
  const [w = '0', f = ''] = fee.split('.');
  const minor = BigInt(w) * 1_000_000n + BigInt(f.padEnd(6, '0').slice(0, 6));
  const r = (minor * 2000n) / 10_000n;
  // shown as a statement amount (issue 26, Minor 20): fixed 4 decimals
  return `${formatStatement(`${r / 1_000_000n}.${(r % 1_000_000n).toString().padStart(6, '0')}`, 'USDT')} USDT`;
}

for (const vp of [{ name: 'desktop', width: 1440, height: 900 }, { name: 'phone', width: 390, height: 844 }]) {
  test(`${vp.name}: a sign-up through the invitation link pays the inviter a rebate on the invitee's trade`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    // The inviter, on /my/rebate.
    const inviterToken = await apiSignUp(request, uniqueEmail('inviter'), PASSWORD);
    const summary = await api<{ code: string; link: string }>(request, inviterToken, '/referral/summary');
    const { code } = summary.data;
    const inviterCtx = await browser.newContext({ viewport: { width: vp.width, height: vp.height }, bypassCSP: true });
    await inviterCtx.grantPermissions(['clipboard-read', 'clipboard-write']);
    const inviter = await inviterCtx.newPage();
    await presetStorage(inviter, { token: inviterToken }); // theme: the default (dark); axeHits switches it
    await inviter.goto('/my/rebate');
    await expect(inviter.getByRole('heading', { level: 1, name: 'Referral rebate' })).toBeVisible();
    await expect(inviter.getByTestId('rebate-code')).toHaveText(code);
    const link = (await inviter.getByTestId('rebate-link').textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/register\\?code=${code}$`));
    await expect(inviter.getByTestId('rebate-rate')).toHaveText('20%');
    await expect(inviter.getByTestId('rebate-total')).toHaveText('0.0000 USDT');
    await expect(inviter.getByTestId('rebate-invited')).toHaveText('0');
    await expect(inviter.getByTestId('rebate-qr')).toBeVisible();
    await expect(inviter.getByText('No invitees yet. Share your link to start earning.')).toBeVisible();
    await inviter.getByTestId('rebate-copy-link').click();
    await expect(inviter.getByText('Copy Successful!')).toBeVisible();
    expect(await inviter.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // The invitee opens the link: the register form has the code.
    const inviteeCtx = await browser.newContext({ viewport: { width: vp.width, height: vp.height } });
    const invitee = await inviteeCtx.newPage();
    await presetStorage(invitee, {});
    await invitee.goto(link.replace(/^http:\/\/[^/]+/, ''));
    await expect(invitee.getByRole('heading', { name: 'Create an account' })).toBeVisible();
    await expect(invitee.getByLabel('Referral code (optional)')).toHaveValue(code);
    const email = uniqueEmail('invitee');
    await invitee.getByLabel('Email', { exact: true }).fill(email);
    const before = await lastMailId(request, email);
    await invitee.getByRole('button', { name: 'Send code' }).click();
    const reg = await mailCode(request, email, before);
    await invitee.getByLabel('Email verification code').fill(reg.code);
    await invitee.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await invitee.getByLabel('Confirm password').fill(PASSWORD);
    await invitee.getByRole('checkbox').check();
    // An unknown code is refused with a clear message and nothing is used up: corrected, the same form goes through.
    await invitee.getByLabel('Referral code (optional)').fill('ZZZZ2222');
    await invitee.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(invitee.getByText('Invalid referral code').first()).toBeVisible();
    await expect(invitee).toHaveURL(/\/register/);
    await invitee.getByLabel('Referral code (optional)').fill(code);
    await invitee.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(invitee.getByRole('heading', { name: /log in/i }).first()).toBeVisible();
    await expect(invitee).toHaveURL(/\/login\?email=/);

    // The inviter sees the new invitee (the page follows the server when it is opened again).
    await inviter.reload();
    await expect(inviter.getByTestId('rebate-invited')).toHaveText('1');
    const masked = `${email.slice(0, 2)}***@example.com`;
    await expect(inviter.getByTestId('rebate-invitees')).toContainText(masked);

    // The invitee logs in and trades: a market buy of 0.01 BTC on the perpetual contract.
    await request.post('/api/user/sendMailCode', { data: { email, type: 'login' } });
    const login = await mailCode(request, email, reg.id);
    const l = (await (await request.post('/api/user/login', { form: { email, password: PASSWORD, code: login.code } })).json()) as { data: { token: string } };
    const order = await api<{ fee: string; status: string }>(request, l.data.token, '/trade/order', {
      clientOrderId: `ref-${vp.name}-${Date.now()}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.01, leverage: 10,
    });
    expect(order.code).toBe(200);
    expect(order.data.status).toBe('filled');
    const expected = rebateText(order.data.fee);

    // Live: the rebate's balance frame reloads the inviter's figures without a page reload.
    await expect(inviter.getByTestId('rebate-total')).toHaveText(expected);
    await expect(inviter.getByTestId('rebate-today')).toContainText(expected.replace(' USDT', ''));
    await expect(inviter.getByTestId('rebate-invitees')).toContainText(expected);
    await expect(inviter.getByTestId('rebate-yesterday')).toHaveText('0.0000 USDT');
    await themeShots(inviter, `rebate-${vp.name}`);
    expect(await axeHits(inviter, () => expect(inviter.getByTestId('rebate-invitees')).toContainText(expected))).toEqual([]);
    await expect(inviter.locator('h1')).toHaveCount(1);

    // The dashboard's referral card shows the same total and links to the page.
    await inviter.goto('/my/dashboard');
    await expect(inviter.getByTestId('dash-referral-total')).toHaveText(expected);
    await inviter.screenshot({ path: `screenshots/rebate-dashboard-${vp.name}-dark.png`, fullPage: true });
    await inviter.getByTestId('dash-referral').getByRole('link', { name: 'Invite friends' }).click();
    await expect(inviter).toHaveURL(/\/my\/rebate$/);

    // Two other languages (a page without the English preset; the context keeps the token).
    const other = await inviterCtx.newPage();
    await other.goto('/my/rebate');
    for (const [lang, heading] of [['zh', '邀请返佣'], ['jp', '紹介リベート']] as const) {
      await other.evaluate((l) => localStorage.setItem('lang', l), lang);
      await other.reload();
      await expect(other.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(other.getByTestId('rebate-total')).toHaveText(expected);
      await other.screenshot({ path: `screenshots/rebate-${vp.name}-${lang}-dark.png`, fullPage: true });
    }
    await inviterCtx.close();
    await inviteeCtx.close();
  });
}
