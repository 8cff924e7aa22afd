import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledShape, insertRow } from '../../server/db/compiledShape.ts';
import type { Db } from '../../server/db/connection.ts';
import { openTestDb } from './testDb.ts';
import type { TestDb } from './testDb.ts';

/**
 * server/db/compiledShape.ts: a query compiled once and run with fresh parameters answers exactly
 * what Kysely's own builder answers for the same values, on the test database of the project
 * (SQLite, and PostgreSQL in the `postgres` project).
 */
let t: TestDb;
let db: Db;

const wallets = ['perp', 'std', 'fund'] as const;
const byShape = compiledShape(
  (d: Db, userId: string, wallet: (typeof wallets)[number], minAmount: string) =>
    d.selectFrom('ledger_refs').select(['ref', 'symbol']).where('ref', '>=', minAmount).where('symbol', '!=', wallet).where('symbol', '!=', userId).orderBy('ref'),
  3,
);

describe('compiledShape', () => {
  beforeAll(async () => {
    t = await openTestDb();
    db = t.db;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('inserts rows and reads them back exactly as the builder does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.record({ ref: fc.string({ minLength: 1, maxLength: 12 }), symbol: fc.constantFrom('BTCUSDT', 'perp', 'std', 'fund', '1', '2', "it's") }), {
          selector: (r) => r.ref,
          maxLength: 20,
        }),
        fc.constantFrom('1', '2', '3'),
        fc.constantFrom(...wallets),
        fc.string({ maxLength: 3 }),
        async (rows, userId, wallet, min) => {
          await db.deleteFrom('ledger_refs').execute();
          for (const r of rows) await insertRow(db, 'ledger_refs', r);
          const built = await db.selectFrom('ledger_refs').select(['ref', 'symbol']).where('ref', '>=', min).where('symbol', '!=', wallet).where('symbol', '!=', userId).orderBy('ref').execute();
          expect((await byShape(db, userId, wallet, min)).rows).toEqual(built);
          expect(await db.selectFrom('ledger_refs').select(['ref', 'symbol']).orderBy('ref').execute()).toEqual([...rows].sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0)));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('refuses a builder that puts an argument into the SQL text instead of a parameter', async () => {
    const bad = compiledShape((d: Db, column: string) => d.selectFrom('ledger_refs').select(column as 'ref'), 1);
    await expect(bad(db, 'ref')).rejects.toThrow(/not bound as a parameter/);
  });
});
