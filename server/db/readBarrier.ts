import type { Db } from './connection.ts';

/**
 * Read-your-writes for tables written behind (issue 28, docs/SCALING.md "Read your writes"): the
 * memory engine answers a command once its journal record is durable and writes the tables behind
 * it, so a read of those tables right after an answer could miss it. The engine sets a barrier on
 * its database: `readBarrier(db, userId)` is undefined when the tables already hold everything
 * acknowledged to that user (the common case: no wait, no promise), else a promise that resolves
 * once they do (or after the engine's bound). server/http/auth.ts requireUser awaits it for every
 * authenticated GET, so each history, fills, ledger or positions read follows the caller's own
 * answers. Keyed like the ledger authority (server/ledger/post.ts), by the database's adapter.
 */
export type ReadBarrier = (userId: number) => Promise<void> | undefined;

const BARRIERS = new WeakMap<object, ReadBarrier>();

export function setReadBarrier(db: Db, barrier: ReadBarrier): () => void {
  const key = db.getExecutor().adapter;
  BARRIERS.set(key, barrier);
  return () => {
    if (BARRIERS.get(key) === barrier) BARRIERS.delete(key);
  };
}

export function readBarrier(db: Db, userId: number): Promise<void> | undefined {
  return BARRIERS.get(db.getExecutor().adapter)?.(userId);
}
