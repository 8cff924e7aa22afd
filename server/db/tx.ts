import { dialectOf } from './connection.ts';
import type { Db } from './connection.ts';

/**
 * Transactions that survive concurrency on PostgreSQL (docs/DATABASE.md "Concurrency").
 *
 * Balance changes take per-wallet locks in a fixed order (server/ledger/post.ts), so a single posting
 * cannot deadlock; a transaction that posts several times, or updates other rows first, still can, and
 * PostgreSQL then aborts one side with SQLSTATE 40P01 (deadlock) or 40001 (serialization failure). Such
 * a transaction did nothing and is simply run again. On SQLite (one writer, BEGIN IMMEDIATE semantics of
 * Kysely's single connection) nothing is retried.
 */

/** SQLSTATEs after which the whole transaction can be run again. */
const RETRYABLE = new Set(['40001', '40P01']);

export function isRetryableTxError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && RETRYABLE.has(String((err as { code?: unknown }).code));
}

/** Runs `attempt` (which must open its own transaction and be free of side effects outside it) until it does not fail with a retryable error. */
export async function withTxRetry<T>(db: Db, attempt: () => Promise<T>, tries = 30): Promise<T> {
  if (dialectOf(db) !== 'postgres') return attempt();
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= tries || !isRetryableTxError(err)) throw err;
      // A random, growing pause (full jitter, capped at 200 ms) so the two sides of a deadlock do not meet again at once.
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * Math.min(200, 2 ** i))));
    }
  }
}

/** `db.transaction().execute(fn)`, retried on deadlock / serialization failure on PostgreSQL. `fn` may run more than once. */
export function transact<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return withTxRetry(db, () => db.transaction().execute(fn));
}

/**
 * Whether a read that will be written back in the same transaction should take `FOR UPDATE` row locks:
 * on PostgreSQL yes (another process may change the row in between), on SQLite there is nothing to lock
 * (one writer) and the syntax does not exist. Use as `.$if(lockRows(trx), (q) => q.forUpdate())`.
 */
export function lockRows(db: Db): boolean {
  return dialectOf(db) === 'postgres';
}
