import { sql } from 'kysely';
import type { Db } from '../db/connection.ts';
import { dialectOf } from '../db/connection.ts';
import { balanceKey } from '../db/ledgerRule.ts';
import type { BalanceKey } from '../db/ledgerRule.ts';
import { parseMinor } from '../db/money.ts';
import { lockRows, transact } from '../db/tx.ts';
import type { Outcome } from './apply.ts';
import { outcomesPast, PROJECTION_NAME, ProjectionGapError, rowsOf } from './projectorRows.ts';
import type { BatchRows } from './projectorRows.ts';
import { recoverState } from './recovery.ts';
import type { EngineState } from './state.ts';

/**
 * The projector (issue 28 step 3, docs/SCALING.md): it follows the engine's durable outcomes in seq
 * order and writes the tables the SQL engine writes today (trade_orders, trade_positions,
 * trade_fills, ledger_entries + ledger_refs, balances, referral_rebates + referral_invitees,
 * convert_quotes, copy_follows, copy_positions, copy_orders, trading_jobs, copy_traders' status), so
 * the history screens and REST history endpoints read them as before.
 *
 * It decides nothing: every row is what `apply` reported in the outcome (the order, position,
 * quote, follow and copied-position rows as the command left them, the fills, the postings with
 * each balance after them, the rebates, the copy orders, the periodic fees' boundaries). The one
 * sum it keeps is a projection's: the referral_invitees running totals (volume, fees, rebate) add
 * up the rebate records, as the SQL code does row by row.
 *
 * Batches: the outcomes of many commands are written in ONE transaction (each table one multi-row
 * statement per chunk; a row changed by several commands of the batch written once, as it was
 * last), and the `engine_projection` row (migration 0043) moves to the batch's last seq in that same
 * transaction. A batch re-read or retried after a crash, or handed twice, skips every seq at or
 * below the mark, so it is applied once however often it is retried. A batch that does not continue
 * the mark (a seq missing) is refused ({@link ProjectionGapError}), never written with a hole.
 *
 * In process it is fed the sequencer's durable outcomes (`SequencerOptions.onDurable` → `push`);
 * at start, {@link recoverAndProject} replays the journal from a snapshot at or before the mark and
 * pushes the outcomes after it. {@link checkProjection} is the startup check.
 *
 * Ledger refs: a posting without a ref of its own gets `J<seq>.<n>` (n its place in the outcome's
 * postings): deterministic, so a retried batch writes the same rows, and never one of the SQL
 * code's time ids (lowercase base 36 and hex).
 *
 * NOT the production path: the routes still run the SQL engine (docs/SCALING.md, "What remains").
 */

export { PROJECTION_NAME, postingRef, ProjectionGapError, rowsOf } from './projectorRows.ts';
export type { BatchRows } from './projectorRows.ts';

/** The startup check found the tables disagreeing with the ledger or with the engine's state. */
export class ProjectionMismatchError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[],
  ) {
    super(message);
    this.name = 'ProjectionMismatchError';
  }
}

// ------------------------------------------------------------------ writing one batch

/** Rows per multi-row statement (SQLite binds at most 32 766 values, PostgreSQL 65 535; the widest table has 28 columns). */
const CHUNK = 200;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

/** `insert … on conflict (key) do update set <every other column> = excluded.<column>`: the row as it now is. */
async function upsert<T extends Record<string, unknown>>(trx: Db, table: 'trade_orders' | 'trade_positions' | 'copy_follows' | 'copy_positions' | 'convert_quotes', key: string, rows: readonly T[]): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const cols = Object.keys(first).filter((c) => c !== key);
  const set = Object.fromEntries(cols.map((c) => [c, sql.ref(`excluded.${c}`)]));
  for (const part of chunks(rows)) {
    // The tables' row types are the outcome's row types (the same Selectable<…Table>).
    await trx
      .insertInto(table)
      .values(part as never)
      .onConflict((oc) => oc.column(key as never).doUpdateSet(set as never))
      .execute();
  }
}

async function insertAll<T>(trx: Db, table: 'trade_fills' | 'ledger_entries' | 'copy_orders' | 'referral_rebates', rows: readonly T[]): Promise<void> {
  for (const part of chunks(rows)) await trx.insertInto(table).values(part as never).execute();
}

