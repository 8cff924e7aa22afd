import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOOTER_HELP_DETAIL_IDS, FOOTER_HELP_LIST_IDS, HELP_LANGS, HELP_MSG, NOTIFY_MSG, helpBlocksSchema } from '../../src/protocol/help.ts';
import type { DashboardSummary, HelpArticle, HelpCategory, HelpCategoryDetail, HelpSearchHit, NotifyPrefs } from '../../src/protocol/help.ts';
import { dashboardPlugin } from '../../server/dashboard/routes.ts';
import { HELP_CONTENT } from '../../server/help/content/index.ts';
import { helpPlugin } from '../../server/help/routes.ts';
import { syncHelpContent } from '../../server/help/service.ts';
import { notifyPlugin } from '../../server/notify/routes.ts';
import { call, login, register, startServer, T0 } from './harness.ts';
import type { Harness } from './harness.ts';

/** The help centre, notification preferences and the dashboard summary over real HTTP. */

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startServer({
    plugins: [
      async (app) => {
        const deps = { db: app.deps.db, clock: app.deps.clock };
        await app.register(helpPlugin(deps));
        await app.register(notifyPlugin(deps));
        await app.register(dashboardPlugin(deps));
      },
    ],
  });
  await register(h, 'reader@example.com');
  token = await login(h, 'reader@example.com');
});
afterAll(async () => h.close());

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

describe('help content', () => {
  it('every footer help-detail id is a real article in every language, with text in that language', async () => {
    const titles = new Map<number, Set<string>>();
    for (const lang of HELP_LANGS) {
      for (const id of FOOTER_HELP_DETAIL_IDS) {
        const r = await call<HelpArticle>(h, `/help/articles/${id}`, { headers: { 'Web-Lang': lang } });
        expect(r.code, `${lang} ${id}`).toBe(200);
        expect(r.data.id).toBe(id);
        expect(r.data.lang).toBe(lang);
        expect(helpBlocksSchema.safeParse(r.data.blocks).success).toBe(true);
        expect(r.data.blocks.length).toBeGreaterThanOrEqual(2);
        const text = r.data.blocks.map((b) => ('items' in b ? b.items.join(' ') : b.text)).join(' ');
        expect(text.length, `${lang} ${id} has a few sentences`).toBeGreaterThan(lang === 'en' ? 200 : 70);
        if (lang === 'en') expect(CJK.test(r.data.title + text)).toBe(false);
        else expect(CJK.test(r.data.title + r.data.summary + text), `${lang} ${id} is translated`).toBe(true);
        const seen = titles.get(id) ?? new Set<string>();
        seen.add(text);
        titles.set(id, seen);
      }
    }
    // Five languages, five different texts.
    for (const [id, seen] of titles) expect(seen.size, `texts of ${id}`).toBe(5);
  });

  it('article titles fit the footer link names (English)', async () => {
    const expected: Record<number, RegExp> = {
      15: /about/i, 16: /terms/i, 17: /privacy/i, 53: /contact/i, 85: /copy/i, 86: /referral/i, 58: /risk fund/i, 75: /compensation/i,
      80: /loss-protection/i, 81: /speed/i, 82: /fees/i, 83: /api/i, 84: /listing/i, 8: /risk disclosure/i, 9: /money laundering/i,
      14: /law enforcement/i, 13: /cookie/i, 11: /user agreement/i, 12: /futures/i, 10: /disclaimer/i,
    };
    for (const id of FOOTER_HELP_DETAIL_IDS) {
      const r = await call<HelpArticle>(h, `/help/articles/${id}?lang=en`);
      expect(r.data.title, String(id)).toMatch(expected[id]!);
    }
  });

  it('every footer help-list id is a category with articles in every language', async () => {
    for (const lang of HELP_LANGS) {
      for (const id of FOOTER_HELP_LIST_IDS) {
        const r = await call<HelpCategoryDetail>(h, `/help/categories/${id}`, { headers: { 'Web-Lang': lang } });
        expect(r.code, `${lang} list ${id}`).toBe(200);
        expect(r.data.articles.length).toBeGreaterThan(0);
        expect(r.data.count).toBe(r.data.articles.length);
        for (const a of r.data.articles) expect(a.categoryId).toBe(id);
      }
      const all = await call<HelpCategory[]>(h, '/help/categories', { headers: { 'Web-Lang': lang } });
      expect(all.data.map((c) => c.id)).toEqual(expect.arrayContaining([...FOOTER_HELP_LIST_IDS]));
    }
    const deposit = await call<HelpCategoryDetail>(h, '/help/categories/21?lang=en');
    expect(deposit.data.articles.map((a) => a.title)).toContain('How to deposit');
  });

  it('?lang wins over Web-Lang; an unknown language falls back to English', async () => {
    const jp = await call<HelpArticle>(h, '/help/articles/82?lang=jp', { headers: { 'Web-Lang': 'ko' } });
    expect(jp.data.lang).toBe('jp');
    expect(jp.data.title).toBe(HELP_CONTENT.jp.articles[82].title);
    const fallback = await call<HelpArticle>(h, '/help/articles/82', { headers: { 'Web-Lang': 'xx' } });
    expect(fallback.data.lang).toBe('en');
    const bad = await call(h, '/help/articles/82?lang=xx');
    expect(bad.code).toBe(400);
  });

  it('an article lists the other articles of its category', async () => {
    const r = await call<HelpArticle>(h, '/help/articles/104?lang=en');
    expect(r.data.categoryId).toBe(21);
    expect(r.data.related.map((x) => x.id)).toEqual([105, 106]);
  });

  it('unknown ids answer 404 with a clear message', async () => {
    const a = await call(h, '/help/articles/999999');
    expect(a.code).toBe(404);
    expect(a.msg).toBe(HELP_MSG.articleNotFound);
    const c = await call(h, '/help/categories/4242');
    expect(c.code).toBe(404);
    expect(c.msg).toBe(HELP_MSG.categoryNotFound);
    const nan = await call(h, '/help/articles/abc');
    expect(nan.code).toBe(400);
  });

  it('syncing the same content again writes nothing; the tables hold one row per id and language', async () => {
    expect(await syncHelpContent(h.db, T0)).toBe(false);
    const rows = await h.db.selectFrom('help_articles').select(['id', 'lang']).execute();
    const ids = new Set(rows.map((r) => r.id));
    expect(rows.length).toBe(ids.size * HELP_LANGS.length);
  });
});

