import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Code, ok } from '../../src/protocol/envelope.ts';
import { HELP_MSG, helpIdParams, helpLangQuery, helpSearchQuery } from '../../src/protocol/help.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { parseInput, reject } from '../http/errors.ts';
import { getArticle, getCategory, helpLangOf, listCategories, searchArticles, syncHelpContent } from './service.ts';

function langOf(req: FastifyRequest): ReturnType<typeof helpLangOf> {
  const q = parseInput(helpLangQuery, req.query);
  return helpLangOf(q.lang, req.headers['web-lang']);
}

/**
 * The help centre feature (docs/HELP.md): public reads in the request's language.
 * GET /api/help/categories, /api/help/categories/:id, /api/help/articles/:id, /api/help/search?q.
 * The seeded content is synced into the database when the feature starts.
 */
export function helpPlugin(deps: FeatureDeps): FastifyPluginAsync {
  return async (app) => {
    const { db, clock } = deps;
    await syncHelpContent(db, clock.now());
    await app.register(
      async (r) => {
        r.get('/categories', async (req) => ok(await listCategories(db, langOf(req))));
        r.get('/categories/:id', async (req) => {
          const { id } = parseInput(helpIdParams, req.params);
          const c = await getCategory(db, langOf(req), id);
          return c ? ok(c) : reject(Code.notFound, HELP_MSG.categoryNotFound);
        });
        r.get('/articles/:id', async (req) => {
          const { id } = parseInput(helpIdParams, req.params);
          const a = await getArticle(db, langOf(req), id);
          return a ? ok(a) : reject(Code.notFound, HELP_MSG.articleNotFound);
        });
        r.get('/search', async (req) => {
          const q = parseInput(helpSearchQuery, req.query);
          return ok(await searchArticles(db, helpLangOf(q.lang, req.headers['web-lang']), q.q));
        });
      },
      { prefix: '/api/help' },
    );
  };
}
