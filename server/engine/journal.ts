import type { JournalRecord } from './journalFormat.ts';

export type { JournalRecord } from './journalFormat.ts';

/**
 * The engine's persistence port for commands (after exchange-core's ISerializationProcessor, see
 * ../shared/DESIGN.md §8): the engine numbers each command, applies it to its state, appends the
 * record here and answers once the returned promise resolves, i.e. once the record is durable.
 *
 * Group commit: records appended during one event-loop turn are written together, one write and
 * one fsync (file) or one multi-row insert in one commit (PostgreSQL); records appended while that
 * is in flight form the next batch. Adapters: `FileJournal` (journalFile.ts, the embedded default
 * under DATA_DIR), `PgJournal` (journalPg.ts, cluster deployments) and `MemoryJournal` (tests).
 */
export interface Journal {
  /** The seq the next append must carry (the last appended + 1). */
  readonly nextSeq: number;
  /** The last seq known durable (0: none). */
  readonly durableSeq: number;
  /**
   * Appends `rec` (its seq must be `nextSeq`); resolves once it is durable. Rejects with a
   * JournalWriteError when its batch could not be made durable: then every record not yet durable
   * is dropped with it (they follow it in sequence), `nextSeq` goes back to `durableSeq + 1`, and the
   * caller must bring its state back to `durableSeq` (state applied past it was never acknowledged).
   * The next append tries again (e.g. once the disk has room).
   */
  append(rec: JournalRecord): Promise<void>;
  /** Resolves once everything appended so far is durable (or failed). */
  drain(): Promise<void>;
  readonly stats: JournalStats;
  close(): Promise<void>;
}

export interface JournalStats {
  batches: number;
  records: number;
  bytes: number;
  /** Sum of the batches' write + sync time (ms): with `batches`, the mean cost of one group commit. */
  syncMs: number;
  /** The largest batch so far (records). */
  maxBatch: number;
}

/** A batch could not be made durable (disk full, I/O error, database away). */
export class JournalWriteError extends Error {
  constructor(
    message: string,
    override readonly cause: unknown,
  ) {
    super(message);
    this.name = 'JournalWriteError';
  }
}

/** The journal cannot be read past a point that is not its torn end: the engine must not start. */
export class JournalCorruptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalCorruptError';
  }
}

export function emptyStats(): JournalStats {
  return { batches: 0, records: 0, bytes: 0, syncMs: 0, maxBatch: 0 };
}

interface Pending {
  rec: JournalRecord;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The group-commit machinery every adapter shares: it gathers the records of an event-loop turn
 * and hands them to `persist` as one batch, one batch in flight at a time, in order.
 */
export abstract class BatchingJournal implements Journal {
  private pending: Pending[] = [];
  private scheduled = false;
  private flushing: Promise<void> | null = null;
  private closed = false;
  readonly stats = emptyStats();
  /** Told of each durable batch (records, bytes, write + sync ms): the metrics endpoint's histograms (server/http/metrics.ts). */
  onBatch: ((b: { records: number; bytes: number; ms: number }) => void) | null = null;
  private next: number;
  private durable: number;

  protected constructor(nextSeq: number) {
    this.next = nextSeq;
    this.durable = nextSeq - 1;
  }

  get nextSeq(): number {
    return this.next;
  }

  get durableSeq(): number {
    return this.durable;
  }

  /** Makes `records` durable (one write + sync, or one commit), or throws leaving nothing of them visible. */
  protected abstract persist(records: readonly JournalRecord[]): Promise<number>;
  protected abstract release(): Promise<void>;

  append(rec: JournalRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error('journal closed'));
    if (rec.seq !== this.next) return Promise.reject(new RangeError(`journal append out of sequence: got ${rec.seq}, expected ${this.next}`));
    this.next += 1;
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ rec, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // One event-loop turn: every command of this turn joins the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flushing = this.flushLoop().finally(() => {
        this.flushing = null;
        if (this.pending.length > 0) this.schedule();
      });
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      const started = performance.now();
      try {
        const bytes = await this.persist(batch.map((p) => p.rec));
        const ms = performance.now() - started;
        this.stats.syncMs += ms;
        this.stats.batches += 1;
        this.stats.records += batch.length;
        this.stats.bytes += bytes;
        this.stats.maxBatch = Math.max(this.stats.maxBatch, batch.length);
        this.durable = (batch[batch.length - 1] as Pending).rec.seq;
        try {
          this.onBatch?.({ records: batch.length, bytes, ms });
        } catch {
          // An observer's failure is never the journal's.
        }
        for (const p of batch) p.resolve();
      } catch (cause) {
        // What followed the failed batch cannot be durable before it: all of it fails.
        const failed = [...batch, ...this.pending];
        this.pending = [];
        this.next = this.durable + 1;
        const err = cause instanceof JournalWriteError ? cause : new JournalWriteError(`journal write failed: ${String((cause as Error)?.message ?? cause)}`, cause);
        for (const p of failed) p.reject(err);
      }
    }
  }

  async drain(): Promise<void> {
    while (this.scheduled || this.flushing || this.pending.length > 0) {
      if (this.flushing) await this.flushing;
      else await new Promise((r) => setImmediate(r));
    }
  }

  async close(): Promise<void> {
    await this.drain();
    this.closed = true;
    await this.release();
  }
}

/** Records in memory: the port's behaviour without storage, for tests of what sits on it. */
export class MemoryJournal extends BatchingJournal {
  readonly records: JournalRecord[] = [];
  /** Batches as persisted (their sizes), to observe group commit. */
  readonly batchSizes: number[] = [];

  constructor(nextSeq = 1) {
    super(nextSeq);
  }

  protected persist(records: readonly JournalRecord[]): Promise<number> {
    // Through JSON, as the other adapters store them: a body that does not survive it fails here too.
    for (const r of records) this.records.push({ seq: r.seq, t: r.t, body: JSON.parse(JSON.stringify(r.body)) as unknown });
    this.batchSizes.push(records.length);
    return Promise.resolve(0);
  }

  protected release(): Promise<void> {
    return Promise.resolve();
  }
}