describe('help search', () => {
  const search = (q: string, lang: string) => call<{ list: HelpSearchHit[]; total: number }>(h, `/help/search?q=${encodeURIComponent(q)}`, { headers: { 'Web-Lang': lang } });

  it('finds articles in the user language, title hits first, with an excerpt', async () => {
    const en = await search('withdraw', 'en');
    expect(en.code).toBe(200);
    expect(en.data.total).toBeGreaterThan(1);
    expect(en.data.list[0]!.title.toLowerCase()).toContain('withdraw');
    expect(en.data.list.map((x) => x.id)).toContain(105);
    const zh = await search('提现', 'zh');
    expect(zh.data.list.map((x) => x.id)).toContain(105);
    expect(zh.data.list[0]!.excerpt.length).toBeGreaterThan(0);
    const jp = await search('出金', 'jp');
    expect(jp.data.list.map((x) => x.id)).toContain(105);
    const ko = await search('출금', 'ko');
    expect(ko.data.list.map((x) => x.id)).toContain(105);
    const hk = await search('提現', 'hk');
    expect(hk.data.list.map((x) => x.id)).toContain(105);
    // The Chinese word is not in the English articles.
    expect((await search('提现', 'en')).data.total).toBe(0);
  });

  it('is case-insensitive and treats % and _ literally', async () => {
    expect((await search('GOOGLE', 'en')).data.list.map((x) => x.id)).toContain(109);
    const withPercent = Object.values(HELP_CONTENT.en.articles).filter((a) => JSON.stringify(a).includes('%')).length;
    expect(withPercent).toBeGreaterThan(0);
    expect((await search('%', 'en')).data.total).toBe(withPercent);
    expect((await search('0.05 %', 'en')).data.list.map((x) => x.id)).toContain(82);
    expect((await search('_', 'en')).data.total).toBe(0);
  });

  it('rejects an empty or too long term', async () => {
    const empty = await search('  ', 'en');
    expect(empty.code).toBe(400);
    expect(empty.msg).toBe(HELP_MSG.searchRequired);
    expect((await search('x'.repeat(65), 'en')).code).toBe(400);
  });
});

