import { z } from 'zod';

/**
 * The help centre (SPEC §2: /help-center, /help-list/{id?}, /help-detail/{id}; docs/HELP.md).
 * Categories (help-list ids) and articles (help-detail ids) are stored per language in the
 * server's database; an article's body is a list of structured {@link HelpBlock}s that the app
 * renders as React elements, never HTML. The language is the request's `Web-Lang` header
 * (or `lang` in the query), falling back to English.
 *
 * Notification preferences (SPEC §3 "Notification modules": sysNotify, tradeNotify,
 * eventNotify) and the language notifications are sent in live beside it, in the notify feature.
 */

export const HELP_LANGS = ['en', 'zh', 'hk', 'jp', 'ko'] as const;
export const helpLangSchema = z.enum(HELP_LANGS);
export type HelpLang = z.infer<typeof helpLangSchema>;

/** A link target inside the site only: an absolute path of safe characters (no scheme, no `//`). */
export const internalPathSchema = z.string().regex(/^\/(?!\/)[A-Za-z0-9\-/_?=&]*$/, 'Only site paths are allowed');

/**
 * One block of an article body. Text is plain text (rendered as React text nodes, so markup in it
 * is shown literally); `link` points inside the site only.
 */
export const helpBlockSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('h'), text: z.string().min(1) }),
  z.object({ t: z.literal('p'), text: z.string().min(1) }),
  z.object({ t: z.literal('ul'), items: z.array(z.string().min(1)).min(1) }),
  z.object({ t: z.literal('ol'), items: z.array(z.string().min(1)).min(1) }),
  z.object({ t: z.literal('note'), text: z.string().min(1) }),
  z.object({ t: z.literal('link'), text: z.string().min(1), to: internalPathSchema }),
]);
export type HelpBlock = z.infer<typeof helpBlockSchema>;
export const helpBlocksSchema = z.array(helpBlockSchema).min(1);

export interface HelpArticleSummary {
  id: number;
  categoryId: number;
  title: string;
  summary: string;
  updatedAt: number;
}

export interface HelpCategory {
  id: number;
  title: string;
  summary: string;
  /** How many articles it holds. */
  count: number;
}

/** GET /api/help/categories/:id (a help-list page). */
export interface HelpCategoryDetail extends HelpCategory {
  articles: HelpArticleSummary[];
}

/** GET /api/help/articles/:id (a help-detail page). */
export interface HelpArticle extends HelpArticleSummary {
  lang: HelpLang;
  categoryTitle: string;
  blocks: HelpBlock[];
  /** Other articles of the same category (id, title), for "related". */
  related: { id: number; title: string }[];
}

/** One search hit: the article and a short excerpt around the first match. */
export interface HelpSearchHit {
  id: number;
  categoryId: number;
  title: string;
  excerpt: string;
}

export const HELP_SEARCH_MAX = 64;

export const helpLangQuery = z.object({ lang: helpLangSchema.optional() });
export const helpIdParams = z.object({ id: z.coerce.number().int().min(1).max(1_000_000) });
export const helpSearchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'Please enter a search term')
    .max(HELP_SEARCH_MAX, `The search term must be at most ${HELP_SEARCH_MAX} characters`),
  lang: helpLangSchema.optional(),
});
export type HelpSearchQuery = z.input<typeof helpSearchQuery>;

export const HELP_MSG = {
  articleNotFound: 'Article not found',
  categoryNotFound: 'Category not found',
  searchRequired: 'Please enter a search term',
} as const;

/** REST paths as the app's api client calls them (it adds /api). */
export const HELP_PATHS = {
  categories: '/help/categories',
  category: (id: number | string) => `/help/categories/${id}`,
  article: (id: number | string) => `/help/articles/${id}`,
  search: '/help/search',
} as const;

/** The footer's ids (SPEC §2): each must open real content. */
export const FOOTER_HELP_DETAIL_IDS = [15, 16, 17, 53, 85, 86, 58, 75, 80, 81, 82, 83, 84, 8, 9, 14, 13, 11, 12, 10] as const;
export const FOOTER_HELP_LIST_IDS = [23, 16, 18, 21, 22, 20, 19] as const;

// ---------------------------------------------------------------- notification preferences

export const NOTIFY_MODULES = ['sysNotify', 'tradeNotify', 'eventNotify'] as const;
export type NotifyModule = (typeof NOTIFY_MODULES)[number];

/** GET /api/notify/prefs: what and in which language the user is notified. */
export interface NotifyPrefs {
  lang: HelpLang;
  sysNotify: boolean;
  tradeNotify: boolean;
  eventNotify: boolean;
  /** When they were last saved; null = never (defaults). */
  updatedAt: number | null;
}

export const NOTIFY_MSG = {
  badLang: 'Unsupported notification language',
  badSwitch: 'Notification switches must be true or false',
  nothingToSave: 'Nothing to save',
  saved: 'Notification preferences saved',
} as const;

const switchSchema = z.boolean({ error: NOTIFY_MSG.badSwitch });

/** POST /api/notify/prefs: any subset of the fields. */
export const notifyPrefsBody = z
  .object({
    lang: z.enum(HELP_LANGS, { error: NOTIFY_MSG.badLang }).optional(),
    sysNotify: switchSchema.optional(),
    tradeNotify: switchSchema.optional(),
    eventNotify: switchSchema.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: NOTIFY_MSG.nothingToSave });
export type NotifyPrefsBody = z.input<typeof notifyPrefsBody>;

export const NOTIFY_PATHS = { prefs: '/notify/prefs' } as const;

// ---------------------------------------------------------------- dashboard

/** GET /api/dashboard/summary: today's figures on the server clock (UTC day). */
export interface DashboardSummary {
  /** Start of the current UTC day (ms). */
  dayStart: number;
  /** Realized PnL minus fees of today's fills, USDT decimal string. */
  todayRealizedPnl: string;
  /** Fees paid today, USDT decimal string. */
  todayFees: string;
  /** Fills today. */
  todayTrades: number;
  /** Usable vouchers (status `use`, not expired). */
  usableVouchers: number;
  /**
   * The demo credit this account received at sign-up, USDT decimal string (sum of its "Demo
   * credit" ledger postings, src/protocol/demoCredit.ts), or null when it got none (issue 26,
   * Major 7: the dashboard explains it). Absent from older answers.
   */
  demoCredit?: string | null;
}

export const DASHBOARD_PATHS = { summary: '/dashboard/summary' } as const;
