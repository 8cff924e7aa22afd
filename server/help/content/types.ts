import type { HelpBlock } from '../../../src/protocol/help.ts';

/**
 * The shape of the help centre's seeded content: which categories (help-list ids) and articles
 * (help-detail ids) exist, in which order, and one text file per language that must give every
 * one of them a title, a summary and its blocks (a missing id is a compile error).
 */

/** Categories in display order. 23..19 are the footer's help-list ids (SPEC §2); 24, 25 hold the legal pages and About. */
export const CATEGORY_IDS = [18, 21, 22, 16, 20, 19, 23, 24, 25] as const;
export type CategoryId = (typeof CATEGORY_IDS)[number];

/** Articles by category, in display order. Every footer help-detail id appears once. */
export const ARTICLES_BY_CATEGORY = {
  18: [103, 85, 86],
  21: [104, 105, 106],
  22: [12, 82, 107, 83],
  16: [58, 75, 80, 81],
  20: [108, 109],
  19: [53, 84, 110],
  23: [101, 102],
  24: [11, 16, 17, 8, 9, 13, 14, 10],
  25: [15],
} as const satisfies Record<CategoryId, readonly number[]>;
export type ArticleId = (typeof ARTICLES_BY_CATEGORY)[CategoryId][number];

export interface CategoryText {
  title: string;
  summary: string;
}

export interface ArticleText {
  title: string;
  summary: string;
  blocks: HelpBlock[];
}

export interface LangContent {
  categories: Record<CategoryId, CategoryText>;
  articles: Record<ArticleId, ArticleText>;
}

export const h = (text: string): HelpBlock => ({ t: 'h', text });
export const p = (text: string): HelpBlock => ({ t: 'p', text });
export const ul = (...items: string[]): HelpBlock => ({ t: 'ul', items });
export const ol = (...items: string[]): HelpBlock => ({ t: 'ol', items });
export const note = (text: string): HelpBlock => ({ t: 'note', text });
export const link = (text: string, to: string): HelpBlock => ({ t: 'link', text, to });
