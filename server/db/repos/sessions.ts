import type { Db } from '../connection.ts';
import { compiledShape } from '../compiledShape.ts';
import type { UserRow } from '../schema.ts';

/** Tokens live 7 days from login. */
export const TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface NewSession {
  userId: number;
  tokenHash: string;
  now: number;
  ip: string;
  client: string;
}

export async function createSession(db: Db, s: NewSession): Promise<number> {
  const row = await db
    .insertInto('sessions')
    .values({ user_id: s.userId, token_hash: s.tokenHash, created_at: s.now, expires_at: s.now + TOKEN_TTL_MS, revoked_at: null, ip: s.ip, client: s.client })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The session behind a token hash if it is neither revoked nor expired at `now`, with its user's row:
 * one statement for every authenticated request (it was a session lookup, then a user lookup).
 */
export async function findActiveSessionUser(db: Db, tokenHash: string, now: number): Promise<{ user: UserRow; sessionId: number; expiresAt: number } | undefined> {
  const row = (await selectActiveSessionUser(db, tokenHash, now)).rows[0];
  if (!row) return undefined;
  const { session_id: sessionId, session_expires_at: expiresAt, ...user } = row;
  return { user, sessionId, expiresAt };
}

/** Compiled once per dialect (server/db/compiledShape.ts). */
const selectActiveSessionUser = compiledShape(
  (db: Db, tokenHash: string, now: number) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select(['sessions.id as session_id', 'sessions.expires_at as session_expires_at'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', now),
  2,
);

export async function revokeSession(db: Db, sessionId: number, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Revokes every live session of a user, except `keepSessionId` (the caller's own, after a password change). */
export async function revokeUserSessions(db: Db, userId: number, now: number, keepSessionId?: number): Promise<void> {
  let q = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepSessionId !== undefined) q = q.where('id', '!=', keepSessionId);
  await q.execute();
}
