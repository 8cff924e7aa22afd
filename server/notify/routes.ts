import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../src/protocol/envelope.ts';
import { NOTIFY_MSG, notifyPrefsBody } from '../../src/protocol/help.ts';
import { NOTIFICATION_MSG, notificationListQuery, notificationReadBody } from '../../src/protocol/notifications.ts';
import type { UnreadCount } from '../../src/protocol/notifications.ts';
import type { Db } from '../db/connection.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput } from '../http/errors.ts';
import { helpLangOf } from '../help/service.ts';
import { tradingEngineOf } from '../trading/wiring.ts';
import { createNotifier, listNotices, markRead, unreadCount } from './notifications.ts';
import type { Notifier } from './notifications.ts';
import { readNotifyPrefs, saveNotifyPrefs } from './service.ts';
import { liquidationWarnings, noticeOfFrame, noticesOfFills } from './sources.ts';

/** How often open positions are checked for a liquidation warning. */
export const NOTIFY_JOB_MS = 5_000;

/** The notifier of the app serving a database (for the periodic job, which gets only FeatureDeps). */
const NOTIFIERS = new WeakMap<Db, Notifier>();

/** The notification job: a warning for every open position near liquidation (once per position). */
export async function runNotifyJobs(deps: FeatureDeps): Promise<void> {
  const notifier = NOTIFIERS.get(deps.db);
  if (!notifier || !deps.source) return;
  for (const e of await liquidationWarnings(deps.db, deps.source)) await notifier.notify(e);
}

/**
 * Notification preferences (SPEC §3 notification modules sysNotify / tradeNotify / eventNotify and
 * the notification language): GET /api/notify/prefs, POST /api/notify/prefs (any subset); and the
 * notification centre (issue 26, Major 8): GET /api/notify/list (paged), GET /api/notify/unread,
 * POST /api/notify/read {ids}, POST /api/notify/read-all. The notices themselves come from the
 * sources of ./sources.ts, recorded, pushed on the user socket and mailed by ./notifications.ts.
 */
export function notifyPlugin(deps: FeatureDeps): FastifyPluginAsync {
  return async (app) => {
    const { db, clock, bus } = deps;
    const report = (err: unknown, what: string): void => { app.log.error({ err: err instanceof Error ? err.message : String(err) }, `${what} failed`); };
    const notifier = createNotifier({ db, clock, ...(bus ? { bus } : {}), mailer: app.deps.mailer, onError: report });
    NOTIFIERS.set(db, notifier);
    const send = (p: Promise<unknown>, what: string): void => void p.catch((err: unknown) => report(err, what));

    // Sources: frames this process publishes, committed fills, password changes.
    const offTap = bus?.tap((userId, frame) => {
      const e = noticeOfFrame(userId, frame);
      if (e) send(notifier.notify(e), `notification ${e.kind}`);
    });
    const engine = tradingEngineOf(db);
    const offFills =
      typeof engine?.onFills === 'function'
        ? engine.onFills(async (fills) => {
            // NOTE: not awaited: the engine's queue does not wait for notices or mail.
            send(noticesOfFills(db, deps.source, fills).then(async (events) => {
              for (const e of events) await notifier.notify(e);
            }), 'fill notifications');
          })
        : undefined;
    app.deps.accountHooks.passwordChanged.push(async (e) => {
      const hours = e.kind === 'reset' ? 48 : 24;
      await notifier.notify({ userId: e.userId, kind: 'passwordChanged', dedupe: `password-${e.kind}-${e.now}`, params: { how: e.kind, hours: String(hours) } });
    });
    app.addHook('onClose', async () => {
      offTap?.();
      offFills?.();
      if (NOTIFIERS.get(db) === notifier) NOTIFIERS.delete(db);
    });

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
        r.get('/list', async (req) => {
          const { user } = await requireUser(req);
          const q = parseInput(notificationListQuery, req.query);
          return ok(await listNotices(db, user.id, q));
        });
        r.get('/unread', async (req) => {
          const { user } = await requireUser(req);
          return ok<UnreadCount>({ unread: await unreadCount(db, user.id) });
        });
        r.post('/read', async (req) => {
          const { user } = await requireUser(req);
          const body = parseInput(notificationReadBody, req.body);
          await markRead(db, user.id, body.ids, clock.now());
          return ok<UnreadCount>({ unread: await notifier.pushUnread(user.id) }, NOTIFICATION_MSG.marked);
        });
        r.post('/read-all', async (req) => {
          const { user } = await requireUser(req);
          await markRead(db, user.id, 'all', clock.now());
          return ok<UnreadCount>({ unread: await notifier.pushUnread(user.id) }, NOTIFICATION_MSG.marked);
        });
      },
      { prefix: '/api/notify' },
    );
  };
}
