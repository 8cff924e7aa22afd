import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { lastMailId, mailCode, makePng, presetStorage, totpCode, uniqueEmail } from './authHelpers.ts';

/**
 * The "done means" path of the auth and settings screens against the real server:
 * register → log in with an email code → bind Google authenticator → log out → log in with a
 * TOTP → change nickname and avatar → see login history; plus a phone-width login.
 */

const PASSWORD = 'Passw0rd!';

async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

test.describe.configure({ mode: 'serial' });

/** The account of the first test, reused by the phone-width test. */
let shared: { email: string; secret: string; step: number } | null = null;

test('register, email-code login, Google bind, TOTP login, profile, login history', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('e2e');
  await presetStorage(page, {});

  // Register.
  await page.goto('/register?inviteCode=');
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByText('Please enter an email')).toBeVisible();
  await expect(page.getByText('Please read and agree to the relevant agreement policies')).toBeVisible();
  await expect(page.getByText('Please check the user agreement')).toBeVisible();

  await page.getByLabel('Email', { exact: true }).fill(email);
  const before = await lastMailId(request, email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('button', { name: /Resend in \d+s/ })).toBeDisabled();
  const reg = await mailCode(request, email, before);
  await page.getByLabel('Email verification code').fill(reg.code);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page).toHaveURL(/\/login\?email=/);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);

  // Log in with the mailed code, coming back to the security page.
  await page.goto(`/login?redirect=${encodeURIComponent('/my/settings/security')}`);
  await fillLogin(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Security verification' })).toBeVisible();
  await page.getByRole('button', { name: 'Send code' }).click();
  const login1 = await mailCode(request, email, reg.id);
  await page.getByLabel('Email verification code').fill(login1.code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/my\/settings\/security$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

  // Bind Google authenticator with a TOTP computed from the secret shown.
  await expect(page.getByTestId('google-status')).toHaveText('Not enabled');
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByAltText('Google Authenticator QR code')).toBeVisible();
  const secret = (await page.getByTestId('google-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const bindCode = await totpCode(secret);
  shared = { email, secret, step: bindCode.step };
  await page.getByLabel('Google authenticator code').fill(bindCode.code);
  await page.getByRole('button', { name: 'Bind', exact: true }).click();
  await expect(page.getByTestId('google-status')).toHaveText('Enabled');

  // Log out through the account menu.
  // The dropdown opens on hover (a click right after the hover toggles it closed again).
  await page.getByRole('button', { name: 'Account', exact: true }).hover();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // Log back in: the security step now asks for the authenticator code.
  await fillLogin(page, email, PASSWORD);
  await expect(page.getByText('Enter the 6-digit code from Google Authenticator')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send code' })).toHaveCount(0);
  // The next 30 s step: the server accepts each step once.
  const loginCode = await totpCode(secret, bindCode.step);
  shared.step = loginCode.step;
  await page.getByLabel('Google authenticator code').fill(loginCode.code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/my\/settings\/security$/);

  // Nickname and avatar.
  await page.goto('/my/settings/preference');
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Nickname').fill('E2E Trader');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('nickname')).toHaveText('E2E Trader');

  await page.getByLabel('Choose image').setInputFiles({ name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert').filter({ hasText: 'Only image files are allowed!' })).toBeVisible();
  await page.getByLabel('Choose image').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: makePng() });
  await expect(page.getByAltText('Avatar preview')).toBeVisible();
  await page.getByRole('button', { name: 'Upload' }).click();
  const avatar = page.locator('.settings-avatar img');
  await expect(avatar).toHaveAttribute('src', /\/api\/files\/avatars\//);
  expect(await avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(32);

  // Login history: the two logins above.
  await page.goto('/my/settings/login-history');
  await expect(page.getByTestId('login-record')).toHaveCount(2);
  await expect(page.getByRole('columnheader', { name: 'IP' })).toBeVisible();
});

test('phone width: QR tab, validation, then a TOTP login with the account above', async ({ browser }) => {
  // NOTE: reuses the account of the first test (serial mode) so this run mails nothing: the
  // server allows 5 mail codes per IP per 10 minutes, and every e2e spec shares 127.0.0.1.
  test.setTimeout(90_000);
  expect(shared, 'the first test must run before this one').not.toBeNull();
  const { email, secret, step } = shared!;
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  await presetStorage(page, {});
  await page.goto('/login?redirect=%2Fmy%2Fsettings%2Flogin-history');
  await page.getByRole('tab', { name: 'QR code login' }).click();
  await expect(page.getByAltText('Login QR code')).toBeVisible();
  await expect(page.getByText('Requires app version 1.1.8 or above')).toBeVisible();
  await page.getByRole('tab', { name: 'Email login' }).click();

  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByText('Please enter an email')).toBeVisible();
  await expect(page.getByText('Please enter a password')).toBeVisible();
  await fillLogin(page, email, PASSWORD);
  await page.getByLabel('Google authenticator code').fill((await totpCode(secret, step)).code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/my\/settings\/login-history$/);
  // Phone layout of the history: a card list, three logins so far.
  await expect(page.getByTestId('login-record')).toHaveCount(3);
  await expect(page.locator('table')).toHaveCount(0);
  await ctx.close();
});
