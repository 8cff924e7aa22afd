import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { apiSignUp, presetStorage, themeShots, uniqueEmail } from './authHelpers.ts';
import { axeSerious } from './axe.ts';
import { operatorHeaders } from './operator.ts';

/**
 * The notification centre end to end (issue 26, Major 8), at 1440x900 and 390x844, against the real
 * server: a new account's bell has no count; a deposit credited by the chain job (dev deposit +
 * fast-forward) arrives live over the user socket as a notice and raises the count; the bell opens
 * an accessible dialog (focus inside, no serious axe violation, both themes photographed) listing
 * it; Mark as read clears the count on the server too; Escape gives the focus back to the bell.
 */

async function post(request: APIRequestContext, path: string, data: unknown, token?: string): Promise<{ code: number; data: unknown }> {
  const headers = { ...(token ? { Authorization: token } : {}), ...(path.startsWith('/dev/') ? operatorHeaders() : {}) };
  return (await (await request.post(`/api${path}`, { data, headers })).json()) as { code: number; data: unknown };
}

for (const vp of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`a credited deposit rings the bell, is listed and marked read (${vp.width}x${vp.height})`, async ({ browser, request }) => {
    const email = uniqueEmail('notify');
    const token = await apiSignUp(request, email, 'Passw0rd!');
    const ctx = await browser.newContext({ viewport: vp, bypassCSP: true });
    const page = await ctx.newPage();
    await presetStorage(page, { token, theme: 'dark', lang: 'en' });
    await page.goto('/my/dashboard');
    const bell = page.getByTestId('notify-bell');
    await expect(bell).toBeVisible();
    await expect(bell).toHaveAccessibleName('Notifications');
    await expect(page.getByTestId('notify-count')).toHaveCount(0);

    expect((await post(request, '/dev/money/deposit', { email, coin: 'USDT', network: 'TRC20', amount: '25' })).code).toBe(200);
    expect((await post(request, '/dev/money/fast-forward', { email, hours: 1 })).code).toBe(200);
    // pushed live: no reload
    await expect(page.getByTestId('notify-count')).toHaveText('1', { timeout: 20_000 });
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread');

    await bell.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel).toBeVisible();
    await expect(panel).toBeFocused();
    const box = await panel.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= vp.width).toBe(true);
    const item = panel.getByRole('listitem').first();
    await expect(item.getByRole('heading')).toHaveText('Deposit credited');
    await expect(item).toContainText('25.000000 USDT (TRC20) were credited to your fund account.');
    expect(await axeSerious(page)).toEqual([]);
    await themeShots(page, `notifications-${vp.width}`);

    await item.getByRole('button', { name: 'Mark as read' }).click();
    await expect(page.getByTestId('notify-count')).toHaveCount(0);
    await expect(item.getByRole('button', { name: 'Mark as read' })).toHaveCount(0);
    const unread = (await (await request.get('/api/notify/unread', { headers: { Authorization: token } })).json()) as { data: { unread: number } };
    expect(unread.data.unread).toBe(0);

    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(bell).toBeFocused();
    await ctx.close();
  });
}
