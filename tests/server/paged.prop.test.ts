import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connection.ts';
import { pageOf } from '../../server/db/paged.ts';
import { createUser } from '../../server/db/repos/users.ts';
import { openTestDb } from './testDb.ts';
import type { TestDb } from './testDb.ts';

/**
 * pageOf against a model on real SQLite: for random rows (with ties in time), filters and page
 * requests, the page is the model's rows sorted newest first (time, then id, descending) sliced
 * at (page-1)*pageSize, and total counts the filtered set.
 */
let db: Db;
let testDb: TestDb;
let uids: number[] = [];
beforeAll(async () => {
  testDb = await openTestDb();
  db = testDb.db;
  uids = [(await createUser(db, { email: 'a@example.com', passwordHash: '!', invitedBy: null, now: 0 })).id, (await createUser(db, { email: 'b@example.com', passwordHash: '!', invitedBy: null, now: 0 })).id];
});
afterAll(async () => testDb.close());

describe('pageOf', () => {
  it('equals the sorted, filtered, sliced model', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ user: fc.constantFrom(0, 1), t: fc.integer({ min: 0, max: 5 }) }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 7 }),
        async (rows, page, pageSize) => {
          await db.deleteFrom('login_history').execute();
          const ids: { id: number; user: number; t: number }[] = [];
          for (const r of rows) {
            const ins = await db.insertInto('login_history').values({ user_id: uids[r.user] as number, created_at: r.t, client: 'c', ip: 'i', account: 'a' }).returning('id').executeTakeFirstOrThrow();
            ids.push({ id: ins.id, user: r.user, t: r.t });
          }
          const got = await pageOf(
            db.selectFrom('login_history').where('user_id', '=', uids[0] as number),
            { page, pageSize },
            ['created_at', 'id'],
            (qb) => qb.select(['id', 'created_at']),
            (r) => r.id,
          );
          const model = ids.filter((r) => r.user === 0).sort((a, b) => b.t - a.t || b.id - a.id);
          expect(got).toEqual({ list: model.slice((page - 1) * pageSize, page * pageSize).map((r) => r.id), total: model.length, page, pageSize });
        },
      ),
      { numRuns: 60 },
    );
  });
});
