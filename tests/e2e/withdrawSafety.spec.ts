import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { apiSignUp, lastMailId, mailCode, presetStorage, sizeTag, themeShots, uniqueEmail } from './authHelpers.ts';
import { axeSerious } from './axe.ts';

/**
 * Withdrawal safety end to end (issue 26), built app and real server, at 1440x900 and 390x844: the
 * address book page saves an address and turns whitelist mode on with the emailed code; the
 * withdrawal form then shows the mode, refuses an address outside the book before the security
 * step, picks the saved one and shows 'Daily limit: used / limit' with the way to verify identity;
 * no serious axe violation, both themes photographed. The history date filters in Japanese and
 * Korean show the language's own day order instead of Chromium's 'mm/dd/yyyy'.
 */

const SHOTS = '/tmp/h26w-shots';
mkdirSync(SHOTS, { recursive: true });
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const OTHER = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';

/** Both themes of the current page (no serious axe violation in either), at the current viewport. */
const shots = (page: Page, name: string): Promise<void> =>
  themeShots(page, `${name}-${sizeTag(page, 'phone')}`, {
    dir: SHOTS,
    settleMs: 300,
    check: async (theme) => expect(await axeSerious(page), `${name} ${theme}`).toEqual([]),
  });

for (const vp of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`withdrawal safety at ${vp.width}x${vp.height}`, () => {
    test.use({ viewport: vp, bypassCSP: true });

    test('address book, whitelist mode on with the email code, the form refuses other addresses, daily limit shown', async ({ page, request }) => {
      const email = uniqueEmail('wsafe');
      const token = await apiSignUp(request, email, 'Passw0rd!');
      await presetStorage(page, { token, theme: 'dark' });
      await page.goto('/my/wallet/addresses');
      await expect(page.getByRole('heading', { level: 1, name: 'Withdrawal address book' })).toBeVisible();
      await page.getByTestId('book-address').fill('hello-not-an-address');
      await expect(page.getByText('Invalid withdrawal address for this network')).toBeVisible();
      await page.getByTestId('book-address').fill(TRON);
      await page.getByTestId('book-label-input').fill('Cold wallet');
      await page.getByTestId('book-save').click();
      await expect(page.getByTestId('book-notice')).toHaveText('Address saved');
      await expect(page.getByTestId('book-label')).toHaveText(['Cold wallet']);

      await page.getByTestId('wl-on').click();
      const before = await lastMailId(request, email);
      await page.getByRole('button', { name: 'Send code' }).click();
      const { code } = await mailCode(request, email, before);
      await page.getByTestId('wl-code').fill(code);
      await page.getByTestId('wl-confirm').click();
      await expect(page.getByTestId('wl-state')).toHaveText('On');
      await expect(page.getByTestId('book-notice')).toHaveText('Whitelist mode is on');
      await shots(page, 'address-book');

      await page.goto('/my/wallet/withdrawal');
      await expect(page.getByTestId('withdraw-whitelist')).toContainText('Whitelist mode is on');
      await expect(page.getByTestId('withdraw-limit')).toContainText('0.00 / 20,000.00 USDT');
      await expect(page.getByTestId('withdraw-limit-kyc')).toHaveAttribute('href', '/my/settings/kyc');
      await page.getByTestId('withdraw-address').fill(OTHER);
      await expect(page.getByText('Whitelist mode is on: withdrawals can only go to addresses in your address book')).toBeVisible();
      await expect(page.getByTestId('withdraw-save')).toBeVisible();
      await page.getByTestId('withdraw-amount').fill('20');
      await page.getByTestId('withdraw-next').click();
      await expect(page.getByTestId('withdraw-code')).toHaveCount(0);
      await shots(page, 'withdraw-refused');
      await page.getByTestId('withdraw-saved').selectOption(TRON);
      await expect(page.getByTestId('withdraw-address')).toHaveValue(TRON);
      await page.getByTestId('withdraw-next').click();
      await expect(page.getByTestId('withdraw-code')).toBeVisible();
      await shots(page, 'withdraw-saved');
      const { sw, w } = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, w: window.innerWidth }));
      expect(sw, 'page scrolls sideways').toBeLessThanOrEqual(w);
    });

    test('date filters in Japanese and Korean show the language order, not mm/dd/yyyy', async ({ page, request }) => {
      const token = await apiSignUp(request, uniqueEmail('wdate'), 'Passw0rd!');
      for (const [lang, label, placeholder, typed] of [['jp', '開始日', 'yyyy/mm/dd', '2026/11/27'], ['ko', '시작일', 'yyyy. mm. dd.', '2026. 11. 27.']] as const) {
        await presetStorage(page, { token, theme: 'dark', lang });
        await page.goto('/my/order/wallet-history');
        const from = page.getByLabel(`${label} (${placeholder})`);
        await expect(from).toHaveAttribute('placeholder', placeholder);
        await shots(page, `history-dates-${lang}`);
        await from.fill(typed);
        await expect(from).toHaveValue(typed);
        await expect(from).not.toHaveAttribute('aria-invalid', 'true');
        await page.screenshot({ path: `${SHOTS}/history-dates-${lang}-typed-${vp.width}.png` });
      }
    });
  });
}
