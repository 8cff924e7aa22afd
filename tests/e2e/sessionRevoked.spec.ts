import { expect, test } from '@playwright/test';
import { apiSignUp, lastMailId, mailCode, presetStorage, uniqueEmail } from './authHelpers.ts';

/**
 * Issue 10 in the real app: when the server revokes the session the page is using (here a password
 * reset done elsewhere), it closes the page's user socket with 4001 and the app runs the SPEC §8 401
 * flow by itself: token cleared, /login?redirect=<the page it was on>.
 */
test('a password reset elsewhere sends the open page to /login?redirect=<path>', async ({ page, request }) => {
  const email = uniqueEmail('revoked');
  const token = await apiSignUp(request, email, 'secret12');
  await presetStorage(page, { token });

  const authed = new Promise<void>((resolve) => {
    page.on('websocket', (ws) => {
      if (new URL(ws.url()).pathname !== '/api/ws/user') return;
      ws.on('framereceived', (f) => {
        if (typeof f.payload === 'string' && f.payload.includes('"type":"authed"')) resolve();
      });
    });
  });
  await page.goto('/my/dashboard');
  await authed;
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(token);

  const before = await lastMailId(request, email);
  await request.post('/api/user/sendMailCode', { data: { email, type: 'reset' } });
  const { code } = await mailCode(request, email, before);
  const reset = await request.post('/api/user/resetPassword', { data: { email, code, password: 'newpass12', confirmPassword: 'newpass12' } });
  expect(((await reset.json()) as { code: number }).code).toBe(200);

  await expect(page).toHaveURL(/\/login\?redirect=%2Fmy%2Fdashboard$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});
