import { sql } from 'kysely';
import { Worker } from 'node:worker_threads';
import type { Db } from '../db/connection.ts';
import { dialectOf } from '../db/connection.ts';
import type { Outcome } from './apply.ts';
import { PROJECTION_NAME, ProjectionGapError, projectionMark, Projector } from './projector.ts';
import type { BatchResult, ProjectorOptions } from './projector.ts';
import { tsxEsmApi } from './snapshots.ts';

/**
 * The projector off the engine's event loop (issue 28, docs/SCALING.md "The projector off the
 * engine's loop"): the same {@link Projector} (queue in seq order, the mark, `reached`, `lag`,
 * `stats`, retries, a gap refused), but each batch is written by a worker thread on its own
 * better-sqlite3 connection to the same database file, with prepared statements
 * (server/engine/projectorSqlite.ts), while the engine's loop goes on. A batch is everything durable
 * since the last one was sent (up to `maxBatch`, default 5 000), handed over as plain data (a
 * structured copy of the outcomes' rows, the answer DTOs left out).
 *
 * Until the thread has opened its connection (or if it cannot), batches are written in process
 * like the plain Projector's: the same rows, mark and idempotency, so a start's catch-up never waits
 * for the thread to load.
 *
 * For a SQLite database in a file only ({@link sqliteFileOf}); PostgreSQL and an in-memory SQLite
 * keep the in-process {@link Projector}.
 */
export class ProjectorThread extends Projector {
  private worker: Worker | null = null;
  /** Whether the thread has its connection and statements (till then, and if it cannot, batches are written in process). */
  private ready = false;
  private readyWaiters: ((ready: boolean) => void)[] = [];
  /** Batches the thread wrote (the others were written in process). */
  threadBatches = 0;
  private nextId = 1;
  private readonly inFlight = new Map<number, { resolve: (r: BatchResult) => void; reject: (err: Error) => void }>();

  private constructor(
    opts: ProjectorOptions,
    mark: { seq: number; t: number },
    private readonly file: string,
  ) {
    super({ maxBatch: 5_000, ...opts }, mark);
  }

  /** A projector thread continuing the mark in `db`, whose database is the SQLite file `file`. */
  static async openThread(opts: ProjectorOptions & { file: string }): Promise<ProjectorThread> {
    const { file, ...rest } = opts;
    const p = new ProjectorThread(rest, await projectionMark(opts.db, opts.name), file);
    // Started now: its modules load while the engine recovers.
    p.worker = p.spawn();
    return p;
  }

  private spawn(): Worker {
    // The worker runs the TypeScript sources as the server does (tsx's loader, registered in the worker first).
    const code = `import { register } from ${JSON.stringify(tsxEsmApi())}; register(); await import(${JSON.stringify(new URL('./projectorWorker.ts', import.meta.url).href)});`;
    const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData: { file: this.file, name: this.opts.name ?? PROJECTION_NAME } });
    w.on('message', (m: { id: number; result?: BatchResult; error?: { name: string; message: string }; ready?: boolean; fatal?: string }) => {
      if (m.ready) this.ready = true;
      if (m.fatal !== undefined) this.opts.onError?.(new Error(`projector thread: ${m.fatal} (the projector writes in process)`));
      if (m.ready || m.fatal !== undefined) for (const r of this.readyWaiters.splice(0)) r(this.ready);
      const p = this.inFlight.get(m.id);
      if (!p) return;
      this.inFlight.delete(m.id);
      // Idle, the thread does not keep the process alive; a batch in flight does (a stop waits for it).
      if (this.inFlight.size === 0) w.unref();
      if (m.result) p.resolve(m.result);
      else {
        const err = m.error?.name === 'ProjectionGapError' ? new ProjectionGapError(m.error.message) : new Error(`projector thread: ${m.error?.message ?? 'unknown error'}`);
        p.reject(err);
      }
    });
    const dead = (err: Error): void => {
      if (this.worker === w) {
        this.worker = null;
        this.ready = false;
      }
      for (const p of this.inFlight.values()) p.reject(err);
      this.inFlight.clear();
      for (const r of this.readyWaiters.splice(0)) r(false);
    };
    w.on('error', dead);
    w.on('exit', (code) => dead(new Error(`projector thread exited (code ${code})`)));
    w.unref();
    return w;
  }

  protected override writeBatch(batch: readonly Outcome[]): Promise<BatchResult> {
    const w = this.worker;
    // The thread still loading (a start's catch-up does not wait for it), or gone: the same batch in process.
    if (!w || !this.ready) {
      if (!w && !this.closed) this.worker = this.spawn();
      return super.writeBatch(batch);
    }
    const id = this.nextId++;
    this.threadBatches += 1;
    w.ref();
    return new Promise<BatchResult>((resolve, reject) => {
      this.inFlight.set(id, { resolve, reject });
      w.postMessage({ id, outcomes: batch.map(slim) });
    });
  }

  /** Resolves with true once the thread writes the batches (false if it could not open the database). */
  whenReady(): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Stops the automatic writes and ends the thread once the batch in flight (if any) is written. */
  override close(): void {
    super.close();
    const end = (): void => {
      const w = this.worker;
      this.worker = null;
      void w?.terminate();
    };
    if (this.running) this.running.then(end, end);
    else end();
  }
}

/** What the writer reads of an outcome (rowsOf): the rows, not the answer. */
function slim(o: Outcome): Outcome {
  if (!o.ok) return { seq: o.seq, t: o.t, ok: false, code: o.code, msg: o.msg };
  return {
    seq: o.seq, t: o.t, ok: true, result: null, postings: o.postings, orders: o.orders, positions: o.positions, fills: o.fills, rebates: o.rebates, quotes: o.quotes,
    follows: o.follows, copyPositions: o.copyPositions, copyOrders: o.copyOrders, jobs: o.jobs, traders: o.traders, ...(o.legs ? { legs: o.legs } : {}),
  };
}

/** The file of a SQLite database (`pragma database_list`), or null for PostgreSQL and an in-memory or temporary SQLite. */
export async function sqliteFileOf(db: Db): Promise<string | null> {
  if (dialectOf(db) !== 'sqlite') return null;
  const rows = await sql<{ name: string; file: string }>`pragma database_list`.execute(db);
  const main = rows.rows.find((r) => r.name === 'main');
  return main && main.file !== '' ? main.file : null;
}
