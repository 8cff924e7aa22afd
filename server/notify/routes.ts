import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../src/protocol/envelope.ts';
import { NOTIFY_MSG, notifyPrefsBody } from '../../src/protocol/help.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput } from '../http/errors.ts';
import { helpLangOf } from '../help/service.ts';
import { readNotifyPrefs, saveNotifyPrefs } from './service.ts';

/**
 * Notification preferences (SPEC §3 notification modules sysNotify / tradeNotify / eventNotify and
 * the notification language): GET /api/notify/prefs, POST /api/notify/prefs (any subset).
 */
export function notifyPlugin(deps: FeatureDeps): FastifyPluginAsync {
  return async (app) => {
    const { db, clock } = deps;
    await app.register(
      async (r) => {
        r.get('/prefs', async (req) => {
          const { user } = await requireUser(req);
          return ok(await readNotifyPrefs(db, user.id, helpLangOf(undefined, req.headers['web-lang'])));
        });
        r.post('/prefs', async (req) => {
          const { user } = await requireUser(req);
          const body = parseInput(notifyPrefsBody, req.body);
          return ok(await saveNotifyPrefs(db, user.id, body, helpLangOf(undefined, req.headers['web-lang']), clock.now()), NOTIFY_MSG.saved);
        });
      },
      { prefix: '/api/notify' },
    );
  };
}
