import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect } from 'kysely';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import type { DialectName } from './migrations.ts';
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
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  sqlite.pragma('temp_store = MEMORY');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingPrepare(sqlite) }) });
}

/** The largest integer a JS number holds exactly (2^53 - 1), as a bigint for the range check. */
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * PostgreSQL BIGINT (oid 20) arrives as a string by default. Every BIGINT column of the schema is an
 * id or a millisecond timestamp (money is TEXT of minor units, server/db/money.ts), all far below 2^53,
 * so they are parsed to numbers; a value outside the safe range throws rather than lose digits.
 * `count(*)` is BIGINT too and gets the same treatment. NUMERIC (oid 1700) is left a string.
 */
function parseBigintSafe(text: string): number {
  const big = BigInt(text);
  if (big > MAX_SAFE || big < -MAX_SAFE) throw new RangeError(`BIGINT ${text} is outside the exact range of a JS number`);
  return Number(big);
}

/** A type parser set private to our pool: no global pg.types mutation, so other pg users in the process are unaffected. */
const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === 20 && format !== 'binary') return parseBigintSafe;
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as unknown as pg.CustomTypesConfig;

export interface OpenPostgresOptions {
  /** postgres://user:pass@host:port/db */
  url: string;
  /** Pool size (default 10). */
  max?: number;
}

/** Opens PostgreSQL through a pg Pool behind Kysely's PostgresDialect. */
export function openPostgres({ url, max = 10 }: OpenPostgresOptions): Db {
  const pool = new pg.Pool({ connectionString: url, max, types: pgTypes });
  // An idle client that loses its server (restart, kill) emits 'error' on the pool: log it, do not crash.
  pool.on('error', (err) => console.error('postgres pool:', err.message));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export interface DatabaseChoice {
  /** DATABASE_URL: postgres://… selects PostgreSQL; empty keeps SQLite in DATA_DIR. */
  databaseUrl?: string | null;
  dataDir: string;
  freshDb?: boolean;
}

/** The one entry point the server and the CLIs use: PostgreSQL when DATABASE_URL is set, SQLite in DATA_DIR otherwise. */
export function openDatabase(c: DatabaseChoice): { db: Db; dialect: DialectName } {
  if (c.databaseUrl) {
    if (!/^postgres(ql)?:\/\//.test(c.databaseUrl)) throw new Error(`DATABASE_URL must be postgres://…, got ${c.databaseUrl.split(':')[0]}:`);
    return { db: openPostgres({ url: c.databaseUrl }), dialect: 'postgres' };
  }
  return { db: openDb({ filename: dbFile(c.dataDir), fresh: c.freshDb ?? false }), dialect: 'sqlite' };
}

/** Which dialect a handle (or a transaction of it) speaks: repositories switch the few non-portable statements on it. */
export function dialectOf(db: Kysely<unknown> | Db): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** Where the database file of a DATA_DIR lives. */
export function dbFile(dataDir: string): string {
  return join(dataDir, 'app.db');
}

/**
 * For the CLIs (npm run outbox, kyc, copy, wallet): the server's database, or a message when the
 * SQLite file does not exist yet (they must not create an empty one). PostgreSQL is opened as is.
 */
export function openExistingDatabase(c: DatabaseChoice): Db | string {
  if (!c.databaseUrl && !existsSync(dbFile(c.dataDir))) {
    return `No database at ${dbFile(c.dataDir)}. Start the server first (npm start), set DATA_DIR or DATABASE_URL.`;
  }
  return openDatabase({ ...c, freshDb: false }).db;
}