/** Writes the rows of `b` in `trx` (the caller's transaction). */
async function writeRows(trx: Db, b: BatchRows): Promise<void> {
  await upsert(trx, 'trade_positions', 'id', [...b.positions.values()]);
  await upsert(trx, 'trade_orders', 'id', [...b.orders.values()]);
  await insertAll(trx, 'trade_fills', b.fills);
  await insertAll(trx, 'ledger_entries', b.ledger);
  for (const part of chunks([...b.refs])) {
    await trx.insertInto('ledger_refs').values(part.map(([ref, symbol]) => ({ ref, symbol }))).onConflict((oc) => oc.column('ref').doNothing()).execute();
  }
  for (const part of chunks([...b.balances.values()])) {
    await trx
      .insertInto('balances')
      .values(part)
      .onConflict((oc) => oc.columns(['user_id', 'wallet', 'asset']).doUpdateSet((eb) => ({ amount: eb.ref('excluded.amount'), updated_at: eb.ref('excluded.updated_at') })))
      .execute();
  }
  await insertAll(trx, 'referral_rebates', b.rebates);
  for (const [inviteeId, d] of b.invitees) {
    const cur = await trx.selectFrom('referral_invitees').selectAll().where('invitee_id', '=', inviteeId).$if(lockRows(trx), (q) => q.forUpdate()).executeTakeFirst();
    if (cur) {
      await trx
        .updateTable('referral_invitees')
        .set({ volume: (parseMinor(cur.volume) + d.volume).toString(), fees: (parseMinor(cur.fees) + d.fees).toString(), rebate: (parseMinor(cur.rebate) + d.rebate).toString(), updated_at: d.updated_at })
        .where('invitee_id', '=', inviteeId)
        .execute();
    } else {
      await trx.insertInto('referral_invitees').values({ invitee_id: inviteeId, inviter_id: d.inviter_id, volume: d.volume.toString(), fees: d.fees.toString(), rebate: d.rebate.toString(), updated_at: d.updated_at }).execute();
    }
  }
  await upsert(trx, 'convert_quotes', 'id', [...b.quotes.values()]);
  await upsert(trx, 'copy_follows', 'id', [...b.follows.values()]);
  await upsert(trx, 'copy_positions', 'id', [...b.copyPositions.values()]);
  await insertAll(trx, 'copy_orders', b.copyOrders);
  for (const [name, last] of b.jobs) {
    await trx.insertInto('trading_jobs').values({ name, last_run: last }).onConflict((oc) => oc.column('name').doUpdateSet({ last_run: last })).execute();
  }
  // Listing writes the status of the trader's copy_traders row (the approval that lists them writes the row itself).
  for (const [userId, active] of b.traders) await trx.updateTable('copy_traders').set({ status: active ? 'active' : 'suspended' }).where('user_id', '=', userId).execute();
}

/** The projection's mark: the last seq the tables hold (0: none yet) and that command's time. */
export async function projectionMark(db: Db, name = PROJECTION_NAME): Promise<{ seq: number; t: number }> {
  const row = await db.selectFrom('engine_projection').select(['seq', 't']).where('name', '=', name).executeTakeFirst();
  return row ? { seq: Number(row.seq), t: Number(row.t) } : { seq: 0, t: 0 };
}

export interface BatchResult {
  /** The mark before and after the batch. */
  from: number;
  to: number;
  /** Records of the batch written (those at or below the mark were skipped). */
  applied: number;
}

export interface ProjectOptions {
  name?: string;
  /** Test seam for a failure between the rows and the mark: runs in the batch's transaction after its rows are written (a throw rolls all of it back). */
  beforeMark?: (trx: Db) => Promise<void> | void;
}

/**
 * Writes a batch of outcomes (in seq order) in ONE transaction with the mark: records at or below
 * the mark are skipped (already written: a retry or a duplicate), the rest must continue it.
 */
export async function projectBatch(db: Db, outcomes: readonly Outcome[], opts: ProjectOptions = {}): Promise<BatchResult> {
  const name = opts.name ?? PROJECTION_NAME;
  return transact(db, async (trx) => {
    const cur = await trx.selectFrom('engine_projection').select('seq').where('name', '=', name).$if(lockRows(trx), (q) => q.forUpdate()).executeTakeFirst();
    const from = cur ? Number(cur.seq) : 0;
    const todo = outcomesPast(name, from, outcomes);
    const last = todo[todo.length - 1];
    if (!last) return { from, to: from, applied: 0 };
    await writeRows(trx, rowsOf(todo));
    await opts.beforeMark?.(trx);
    await trx
      .insertInto('engine_projection')
      .values({ name, seq: last.seq, t: last.t })
      .onConflict((oc) => oc.column('name').doUpdateSet({ seq: last.seq, t: last.t }))
      .execute();
    return { from, to: last.seq, applied: todo.length };
  });
}

// ------------------------------------------------------------------ the projector (in process)

export interface ProjectorOptions {
  db: Db;
  name?: string;
  /** Most commands per transaction (default 1 000). */
  maxBatch?: number;
  /** A failed batch (its records stay queued and are tried again on the next push or flush). */
  onError?: (err: unknown) => void;
  /** The pause before a failed batch is tried again without a new push (default 1 000 ms). */
  retryMs?: number;
  beforeMark?: ProjectOptions['beforeMark'];
}

