import { expect, test } from '@playwright/test';
import { apiSignUp, lastMailId, mailCode, presetStorage, uniqueEmail } from './authHelpers.ts';

/**
 * Issue 17's shape on the password forms: a submit refused on the client (empty form), then the
 * form corrected at machine speed (well inside the 450 ms click guard of SPEC §9) and submitted:
 * the request must leave, every time. The KYC form (kyc.spec.ts), login (settings.spec.ts),
 * register (auth.spec.ts), the transfer dialog (assets.spec.ts) and the order form
 * (trade.spec.ts) make the same move with no pause before their second click.
 */

const PASSWORD = 'Passw0rd!';

test('reset password: empty submit shows why, the corrected form is sent at once', async ({ page, request }) => {
  const email = uniqueEmail('reset');
  await apiSignUp(request, email, PASSWORD);
  await presetStorage(page, {});
  await page.goto('/reset-password');
  const submit = page.getByRole('button', { name: 'Reset password', exact: true });
  await submit.click();
  await expect(page.getByText('Please enter an email')).toBeVisible();
  await expect(page.getByText('Please enter the verification code')).toBeVisible();

  await page.getByLabel('Email', { exact: true }).fill(email);
  const before = await lastMailId(request, email);
  await page.getByRole('button', { name: 'Send code' }).click();
  const mail = await mailCode(request, email, before);
  await page.getByLabel('Email verification code').fill(mail.code);
  await page.getByLabel('New password', { exact: true }).fill('N3wPassw0rd!');
  await page.getByLabel('Confirm password').fill('N3wPassw0rd!');
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/user/resetPassword'));
  await submit.click();
  await sent;
  await expect(page).toHaveURL(/\/login\?email=/);
});

test('change password: empty submit shows why, the corrected form is sent at once', async ({ page, request }) => {
  const email = uniqueEmail('chpw');
  const token = await apiSignUp(request, email, PASSWORD);
  await presetStorage(page, { token });
  await page.goto('/my/settings/password');
  const submit = page.getByRole('button', { name: 'Confirm change' });
  await submit.click();
  await expect(page.getByText('Please enter a password').first()).toBeVisible();

  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password', { exact: true }).fill('N3wPassw0rd!');
  await page.getByLabel('Confirm new password').fill('N3wPassw0rd!');
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/user/modify-password'));
  await submit.click();
  const res = await answered;
  expect(((await res.json()) as { code: number }).code).toBe(200);
});
