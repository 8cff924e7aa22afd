import type { Db } from '../connection.ts';
import { transact } from '../tx.ts';

export interface NewAvatar {
  userId: number;
  fileName: string;
  mime: string;
  size: number;
  now: number;
}

/** Records an uploaded avatar file and makes it the user's current avatar, atomically. */
export async function saveAvatar(db: Db, a: NewAvatar): Promise<void> {
  await transact(db, async (trx) => {
    await trx.insertInto('avatars').values({ user_id: a.userId, file_name: a.fileName, mime: a.mime, size: a.size, created_at: a.now }).execute();
    await trx.updateTable('users').set({ avatar: a.fileName }).where('id', '=', a.userId).execute();
  });
}

export function findAvatar(db: Db, fileName: string): Promise<{ mime: string } | undefined> {
  return db.selectFrom('avatars').select('mime').where('file_name', '=', fileName).executeTakeFirst();
}
