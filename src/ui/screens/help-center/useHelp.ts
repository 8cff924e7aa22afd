import { HELP_PATHS } from '../../../protocol/help.ts';
import type { HelpArticle, HelpCategory, HelpCategoryDetail, HelpSearchHit } from '../../../protocol/help.ts';
import { useLiveGet, type Load } from '../../hooks/useLiveGet.ts';

/**
 * The help centre's reads: core live queries (src/core/liveQuery.ts) through `useLiveGet`. The
 * server answers in the language of the Web-Lang header the Http port sends, so no language is
 * passed here (a language change reloads the page).
 */
const NONE: readonly string[] = [];
const NO_QUERY = {};

export function useHelpCategories(): Load<HelpCategory[]> {
  return useLiveGet<HelpCategory[]>(HELP_PATHS.categories, NO_QUERY, NONE).load;
}

export function useHelpCategory(id: number): Load<HelpCategoryDetail> {
  return useLiveGet<HelpCategoryDetail>(HELP_PATHS.category(id), NO_QUERY, NONE).load;
}

export function useHelpArticle(id: number): Load<HelpArticle> {
  return useLiveGet<HelpArticle>(HELP_PATHS.article(id), NO_QUERY, NONE).load;
}

export function useHelpSearch(q: string): Load<{ list: HelpSearchHit[]; total: number }> {
  return useLiveGet<{ list: HelpSearchHit[]; total: number }>(HELP_PATHS.search, { q }, NONE).load;
}

/** A route's `:id` as a help id, or null when it is not a positive whole number (shown as not found without asking). */
export function helpIdOf(raw: string | undefined): number | null {
  if (raw === undefined || !/^[1-9]\d{0,6}$/.test(raw)) return null;
  return Number(raw);
}

/** A date (UTC) for "Updated …", without a clock: formatted from the server's timestamp. */
export function helpDate(ms: number, lang: string): string {
  try {
    return new Intl.DateTimeFormat(lang === 'hk' ? 'zh-HK' : lang === 'zh' ? 'zh-CN' : lang === 'jp' ? 'ja' : lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(ms);
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}
