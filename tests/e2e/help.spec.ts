import { expect, test } from '@playwright/test';
import type { APIRequestContext, Browser, Page, TestInfo } from '@playwright/test';
import { apiSignUp, presetStorage, uniqueEmail } from './authHelpers.ts';
import { openInApp } from './navigate.ts';

/**
 * Issue 15 in the browser (1440x900 and 390x844): every footer help link opens real content,
 * search, the not-found state, section roots, notification preferences that survive a reload,
 * the settings pages reachable from every menu, the dashboard cards, and screenshots of the
 * help screens in both themes and in zh and jp (test-results/, not committed).
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const DETAIL = [15, 16, 17, 53, 85, 86, 58, 75, 80, 81, 82, 83, 84, 8, 9, 14, 13, 11, 12, 10];
const LIST = [23, 16, 18, 21, 22, 20, 19];

async function expectRealContent(page: Page, href: string): Promise<string> {
  const main = page.locator('main');
  await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('help-not-found'), href).toHaveCount(0);
  await expect(page.getByTestId('not-found'), href).toHaveCount(0);
  await expect(page.getByTestId('not-yet-available'), href).toHaveCount(0);
  if (href.startsWith('/help-detail/')) {
    await expect(page.getByTestId('help-body').locator('p, li').first()).toBeVisible();
    const text = (await page.getByTestId('help-body').innerText()).trim();
    expect(text.length, href).toBeGreaterThan(150);
  } else {
    await expect(page.getByTestId('help-article-link').first(), href).toBeVisible();
  }
  return (await main.getByRole('heading', { level: 1 }).innerText()).trim();
}

async function noSidewaysOverflow(page: Page): Promise<void> {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(over).toBeLessThanOrEqual(1);
}

test.describe('help centre', () => {
  test('every footer help link opens a real list or article (desktop)', async ({ browser }) => {
    test.setTimeout(120_000);
    const ctx = await browser.newContext({ viewport: DESKTOP });
    const page = await ctx.newPage();
    await presetStorage(page, {});
    await page.goto('/');
    const footer = page.getByTestId('footer');
    await expect(footer).toBeVisible();
    const hrefs = await footer.locator('a[href^="/help-"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.sort()).toEqual([...DETAIL.map((i) => `/help-detail/${i}`), ...LIST.map((i) => `/help-list/${i}`)].sort());
    const titles = new Map<string, string>();
    // Two of them by clicking in the footer, the rest opened directly.
    for (const href of ['/help-detail/82', '/help-list/21']) {
      await page.getByTestId('footer').locator(`a[href="${href}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.locator('main h1')).toBeVisible();
    }
    // The rest as the footer's links open them: inside the running app.
    for (const href of hrefs) {
      await openInApp(page, href);
      titles.set(href, await expectRealContent(page, href));
    }
    expect(new Set(titles.values()).size, 'every link opens its own screen').toBe(hrefs.length);
    // The content fits the link: a few spot checks of the English titles.
    expect(titles.get('/help-detail/82')).toBe('Fees');
    expect(titles.get('/help-detail/8')).toBe('Risk disclosure');
    expect(titles.get('/help-detail/17')).toBe('Privacy policy');
    expect(titles.get('/help-list/21')).toBe('Deposits and withdrawals');
    await ctx.close();
  });

  test('every footer help link opens real content on a phone, without sideways scrolling', async ({ browser }) => {
    test.setTimeout(120_000);
    const ctx = await browser.newContext({ viewport: PHONE });
    const page = await ctx.newPage();
    await presetStorage(page, {});
    await page.goto('/help-center');
    for (const href of [...DETAIL.map((i) => `/help-detail/${i}`), ...LIST.map((i) => `/help-list/${i}`)]) {
      await openInApp(page, href);
      await expectRealContent(page, href);
      await noSidewaysOverflow(page);
    }
    await ctx.close();
  });

  test('a list opens its articles, an article links back to its topic and to related articles', async ({ page }) => {
    await presetStorage(page, {});
    await page.goto('/help-list/21');
    await page.getByRole('link', { name: 'How to deposit' }).click();
    await expect(page).toHaveURL(/\/help-detail\/104$/);
    await expect(page.getByRole('heading', { level: 1, name: 'How to deposit' })).toBeVisible();
    await page.getByRole('complementary').getByRole('link', { name: 'How to withdraw' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'How to withdraw' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Deposits and withdrawals' }).click();
    await expect(page).toHaveURL(/\/help-list\/21$/);
    await page.goto('/help-list');
    await expect(page.getByRole('heading', { level: 1, name: 'All topics' })).toBeVisible();
    await expect(page.getByTestId('help-topic').nth(LIST.length - 1)).toBeVisible();
  });

  test('search finds articles in the user language and shows when nothing matches', async ({ page }) => {
    await presetStorage(page, {});
    await page.goto('/help-center');
    await page.getByRole('searchbox', { name: 'Search the help centre' }).fill('withdraw');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/help-center\?q=withdraw$/);
    const results = page.getByTestId('help-results');
    await expect(results.getByRole('link', { name: 'How to withdraw' })).toBeVisible();
    await results.getByRole('link', { name: 'How to withdraw' }).click();
    await expect(page).toHaveURL(/\/help-detail\/105$/);

    await page.goto('/help-center?q=zzqqxx');
    await expect(page.getByTestId('help-no-results')).toBeVisible();

    // In Japanese the server searches the Japanese articles.
    await presetStorage(page, { lang: 'jp' });
    await page.goto('/help-center?q=' + encodeURIComponent('出金'));
    await expect(page.getByTestId('help-results').getByRole('link', { name: '出金方法' })).toBeVisible();
  });

  test('an unknown id shows a clear not-found state (desktop and phone)', async ({ browser }) => {
    for (const viewport of [DESKTOP, PHONE]) {
      const ctx = await browser.newContext({ viewport });
      const page = await ctx.newPage();
      await presetStorage(page, {});
      for (const [path, title] of [['/help-detail/999999', 'Article not found'], ['/help-detail/abc', 'Article not found'], ['/help-list/4242', 'Topic not found']] as const) {
        await page.goto(path);
        await expect(page.getByTestId('help-not-found')).toBeVisible();
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
        await expect(page.getByRole('link', { name: 'Back to the help centre' })).toBeVisible();
      }
      await ctx.close();
    }
  });

  // One test per size in parallel mode, so the two workers can share the matrix (it was one 60 s test).
  test.describe('screenshots', () => {
    test.describe.configure({ mode: 'parallel' });
    for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      test(`screenshots of the help screens in both themes, in zh and jp (${device})`, async ({ browser }, info: TestInfo) => {
        test.setTimeout(300_000);
        const shots: [string, string][] = [['center', '/help-center'], ['list', '/help-list/16'], ['detail', '/help-detail/75'], ['search', '/help-center?q=USDT']];
        for (const lang of ['zh', 'jp', 'en'] as const) {
          for (const theme of ['dark', 'light'] as const) {
            if ((lang === 'en' && (device === 'phone' || theme === 'dark')) || (device === 'phone' && lang === 'zh' && theme === 'light')) continue;
            const ctx = await browser.newContext({ viewport });
            const page = await ctx.newPage();
            await presetStorage(page, { lang, theme });
            // A full load per screen: the search page has the centre's title, and a loading article
            // shows it too, so openInApp's "the title changed" wait does not apply here.
            for (const [name, path] of shots) {
              await page.goto(path);
              await expect(page.locator('main h1')).toBeVisible();
              await page.waitForLoadState('networkidle').catch(() => undefined);
              if (lang !== 'en') expect(await page.locator('main h1').innerText()).toMatch(/[\u3040-\u30ff\u3400-\u9fff]/);
              await page.screenshot({ path: info.outputPath(`help-${name}-${lang}-${theme}-${device}.png`), fullPage: true });
            }
            await ctx.close();
          }
        }
      });
    }
  });
});

async function signedIn(browser: Browser, request: APIRequestContext, viewport: { width: number; height: number }, tag: string) {
  const token = await apiSignUp(request, uniqueEmail(tag), 'Passw0rd!');
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  await presetStorage(page, { token });
  return { ctx, page, token };
}

test.describe('settings, section roots and dashboard', () => {
  test('section roots a user may type redirect to their first page', async ({ browser, request }) => {
    const { ctx, page } = await signedIn(browser, request, DESKTOP, 'roots');
    const roots: [string, RegExp][] = [
      ['/my', /\/my\/dashboard$/],
      ['/my/assets', /\/my\/assets\/overview$/],
      ['/my/order', /\/my\/order\/futures$/],
      ['/my/settings', /\/my\/settings\/preference$/],
      ['/my/wallet', /\/my\/wallet\/deposit$/],
      ['/trade', /\/convert$/],
      ['/more', /\/my\/rebate$/],
    ];
    for (const [from, to] of roots) {
      await page.goto(from);
      await expect(page, from).toHaveURL(to);
      await expect(page.getByTestId('not-found')).toHaveCount(0);
    }
    await ctx.close();
  });

  test('notification language and switches are stored on the server and survive a reload', async ({ browser, request }) => {
    const { ctx, page, token } = await signedIn(browser, request, DESKTOP, 'notify');
    await page.goto('/my/settings/preference');
    const prefs = page.getByTestId('notify-prefs');
    const trade = prefs.getByRole('switch', { name: 'Trade notifications' });
    await expect(trade).toBeChecked();
    await trade.click();
    await expect(page.getByText('Notification preferences saved').first()).toBeVisible();
    await expect(trade).not.toBeChecked();
    await prefs.getByLabel('Notification language').selectOption('ko');
    await expect(prefs.getByLabel('Notification language')).toHaveValue('ko');
    await expect(prefs.getByLabel('Notification language')).toBeEnabled();
    await page.reload();
    await expect(page.getByTestId('notify-prefs').getByRole('switch', { name: 'Trade notifications' })).not.toBeChecked();
    await expect(page.getByTestId('notify-prefs').getByRole('switch', { name: 'System notifications' })).toBeChecked();
    await expect(page.getByTestId('notify-prefs').getByLabel('Notification language')).toHaveValue('ko');
    const api = (await (await request.get('/api/notify/prefs', { headers: { Authorization: token } })).json()) as { data: Record<string, unknown> };
    expect(api.data).toMatchObject({ lang: 'ko', sysNotify: true, tradeNotify: false, eventNotify: true });
    await ctx.close();
  });

  test('every settings page is in the side navigation, the tab row and the phone drawer', async ({ browser, request }) => {
    const pages = ['/my/settings/preference', '/my/settings/security', '/my/settings/password', '/my/settings/login-history', '/my/settings/kyc'];
    const desk = await signedIn(browser, request, DESKTOP, 'navs');
    await desk.page.goto('/my/settings/kyc');
    const side = desk.page.locator('.acct-nav');
    const tabs = desk.page.getByRole('navigation', { name: 'Settings' }).first();
    for (const p of pages) {
      await expect(side.locator(`a[href="${p}"]`), `side ${p}`).toHaveCount(1);
      await expect(desk.page.locator(`.settings-nav a[href="${p}"]`), `tabs ${p}`).toHaveCount(1);
    }
    await expect(tabs).toBeVisible();
    await desk.page.locator('.settings-nav a[href="/my/settings/login-history"]').click();
    await expect(desk.page).toHaveURL(/login-history$/);
    await desk.ctx.close();

    const phone = await browser.newContext({ viewport: PHONE });
    const p = await phone.newPage();
    await presetStorage(p, { token: desk.token });
    await p.goto('/my/settings/preference');
    await p.getByRole('button', { name: 'Menu' }).click();
    const drawer = p.getByTestId('mobile-drawer');
    await expect(drawer).toBeVisible();
    const expanders = drawer.locator('button[aria-expanded="false"]');
    for (let i = (await expanders.count()) - 1; i >= 0; i--) await expanders.nth(i).click();
    for (const path of pages) await expect(drawer.locator(`a[href="${path}"]`), `drawer ${path}`).toHaveCount(1);
    await drawer.locator('a[href="/my/settings/password"]').click();
    await expect(p).toHaveURL(/\/my\/settings\/password$/);
    await phone.close();
  });

  test('the dashboard cards show the server figures and link to their pages (desktop and phone)', async ({ browser, request }) => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { ctx, page, token } = await signedIn(browser, request, viewport, 'dash');
      // Reading the coupon list grants the welcome vouchers (server/vouchers).
      await request.get('/api/vouchers', { headers: { Authorization: token } });
      const summary = ((await (await request.get('/api/dashboard/summary', { headers: { Authorization: token } })).json()) as { data: { usableVouchers: number; todayRealizedPnl: string } }).data;
      await page.goto('/my/dashboard');
      await expect(page.getByTestId('dash-card-vouchers-value')).toHaveText(String(summary.usableVouchers));
      await expect(page.getByTestId('dash-card-pnl-value')).toHaveText('0.00 USDT');
      await expect(page.getByTestId('dash-card-kyc-value')).toHaveText('Unverified');
      await expect(page.getByTestId('dash-wallets').locator('li')).toHaveCount(5);
      await expect(page.getByTestId('dash-wallet-fund')).not.toHaveText('—');
      await noSidewaysOverflow(page);
      await page.getByTestId('dash-card-vouchers').getByRole('link').click();
      await expect(page).toHaveURL(/\/my\/coupon$/);
      await page.goBack();
      await page.getByTestId('dash-card-kyc').getByRole('link').click();
      await expect(page).toHaveURL(/\/my\/settings\/kyc$/);
      await ctx.close();
    }
  });
});
