import { expect, type Page } from '@playwright/test';

/**
 * Opens `path` in the running app as a link inside it does (the router's client-side navigation:
 * history.pushState, then the popstate the router listens to), without loading the app again, and
 * resolves once the new screen's h1 has replaced the old one's (the screens a caller visits this
 * way have different titles), so nothing is read off the screen before. A spec that visits many
 * screens in one page loads the app once with `page.goto`, then moves with this.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const h1 = page.locator('main h1').first();
  const before = (await h1.count()) > 0 ? await h1.innerText() : null;
  await pushRoute(page, path);
  await expect(page).toHaveURL((url) => url.pathname + url.search === path);
  if (before !== null) await expect(h1, `${path} replaced the previous screen`).not.toHaveText(before);
}

/** The router's client-side navigation to `path` (what a link inside the app does); waits for nothing. */
export async function pushRoute(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}
