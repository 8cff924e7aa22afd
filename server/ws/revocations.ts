import type { Db } from '../db/connection.ts';
import { revokeSession, revokeUserSessions } from '../db/repos/sessions.ts';

/**
 * Which sessions a revocation ends: one session (logout), or every session of a user, optionally
 * but one (password reset; a password change keeps the caller's own session).
 */
export type Revocation = { kind: 'session'; sessionId: number } | { kind: 'user'; userId: number; exceptSessionId?: number };

export type RevocationListener = (r: Revocation) => void;

/**
 * In-process fan-out of session revocations to whatever holds a session open beyond one request:
 * the /api/ws/user sockets close at once (close 4001) instead of streaming on for a dead token.
 * Delivery is synchronous; a throwing listener is isolated so the others still hear it.
 */
export interface RevocationHub {
  publish(r: Revocation): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: RevocationListener): () => void;
}

export function createRevocationHub(onError: (err: unknown) => void = () => {}): RevocationHub {
  const listeners = new Set<RevocationListener>();
  return {
    publish(r) {
      for (const l of [...listeners]) {
        try {
          l(r);
        } catch (err) {
          onError(err);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** Whether a revocation covers the session `sessionId` of user `userId` (sessionId unknown: any session of the user). */
export function covers(r: Revocation, userId: number, sessionId: number | undefined): boolean {
  if (r.kind === 'session') return sessionId === r.sessionId;
  return r.userId === userId && (sessionId === undefined || sessionId !== r.exceptSessionId);
}

/**
 * Revokes in the database and tells every listener.
 * NOTE: published before AND after the write. Before: no frame goes out for the token while the
 * write is in flight. After: a socket that finished its token lookup between the two (and so could
 * not be matched yet) is caught now that the database says revoked (userSocket re-checks after it
 * registers).
 */
export async function revokeAndNotify(db: Db, hub: RevocationHub, r: Revocation, now: number): Promise<void> {
  hub.publish(r);
  if (r.kind === 'session') await revokeSession(db, r.sessionId, now);
  else await revokeUserSessions(db, r.userId, now, r.exceptSessionId);
  hub.publish(r);
}
