import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { Code, fail, ok } from '../../src/protocol/envelope.ts';
import { outboxQuery } from '../../src/protocol/user.ts';
import { findAvatar } from '../db/repos/avatars.ts';
import { latestMails } from '../db/repos/mailCodes.ts';
import { parseInput, SERVER_MSG } from '../http/errors.ts';
import { loopbackOrOperator } from '../http/operator.ts';

const AVATAR_NAME = /^[0-9a-f]{32}\.(png|jpg)$/;

/** GET /api/health, GET /api/files/avatars/:name and, when enabled, GET /api/dev/outbox (loopback or operator). */
export const miscRoutes: FastifyPluginAsync = async (app) => {
  app.get('/health', async () => ok({ status: 'ok', time: app.deps.clock.now() }));

  app.get<{ Params: { name: string } }>('/files/avatars/:name', async (req, reply) => {
    const name = req.params.name;
    // NOTE: the strict name pattern is what keeps '../' out of the path join below.
    const meta = AVATAR_NAME.test(name) ? await findAvatar(app.deps.db, name) : undefined;
    const file = join(app.deps.config.dataDir, 'avatars', name);
    if (!meta || !existsSync(file)) return fail(Code.notFound, SERVER_MSG.notFound);
    return reply.type(meta.mime).header('cache-control', 'public, max-age=31536000, immutable').send(createReadStream(file));
  });

  if (app.deps.config.exposeOutbox) {
    // Loopback reads it without a token (README newcomer steps); other clients only as the operator.
    app.get('/dev/outbox', { onRequest: loopbackOrOperator }, async (req) => {
      const q = parseInput(outboxQuery, req.query);
      return ok(await latestMails(app.deps.db, q.email, q.limit));
    });
  }
};
