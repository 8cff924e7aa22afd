import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import { HELP_LANGS, helpBlocksSchema } from '../../src/protocol/help.ts';
import type { HelpArticle, HelpArticleSummary, HelpBlock, HelpCategory, HelpCategoryDetail, HelpLang, HelpSearchHit } from '../../src/protocol/help.ts';
import type { Db } from '../db/connection.ts';
import type { HelpArticlesTable, HelpCategoriesTable } from '../db/schema.ts';
import { ARTICLES_BY_CATEGORY, CATEGORY_IDS, HELP_CONTENT } from './content/index.ts';
import type { LangContent } from './content/index.ts';
import { transact } from '../db/tx.ts';

/**
 * The help centre's store: the seeded content (server/help/content) is synced into the
 * help_categories / help_articles tables when the feature starts (only when its version hash
 * changed, in one transaction), and every read is a query on those tables in one language.
 */

const VERSION_KEY = 'content_version';

/** Plain text of blocks (for search and excerpts). */
export function blocksText(blocks: readonly HelpBlock[]): string {
  return blocks.map((b) => ('items' in b ? b.items.join('\n') : b.text)).join('\n');
}

export function contentVersion(content: Record<HelpLang, LangContent> = HELP_CONTENT): string {
  return createHash('sha256').update(JSON.stringify({ content, ARTICLES_BY_CATEGORY, CATEGORY_IDS })).digest('hex').slice(0, 32);
}

/** Writes the seeded content into the database unless it is already there; returns true when it wrote. */
export async function syncHelpContent(db: Db, now: number, content: Record<HelpLang, LangContent> = HELP_CONTENT): Promise<boolean> {
  const version = contentVersion(content);
  const current = await db.selectFrom('help_meta').select('value').where('name', '=', VERSION_KEY).executeTakeFirst();
  if (current?.value === version) return false;
  const categories: Insertable<HelpCategoriesTable>[] = [];
  const articles: Insertable<HelpArticlesTable>[] = [];
  for (const lang of HELP_LANGS) {
    const c = content[lang];
    for (const [ci, cid] of CATEGORY_IDS.entries()) {
      categories.push({ id: cid, lang, position: ci, title: c.categories[cid].title, summary: c.categories[cid].summary });
      for (const [ai, aid] of ARTICLES_BY_CATEGORY[cid].entries()) {
        const a = c.articles[aid];
        // Bodies are checked against the protocol's block schema (site-only links, no empty text).
        const blocks = helpBlocksSchema.parse(a.blocks);
        articles.push({
          id: aid, lang, category_id: cid, position: ai, title: a.title, summary: a.summary,
          body: JSON.stringify(blocks), plain: `${a.title}\n${a.summary}\n${blocksText(blocks)}`, updated_at: now,
        });
      }
    }
  }
  await transact(db, async (trx) => {
    await trx.deleteFrom('help_articles').execute();
    await trx.deleteFrom('help_categories').execute();
    for (let i = 0; i < categories.length; i += 100) await trx.insertInto('help_categories').values(categories.slice(i, i + 100)).execute();
    for (let i = 0; i < articles.length; i += 50) await trx.insertInto('help_articles').values(articles.slice(i, i + 50)).execute();
    await trx.deleteFrom('help_meta').where('name', '=', VERSION_KEY).execute();
    await trx.insertInto('help_meta').values({ name: VERSION_KEY, value: version }).execute();
  });
  return true;
}

/** The language of a request: `lang` query, else a valid Web-Lang header, else English. */
export function helpLangOf(query: string | undefined, header: string | string[] | undefined): HelpLang {
  const h = Array.isArray(header) ? header[0] : header;
  for (const v of [query, h]) if (v && (HELP_LANGS as readonly string[]).includes(v)) return v as HelpLang;
  return 'en';
}