/**
 * Follows outcomes pushed in seq order and writes them behind, a batch per event-loop turn (what
 * was pushed meanwhile, up to `maxBatch` per transaction).
 */
export class Projector {
  private queue: Outcome[] = [];
  private projected: number;
  private projectedT: number;
  private pushed: number;
  private scheduled = false;
  protected closed = false;
  private retry: ReturnType<typeof setTimeout> | null = null;
  protected running: Promise<void> | null = null;
  readonly stats = { batches: 0, records: 0, maxBatch: 0, failures: 0, writeMs: 0 };

  protected constructor(
    protected readonly opts: ProjectorOptions,
    mark: { seq: number; t: number },
  ) {
    this.projected = mark.seq;
    this.projectedT = mark.t;
    this.pushed = mark.seq;
  }

  /** A projector continuing the mark in `db`. */
  static async open(opts: ProjectorOptions): Promise<Projector> {
    return new Projector(opts, await projectionMark(opts.db, opts.name));
  }

  /** The last seq the tables hold. */
  get seq(): number {
    return this.projected;
  }

  /** The last seq pushed. */
  get pushedSeq(): number {
    return this.pushed;
  }

  /** How far the tables are behind what was pushed: commands, and ms of command time (the oldest waiting command's age at `now`). */
  lag(now: number): { commands: number; ms: number } {
    const oldest = this.queue[0];
    return { commands: this.pushed - this.projected, ms: oldest ? Math.max(0, now - oldest.t) : 0 };
  }

  /** Queues the outcome of the next seq (one already pushed is ignored; one that skips a seq is a caller's bug and throws). */
  push(outcome: Outcome): void {
    if (outcome.seq <= this.pushed) return;
    if (outcome.seq !== this.pushed + 1) throw new ProjectionGapError(`projector: seq ${outcome.seq} pushed after ${this.pushed}`);
    this.queue.push(outcome);
    this.pushed = outcome.seq;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.running || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush().catch((err: unknown) => {
        this.opts.onError?.(err);
        // Tried again after a pause (a database away, a lock held): the records are still queued.
        if (!this.retry) {
          this.retry = setTimeout(() => {
            this.retry = null;
            this.schedule();
          }, this.opts.retryMs ?? 1_000);
          this.retry.unref();
        }
      });
    });
  }

  /** Writes everything queued, batch by batch; rejects with the first failure (its records stay queued). */
  flush(): Promise<void> {
    if (!this.running) {
      const run = this.loop();
      this.running = run;
      run.then(
        () => {
          this.running = null;
          // Pushed while the last batch was being written: the next turn writes it.
          if (this.queue.length > 0) this.schedule();
        },
        () => {
          this.running = null;
        },
      );
    }
    return this.running;
  }

  /** Stops the automatic writes (a flush or idle still writes what is queued). */
  close(): void {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
  }

  private gate: Promise<void> | null = null;

  /** Test seam: no batch is written until the returned function is called (the tables lag the answers meanwhile). */
  hold(): () => void {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.gate = gate;
    return () => {
      if (this.gate === gate) this.gate = null;
      release();
    };
  }

  private async loop(): Promise<void> {
    const max = this.opts.maxBatch ?? 1_000;
    while (this.queue.length > 0) {
      while (this.gate) await this.gate;
      const batch = this.queue.slice(0, max);
      const started = performance.now();
      let r: BatchResult;
      try {
        r = await this.writeBatch(batch);
      } catch (err) {
        this.stats.failures += 1;
        throw err;
      }
      this.stats.writeMs += performance.now() - started;
      this.stats.batches += 1;
      this.stats.records += r.applied;
      this.stats.maxBatch = Math.max(this.stats.maxBatch, batch.length);
      const done = batch.filter((o) => o.seq <= r.to);
      this.queue.splice(0, done.length);
      this.projected = r.to;
      this.projectedT = done[done.length - 1]?.t ?? this.projectedT;
      this.wake();
    }
  }

  /** Writes one batch with its mark (here on the engine's own connection, kysely-built: PostgreSQL, an in-memory SQLite). */
  protected writeBatch(batch: readonly Outcome[]): Promise<BatchResult> {
    return projectBatch(this.opts.db, batch, { ...(this.opts.name !== undefined ? { name: this.opts.name } : {}), ...(this.opts.beforeMark ? { beforeMark: this.opts.beforeMark } : {}) });
  }

  /** Resolves once everything pushed so far is written (rejects if a batch fails). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.running) await this.running;
      else if (this.queue.length > 0) await this.flush();
      else return;
    }
  }

  private waiters: { seq: number; resolve: () => void }[] = [];

  /** How many `reached` promises wait (reads held by the read barrier among them). */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Resolves once the tables hold `seq` (a failed batch delays it until a retry writes it). */
  reached(seq: number): Promise<void> {
    if (this.projected >= seq) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push({ seq, resolve }));
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.seq <= this.projected) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** The time of the last projected command. */
  get projectedTime(): number {
    return this.projectedT;
  }
}

