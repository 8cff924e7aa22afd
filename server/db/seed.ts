import type { Db } from './connection.ts';
import { findUserByEmail } from './repos/users.ts';
import { createAccount, DEMO_ACCOUNT } from '../services/accounts.ts';
import { hashPassword } from '../services/passwords.ts';
import { seedCompensationDemo } from '../compensation/seed.ts';

/** Creates the demo account if it is missing; safe to run on every start. Returns true when it created it. */
export async function seedDemo(db: Db, now: number): Promise<boolean> {
  if (await findUserByEmail(db, DEMO_ACCOUNT.email)) return false;
  await createAccount(db, { email: DEMO_ACCOUNT.email, passwordHash: await hashPassword(DEMO_ACCOUNT.password), invitedBy: null, now });
  await seedCompensationDemo(db, now);
  return true;
}
