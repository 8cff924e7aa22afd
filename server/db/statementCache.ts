import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query afresh; on the order path (a dozen statements per
 * placement) preparing cost as much as running. Queries are built from a fixed set of shapes, so
 * the prepared statement for each SQL text is kept (least recently used out beyond `capacity`).
 * Safe because better-sqlite3 is synchronous and Kysely runs one query at a time on the one
 * connection; a statement being iterated (a streamed query) is never handed out twice.
 */
export function cachingPrepare(db: SqliteDatabase, capacity = 512): SqliteDatabase & { cached(): number } {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare(text: string) {
      // Kysely begins a transaction with a deferred `begin`; the memory engine's projector thread
      // writes the same file on a second connection (server/engine/projectorThread.ts), and a
      // deferred transaction that read before that thread committed could not write (SQLITE_BUSY,
      // never retried). `begin immediate` takes the write lock first, waiting busy_timeout for it.
      const sql = text === 'begin' ? 'begin immediate' : text;
      const hit = cache.get(sql);
      if (hit !== undefined) {
        // Re-insert: Map keeps insertion order, so the first key is the least recently used.
        cache.delete(sql);
        cache.set(sql, hit);
        return hit;
      }
      const stmt = db.prepare(sql);
      cache.set(sql, stmt);
      if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
      return stmt;
    },
    cached: () => cache.size,
  };
}
