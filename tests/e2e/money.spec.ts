import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSignUp, lastMailId, mailCode, presetStorage, sizeTag, themeShots, uniqueEmail } from './authHelpers.ts';
import { operatorHeaders } from './operator.ts';

/**
 * Money in and out end to end (issue 12; E2E_PORT=8701), at 1440x900 and 390x844: a deposit sent
 * through the dev endpoint (what `npm run wallet -- deposit` calls) appears live with its
 * confirmations and is credited; a withdrawal refused by the 24 h lock after a password change,
 * accepted after `fast-forward`, approved by the operator and completed live; a convert inside the
 * quote window and one after it expired (refreshed, then filled); the wallet and convert histories
 * show them. Screenshots of every screen in both themes land in /tmp/ui12-shots.
 */

const SHOTS = '/tmp/ui12-shots';
const PASSWORD = 'Passw0rd!';
mkdirSync(SHOTS, { recursive: true });

type Env = { code: number; msg: string; data: unknown };

async function api(request: APIRequestContext, method: 'GET' | 'POST', path: string, body?: unknown, token?: string): Promise<Env> {
  // The operator routes (/dev/*) need the operator token (tests/e2e/operator.ts).
  const headers = { ...(token ? { Authorization: token } : {}), ...(path.startsWith('/dev/') ? operatorHeaders() : {}) };
  const res = method === 'GET' ? await request.get(`/api${path}`, { headers }) : await request.post(`/api${path}`, { data: body ?? {}, headers });
  return (await res.json()) as Env;
}

async function ok(p: Promise<Env>): Promise<unknown> {
  const env = await p;
  expect(env.code, env.msg).toBe(200);
  return env.data;
}

/** Both themes of the current page, at the current viewport. */
const shots = (page: Page, name: string): Promise<void> => themeShots(page, `${name}-${sizeTag(page, 'mobile')}`, { dir: SHOTS, settleMs: 300 });

async function noSidewaysScroll(page: Page): Promise<void> {
  const { sw, w } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));
  expect(sw, 'page scrolls sideways').toBeLessThanOrEqual(w);
}

/** A user with `amount` USDT credited in the fund wallet (deposit + fast-forward + the money job). */
async function fundedUser(request: APIRequestContext, tag: string, amount = '100'): Promise<{ email: string; token: string }> {
  const email = uniqueEmail(tag);
  const token = await apiSignUp(request, email, PASSWORD);
  await ok(api(request, 'POST', '/dev/money/deposit', { email, coin: 'USDT', network: 'TRC20', amount }));
  await ok(api(request, 'POST', '/dev/money/fast-forward', { email, hours: 1 }));
  await expect.poll(async () => ((await ok(api(request, 'GET', '/money/deposits', undefined, token))) as { list: { status: string }[] }).list[0]?.status, { timeout: 15_000 }).toBe('credited');
  return { email, token };
}

