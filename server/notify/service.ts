import type { HelpLang, NotifyPrefs } from '../../src/protocol/help.ts';
import type { Db } from '../db/connection.ts';
import { transact } from '../db/tx.ts';

/** What a user who never saved gets: every module on, in the language they use the site in. */
export function defaultNotifyPrefs(lang: HelpLang): NotifyPrefs {
  return { lang, sysNotify: true, tradeNotify: true, eventNotify: true, updatedAt: null };
}

export async function readNotifyPrefs(db: Db, userId: number, fallbackLang: HelpLang): Promise<NotifyPrefs> {
  const row = await db.selectFrom('notify_prefs').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return defaultNotifyPrefs(fallbackLang);
  return {
    lang: row.lang as HelpLang,
    sysNotify: row.sys_notify === 1,
    tradeNotify: row.trade_notify === 1,
    eventNotify: row.event_notify === 1,
    updatedAt: Number(row.updated_at),
  };
}

/** Merges `patch` over the stored (or default) preferences and stores the result (one upsert in a transaction). */
export async function saveNotifyPrefs(
  db: Db,
  userId: number,
  patch: Partial<Pick<NotifyPrefs, 'lang' | 'sysNotify' | 'tradeNotify' | 'eventNotify'>>,
  fallbackLang: HelpLang,
  now: number,
): Promise<NotifyPrefs> {
  return transact(db, async (trx) => {
    const cur = await readNotifyPrefs(trx, userId, fallbackLang);
    const next: NotifyPrefs = {
      lang: patch.lang ?? cur.lang,
      sysNotify: patch.sysNotify ?? cur.sysNotify,
      tradeNotify: patch.tradeNotify ?? cur.tradeNotify,
      eventNotify: patch.eventNotify ?? cur.eventNotify,
      updatedAt: now,
    };
    const values = {
      lang: next.lang,
      sys_notify: next.sysNotify ? 1 : 0,
      trade_notify: next.tradeNotify ? 1 : 0,
      event_notify: next.eventNotify ? 1 : 0,
      updated_at: now,
    };
    await trx
      .insertInto('notify_prefs')
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
    return next;
  });
}
