import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JournalCorruptError, JournalWriteError } from '../../server/engine/journal.ts';
import type { JournalRecord } from '../../server/engine/journal.ts';
import { PgJournal } from '../../server/engine/journalPg.ts';
import { openTestDb, TEST_DIALECT } from './testDb.ts';
import type { TestDb } from './testDb.ts';

/**
 * The journal's PostgreSQL adapter on a real database (the `postgres` vitest project; the SQLite
 * run has no PostgreSQL and skips it): what is acknowledged reads back in order, one event-loop
 * turn is one insert, a failed insert rejects its batch and the journal resumes, a gap or a second
 * writer is refused.
 */
describe.skipIf(TEST_DIALECT !== 'postgres')('PostgreSQL journal', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb();
  });
  afterAll(async () => t.close());
  const reset = () => sql`DROP TABLE IF EXISTS engine_journal`.execute(t.db);
  const readAll = async (): Promise<{ records: JournalRecord[]; journal: PgJournal }> => {
    const records: JournalRecord[] = [];
    const journal = await PgJournal.open(t.db, { onRecord: (r) => records.push(r) });
    return { records, journal };
  };

  it('reads back exactly what was appended, batch by batch, across reopenings', async () => {
    const body = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(body, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), async (groups) => {
        await reset();
        const written: JournalRecord[] = [];
        for (const [gi, g] of groups.entries()) {
          const { records: before, journal: j } = await readAll();
          expect(before).toEqual(written);
          const recs = g.map((b, i) => ({ seq: j.nextSeq + i, t: 1_700_000_000_000 + gi, body: b }));
          await Promise.all(recs.map((r) => j.append(r)));
          expect(j.stats).toMatchObject({ batches: 1, records: recs.length });
          written.push(...recs);
          await j.close();
        }
        const { records, journal } = await readAll();
        expect(records).toEqual(written);
        expect(journal.nextSeq).toBe(written.length + 1);
      }),
      { numRuns: 15 },
    );
  });

  it('a failed insert rejects its batch and what followed it; once the table is back the journal resumes', async () => {
    await reset();
    const { journal: j } = await readAll();
    await Promise.all([1, 2].map((seq) => j.append({ seq, t: 0, body: { ok: seq } })));
    await sql`ALTER TABLE engine_journal RENAME TO engine_journal_away`.execute(t.db);
    const failed = await Promise.allSettled([3, 4].map((seq) => j.append({ seq, t: 0, body: { lost: seq } })));
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((failed[0] as PromiseRejectedResult).reason).toBeInstanceOf(JournalWriteError);
    expect([j.durableSeq, j.nextSeq]).toEqual([2, 3]);
    await sql`ALTER TABLE engine_journal_away RENAME TO engine_journal`.execute(t.db);
    await j.append({ seq: 3, t: 0, body: { resumed: true } });
    await j.close();
    expect((await readAll()).records.map((r) => r.body)).toEqual([{ ok: 1 }, { ok: 2 }, { resumed: true }]);
  });

  it('a second writer of the same seq fails; a gap in the table stops the open', async () => {
    await reset();
    const a = (await readAll()).journal;
    const b = (await readAll()).journal;
    await a.append({ seq: 1, t: 0, body: 'a' });
    await expect(b.append({ seq: 1, t: 0, body: 'b' })).rejects.toThrow(/already written by another engine/);
    await a.append({ seq: 2, t: 0, body: 'a2' });
    await a.append({ seq: 3, t: 0, body: 'a3' });
    await sql`DELETE FROM engine_journal WHERE seq = 2`.execute(t.db);
    await expect(PgJournal.open(t.db)).rejects.toThrow(JournalCorruptError);
    await expect(PgJournal.open(t.db)).rejects.toThrow('engine_journal: seq 2 is missing (next row has seq 3)');
  });
});
