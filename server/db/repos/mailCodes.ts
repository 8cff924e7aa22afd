import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../connection.ts';
import type { MailCodesTable } from '../schema.ts';
import { transact } from '../tx.ts';

export type MailPurpose = MailCodesTable['purpose'];
/** A code is valid for 10 minutes. */
export const MAIL_CODE_TTL_MS = 10 * 60 * 1000;
/** One code per (email, purpose) per minute. */
export const MAIL_CODE_RESEND_MS = 60 * 1000;
/** A code is burnt after this many wrong guesses. */
export const MAIL_CODE_MAX_FAILURES = 5;

/**
 * What `mail_codes.code_hash` stores: an HMAC-SHA256 keyed by config.mailCodeSecret. A plain hash
 * of a 6-digit code would reveal it (a million guesses take a second); without the key the stored
 * value says nothing about the code.
 */
export function hashCode(secret: string, email: string, purpose: MailPurpose, code: string): string {
  return createHmac('sha256', secret).update(`${email}:${purpose}:${code}`).digest('hex');
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
  /** Key of the code's HMAC (config.mailCodeSecret). */
  secret: string;
  /** The mail as the dev outbox shows it; null in production, where no code is stored in clear. */
  outbox: { subject: string; body: string } | null;
}

/**
 * Stores a new code (as its HMAC), supersedes older unused ones and, in development only, keeps the
 * mail with its code in the outbox table. Returns the code's row id (for {@link withdrawCode}).
 */
export async function issueCode(db: Db, input: IssueCodeInput): Promise<number> {
  return transact(db, async (trx) => {
    await trx
      .updateTable('mail_codes')
      .set({ used_at: input.now })
      .where('email', '=', input.email)
      .where('purpose', '=', input.purpose)
      .where('used_at', 'is', null)
      .execute();
    const row = await trx
      .insertInto('mail_codes')
      .values({
        email: input.email,
        purpose: input.purpose,
        code_hash: hashCode(input.secret, input.email, input.purpose, input.code),
        created_at: input.now,
        expires_at: input.now + MAIL_CODE_TTL_MS,
        used_at: null,
        failed_attempts: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (input.outbox) {
      await trx
        .insertInto('outbox')
        .values({ to_email: input.email, subject: input.outbox.subject, body: input.outbox.body, code: input.code, created_at: input.now })
        .execute();
    }
    return row.id;
  });
}

/**
 * Forgets a code whose mail could not be sent, so the user may ask again at once (the resend wait
 * counts from the newest row).
 */
export async function withdrawCode(db: Db, id: number): Promise<void> {
  await db.deleteFrom('mail_codes').where('id', '=', id).execute();
}

/**
 * Production start: empties the dev outbox (codes in clear from a development run) and drops every
 * used or expired code row.
 */
export async function purgeMailSecrets(db: Db, now: number): Promise<void> {
  await db.deleteFrom('outbox').execute();
  await db
    .deleteFrom('mail_codes')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
    .execute();
}

/**
 * Checks and consumes a code: true once for the current unexpired code; every later call,
 * an expired code or a wrong guess gives false. Wrong guesses count towards burning the code.
 */
export async function consumeCode(db: Db, secret: string, email: string, purpose: MailPurpose, code: string, now: number): Promise<boolean> {
  return transact(db, async (trx) => {
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
    const expected = Buffer.from(active.code_hash, 'utf8');
    const actual = Buffer.from(hashCode(secret, email, purpose, code), 'utf8');
    if (expected.length === actual.length && timingSafeEqual(expected, actual)) {
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
