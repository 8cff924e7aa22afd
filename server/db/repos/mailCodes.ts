import { createHash } from 'node:crypto';
import type { Db } from '../connection.ts';
import type { MailCodesTable } from '../schema.ts';

export type MailPurpose = MailCodesTable['purpose'];
/** A code is valid for 10 minutes. */
export const MAIL_CODE_TTL_MS = 10 * 60 * 1000;
/** One code per (email, purpose) per minute. */
export const MAIL_CODE_RESEND_MS = 60 * 1000;
/** A code is burnt after this many wrong guesses. */
export const MAIL_CODE_MAX_FAILURES = 5;

function hashCode(email: string, purpose: MailPurpose, code: string): string {
  return createHash('sha256').update(`${email}:${purpose}:${code}`).digest('hex');
}

/** When the last code for (email, purpose) was issued, or undefined. */
export async function lastIssuedAt(db: Db, email: string, purpose: MailPurpose): Promise<number | undefined> {
  const row = await db
    .selectFrom('mail_codes')
    .select('created_at')
    .where('email', '=', email)
    .where('purpose', '=', purpose)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.created_at;
}

export interface IssueCodeInput {
  email: string;
  purpose: MailPurpose;
  code: string;
  now: number;
  subject: string;
  body: string;
}

/** Stores a new code (hashed), supersedes older unused ones, and queues the mail in the outbox. */
export async function issueCode(db: Db, input: IssueCodeInput): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('mail_codes')
      .set({ used_at: input.now })
      .where('email', '=', input.email)
      .where('purpose', '=', input.purpose)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('mail_codes')
      .values({
        email: input.email,
        purpose: input.purpose,
        code_hash: hashCode(input.email, input.purpose, input.code),
        created_at: input.now,
        expires_at: input.now + MAIL_CODE_TTL_MS,
        used_at: null,
        failed_attempts: 0,
      })
      .execute();
    await trx
      .insertInto('outbox')
      .values({ to_email: input.email, subject: input.subject, body: input.body, code: input.code, created_at: input.now })
      .execute();
  });
}

/**
 * Checks and consumes a code: true once for the current unexpired code; every later call,
 * an expired code or a wrong guess gives false. Wrong guesses count towards burning the code.
 */
export async function consumeCode(db: Db, email: string, purpose: MailPurpose, code: string, now: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const active = await trx
      .selectFrom('mail_codes')
      .select(['id', 'code_hash', 'failed_attempts'])
      .where('email', '=', email)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!active) return false;
    if (active.code_hash === hashCode(email, purpose, code)) {
      await trx.updateTable('mail_codes').set({ used_at: now }).where('id', '=', active.id).execute();
      return true;
    }
    const failed = active.failed_attempts + 1;
    await trx
      .updateTable('mail_codes')
      .set({ failed_attempts: failed, used_at: failed >= MAIL_CODE_MAX_FAILURES ? now : null })
      .where('id', '=', active.id)
      .execute();
    return false;
  });
}

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  code: string;
  time: number;
}

/** Newest first; all recipients when `email` is omitted. */
export async function latestMails(db: Db, email: string | undefined, limit = 10): Promise<OutboxMail[]> {
  let q = db.selectFrom('outbox').select(['id', 'to_email', 'subject', 'code', 'created_at']).orderBy('id', 'desc').limit(limit);
  if (email) q = q.where('to_email', '=', email);
  const rows = await q.execute();
  return rows.map((r) => ({ id: r.id, to: r.to_email, subject: r.subject, code: r.code, time: r.created_at }));
}
