import type { APIRequestContext, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { animationsSettled } from './axe.ts';

export { makePng } from '../../scripts/png.ts';

/**
 * Helpers of the auth/settings end-to-end specs: the dev mail outbox, TOTP codes, a real PNG
 * built in memory and an API-only sign-up + login for specs that only need a session.
 */

interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  code: string;
  time: number;
}

/** Newest mail to `email` with an id above `afterId` (polls: the send is asynchronous to the test). */
export async function mailCode(request: APIRequestContext, email: string, afterId = 0): Promise<{ id: number; code: string }> {
  for (let i = 0; i < 50; i++) {
    const res = await request.get(`/api/dev/outbox?email=${encodeURIComponent(email)}`);
    const env = (await res.json()) as { code: number; data: OutboxMail[] };
    const mail = env.data.find((m) => m.id > afterId);
    if (mail) return { id: mail.id, code: mail.code };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${email} after id ${afterId}`);
}

/** Highest outbox id for `email` so far (0 when none). */
export async function lastMailId(request: APIRequestContext, email: string): Promise<number> {
  const res = await request.get(`/api/dev/outbox?email=${encodeURIComponent(email)}`);
  const env = (await res.json()) as { data: OutboxMail[] };
  return env.data[0]?.id ?? 0;
}

/**
 * A TOTP for a base32 secret from a 30 s step after `afterStep` (the server refuses a step at or
 * below one it has already accepted: replay protection). The server accepts the current step and
 * one either side (server/services/totp.ts: the clock skew of a phone), so this picks the OLDEST
 * step still accepted, leaving the later ones for the next login of the same account, and waits
 * only when all three were used (it waited up to 30 s for each login before, issue 25). A past
 * step is taken only with 5 s left before it leaves the window, so the server still accepts it.
 */
export async function totpCode(secret: string, afterStep = -1): Promise<{ code: string; step: number }> {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  for (;;) {
    const now = Date.now();
    const current = Math.floor(now / 30_000);
    const left = 30_000 - (now % 30_000);
    const step = Math.max(afterStep + 1, left > 5_000 ? current - 1 : current);
    if (step <= current + 1) return { code: totp.generate({ timestamp: step * 30_000 }), step };
    await new Promise((r) => setTimeout(r, (step - 1) * 30_000 - now + 200)); // until that step is in the window
  }
}


/** A fresh unique address for one test run. */
export function uniqueEmail(tag: string): string {
  return `${tag}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}@example.com`;
}

async function post(request: APIRequestContext, path: string, body: unknown, form = false): Promise<{ code: number; msg: string; data: unknown }> {
  const res = form
    ? await request.post(`/api${path}`, { form: body as Record<string, string> })
    : await request.post(`/api${path}`, { data: body });
  return (await res.json()) as { code: number; msg: string; data: unknown };
}

/** Signs up through the API only; returns the outbox id of the register mail. */
export async function apiRegister(request: APIRequestContext, email: string, password: string): Promise<number> {
  const before = await lastMailId(request, email);
  await post(request, '/user/sendMailCode', { email, type: 'register' });
  const reg = await mailCode(request, email, before);
  const r = await post(request, '/user/register', { email, code: reg.code, password, confirmPassword: password, agree: true });
  if (r.code !== 200) throw new Error(`register: ${r.msg}`);
  return reg.id;
}

/** Signs up and logs in (email code) through the API only; returns the session token. */
export async function apiSignUp(request: APIRequestContext, email: string, password: string): Promise<string> {
  const regId = await apiRegister(request, email, password);
  await post(request, '/user/sendMailCode', { email, type: 'login' });
  const login = await mailCode(request, email, regId);
  const l = await post(request, '/user/login', { email, password, code: login.code }, true);
  if (l.code !== 200) throw new Error(`login: ${l.msg}`);
  return (l.data as { token: string }).token;
}

/** Sets English (and optionally theme and token) in localStorage before the app starts. */
export async function presetStorage(page: Page, values: Record<string, string>): Promise<void> {
  await page.addInitScript((v) => {
    for (const [k, val] of Object.entries(v)) window.localStorage.setItem(k, val);
  }, { lang: 'en', ...values });
}

/** The seeded demo account (server/services/accounts.ts). */
export const DEMO_ACCOUNT = { email: 'demo@example.com', password: 'demo1234' } as const;

let demoSession: Promise<string> | null = null;

/**
 * A session token for the demo account, logged in once per Playwright worker (workers: 1) and
 * shared by the specs that use the demo: a second mail-code login within the server's resend
 * interval would be refused ('Please wait before requesting another code'). Specs must not log
 * this session out.
 */
export function demoToken(request: APIRequestContext): Promise<string> {
  demoSession ??= (async () => {
    const before = await lastMailId(request, DEMO_ACCOUNT.email);
    await request.post('/api/user/sendMailCode', { data: { email: DEMO_ACCOUNT.email, type: 'login' } });
    const { code } = await mailCode(request, DEMO_ACCOUNT.email, before);
    const res = await request.post('/api/user/login', { form: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password, code } });
    const env = (await res.json()) as { code: number; msg: string; data: { token: string } };
    if (env.code !== 200) throw new Error(`demo login: ${env.msg}`);
    return env.data.token;
  })();
  return demoSession.catch((e: unknown) => {
    demoSession = null;
    throw e;
  });
}

/**
 * Full-page screenshots of the current page in both themes (`<dir>/<name>-dark.png`, `-light.png`;
 * `dir` defaults to `screenshots`), switching the root theme class in place and waiting out the
 * colour transitions; `check` runs in each theme before its photo (an axe sweep, say); leaves the
 * page dark.
 */
export async function themeShots(
  page: Page,
  name: string,
  opts: { dir?: string; settleMs?: number; check?: (theme: 'dark' | 'light') => Promise<void> } = {},
): Promise<void> {
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('theme-dark', 'theme-light');
      document.documentElement.classList.add(`theme-${t}`);
    }, theme);
    await animationsSettled(page); // let colour transitions finish
    if (opts.settleMs) await page.waitForTimeout(opts.settleMs);
    await opts.check?.(theme);
    await page.screenshot({ path: `${opts.dir ?? 'screenshots'}/${name}-${theme}.png`, fullPage: true });
  }
  await page.evaluate(() => {
    document.documentElement.classList.remove('theme-light');
    document.documentElement.classList.add('theme-dark');
  });
}

/** `desktop` or `<small>` (a phone) by the page's viewport width, for screenshot names. */
export function sizeTag(page: Page, small: string): string {
  const vp = page.viewportSize();
  return vp && vp.width < 600 ? small : 'desktop';
}
