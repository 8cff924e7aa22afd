import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { dbFile, openDb, openPostgres } from '../../server/db/connection.ts';
import type { Db } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrations.ts';
import type { DialectName } from '../../server/db/migrations.ts';
import { withDatabase } from './pgServer.ts';

/**
 * The database a server test runs on. TEST_DATABASE=postgres (the `postgres` vitest project, see
 * vite.config.ts) gives each call a fresh database on the PostgreSQL server that
 * tests/server/pgGlobalSetup.ts started (TEST_PG_URL), copied from a migrated template; otherwise a
 * SQLite file (or ':memory:') as before.
 */
export const TEST_DIALECT: DialectName = process.env.TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';

/** The database name the global setup migrates once; every test database is a copy of it. */
export const PG_TEMPLATE = 'rf_template';

export interface TestDb {
  db: Db;
  dialect: DialectName;
  /** postgres://… of this database (PostgreSQL only): other pools or processes can open it too. */
  url: string | null;
  /** Closes the handle and drops the database (PostgreSQL) . */
  close(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_PG_URL;
  if (!url) throw new Error('TEST_DATABASE=postgres needs TEST_PG_URL (run through the vitest `postgres` project, whose globalSetup starts the server)');
  return url;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** A fresh, migrated PostgreSQL database; returns its URL. */
export async function createPgDatabase(): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${PG_TEMPLATE}`));
  return withDatabase(adminUrl(), name);
}

export async function dropPgDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * Opens a fresh, migrated database of the run's dialect. `dir` holds the SQLite file (omit it for
 * ':memory:'); it is ignored on PostgreSQL.
 */
export async function openTestDb(dir?: string): Promise<TestDb> {
  if (TEST_DIALECT === 'postgres') {
    const url = await createPgDatabase();
    const db = openPostgres({ url });
    await migrateToLatest(db, 'postgres');
    return {
      db,
      dialect: 'postgres',
      url,
      async close() {
        await db.destroy();
        await dropPgDatabase(url);
      },
    };
  }
  const db = openDb({ filename: dir ? dbFile(dir) : ':memory:' });
  await migrateToLatest(db, 'sqlite');
  return { db, dialect: 'sqlite', url: null, close: () => db.destroy() };
}

/** Another pool on an existing test database (PostgreSQL): closing it leaves the database to its owner. */
export function sharedTestDb(url: string): TestDb {
  const db = openPostgres({ url });
  return { db, dialect: 'postgres', url, close: () => db.destroy() };
}