for (const vp of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`money at ${vp.width}x${vp.height}`, () => {
    test.use({ viewport: vp });

    test('a deposit appears live with its confirmations and is credited', async ({ page, request }) => {
      const email = uniqueEmail('dep');
      const token = await apiSignUp(request, email, PASSWORD);
      await presetStorage(page, { token, theme: 'dark' });
      await page.goto('/my/wallet/deposit');
      await expect(page.getByRole('heading', { level: 1, name: 'Deposit' })).toBeVisible();
      const address = page.getByTestId('deposit-address');
      await expect(address).toHaveText(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
      const first = await address.textContent();
      await expect(page.getByTestId('deposit-min')).toHaveText('1 USDT');
      await expect(page.getByTestId('deposit-confirmations')).toHaveText('6');
      await expect(page.getByTestId('deposit-qr')).toBeVisible();
      await page.evaluate(() => Object.assign(window, { __noReload: true }));

      await ok(api(request, 'POST', '/dev/money/deposit', { email, coin: 'USDT', network: 'TRC20', amount: '250' }));
      await expect(page.getByTestId('deposit-status').first()).toHaveText(/Confirming \d\/6/);
      await shots(page, 'deposit-confirming');
      await ok(api(request, 'POST', '/dev/money/fast-forward', { email, hours: 1 }));
      await expect(page.getByTestId('deposit-status').first()).toHaveText('Credited', { timeout: 15_000 });
      await ok(api(request, 'POST', '/dev/money/deposit', { email, coin: 'USDT', network: 'TRC20', amount: '0.5' }));
      await expect(page.getByTestId('deposit-status').first()).toHaveText('Below minimum, not credited');
      expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

      // the same address on every visit; another network has its own
      await page.reload();
      await expect(page.getByTestId('deposit-address')).toHaveText(first ?? '');
      await page.getByTestId('wal-network').selectOption('ERC20');
      await expect(page.getByTestId('deposit-address')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
      await noSidewaysScroll(page);
      await shots(page, 'deposit');
    });

    test('a withdrawal refused by the 24 h lock, accepted after fast-forward, approved and completed live', async ({ page, request }) => {
      const { email, token } = await fundedUser(request, 'wd');
      const to = ((await ok(api(request, 'GET', '/money/deposit/address?coin=USDT&network=TRC20', undefined, token))) as { address: string }).address;
      await ok(api(request, 'POST', '/user/modify-password', { oldPassword: PASSWORD, password: 'Passw0rd!2', confirmPassword: 'Passw0rd!2' }, token));
      await presetStorage(page, { token, theme: 'dark' });
      await page.goto('/my/wallet/withdrawal');
      await expect(page.getByRole('heading', { level: 1, name: 'Withdraw' })).toBeVisible();
      const lock = page.getByTestId('withdraw-lock');
      await expect(lock).toContainText('Withdrawals, C2C sales and payments are disabled for 24 hours after a password change');
      await expect(page.getByTestId('withdraw-lock-left')).toHaveText(/Time left: 2[34] h \d+ min/);
      await shots(page, 'withdrawal-locked');

      await ok(api(request, 'POST', '/dev/money/fast-forward', { email, hours: 24 }));
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(page.getByTestId('withdraw-address')).toBeVisible();
      // client rules first: nothing is sent
      await page.getByTestId('withdraw-next').click();
      await expect(page.getByText('Please enter withdrawal address')).toBeVisible();
      await page.getByTestId('withdraw-address').fill(to);
      await page.getByTestId('withdraw-amount').fill('5');
      await page.getByTestId('withdraw-next').click();
      await expect(page.getByText('The minimum withdrawal amount is: 10 USDT').last()).toBeVisible();
      // new accounts start with 10,000 USDT in the fund wallet; 100 more were deposited
      await page.getByTestId('withdraw-amount').fill('10100');
      await page.getByTestId('withdraw-next').click();
      await expect(page.getByText('Insufficient Balance')).toBeVisible();
      await page.getByRole('button', { name: 'Max' }).click();
      await expect(page.getByTestId('withdraw-amount')).toHaveValue('10099');
      await page.getByTestId('withdraw-amount').fill('20');
      await expect(page.getByTestId('withdraw-received')).toHaveText('20.00 USDT');
      await expect(page.getByTestId('withdraw-fee')).toHaveText('1 USDT');
      await page.getByTestId('withdraw-next').click();

      // security step: an email code (no authenticator bound)
      const before = await lastMailId(request, email);
      // the code goes to the account's own email, named (masked) without asking for it (issue 26, Minor 16)
      await expect(page.getByTestId('withdraw-code-to')).toContainText('The code is sent to your account email');
      await expect(page.getByLabel('Email', { exact: true })).toHaveCount(0);
      await page.getByRole('button', { name: 'Send code' }).click();
      const { code } = await mailCode(request, email, before);
      await page.getByTestId('withdraw-code').fill(code);
      await noSidewaysScroll(page);
      await shots(page, 'withdrawal-security');
      await page.getByTestId('withdraw-submit').click();
      await expect(page.getByTestId('withdraw-submitted')).toBeVisible();
      await expect(page.getByTestId('withdrawal-status').first()).toHaveText('Pending review');

      const list = (await ok(api(request, 'GET', '/dev/money/withdrawals?status=pending'))) as { list: { id: number; address: string }[] };
      const mine = list.list.find((w) => w.address === to);
      expect(mine).toBeTruthy();
      await ok(api(request, 'POST', '/dev/money/review', { id: mine?.id, decision: 'approve' }));
      await expect(page.getByTestId('withdrawal-status').first()).toHaveText(/Processing|Completed/);
      await expect(page.getByTestId('withdrawal-status').first()).toHaveText('Completed', { timeout: 15_000 });
      await noSidewaysScroll(page);
      await shots(page, 'withdrawal');

      await page.goto('/my/order/wallet-history');
      await expect(page.getByRole('heading', { level: 1, name: 'Wallet history' })).toBeVisible();
      await expect(page.getByTestId('history-row')).toHaveCount(2);
      await page.getByTestId('history-type').selectOption('withdrawal');
      await expect(page.getByTestId('history-row')).toHaveCount(1);
      await expect(page.getByTestId('history-status')).toHaveText('Completed');
      await page.getByTestId('history-type').selectOption('');
      await noSidewaysScroll(page);
      await shots(page, 'wallet-history');
    });

    test('a convert inside the quote window fills at the quote; after it expired it is refreshed, then filled', async ({ page, request }) => {
      const { token } = await fundedUser(request, 'cv', '1000');
      await presetStorage(page, { token, theme: 'dark' });
      await page.goto('/convert');
      await expect(page.getByRole('heading', { level: 1, name: 'Convert' })).toBeVisible();
      await expect(page.getByTestId('cv-available')).toHaveText('Available: 11,000.00 USDT');
      await page.getByTestId('cv-amount').fill('50000');
      await page.getByTestId('cv-preview').click();
      await expect(page.getByTestId('cv-error')).toContainText('Insufficient balance, please deposit');
      await expect(page.getByTestId('cv-error').getByRole('link', { name: 'Deposit' })).toHaveAttribute('href', '/my/wallet/deposit');

      await page.getByTestId('cv-amount').fill('100');
      await page.getByTestId('cv-preview').click();
      await expect(page.getByTestId('cv-countdown')).toHaveText(/Rate locked for [1-8] s/);
      const receive = await page.getByTestId('cv-receive').textContent();
      // Confirmed at once: the quote lives 8 s of real time (the photos of a quote are taken on the
      // next one, which this test lets expire anyway).
      // A double click (a fast machine answers between its two clicks and "Convert again" takes
      // the Convert button's place: the second click must press nothing, the result stays).
      await page.getByTestId('cv-confirm').dblclick();
      await expect(page.getByTestId('cv-done')).toContainText(`100.00 USDT → ${(receive ?? '').replace(/ BTC$/, '')} BTC`);

      // one convert, at the quote
      const hist = (await ok(api(request, 'GET', '/convert/history', undefined, token))) as { total: number };
      expect(hist.total).toBe(1);

      await page.getByRole('button', { name: 'Convert again' }).click();
      await page.getByTestId('cv-amount').fill('50');
      await page.getByTestId('cv-preview').click();
      await expect(page.getByTestId('cv-countdown')).toBeVisible();
      await shots(page, 'convert-quoted');
      await expect(page.getByTestId('cv-error')).toHaveText('The quote has expired, please get a new quote', { timeout: 12_000 });
      await expect(page.getByTestId('cv-confirm')).toHaveCount(0);
      await shots(page, 'convert-expired');
      await page.getByTestId('cv-requote').click();
      await expect(page.getByTestId('cv-countdown')).toBeVisible();
      await page.getByTestId('cv-confirm').click();
      await expect(page.getByTestId('cv-done')).toBeVisible();
      await noSidewaysScroll(page);

      await page.goto('/my/order/convert');
      await expect(page.getByRole('heading', { level: 1, name: 'Convert history' })).toBeVisible();
      await expect(page.getByTestId('history-row')).toHaveCount(2);
      await noSidewaysScroll(page);
      await shots(page, 'convert-history');
    });
  });
}

test('a guest sees the convert form and a login prompt', async ({ page }) => {
  await presetStorage(page, { theme: 'dark' });
  await page.goto('/convert');
  await expect(page.getByRole('heading', { level: 1, name: 'Convert' })).toBeVisible();
  await expect(page.getByTestId('cv-login')).toContainText('Log in to convert');
  await expect(page.getByTestId('footer')).toBeVisible();
  await shots(page, 'convert-guest');
});