// ------------------------------------------------------------------ at start: the journal's tail

/**
 * The engine's recovery with the projector's catch-up: the state from the latest valid snapshot at
 * or before the projection's mark plus the journal file (server/engine/recovery.ts recoverState),
 * every outcome after the mark pushed to `projector`; then written. Returns the recovered state and
 * its seq (the live state the sequencer goes on from).
 */
export async function recoverAndProject(
  projector: Projector,
  opts: { journal: string; snapshots?: string; initial: () => EngineState; onSkipped?: (path: string, reason: string) => void },
): Promise<{ seq: number; state: EngineState; fromSnapshot: number }> {
  const r = recoverState({ ...opts, outcomes: { after: projector.seq, on: (o) => projector.push(o) } });
  await projector.idle();
  return r;
}

// ------------------------------------------------------------------ the startup check

export interface ProjectionReport {
  ok: boolean;
  /** The projection's mark. */
  seq: number;
  /** One sentence per disagreement (minor units), empty when ok. */
  problems: string[];
}

/** Σ ledger amounts per balance key, exact (as text: SQLite's 64-bit integer sum, PostgreSQL's numeric). */
async function ledgerSums(db: Db): Promise<Map<BalanceKey, bigint>> {
  const total = dialectOf(db) === 'postgres' ? sql<string>`sum(amount::numeric)::text` : sql<string>`CAST(sum(CAST(amount AS INTEGER)) AS TEXT)`;
  const rows = await db.selectFrom('ledger_entries').select(['user_id', 'wallet', 'asset', total.as('total')]).groupBy(['user_id', 'wallet', 'asset']).execute();
  return new Map(rows.map((r) => [balanceKey(Number(r.user_id), r.wallet, r.asset), BigInt(r.total)]));
}

/**
 * The startup check: every balance row equals the sum of its ledger entries (and no ledger entries
 * sum to a balance that has no row); with the engine's `state` at `state.seq`, the projection has
 * caught up to it and every balance the engine holds equals the table's. Reports each disagreement
 * as a sentence naming the balance, both figures and where they come from.
 */
export async function checkProjection(db: Db, state?: { seq: number; balances: ReadonlyMap<BalanceKey, bigint> }, name = PROJECTION_NAME): Promise<ProjectionReport> {
  const problems: string[] = [];
  const mark = await projectionMark(db, name);
  const tables = new Map<BalanceKey, bigint>();
  for (const b of await db.selectFrom('balances').select(['user_id', 'wallet', 'asset', 'amount']).execute()) tables.set(balanceKey(Number(b.user_id), b.wallet, b.asset), parseMinor(b.amount));
  const sums = await ledgerSums(db);
  for (const k of [...new Set([...tables.keys(), ...sums.keys()])].sort()) {
    const has = tables.get(k);
    const sum = sums.get(k) ?? 0n;
    if (has === undefined) {
      if (sum !== 0n) problems.push(`balance ${k} has no row but its ledger entries sum to ${sum}`);
    } else if (has !== sum) {
      problems.push(`balance ${k} is ${has} but its ledger entries sum to ${sum}`);
    }
  }
  if (state) {
    if (mark.seq !== state.seq) problems.push(`the projection is at seq ${mark.seq} but the engine's state is at seq ${state.seq}`);
    else {
      for (const [k, v] of [...state.balances].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const has = tables.get(k) ?? 0n;
        if (has !== v) problems.push(`balance ${k} is ${has} in the tables but ${v} in the engine's state at seq ${state.seq}`);
      }
    }
  }
  return { ok: problems.length === 0, seq: mark.seq, problems };
}

/** {@link checkProjection}, throwing {@link ProjectionMismatchError} with every problem (the first 20 in its message) when it finds any. */
export async function assertProjection(db: Db, state?: { seq: number; balances: ReadonlyMap<BalanceKey, bigint> }, name = PROJECTION_NAME): Promise<ProjectionReport> {
  const r = await checkProjection(db, state, name);
  if (!r.ok) {
    const shown = r.problems.slice(0, 20);
    const more = r.problems.length > shown.length ? `\n  … and ${r.problems.length - shown.length} more` : '';
    throw new ProjectionMismatchError(`the projected tables disagree (projection at seq ${r.seq}; refusing to start):\n  ${shown.join('\n  ')}${more}`, r.problems);
  }
  return r;
}
