import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { apiSignUp, presetStorage, uniqueEmail } from './authHelpers.ts';

/**
 * Account centre end to end (issue 4, asset pages), against the real server and the built app, at
 * desktop (1440×900) and phone (390×844) size: a fresh account (10 000 USDT demo money in the fund
 * and in the perpetual wallet) sees its balances, checks the SPEC §5 transfer messages, moves
 * USDT fund → perp, sees both cards change and finds the transfer in the transaction history.
 * Screenshots of every account-centre page in both themes go to screenshots/.
 */

const PAGES = [
  ['overview', '/my/assets/overview'],
  ['futures-account', '/my/assets/futures-account'],
  ['spot-account', '/my/assets/spot-account'],
  ['fund-account', '/my/assets/fund-account'],
  ['orders', '/my/order/futures'],
  ['dashboard', '/my/dashboard'],
] as const;

async function noSidewaysOverflow(page: Page): Promise<void> {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(over).toBeLessThanOrEqual(0);
}

async function transferFlow(page: Page, amount: string): Promise<void> {
  await page.goto('/my/assets/overview');
  await expect(page.getByTestId('total-equity')).toHaveText('$20,000.00');
  await expect(page.getByTestId('wallet-fund-total')).toHaveText('$10,000.00');
  await expect(page.getByTestId('wallet-perp-total')).toHaveText('$10,000.00');
  await expect(page.getByTestId('wallet-spot-total')).toHaveText('$0.00');

  await page.locator('.acct-head__actions').getByRole('button', { name: 'Transfer' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('transfer-available')).toHaveText('Available: 10,000.00 USDT');
  await dialog.getByRole('button', { name: 'Confirm transfer' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please fill in the transfer amount');
  await dialog.getByLabel('Amount').fill('10000.5');
  await dialog.getByRole('button', { name: 'Confirm transfer' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Insufficient Balance');
  await dialog.getByLabel('Amount').fill(amount);
  await dialog.getByRole('button', { name: 'Confirm transfer' }).click();
  await expect(dialog).toHaveCount(0);

  const left = (10000 - Number(amount)).toLocaleString('en-US', { minimumFractionDigits: 2 });
  const right = (10000 + Number(amount)).toLocaleString('en-US', { minimumFractionDigits: 2 });
  await expect(page.getByTestId('wallet-fund-total')).toHaveText(`$${left}`);
  await expect(page.getByTestId('wallet-perp-total')).toHaveText(`$${right}`);
  await expect(page.getByTestId('total-equity')).toHaveText('$20,000.00');

  await page.goto('/my/order/futures');
  await page.getByRole('tab', { name: 'Transaction history' }).click();
  const rows = page.getByTestId('history-row');
  const shown = Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2 });
  await expect(rows.filter({ hasText: 'Transfer in' })).toContainText(shown);
  await expect(rows.filter({ hasText: 'Transfer out' })).toContainText(`-${shown}`);
  await page.getByLabel('Contract').selectOption('perp');
  await expect(rows.filter({ hasText: 'Transfer out' })).toHaveCount(0);
  await expect(rows.filter({ hasText: 'Transfer in' })).toHaveCount(1);
}

async function screenshots(page: Page, size: string): Promise<void> {
  for (const theme of ['dark', 'light'] as const) {
    // NOTE: presetStorage's init script runs on every load; a later init script overrides it.
    await page.addInitScript((t) => window.localStorage.setItem('theme', t), theme);
    for (const [name, path] of PAGES) {
      await page.goto(path);
      await expect(page.locator('.acct-title')).toBeVisible();
      if (name === 'orders') {
        await page.getByRole('tab', { name: 'Transaction history' }).click();
        await expect(page.getByTestId('history-row').first()).toBeVisible();
      } else if (name === 'dashboard') {
        await expect(page.getByTestId('dash-total')).not.toHaveText('—');
      }
      await noSidewaysOverflow(page);
      await page.screenshot({ path: `screenshots/assets-${name}-${size}-${theme}.png`, fullPage: true });
    }
    await page.goto('/my/assets/overview');
    await page.locator('.acct-head__actions').getByRole('button', { name: 'Transfer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm transfer' }).click();
    await page.screenshot({ path: `screenshots/assets-transfer-${size}-${theme}.png` });
  }
}

test('desktop: balances, transfer fund → perp with SPEC messages, transaction history, screenshots', async ({ page }) => {
  const token = await apiSignUp(page.request, uniqueEmail('assets'), 'secret123');
  await presetStorage(page, { token, theme: 'dark' });
  await transferFlow(page, '250');
  await screenshots(page, '1440');
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('phone: the same flow on cards, screenshots', async ({ page }) => {
    const token = await apiSignUp(page.request, uniqueEmail('assets-m'), 'secret123');
    await presetStorage(page, { token, theme: 'dark' });
    await transferFlow(page, '1234.5');
    await screenshots(page, '390');
  });
});
