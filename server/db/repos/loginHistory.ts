import type { Db } from '../connection.ts';
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
export async function loginPage(db: Db, userId: number, page: number, pageSize: number): Promise<Page<LoginRecord>> {
  const total = await db
    .selectFrom('login_history')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('login_history')
    .select(['id', 'created_at', 'client', 'ip', 'account'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    list: rows.map((r) => ({ id: r.id, time: r.created_at, client: r.client, ip: r.ip, account: r.account })),
    total: Number(total.n),
    page,
    pageSize,
  };
}
