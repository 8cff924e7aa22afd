import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSignUp, makePng, presetStorage, uniqueEmail } from './authHelpers.ts';
import { operatorHeaders } from './operator.ts';

/**
 * Identity verification end to end (E2E_PORT=8211): a fresh user submits real PNGs through the
 * form, sees "under review", a reviewer rejects through the dev endpoint and the reason appears
 * WITHOUT a reload (user socket), the user resubmits, the reviewer approves, the screen shows
 * verified. Screenshots of every state at desktop and phone widths, both themes and the five
 * languages land in /tmp/kyc-shots for a human to look at.
 */

const SHOTS = '/tmp/kyc-shots';
const PASSWORD = 'Passw0rd!';

async function review(request: APIRequestContext, email: string, decision: 'approve' | 'reject', reason?: string): Promise<void> {
  const res = await request.post('/api/dev/kyc/review', { data: reason === undefined ? { email, decision } : { email, decision, reason }, headers: operatorHeaders() });
  const env = (await res.json()) as { code: number; msg: string };
  expect(env.code, env.msg).toBe(200);
}

async function fillForm(page: Page, docNumber: string): Promise<void> {
  await page.getByTestId('kyc-country').selectOption('DE');
  await page.getByTestId('kyc-doc-type').selectOption('passport');
  await page.getByTestId('kyc-first-name').fill('Ada');
  await page.getByTestId('kyc-last-name').fill('Lovelace');
  await page.getByTestId('kyc-doc-number').fill(docNumber);
  await attachPhotos(page);
}

async function attachPhotos(page: Page): Promise<void> {
  await page.getByTestId('kyc-file-cover').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: makePng(96) });
  await page.getByTestId('kyc-file-info').setInputFiles({ name: 'info.png', mimeType: 'image/png', buffer: makePng(96, [46, 189, 133], [24, 26, 32]) });
  await expect(page.getByTestId('kyc-upload-cover').locator('img')).toBeVisible();
  await expect(page.getByTestId('kyc-upload-info').locator('img')).toBeVisible();
}

async function noSidewaysOverflow(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, 'page scrolls sideways').toBeLessThanOrEqual(width);
}

test('submit, live rejection with reason, resubmit, live approval', async ({ page, request }) => {
  const email = uniqueEmail('kyc');
  const token = await apiSignUp(request, email, PASSWORD);
  await presetStorage(page, { token, theme: 'dark' });
  await page.goto('/my/settings/kyc');
  await expect(page.getByRole('heading', { level: 1, name: 'Identity verification' })).toBeVisible();
  await expect(page.getByTestId('kyc-required')).toHaveText('To use RiskFree full services, please complete identity verification.');

  // Client rules first: nothing is sent for an empty form.
  await page.getByTestId('kyc-submit').click();
  await expect(page.getByText('Please select a country or region')).toBeVisible();
  await page.getByTestId('kyc-file-cover').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(page.getByText('Only image files are allowed!')).toBeVisible();

  await fillForm(page, 'C01X00T47');
  await page.screenshot({ path: `${SHOTS}/form-desktop-dark.png`, fullPage: true });
  // A marker on window: if the page reloaded, it would be gone.
  await page.evaluate(() => Object.assign(window, { __kycNoReload: true }));
  await page.getByTestId('kyc-submit').click();
  await expect(page.getByTestId('kyc-review')).toBeVisible();
  await expect(page.getByTestId('kyc-badge')).toHaveText('Under review');
  await expect(page.getByText('*****0T47')).toBeVisible();
  await expect(page.getByText('C01X00T47')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/review-desktop-dark.png`, fullPage: true });

  await review(request, email, 'reject', 'The information page photo is blurry');
  await expect(page.getByTestId('kyc-reason')).toHaveText('The information page photo is blurry');
  await expect(page.getByTestId('kyc-badge')).toHaveText('Rejected');
  await expect(page.getByTestId('kyc-first-name')).toHaveValue('Ada');
  expect(await page.evaluate(() => (window as unknown as { __kycNoReload?: boolean }).__kycNoReload)).toBe(true);
  await page.screenshot({ path: `${SHOTS}/rejected-desktop-dark.png`, fullPage: true });

  // The form is prefilled (the number is kept as typed in this session); the photos are chosen again.
  await expect(page.getByTestId('kyc-doc-number')).toHaveValue('C01X00T47');
  await attachPhotos(page);
  await page.getByTestId('kyc-submit').click();
  await expect(page.getByTestId('kyc-review')).toBeVisible();

  await review(request, email, 'approve');
  await expect(page.getByTestId('kyc-verified')).toBeVisible();
  await expect(page.getByTestId('kyc-badge')).toHaveText('Verified');
  expect(await page.evaluate(() => (window as unknown as { __kycNoReload?: boolean }).__kycNoReload)).toBe(true);
  await page.screenshot({ path: `${SHOTS}/verified-desktop-dark.png`, fullPage: true });

  // The decision reached the rest of the app: user info says verified.
  const info = await request.get('/api/user/info', { headers: { Authorization: token } });
  expect(((await info.json()) as { data: { kycStatus: string } }).data.kycStatus).toBe('verified');
});

const SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
] as const;

for (const size of SIZES) {
  for (const theme of ['dark', 'light'] as const) {
    test(`screens at ${size.name} ${size.width}px, ${theme}`, async ({ browser, request }) => {
      const email = uniqueEmail('kycshot');
      const token = await apiSignUp(request, email, PASSWORD);
      const ctx = await browser.newContext({ viewport: { width: size.width, height: size.height } });
      const page = await ctx.newPage();
      await presetStorage(page, { token, theme });
      await page.goto('/my/settings/kyc');
      await expect(page.getByTestId('kyc-submit')).toBeVisible();
      await page.getByTestId('kyc-submit').click();
      await expect(page.getByText('Please upload the document cover photo')).toBeVisible();
      await noSidewaysOverflow(page, size.width);
      await page.screenshot({ path: `${SHOTS}/errors-${size.name}-${theme}.png`, fullPage: true });
      await fillForm(page, 'P9876543');
      await page.screenshot({ path: `${SHOTS}/form-${size.name}-${theme}.png`, fullPage: true });
      await page.getByTestId('kyc-submit').click();
      await expect(page.getByTestId('kyc-review')).toBeVisible();
      await noSidewaysOverflow(page, size.width);
      await page.screenshot({ path: `${SHOTS}/review-${size.name}-${theme}.png`, fullPage: true });
      await review(request, email, 'reject', 'Name does not match the document');
      await expect(page.getByTestId('kyc-rejected')).toBeVisible();
      await noSidewaysOverflow(page, size.width);
      await page.screenshot({ path: `${SHOTS}/rejected-${size.name}-${theme}.png`, fullPage: true });
      await ctx.close();
    });
  }
}

test('the form in the five languages (phone, dark)', async ({ browser, request }) => {
  const email = uniqueEmail('kyclang');
  const token = await apiSignUp(request, email, PASSWORD);
  const headings = { en: 'Identity verification', zh: '身份认证', hk: '身份認證', jp: '本人確認', ko: '본인 인증' } as const;
  for (const [lang, heading] of Object.entries(headings)) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await ctx.newPage();
    await presetStorage(page, { token, theme: 'dark', lang });
    await page.goto('/my/settings/kyc');
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await page.getByTestId('kyc-country').selectOption('JP');
    await noSidewaysOverflow(page, 390);
    await page.screenshot({ path: `${SHOTS}/lang-${lang}-mobile-dark.png`, fullPage: true });
    await ctx.close();
  }
});
