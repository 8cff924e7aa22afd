import type { HelpLang } from '../../../src/protocol/help.ts';
import { en } from './en.ts';
import { hk } from './hk.ts';
import { jp } from './jp.ts';
import { ko } from './ko.ts';
import { zh } from './zh.ts';
import type { LangContent } from './types.ts';

export { ARTICLES_BY_CATEGORY, CATEGORY_IDS } from './types.ts';
export type { ArticleId, ArticleText, CategoryId, CategoryText, LangContent } from './types.ts';

/** The seeded help content in every language (each file must cover every category and article). */
export const HELP_CONTENT: Record<HelpLang, LangContent> = { en, zh, hk, jp, ko };
