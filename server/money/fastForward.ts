import type { Db } from '../db/connection.ts';
import type { UserRow } from '../db/schema.ts';
import { RESET_LOCK_MS, withdrawLockOf } from './withdrawals.ts';

/**
 * Development only (POST /api/dev/money/fast-forward, `npm run wallet -- fast-forward`): lets `ms`
 * pass for one user's money while the server clock stays put. The withdrawal lock ends `ms` sooner
 * (never before `now`) and the user's confirming deposits count as seen `ms` earlier, so the next
 * chain step gives them their confirmations. The ledger is untouched: credits still happen only in
 * the chain step. Returns the new lock end and how many deposits moved.
 */
export async function fastForwardMoney(db: Db, user: UserRow, ms: number, now: number): Promise<{ withdrawLockUntil: number; deposits: number }> {
  const current = await withdrawLockOf(db, user, now);
  const lock = current ? Math.max(now, current.until - ms) : user.withdraw_lock_until;
  if (current && lock !== current.until) {
    await db.updateTable('users').set({ withdraw_lock_until: lock }).where('id', '=', user.id).execute();
    // NOTE: a reset lock is recognised by its reset code's use time (until − 48 h): move it along.
    if (current.reason === 'reset') {
      await db
        .updateTable('mail_codes')
        .set({ used_at: lock - RESET_LOCK_MS })
        .where('email', '=', user.email)
        .where('purpose', '=', 'reset')
        .where('used_at', '=', current.until - RESET_LOCK_MS)
        .execute();
    }
  }
  // Issue 26: a requested whitelist turn-off and addresses added under whitelist mode wait that much less.
  await db.updateTable('withdraw_settings').set((eb) => ({ whitelist_off_at: eb('whitelist_off_at', '-', ms) })).where('user_id', '=', user.id).where('whitelist_off_at', 'is not', null).execute();
  await db.updateTable('withdraw_addresses').set((eb) => ({ usable_at: eb('usable_at', '-', ms) })).where('user_id', '=', user.id).where('usable_at', '>', now).execute();
  const rows = await db.selectFrom('deposits').select(['id', 'created_at']).where('user_id', '=', user.id).where('status', '=', 'confirming').execute();
  for (const r of rows) await db.updateTable('deposits').set({ created_at: r.created_at - ms }).where('id', '=', r.id).execute();
  return { withdrawLockUntil: lock, deposits: rows.length };
}
