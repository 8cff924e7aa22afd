import type { Db } from '../connection.ts';
import { pageOf } from '../paged.ts';
import type { LoginRecord, Page } from '../../../src/protocol/index.ts';

export interface NewLoginRecord {
  userId: number;
  now: number;
  client: string;
  ip: string;
  account: string;
}

export async function recordLogin(db: Db, r: NewLoginRecord): Promise<void> {
  await db.insertInto('login_history').values({ user_id: r.userId, created_at: r.now, client: r.client, ip: r.ip, account: r.account }).execute();
}

/** One page of a user's logins, newest first. */
export function loginPage(db: Db, userId: number, page: number, pageSize: number): Promise<Page<LoginRecord>> {
  return pageOf(
    db.selectFrom('login_history').where('user_id', '=', userId),
    { page, pageSize },
    ['id'],
    (qb) => qb.select(['id', 'created_at', 'client', 'ip', 'account']),
    (r) => ({ id: r.id, time: r.created_at, client: r.client, ip: r.ip, account: r.account }),
  );
}
