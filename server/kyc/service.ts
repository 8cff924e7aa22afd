import { Code } from '../../src/protocol/envelope.ts';
import { KYC_MSG, maskDocNumber } from '../../src/protocol/kyc.ts';
import type { KycDecision, KycFields, KycStatusDto, KycSubmissionSummary } from '../../src/protocol/kyc.ts';
import type { Db } from '../db/connection.ts';
import type { KycSubmissionsTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';
import type { UserEventBus } from '../ws/userBus.ts';
import { transact } from '../db/tx.ts';

/**
 * Identity verification on the database (docs/KYC.md). Pure data rules, no HTTP: the routes, the
 * CLI and the dev endpoint all call these functions.
 *
 * Invariants:
 * - users.kyc_status and the submissions move together inside one transaction: `review` exactly
 *   when the latest submission is `review`; `verified` when the latest is `verified`; otherwise
 *   `unverified` (no submission, or the latest was rejected).
 * - a submission is accepted only from `unverified` (a conditional UPDATE, so two concurrent
 *   submits cannot both win); a decision applies only to a submission in `review`.
 * - submissions are never deleted or rewritten except for their decision fields.
 */

type SubmissionRow = Selectable<KycSubmissionsTable>;

/** An expected failure as a value: the envelope code and message to answer with. */
export type KycResult = { ok: true; status: KycStatusDto } | { ok: false; code: number; msg: string };

function summaryOf(r: SubmissionRow): KycSubmissionSummary {
  return {
    id: r.id,
    status: r.status,
    country: r.country,
    docType: r.doc_type,
    firstName: r.first_name,
    lastName: r.last_name,
    docNumberMasked: maskDocNumber(r.doc_number),
    reason: r.reason,
    submittedAt: Number(r.created_at),
    reviewedAt: r.reviewed_at === null ? null : Number(r.reviewed_at),
  };
}

/** The user's KYC status and latest submission (null when the user does not exist). */
export async function getKycStatus(db: Db, userId: number): Promise<KycStatusDto | null> {
  const user = await db.selectFrom('users').select('kyc_status').where('id', '=', userId).executeTakeFirst();
  if (!user) return null;
  const latest = await db.selectFrom('kyc_submissions').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  return { status: user.kyc_status, latest: latest ? summaryOf(latest) : null };
}

/** Every submission of a user, newest first (history for support and the CLI). */
export async function listKycSubmissions(db: Db, userId: number): Promise<KycSubmissionSummary[]> {
  const rows = await db.selectFrom('kyc_submissions').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();
  return rows.map(summaryOf);
}

function publish(bus: UserEventBus | undefined, userId: number, status: KycStatusDto): void {
  bus?.publish(userId, { type: 'kyc', data: status });
}

export interface SubmitKycInput {
  userId: number;
  fields: KycFields;
  /** File names (already written under DATA_DIR/kyc/) of the two photos. */
  coverFile: string;
  infoFile: string;
  now: number;
}

/**
 * Records a submission and moves the user unverified → review. Refused (409) when the user is
 * already in review or verified; the caller then deletes the files it wrote.
 */
export async function submitKyc(db: Db, input: SubmitKycInput, bus?: UserEventBus): Promise<KycResult> {
  const outcome = await transact(db, async (trx) => {
    const moved = await trx
      .updateTable('users')
      .set({ kyc_status: 'review' })
      .where('id', '=', input.userId)
      .where('kyc_status', '=', 'unverified')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) {
      const user = await trx.selectFrom('users').select('kyc_status').where('id', '=', input.userId).executeTakeFirst();
      if (!user) return { code: Code.notFound, msg: KYC_MSG.userNotFound };
      return { code: Code.conflict, msg: user.kyc_status === 'verified' ? KYC_MSG.alreadyVerified : KYC_MSG.alreadyInReview };
    }
    const f = input.fields;
    await trx
      .insertInto('kyc_submissions')
      .values({
        user_id: input.userId,
        country: f.country,
        doc_type: f.docType,
        first_name: f.firstName,
        last_name: f.lastName,
        doc_number: f.docNumber,
        cover_file: input.coverFile,
        info_file: input.infoFile,
        status: 'review',
        reason: null,
        created_at: input.now,
        reviewed_at: null,
      })
      .execute();
    return null;
  });
  return settle(db, input.userId, outcome, bus);
}

