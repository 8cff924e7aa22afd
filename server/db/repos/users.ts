import { randomInt } from 'node:crypto';
import { compiledShape } from '../compiledShape.ts';
import { sql } from 'kysely';
import { dialectOf } from '../connection.ts';
import type { Db } from '../connection.ts';
import type { UserRow, UserUpdate } from '../schema.ts';

/** The first UID handed to a real user (1 is the system account). */
export const FIRST_UID = 10_000_001;
const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 8 characters from an alphabet without look-alikes (0/O, 1/I). */
export function randomInviteCode(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return s;
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).where('role', '=', 'user').executeTakeFirst();
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return (await selectUserById(db, id)).rows[0];
}

/** Every authenticated request runs it: compiled once per dialect (server/db/compiledShape.ts). */
const selectUserById = compiledShape((db: Db, id: number) => db.selectFrom('users').selectAll().where('id', '=', id), 1);

export function findUserByInviteCode(db: Db, code: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('invite_code', '=', code).where('role', '=', 'user').executeTakeFirst();
}

export interface CreateUserInput {
  email: string;
  passwordHash: string;
  invitedBy: number | null;
  now: number;
}

/**
 * The next UID. SQLite: `max(id) + 1` inside the caller's transaction (one writer at a time).
 * PostgreSQL: the `users_uid_seq` sequence (migration 0040), since concurrent transactions on several
 * processes would read the same max.
 */
async function nextUid(db: Db): Promise<number> {
  if (dialectOf(db) === 'postgres') {
    const r = await sql<{ id: number }>`SELECT nextval('users_uid_seq') AS id`.execute(db);
    return Number(r.rows[0]?.id);
  }
  const max = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('id').as('max'))
    .where('role', '=', 'user')
    .executeTakeFirst();
  return Math.max(Number(max?.max ?? 0) + 1, FIRST_UID);
}

/** Inserts a user with the next UID (see {@link nextUid}) and a fresh unique invite code. */
export async function createUser(db: Db, input: CreateUserInput): Promise<UserRow> {
  const id = await nextUid(db);
  let inviteCode = randomInviteCode();
  while (await findUserByInviteCode(db, inviteCode)) inviteCode = randomInviteCode();
  const row: UserRow = {
    id,
    email: input.email,
    password_hash: input.passwordHash,
    nickname: `Trader${String(id).slice(-4)}`,
    invite_code: inviteCode,
    invited_by: input.invitedBy,
    avatar: null,
    kyc_status: 'unverified',
    google_secret: null,
    google_pending_secret: null,
    withdraw_lock_until: 0,
    google_last_step: 0,
    role: 'user',
    created_at: input.now,
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

export async function updateUser(db: Db, id: number, patch: UserUpdate): Promise<void> {
  await db.updateTable('users').set(patch).where('id', '=', id).execute();
}

/**
 * Accepts a TOTP step for a user at most once: atomically raises `google_last_step` to `step`
 * only if it is below it. False means the code (or an earlier one) was already used: a replay.
 */
export async function claimTotpStep(db: Db, id: number, step: number): Promise<boolean> {
  const r = await db.updateTable('users').set({ google_last_step: step }).where('id', '=', id).where('google_last_step', '<', step).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
