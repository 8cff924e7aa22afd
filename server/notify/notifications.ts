import type { Selectable } from 'kysely';
import type { Page } from '../../src/protocol/envelope.ts';
import type { HelpLang } from '../../src/protocol/help.ts';
import { NOTIFICATION_MODULE } from '../../src/protocol/notifications.ts';
import type { Notification, NotificationKind, NotificationListQuery } from '../../src/protocol/notifications.ts';
import type { Db } from '../db/connection.ts';
import { pageOf } from '../db/paged.ts';
import { findUserById } from '../db/repos/users.ts';
import type { NotificationsTable } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { UserEventBus } from '../ws/userBus.ts';
import { readNotifyPrefs } from './service.ts';
import { noticeMail, renderNotice } from './templates.ts';

/**
 * The notification centre's store and sender (issue 26, Major 8; docs/API.md "Notifications").
 * Invariants:
 * - a notice exists only when its module (sysNotify / tradeNotify / eventNotify) was on when the event
 *   happened; its title and body are written then, in the notification language of that moment;
 * - (user_id, dedupe) is unique: an event seen twice records, pushes and mails once;
 * - the pushed frame carries the unread count after the change, so every tab of the user agrees.
 */

export type NotificationRow = Selectable<NotificationsTable>;

/** One event that may notify a user. `dedupe` names the event (e.g. `withdrawal-12-rejected`). */
export interface NoticeEvent {
  userId: number;
  kind: NotificationKind;
  dedupe: string;
  /** Raw values for the templates and the app (strings only). */
  params: Record<string, string>;
}

export function toNotificationDto(r: NotificationRow): Notification {
  let params: Record<string, string> = {};
  try {
    const parsed = JSON.parse(r.params) as unknown;
    if (typeof parsed === 'object' && parsed !== null) params = parsed as Record<string, string>;
  } catch {
    params = {};
  }
  return {
    id: Number(r.id),
    kind: r.kind as NotificationKind,
    module: r.module as Notification['module'],
    lang: r.lang as HelpLang,
    title: r.title,
    body: r.body,
    params,
    readAt: r.read_at === null ? null : Number(r.read_at),
    createdAt: Number(r.created_at),
  };
}

/**
 * Records the notice if the user's module for its kind is on and it was not recorded before.
 * Returns the new row, or null (module off, or already recorded).
 */
export async function recordNotice(db: Db, e: NoticeEvent, now: number): Promise<Notification | null> {
  const prefs = await readNotifyPrefs(db, e.userId, 'en');
  const module = NOTIFICATION_MODULE[e.kind];
  if (!prefs[module]) return null;
  const { title, body } = renderNotice(e.kind, prefs.lang, e.params);
  const row = await db
    .insertInto('notifications')
    .values({ user_id: e.userId, kind: e.kind, module, dedupe: e.dedupe, lang: prefs.lang, title, body, params: JSON.stringify(e.params), read_at: null, created_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'dedupe']).doNothing())
    .returningAll()
    .executeTakeFirst();
  return row ? toNotificationDto(row) : null;
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const r = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** One page of the user's notices, newest first; `unread: '1'` only the unread ones. */
export async function listNotices(db: Db, userId: number, q: NotificationListQuery & { page: number; pageSize: number }): Promise<Page<Notification>> {
  let base = db.selectFrom('notifications').where('user_id', '=', userId);
  if (q.unread === '1') base = base.where('read_at', 'is', null);
  if (q.unread === '0') base = base.where('read_at', 'is not', null);
  return pageOf(base, q, ['created_at', 'id'], (qb) => qb.selectAll(), toNotificationDto);
}

/** Marks the user's notices among `ids` read (others' ids and already read ones are left alone); returns the unread count. */
export async function markRead(db: Db, userId: number, ids: readonly number[] | 'all', now: number): Promise<number> {
  let q = db.updateTable('notifications').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null);
  if (ids !== 'all') q = q.where('id', 'in', [...ids]);
  await q.execute();
  return unreadCount(db, userId);
}

export interface NotifierDeps {
  db: Db;
  clock: { now(): number };
  bus?: UserEventBus;
  mailer: Mailer;
  /** Where a failed mail is reported (the mail text is never logged). */
  onError: (err: unknown, what: string) => void;
}

export interface Notifier {
  /** Records, pushes and mails one event's notice; resolves with it (null when none was due). */
  notify(e: NoticeEvent): Promise<Notification | null>;
  /** Pushes only the unread count (after a mark read), so the user's other tabs follow. */
  pushUnread(userId: number): Promise<number>;
}

export function createNotifier(deps: NotifierDeps): Notifier {
  const { db, clock, bus, mailer } = deps;
  return {
    async notify(e) {
      const n = await recordNotice(db, e, clock.now());
      if (n === null) return null;
      bus?.publish(e.userId, { type: 'notification', data: { notification: n, unread: await unreadCount(db, e.userId) } });
      if (mailer.kind !== 'none') {
        const user = await findUserById(db, e.userId);
        if (user) {
          const mail = noticeMail(n.lang, n.title, n.body);
          // NOTE: a mail failure never undoes the in-app notice; it is reported without the text.
          await mailer.send({ to: user.email, subject: mail.subject, text: mail.text }).catch((err: unknown) => deps.onError(err, `notification mail ${n.kind}`));
        }
      }
      return n;
    },
    async pushUnread(userId) {
      const unread = await unreadCount(db, userId);
      bus?.publish(userId, { type: 'notification', data: { notification: null, unread } });
      return unread;
    },
  };
}
