import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { openInApp } from './navigate.ts';
import { apiSignUp, presetStorage, uniqueEmail } from './authHelpers.ts';

/**
 * Every auth and settings screen at desktop (1440×900) and phone (390×844) width in both
 * themes: nothing overflows the viewport sideways, and a screenshot of each lands in
 * screenshots/ (gitignored) for a human to look at.
 */

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
] as const;
const THEMES = ['dark', 'light'] as const;

const GUEST_SCREENS = [
  { name: 'login', path: '/login', ready: 'Log in' },
  { name: 'register', path: '/register', ready: 'Create an account' },
  { name: 'reset-password', path: '/reset-password', ready: 'Reset password' },
] as const;
const USER_SCREENS = [
  { name: 'settings-preference', path: '/my/settings/preference', ready: 'Preferences' },
  { name: 'settings-security', path: '/my/settings/security', ready: 'Account security' },
  { name: 'settings-password', path: '/my/settings/password', ready: 'Change login password' },
  { name: 'settings-login-history', path: '/my/settings/login-history', ready: 'Login history' },
] as const;

const PASSWORD = 'Passw0rd!';
let token = '';
let email = '';

test.beforeAll(async ({ playwright }, info) => {
  const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  email = uniqueEmail('shots');
  token = await apiSignUp(request, email, PASSWORD);
  await request.dispose();
});

async function noSidewaysOverflow(page: Page, width: number) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, 'page scrolls sideways').toBeLessThanOrEqual(width);
}

for (const size of SIZES) {
  for (const theme of THEMES) {
    test(`screens at ${size.name} ${size.width}px, ${theme} theme`, async ({ browser }) => {
      const ctx = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const guest = await ctx.newPage();
      await presetStorage(guest, { theme });
      for (const s of GUEST_SCREENS) {
        await guest.goto(s.path);
        await expect(guest.getByRole('heading', { level: 1, name: s.ready })).toBeVisible();
        if (s.name === 'login' && size.name === 'desktop') await expect(guest.getByAltText('Login QR code')).toBeVisible();
        await expect(guest.locator('html')).toHaveClass(new RegExp(`theme-${theme}`));
        await noSidewaysOverflow(guest, size.width);
        await guest.screenshot({ path: `screenshots/${s.name}-${size.name}-${theme}.png`, fullPage: true });
      }
      // Validation messages on the login form, then the security step (no code is sent).
      await guest.goto('/login');
      await guest.getByRole('button', { name: 'Log in', exact: true }).click();
      await expect(guest.getByText('Please enter an email')).toBeVisible();
      await guest.screenshot({ path: `screenshots/login-errors-${size.name}-${theme}.png`, fullPage: true });
      await guest.getByLabel('Email', { exact: true }).fill(email);
      await guest.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await guest.getByRole('button', { name: 'Log in', exact: true }).click();
      await expect(guest.getByRole('heading', { name: 'Security verification' })).toBeVisible();
      await noSidewaysOverflow(guest, size.width);
      await guest.screenshot({ path: `screenshots/login-security-step-${size.name}-${theme}.png`, fullPage: true });
      await guest.close();

      const user = await ctx.newPage();
      await presetStorage(user, { theme, token });
      for (const s of USER_SCREENS) {
        await user.goto(s.path);
        await expect(user.getByRole('heading', { level: 1, name: s.ready })).toBeVisible();
        if (s.name === 'settings-security') {
          await user.getByRole('button', { name: 'Enable' }).click();
          await expect(user.getByAltText('Google Authenticator QR code')).toBeVisible();
        }
        if (s.name === 'settings-login-history') await expect(user.getByTestId('login-record').first()).toBeVisible();
        await noSidewaysOverflow(user, size.width);
        await user.screenshot({ path: `screenshots/${s.name}-${size.name}-${theme}.png`, fullPage: true });
      }
      await ctx.close();
    });
  }
}

test('other languages fit the phone width', async ({ browser }) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  for (const lang of ['zh', 'hk', 'jp', 'ko'] as const) {
    const page = await ctx.newPage();
    await presetStorage(page, { lang, token });
    // The app loads once per language; the next pages open inside it, as its links do.
    for (const [i, path] of ['/my/settings/preference', '/my/settings/security', '/my/settings/login-history'].entries()) {
      if (i === 0) await page.goto(path);
      else await openInApp(page, path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await noSidewaysOverflow(page, 390);
    }
    await page.screenshot({ path: `screenshots/settings-login-history-mobile-${lang}.png`, fullPage: true });
    await openInApp(page, '/my/settings/preference');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.screenshot({ path: `screenshots/settings-preference-mobile-${lang}.png`, fullPage: true });
    await page.close();
  }
  await ctx.close();
  for (const lang of ['zh', 'jp', 'ko'] as const) {
    // A fresh context per language: the logged-in pages above left a token in localStorage.
    const guestCtx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const guest = await guestCtx.newPage();
    await presetStorage(guest, { lang });
    for (const path of ['/login', '/register', '/reset-password']) {
      await guest.goto(path);
      await expect(guest.locator('.auth-title')).toBeVisible();
      await noSidewaysOverflow(guest, 390);
    }
    await guest.screenshot({ path: `screenshots/reset-password-mobile-${lang}.png`, fullPage: true });
    await guestCtx.close();
  }
});
