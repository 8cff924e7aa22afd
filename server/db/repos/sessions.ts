import type { Db } from '../connection.ts';
import { compiledShape } from '../compiledShape.ts';

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

/** The session behind a token hash if it is neither revoked nor expired at `now`. */
export async function findActiveSession(db: Db, tokenHash: string, now: number): Promise<{ id: number; user_id: number; expires_at: number } | undefined> {
  return (await selectActiveSession(db, tokenHash, now)).rows[0];
}

/** Every authenticated request runs it: compiled once per dialect (server/db/compiledShape.ts). */
const selectActiveSession = compiledShape(
  (db: Db, tokenHash: string, now: number) =>
    db.selectFrom('sessions').select(['id', 'user_id', 'expires_at']).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).where('expires_at', '>', now),
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
