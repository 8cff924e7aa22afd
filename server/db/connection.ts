import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Database } from './schema.ts';
import { cachingPrepare } from './statementCache.ts';

/** The typed database handle every repository takes. */
export type Db = Kysely<Database>;

export interface OpenDbOptions {
  /** A file path, or ':memory:' for tests. */
  filename: string;
  /** Delete the file (and its WAL/SHM companions) first. */
  fresh?: boolean;
}

/**
 * Opens SQLite through better-sqlite3 behind Kysely. WAL lets readers run while one writer
 * commits; foreign keys are off by default in SQLite, so they are switched on per connection.
 * This is the only SQLite-specific module: swap the dialect here for PostgreSQL (docs/DATABASE.md).
 */
export function openDb({ filename, fresh = false }: OpenDbOptions): Db {
  if (filename !== ':memory:') {
    mkdirSync(dirname(filename), { recursive: true });
    if (fresh) {
      for (const f of [filename, `${filename}-wal`, `${filename}-shm`]) if (existsSync(f)) rmSync(f);
    }
  }
  const sqlite = new SqliteDatabase(filename);
  sqlite.pragma('journal_mode = WAL');
  // WAL with synchronous=NORMAL: a commit is in the WAL (the OS has it) when it returns, so a
  // killed process loses nothing it acknowledged; only a power cut can lose the last commits
  // before a checkpoint. FULL would fsync every commit (most of an order placement's time).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingPrepare(sqlite) }) });
}

/** Where the database file of a DATA_DIR lives. */
export function dbFile(dataDir: string): string {
  return join(dataDir, 'app.db');
}
