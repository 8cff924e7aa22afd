import pg from 'pg';
import { openPostgres } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrations.ts';
import { startPostgres, withDatabase } from './pgServer.ts';
import { PG_TEMPLATE } from './testDb.ts';

/**
 * vitest globalSetup of the `postgres` project: one PostgreSQL server for the whole run (initdb once),
 * a migrated template database every test database is copied from, and TEST_PG_URL for the workers.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const server = await startPostgres();
  const c = new pg.Client({ connectionString: server.url });
  await c.connect();
  await c.query(`CREATE DATABASE ${PG_TEMPLATE}`);
  await c.end();
  const db = openPostgres({ url: withDatabase(server.url, PG_TEMPLATE), max: 1 });
  await migrateToLatest(db, 'postgres');
  await db.destroy();
  process.env.TEST_PG_URL = server.url;
  return () => server.stop();
}