async function counts(db: Db, lang: HelpLang): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('help_articles')
    .select(['category_id', sql<number | string>`count(*)`.as('n')])
    .where('lang', '=', lang)
    .groupBy('category_id')
    .execute();
  return new Map(rows.map((r) => [r.category_id, Number(r.n)]));
}

export async function listCategories(db: Db, lang: HelpLang): Promise<HelpCategory[]> {
  const [rows, n] = await Promise.all([
    db.selectFrom('help_categories').select(['id', 'title', 'summary']).where('lang', '=', lang).orderBy('position').execute(),
    counts(db, lang),
  ]);
  return rows.map((r) => ({ id: r.id, title: r.title, summary: r.summary, count: n.get(r.id) ?? 0 }));
}

function summaryOf(r: { id: number; category_id: number; title: string; summary: string; updated_at: number | string }): HelpArticleSummary {
  return { id: r.id, categoryId: r.category_id, title: r.title, summary: r.summary, updatedAt: Number(r.updated_at) };
}

export async function getCategory(db: Db, lang: HelpLang, id: number): Promise<HelpCategoryDetail | null> {
  const c = await db.selectFrom('help_categories').select(['id', 'title', 'summary']).where('lang', '=', lang).where('id', '=', id).executeTakeFirst();
  if (!c) return null;
  const rows = await db
    .selectFrom('help_articles')
    .select(['id', 'category_id', 'title', 'summary', 'updated_at'])
    .where('lang', '=', lang)
    .where('category_id', '=', id)
    .orderBy('position')
    .execute();
  return { ...c, count: rows.length, articles: rows.map(summaryOf) };
}

export async function getArticle(db: Db, lang: HelpLang, id: number): Promise<HelpArticle | null> {
  const a = await db.selectFrom('help_articles').selectAll().where('lang', '=', lang).where('id', '=', id).executeTakeFirst();
  if (!a) return null;
  const [cat, siblings] = await Promise.all([
    db.selectFrom('help_categories').select('title').where('lang', '=', lang).where('id', '=', a.category_id).executeTakeFirst(),
    db.selectFrom('help_articles').select(['id', 'title']).where('lang', '=', lang).where('category_id', '=', a.category_id).where('id', '!=', id).orderBy('position').execute(),
  ]);
  return {
    ...summaryOf(a),
    lang,
    categoryTitle: cat?.title ?? '',
    blocks: helpBlocksSchema.parse(JSON.parse(a.body)),
    related: siblings,
  };
}

/** At most this many search hits are answered (the help centre is small; no paging needed). */
export const HELP_SEARCH_LIMIT = 50;

/** Escapes LIKE wildcards so the user's text matches literally. */
function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** About `width` characters of `text` around the first case-insensitive occurrence of `q`. */
export function excerptOf(text: string, q: string, width = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const at = flat.toLowerCase().indexOf(q.toLowerCase());
  if (at < 0) return flat.slice(0, width);
  const start = Math.max(0, at - Math.floor((width - q.length) / 2));
  const end = Math.min(flat.length, start + width);
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
}

/** Articles of one language whose title or text contains `q` (case-insensitive), title hits first. */
export async function searchArticles(db: Db, lang: HelpLang, q: string): Promise<{ list: HelpSearchHit[]; total: number }> {
  const pattern = likePattern(q);
  const rows = await db
    .selectFrom('help_articles')
    .select(['id', 'category_id', 'title', 'summary', 'plain'])
    .where('lang', '=', lang)
    .where(sql<boolean>`lower(plain) like ${pattern} escape '\\'`)
    .orderBy(sql`case when lower(title) like ${pattern} escape '\\' then 0 else 1 end`)
    .orderBy('category_id')
    .orderBy('position')
    .execute();
  const list = rows.slice(0, HELP_SEARCH_LIMIT).map((r) => {
    const body = r.plain.split('\n').slice(1).join('\n');
    return { id: r.id, categoryId: r.category_id, title: r.title, excerpt: excerptOf(body, q) };
  });
  return { list, total: rows.length };
}
