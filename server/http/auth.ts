import type { FastifyRequest } from 'fastify';
import { Code } from '../../src/protocol/envelope.ts';
import type { Db } from '../db/connection.ts';
import { readBarrier } from '../db/readBarrier.ts';
import { findActiveSessionUser } from '../db/repos/sessions.ts';
import type { UserRow } from '../db/schema.ts';
import { hashToken, tokenFromHeader } from '../services/tokens.ts';
import { reject, SERVER_MSG } from './errors.ts';

/** Who is calling: the user row and the session the token belongs to. */
export interface AuthContext {
  user: UserRow;
  sessionId: number;
  /** When the session expires (server-clock ms). */
  expiresAt: number;
}

/**
 * Resolves a raw token (as sent in the Authorization header or the user socket's first frame)
 * to its live session and user; undefined when unknown, revoked or expired at `now`.
 * The /api/ws/user socket uses this too.
 */
export async function resolveToken(db: Db, rawToken: string | undefined, now: number): Promise<AuthContext | undefined> {
  const token = tokenFromHeader(rawToken);
  if (!token) return undefined;
  const found = await findActiveSessionUser(db, hashToken(token), now);
  if (!found || found.user.role !== 'user') return undefined;
  return found;
}

/**
 * The user socket's `authenticate` (server/ws/userSocket.ts): the token's user, session id and
 * expiry, so revocations and expiry can end the socket later. Null for a dead token.
 */
export function socketAuthenticator(db: Db, clock: { now(): number }) {
  return async (token: string): Promise<{ userId: number; sessionId: number; expiresAt: number } | null> => {
    const auth = await resolveToken(db, token, clock.now());
    return auth ? { userId: auth.user.id, sessionId: auth.sessionId, expiresAt: auth.expiresAt } : null;
  };
}

/**
 * For handlers that need a login: the caller, or a 401 'Please log in again' envelope. A GET waits
 * until the tables written behind hold every command answered to the caller (server/db/readBarrier.ts:
 * the memory engine's read-your-writes; nothing to wait for on the SQL engine).
 */
export async function requireUser(req: FastifyRequest): Promise<AuthContext> {
  const { db, clock } = req.server.deps;
  const auth = await resolveToken(db, req.headers.authorization, clock.now());
  if (!auth) return reject(Code.unauthorized, SERVER_MSG.loginAgain);
  if (req.method === 'GET') {
    const wait = readBarrier(db, auth.user.id);
    if (wait) await wait;
  }
  return auth;
}
