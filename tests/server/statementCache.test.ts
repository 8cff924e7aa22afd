import SqliteDatabase from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrations.ts';
import { cachingPrepare } from '../../server/db/statementCache.ts';

describe('cachingPrepare', () => {
  it('hands back the same statement for the same SQL and evicts the least recently used', () => {
    const raw = new SqliteDatabase(':memory:');
    let prepared = 0;
    const counting = { close: () => raw.close(), prepare: (sql: string) => ((prepared += 1), raw.prepare(sql)) };
    const db = cachingPrepare(counting, 2);
    const a = db.prepare('select 1 as v');
    expect(db.prepare('select 1 as v')).toBe(a);
    expect(prepared).toBe(1);
    db.prepare('select 2 as v');
    db.prepare('select 1 as v'); // touch: 'select 2' is now the oldest
    db.prepare('select 3 as v'); // evicts 'select 2'
    expect(db.cached()).toBe(2);
    expect(prepared).toBe(3);
    expect(db.prepare('select 1 as v')).toBe(a);
    db.prepare('select 2 as v');
    expect(prepared).toBe(4);
    expect(db.prepare('select 3 as v').all([])).toEqual([{ v: 3 }]);
    db.close();
  });

  it('a cached statement sees the schema and data changes made after it was prepared', async () => {
    const db = openDb({ filename: ':memory:' });
    await migrateToLatest(db);
    const count = () => db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const before = Number((await count()).n);
    await db
      .insertInto('users')
      .values({ id: 987654, email: 'a@example.com', password_hash: '!', nickname: 'a', invite_code: 'AAAA1', created_at: 1, role: 'user', kyc_status: 'unverified', withdraw_lock_until: 0, google_last_step: 0 })
      .execute();
    expect(Number((await count()).n)).toBe(before + 1);
    await db.schema.alterTable('users').addColumn('extra_for_test', 'text').execute();
    const rows = await db.selectFrom('users').selectAll().execute();
    expect(Object.keys(rows[0] ?? {})).toContain('extra_for_test');
    expect(rows).toHaveLength(before + 1);
    await db.destroy();
  });
});