describe('notification preferences', () => {
  it('defaults to every module on in the request language, then round-trips a partial save', async () => {
    const first = await call<NotifyPrefs>(h, '/notify/prefs', { token, headers: { 'Web-Lang': 'ko' } });
    expect(first.code).toBe(200);
    expect(first.data).toEqual({ lang: 'ko', sysNotify: true, tradeNotify: true, eventNotify: true, updatedAt: null });

    const saved = await call<NotifyPrefs>(h, '/notify/prefs', { token, body: { lang: 'jp', tradeNotify: false } });
    expect(saved.code).toBe(200);
    expect(saved.msg).toBe(NOTIFY_MSG.saved);
    expect(saved.data).toMatchObject({ lang: 'jp', sysNotify: true, tradeNotify: false, eventNotify: true });

    const again = await call<NotifyPrefs>(h, '/notify/prefs', { token, body: { eventNotify: false } });
    expect(again.data).toMatchObject({ lang: 'jp', sysNotify: true, tradeNotify: false, eventNotify: false });

    const read = await call<NotifyPrefs>(h, '/notify/prefs', { token, headers: { 'Web-Lang': 'en' } });
    expect(read.data).toEqual({ lang: 'jp', sysNotify: true, tradeNotify: false, eventNotify: false, updatedAt: h.clock.now() });
  });

  it('rejects bad input with the protocol messages and changes nothing', async () => {
    const before = await call<NotifyPrefs>(h, '/notify/prefs', { token });
    const lang = await call(h, '/notify/prefs', { token, body: { lang: 'fr' } });
    expect(lang.code).toBe(400);
    expect(lang.msg).toBe(NOTIFY_MSG.badLang);
    const sw = await call(h, '/notify/prefs', { token, body: { sysNotify: 'yes' } });
    expect(sw.code).toBe(400);
    expect(sw.msg).toBe(NOTIFY_MSG.badSwitch);
    const empty = await call(h, '/notify/prefs', { token, body: {} });
    expect(empty.code).toBe(400);
    expect(empty.msg).toBe(NOTIFY_MSG.nothingToSave);
    const extra = await call(h, '/notify/prefs', { token, body: { sysNotify: true, admin: true } });
    expect(extra.code).toBe(400);
    expect((await call<NotifyPrefs>(h, '/notify/prefs', { token })).data).toEqual(before.data);
  });

  it('needs a login, and each user has their own', async () => {
    expect((await call(h, '/notify/prefs')).code).toBe(401);
    expect((await call(h, '/notify/prefs', { body: { sysNotify: false } })).code).toBe(401);
    await register(h, 'other@example.com');
    const other = await login(h, 'other@example.com');
    const r = await call<NotifyPrefs>(h, '/notify/prefs', { token: other, headers: { 'Web-Lang': 'hk' } });
    expect(r.data).toMatchObject({ lang: 'hk', sysNotify: true, tradeNotify: true, eventNotify: true, updatedAt: null });
  });
});

describe('dashboard summary', () => {
  it("sums today's fills (UTC day on the server clock) and counts usable vouchers", async () => {
    const info = await call<{ id: number }>(h, '/user/info', { token });
    const uid = info.data.id;
    const now = h.clock.now();
    const dayStart = Math.floor(now / 86_400_000) * 86_400_000;
    const fill = (created_at: number, fee: string, realized_pnl: string) => ({
      user_id: uid, order_id: `o${created_at}`, position_id: 'p1', symbol: 'BTCUSDT', contract: 'perp' as const, kind: 'marketOpen', side: 'buy' as const,
      price: 60000, qty: 0.1, fee, realized_pnl, created_at, liquidity: 'taker' as const,
    });
    await h.db.insertInto('trade_fills').values([fill(dayStart - 1, '1000000', '50000000'), fill(dayStart + 10, '3000000', '0'), fill(now, '3300000', '12500000')]).execute();
    const voucher = (status: 'use' | 'used', expires_at: number | null) => ({
      user_id: uid, kind: 'speed' as const, value: '50', status, expires_at, source: 'promo', used_ref: null, merged_into: null, created_at: now, used_at: null,
    });
    await h.db.insertInto('vouchers').values([voucher('use', null), voucher('use', now + 1000), voucher('use', now - 1), voucher('used', null)]).execute();
    const r = await call<DashboardSummary>(h, '/dashboard/summary', { token });
    expect(r.code).toBe(200);
    // 2 of the 4 inserted here, plus the 2 welcome vouchers granted at sign-up (issue 26, Minor 11)
    expect(r.data).toEqual({ dayStart, todayRealizedPnl: '6.200000', todayFees: '6.300000', todayTrades: 2, usableVouchers: 4, demoCredit: '20000.000000' });
    expect((await call(h, '/dashboard/summary')).code).toBe(401);
  });

  it('names no demo credit for an account that got none (DEMO_CREDIT=0; issue 26, Major 7)', async () => {
    const off = await startServer({
      config: { demoCredit: false },
      plugins: [async (app) => app.register(dashboardPlugin({ db: app.deps.db, clock: app.deps.clock }))],
    });
    try {
      await register(off, 'nodemo@example.com');
      const t = await login(off, 'nodemo@example.com');
      const r = await call<DashboardSummary>(off, '/dashboard/summary', { token: t });
      expect([r.code, r.data.demoCredit]).toEqual([200, null]);
    } finally {
      await off.close();
    }
  });
});
