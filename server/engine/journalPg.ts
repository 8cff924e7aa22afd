import { sql } from 'kysely';
import type { Db } from '../db/connection.ts';
import { BatchingJournal, JournalCorruptError, JournalWriteError } from './journal.ts';
import type { JournalRecord } from './journal.ts';

/** Rows read at a time when replaying. */
const PAGE = 10_000;

/**
 * The journal on PostgreSQL, for cluster deployments (the engine's state must be loadable by a
 * standby that takes the broker lock, so the journal lives in the shared database): table
 * `engine_journal (seq bigint primary key, t bigint, body text)`, one row per command. A batch is
 * ONE multi-row insert (`unnest` of three arrays: one statement whatever its size) in its own
 * commit; the primary key fences a second writer (a duplicate seq fails its batch). The body is the
 * record's JSON as text, stored as written.
 *
 * The table is created on open (IF NOT EXISTS) while the engine that will use it is not wired yet
 * (docs/SCALING.md); it moves into the migrations with that engine.
 */
export class PgJournal extends BatchingJournal {
  private constructor(
    private readonly db: Db,
    nextSeq: number,
    readonly recovered: number,
  ) {
    super(nextSeq);
  }

  static async ensureTable(db: Db): Promise<void> {
    await sql`CREATE TABLE IF NOT EXISTS engine_journal (seq bigint PRIMARY KEY, t bigint NOT NULL, body text NOT NULL)`.execute(db);
  }

  /**
   * Replays the table in seq order (`onRecord` sees every record) and positions appends after the
   * last. A gap in the sequence or a body that is not JSON throws JournalCorruptError.
   */
  static async open(db: Db, opts: { onRecord?: (rec: JournalRecord) => void; firstSeq?: number } = {}): Promise<PgJournal> {
    await PgJournal.ensureTable(db);
    let last: number | null = null;
    let records = 0;
    for (;;) {
      const from: number = last ?? 0;
      const { rows }: { rows: { seq: string; t: string; body: string }[] } = await sql<{ seq: string; t: string; body: string }>`
        SELECT seq, t, body FROM engine_journal WHERE seq > ${from} ORDER BY seq LIMIT ${PAGE}`.execute(db);
      for (const row of rows) {
        const seq = Number(row.seq);
        if (last !== null && seq !== last + 1) throw new JournalCorruptError(`engine_journal: seq ${last + 1} is missing (next row has seq ${seq}); the journal is not one sequence (refusing to start)`);
        let body: unknown;
        try {
          body = JSON.parse(row.body);
        } catch {
          throw new JournalCorruptError(`engine_journal: the body of seq ${seq} is not JSON (refusing to start)`);
        }
        opts.onRecord?.({ seq, t: Number(row.t), body });
        last = seq;
        records += 1;
      }
      if (rows.length < PAGE) break;
    }
    return new PgJournal(db, last === null ? (opts.firstSeq ?? 1) : last + 1, records);
  }

  protected async persist(records: readonly JournalRecord[]): Promise<number> {
    const bodies = records.map((r) => JSON.stringify(r.body));
    try {
      await sql`INSERT INTO engine_journal (seq, t, body)
        SELECT * FROM unnest(${records.map((r) => r.seq)}::bigint[], ${records.map((r) => r.t)}::bigint[], ${bodies}::text[])`.execute(this.db);
    } catch (cause) {
      const code = (cause as { code?: string }).code;
      if (code === '23505') throw new JournalWriteError(`journal write failed: seq ${records[0]?.seq} was already written by another engine (two writers)`, cause);
      throw new JournalWriteError(`journal write failed: ${String((cause as Error)?.message ?? cause)}`, cause);
    }
    return bodies.reduce((n, b) => n + b.length + 16, 0);
  }

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}