/**
 * The end of a submit or review: the transaction's refusal, or the user's new status, pushed as a
 * `kyc` frame on the user bus.
 */
async function settle(db: Db, userId: number, refusal: { code: number; msg: string } | null, bus?: UserEventBus): Promise<KycResult> {
  if (refusal) return { ok: false, ...refusal };
  const status = await getKycStatus(db, userId);
  if (!status) return { ok: false, code: Code.notFound, msg: KYC_MSG.userNotFound };
  publish(bus, userId, status);
  return { ok: true, status };
}

export interface ReviewKycInput {
  userId: number;
  decision: KycDecision;
  /** Required (non-blank) for a rejection; shown to the user. */
  reason?: string | undefined;
}

/**
 * A reviewer's decision on the submission in review: approve → submission `verified` and the user
 * `verified`; reject → submission `rejected` with the reason and the user back to `unverified`,
 * so they can submit again. Publishes the new status as a `kyc` frame on the user bus.
 */
export async function reviewKyc(db: Db, input: ReviewKycInput, now: number, bus?: UserEventBus): Promise<KycResult> {
  const reason = input.reason?.trim() ?? '';
  if (input.decision === 'reject' && reason === '') return { ok: false, code: Code.badRequest, msg: KYC_MSG.reasonRequired };
  const outcome = await transact(db, async (trx) => {
    const user = await trx.selectFrom('users').select('kyc_status').where('id', '=', input.userId).executeTakeFirst();
    if (!user) return { code: Code.notFound, msg: KYC_MSG.userNotFound };
    const sub = await trx
      .selectFrom('kyc_submissions')
      .select('id')
      .where('user_id', '=', input.userId)
      .where('status', '=', 'review')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!sub || user.kyc_status !== 'review') return { code: Code.conflict, msg: KYC_MSG.notInReview };
    const approve = input.decision === 'approve';
    await trx
      .updateTable('kyc_submissions')
      .set({ status: approve ? 'verified' : 'rejected', reason: approve ? null : reason, reviewed_at: now })
      .where('id', '=', sub.id)
      .execute();
    await trx
      .updateTable('users')
      .set({ kyc_status: approve ? 'verified' : 'unverified' })
      .where('id', '=', input.userId)
      .execute();
    return null;
  });
  return settle(db, input.userId, outcome, bus);
}

/** A user id by email (case-insensitive, like login), or undefined. */
export async function userIdByEmail(db: Db, email: string): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email.trim().toLowerCase()).where('role', '=', 'user').executeTakeFirst();
  return row?.id;
}

/** The demo account's plausible, already approved submission (no photo files exist for it). */
const DEMO_SUBMISSION = {
  country: 'HK',
  doc_type: 'passport',
  first_name: 'Demo',
  last_name: 'Trader',
  doc_number: 'K12345678',
  cover_file: 'demo-cover.png',
  info_file: 'demo-info.png',
} as const;

const DAY_MS = 86_400_000;

/**
 * Seeds `email` as VERIFIED with one approved submission (sent 60 days before `now`, approved a day
 * later, before the demo's compensation history), once: does nothing when the user is missing or
 * already has any submission. Returns true when it wrote.
 */
export async function seedVerifiedKyc(db: Db, email: string, now: number): Promise<boolean> {
  const userId = await userIdByEmail(db, email);
  if (userId === undefined) return false;
  const any = await db.selectFrom('kyc_submissions').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst();
  if (any) return false;
  await transact(db, async (trx) => {
    await trx
      .insertInto('kyc_submissions')
      .values({ user_id: userId, ...DEMO_SUBMISSION, status: 'verified', reason: null, created_at: now - 60 * DAY_MS, reviewed_at: now - 59 * DAY_MS })
      .execute();
    await trx.updateTable('users').set({ kyc_status: 'verified' }).where('id', '=', userId).execute();
  });
  return true;
}
