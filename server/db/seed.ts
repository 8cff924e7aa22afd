import type { Db } from './connection.ts';
import { findUserByEmail } from './repos/users.ts';
import { createAccount, DEMO_ACCOUNT } from '../services/accounts.ts';
import { hashPassword } from '../services/passwords.ts';
import { seedCompensationDemo } from '../compensation/seed.ts';
import { seedVerifiedKyc } from '../kyc/service.ts';
import { seedVoucherDemo } from '../vouchers/seed.ts';

/** Creates the demo account if it is missing; safe to run on every start. Returns true when it created it. */
export async function seedDemo(db: Db, now: number): Promise<boolean> {
  const exists = (await findUserByEmail(db, DEMO_ACCOUNT.email)) !== undefined;
  if (!exists) {
    await createAccount(db, { email: DEMO_ACCOUNT.email, passwordHash: await hashPassword(DEMO_ACCOUNT.password), invitedBy: null, now });
    await seedCompensationDemo(db, now);
  }
  await seedVerifiedKyc(db, DEMO_ACCOUNT.email, now); // identity-verified with one approved submission; idempotent
  await seedVoucherDemo(db, now); // welcome pair plus a used, an expired, a merged pair and permanent ones; idempotent
  return !exists;
}
