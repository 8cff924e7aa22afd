import type { Db } from '../db/connection.ts';
import { adminCredit } from '../ledger/post.ts';
import { createUser } from '../db/repos/users.ts';
import type { UserRow } from '../db/schema.ts';
import { toMinor } from '../db/money.ts';
import type { UserInfo } from '../../src/protocol/user.ts';
import { maskEmail } from './format.ts';
import { transact } from '../db/tx.ts';
import { DEMO_CREDIT_REF } from '../../src/protocol/demoCredit.ts';
import { ensureWelcomeVouchers } from '../vouchers/service.ts';

/**
 * The demo credit a new account receives when the server gives one (config.demoCredit: on by
 * default, DEMO_CREDIT=0 off, always off in production): ADMIN_ADJUST from the system account,
 * each posting's ref starting with {@link DEMO_CREDIT_REF} so the histories name it "Demo credit".
 */
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
  /** Credit the demo balances (default true). */
  demoCredit?: boolean;
  /**
   * Grant the welcome vouchers in the same transaction (issue 26, Minor 11: sign-up grants them, so
   * the dashboard's "Usable vouchers" is right before the coupons page was ever opened). Default
   * false: tools and property tests that build accounts directly count vouchers themselves.
   */
  welcomeVouchers?: boolean;
}

/** Creates a user and, with the demo credit on, credits it in the same transaction: no user ever exists with half of it. */
export async function createAccount(db: Db, a: NewAccount): Promise<UserRow> {
  return transact(db, async (trx) => {
    const user = await createUser(trx, a);
    if (a.welcomeVouchers === true) await ensureWelcomeVouchers(trx, user.id, a.now);
    if (a.demoCredit === false) return user;
    for (const b of STARTING_BALANCES) {
      const r = await adminCredit(trx, user.id, b.wallet, b.asset, toMinor(b.amount, b.asset), a.now, `${DEMO_CREDIT_REF}${user.id}-${b.wallet}`);
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
