import type { Db } from '../db/connection.ts';
import { adminCredit } from '../ledger/post.ts';
import { createUser } from '../db/repos/users.ts';
import type { UserRow } from '../db/schema.ts';
import { toMinor } from '../db/money.ts';
import type { UserInfo } from '../../src/protocol/user.ts';
import { maskEmail } from './format.ts';
import { transact } from '../db/tx.ts';

/** Demo money every new account receives (ADMIN_ADJUST from the system account). */
export const STARTING_BALANCES = [
  { wallet: 'fund', asset: 'USDT', amount: '10000' },
  { wallet: 'perp', asset: 'USDT', amount: '10000' },
] as const;

/** The demo account seeded on first start (printed in the start banner). */
export const DEMO_ACCOUNT = { email: 'demo@example.com', password: 'demo1234' } as const;

export interface NewAccount {
  email: string;
  passwordHash: string;
  invitedBy: number | null;
  now: number;
}

/** Creates a user and credits the starting balances in one transaction: no user ever exists without them. */
export async function createAccount(db: Db, a: NewAccount): Promise<UserRow> {
  return transact(db, async (trx) => {
    const user = await createUser(trx, a);
    for (const b of STARTING_BALANCES) {
      const r = await adminCredit(trx, user.id, b.wallet, b.asset, toMinor(b.amount, b.asset), a.now);
      if (!r.ok) throw new Error(`starting balance rejected: ${r.reason}`);
    }
    return user;
  });
}

/** The public avatar address of a stored avatar file name. */
export function avatarUrl(fileName: string | null): string {
  return fileName ? `/api/files/avatars/${fileName}` : '';
}

/** GET /user/info: the row as the app sees it (never the hashes or secrets). */
export function toUserInfo(u: UserRow): UserInfo {
  return {
    id: u.id,
    nickname: u.nickname,
    avatar: avatarUrl(u.avatar),
    cover_email: maskEmail(u.email),
    kycStatus: u.kyc_status,
    googleBound: u.google_secret !== null,
    inviteCode: u.invite_code,
    withdrawLockUntil: u.withdraw_lock_until,
    createdAt: u.created_at,
  };
}
