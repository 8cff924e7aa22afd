import { expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { apiSignUp, presetStorage, uniqueEmail } from './authHelpers.ts';
import { axeSerious } from './axe.ts';

/**
 * The desktop trade screen's resizable layout (issue 14), against the real server and the built
 * app: the order book widened with the keyboard on its separator, the order form widened by
 * dragging, both kept across a reload for that user and not shown to another user; the
 * separators have names and pass axe; a phone has the stacked layout and no separators.
 */

const width = async (l: Locator) => (await l.boundingBox())?.width ?? 0;

async function openAs(page: Page, token: string): Promise<void> {
  await presetStorage(page, { token, theme: 'dark' });
  await page.goto('/mFutures/BTCUSDT');
  await expect(page.getByTestId('last-price')).not.toHaveText('--');
  // The owner turns from 'guest' into the user's id once the user's info has arrived.
  await expect(page.locator('.rf-trade--desktop')).toHaveAttribute('data-layout-owner', /^\d+$/);
}

test.describe('trade layout desktop', () => {
  test.use({ viewport: { width: 1440, height: 900 }, bypassCSP: true });

  test('resized by keyboard and by dragging, remembered per user', async ({ page }) => {
    const tokenA = await apiSignUp(page.request, uniqueEmail('layout-a'), 'secret123');
    await openAs(page, tokenA);
    const book = page.getByTestId('tl-book');
    const order = page.getByTestId('tl-order');
    const bookBefore = await width(book);
    const orderBefore = await width(order);
    expect(bookBefore).toBeGreaterThan(250);

    // Keyboard: the separator between chart and book, arrow left widens the book.
    const bookSep = page.getByRole('separator', { name: 'Resize the chart and the order book' });
    await bookSep.focus();
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowLeft');
    await expect.poll(() => width(book)).toBeGreaterThan(bookBefore + 20);
    const bookAfter = await width(book);

    // Pointer: drag the order form's separator 80 px to the left (a wider form).
    const orderSep = page.getByRole('separator', { name: 'Resize the order form' });
    const box = (await orderSep.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 40, box.y + 200, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 - 80, box.y + 200, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => width(order)).toBeGreaterThan(orderBefore + 50);
    const orderAfter = await width(order);

    await page.screenshot({ path: 'screenshots/trade-layout-1440-resized.png' });
    expect(await axeSerious(page)).toEqual([]);

    // Kept across a reload for this user.
    await page.reload();
    await expect(page.locator('.rf-trade--desktop')).toHaveAttribute('data-layout-owner', /^\d+$/);
    await expect.poll(() => width(book)).toBeGreaterThan(bookAfter - 3);
    expect(Math.abs((await width(book)) - bookAfter)).toBeLessThan(3);
    expect(Math.abs((await width(order)) - orderAfter)).toBeLessThan(3);

    // Another user in the same browser (same storage) sees the default layout.
    const tokenB = await apiSignUp(page.request, uniqueEmail('layout-b'), 'secret123');
    const other = await page.context().newPage();
    await openAs(other, tokenB);
    expect(Math.abs((await width(other.getByTestId('tl-book'))) - bookBefore)).toBeLessThan(3);
    expect(Math.abs((await width(other.getByTestId('tl-order'))) - orderBefore)).toBeLessThan(3);
    await other.close();
  });
});

test.describe('trade layout phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a phone stacks the panels and has no separators', async ({ page }) => {
    await presetStorage(page, { theme: 'dark' });
    await page.goto('/mFutures/BTCUSDT');
    await expect(page.getByTestId('last-price')).not.toHaveText('--');
    await expect(page.locator('.rf-trade--mobile')).toBeVisible();
    await expect(page.getByRole('separator')).toHaveCount(0);
  });
});
