import type SqliteDatabase from 'better-sqlite3';
import type { Outcome } from './apply.ts';
import type { BatchResult } from './projector.ts';
import { parseMinor } from '../db/money.ts';
import { PROJECTION_NAME, rowsOf } from './projector.ts';
import { outcomesPast } from './projectorRows.ts';
import type { BatchRows } from './projector.ts';

/**
 * The projector's batch written with better-sqlite3's prepared statements (issue 28, docs/SCALING.md
 * "The projector off the engine's loop"): the same rows, in the same order and with the same
 * idempotency as {@link ../projector.ts projectBatch} (which builds them with kysely), but no query
 * is built per batch: one statement per table and column set, prepared once, run per row, the whole
 * batch and the `engine_projection` mark in ONE `BEGIN IMMEDIATE` transaction. Synchronous: it runs
 * in the projector's worker thread (server/engine/projectorWorker.ts) on that thread's own
 * connection to the database file (WAL: the engine's connection reads while it writes).
 *
 * Tables' columns are the outcome rows' keys (the rows are the tables' row types), as the kysely
 * writer inserts them; a key whose value is undefined is left out (its column's default).
 */

type Row = Record<string, unknown>;
type Table = 'trade_orders' | 'trade_positions' | 'copy_follows' | 'copy_positions' | 'convert_quotes' | 'trade_fills' | 'ledger_entries' | 'copy_orders' | 'referral_rebates';

/** A value as better-sqlite3 binds it (it refuses booleans and undefined; kysely's SQLite driver hands the same values on). */
function bindable(v: unknown): unknown {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

export class SqliteProjectionWriter {
  private readonly statements = new Map<string, SqliteDatabase.Statement>();
  private readonly markRead: SqliteDatabase.Statement;
  private readonly markWrite: SqliteDatabase.Statement;
  private readonly refInsert: SqliteDatabase.Statement;
  private readonly balanceUpsert: SqliteDatabase.Statement;
  private readonly inviteeRead: SqliteDatabase.Statement;
  private readonly inviteeUpdate: SqliteDatabase.Statement;
  private readonly inviteeInsert: SqliteDatabase.Statement;
  private readonly jobUpsert: SqliteDatabase.Statement;
  private readonly traderStatus: SqliteDatabase.Statement;
  private readonly batch: (outcomes: readonly Outcome[], beforeMark?: () => void) => BatchResult;

  constructor(
    private readonly sqlite: SqliteDatabase.Database,
    private readonly name = PROJECTION_NAME,
  ) {
    this.markRead = sqlite.prepare('select seq from engine_projection where name = ?');
    this.markWrite = sqlite.prepare('insert into engine_projection (name, seq, t) values (?, ?, ?) on conflict (name) do update set seq = excluded.seq, t = excluded.t');
    this.refInsert = sqlite.prepare('insert into ledger_refs (ref, symbol) values (?, ?) on conflict (ref) do nothing');
    this.balanceUpsert = sqlite.prepare('insert into balances (user_id, wallet, asset, amount, updated_at) values (?, ?, ?, ?, ?) on conflict (user_id, wallet, asset) do update set amount = excluded.amount, updated_at = excluded.updated_at');
    this.inviteeRead = sqlite.prepare('select volume, fees, rebate from referral_invitees where invitee_id = ?');
    this.inviteeUpdate = sqlite.prepare('update referral_invitees set volume = ?, fees = ?, rebate = ?, updated_at = ? where invitee_id = ?');
    this.inviteeInsert = sqlite.prepare('insert into referral_invitees (invitee_id, inviter_id, volume, fees, rebate, updated_at) values (?, ?, ?, ?, ?, ?)');
    this.jobUpsert = sqlite.prepare('insert into trading_jobs (name, last_run) values (?, ?) on conflict (name) do update set last_run = excluded.last_run');
    this.traderStatus = sqlite.prepare('update copy_traders set status = ? where user_id = ?');
    const tx = sqlite.transaction((outcomes: readonly Outcome[], beforeMark?: () => void): BatchResult => {
      const cur = this.markRead.get(this.name) as { seq: number | bigint } | undefined;
      const from = cur ? Number(cur.seq) : 0;
      const todo = outcomesPast(this.name, from, outcomes);
      const last = todo[todo.length - 1];
      if (!last) return { from, to: from, applied: 0 };
      this.writeRows(rowsOf(todo));
      beforeMark?.();
      this.markWrite.run(this.name, last.seq, last.t);
      return { from, to: last.seq, applied: todo.length };
    });
    this.batch = (outcomes, beforeMark) => tx.immediate(outcomes, beforeMark);
  }

  /** Writes a batch of outcomes (in seq order) with the mark, in one transaction: as projectBatch does. */
  write(outcomes: readonly Outcome[], beforeMark?: () => void): BatchResult {
    return this.batch(outcomes, beforeMark);
  }

  /** `insert into <table> (<cols>) values (?…)` [+ `on conflict (key) do update set <every other column>`], prepared once per column set. */
  private statement(table: Table, cols: readonly string[], key?: string): SqliteDatabase.Statement {
    const id = `${table}|${key ?? ''}|${cols.join(',')}`;
    let st = this.statements.get(id);
    if (!st) {
      const names = cols.map((c) => `"${c}"`).join(', ');
      const marks = cols.map(() => '?').join(', ');
      const upsert = key ? ` on conflict ("${key}") do update set ${cols.filter((c) => c !== key).map((c) => `"${c}" = excluded."${c}"`).join(', ')}` : '';
      st = this.sqlite.prepare(`insert into ${table} (${names}) values (${marks})${upsert}`);
      this.statements.set(id, st);
    }
    return st;
  }

  private rows(table: Table, rows: Iterable<object>, key?: string): void {
    for (const row of rows as Iterable<Row>) {
      const cols: string[] = [];
      const values: unknown[] = [];
      for (const c in row) {
        const v = row[c];
        if (v === undefined) continue;
        cols.push(c);
        values.push(bindable(v));
      }
      this.statement(table, cols, key).run(values);
    }
  }

  private writeRows(b: BatchRows): void {
    this.rows('trade_positions', b.positions.values(), 'id');
    this.rows('trade_orders', b.orders.values(), 'id');
    this.rows('trade_fills', b.fills);
    this.rows('ledger_entries', b.ledger);
    for (const [ref, symbol] of b.refs) this.refInsert.run(ref, symbol);
    for (const r of b.balances.values()) this.balanceUpsert.run(r.user_id, r.wallet, r.asset, r.amount, r.updated_at);
    this.rows('referral_rebates', b.rebates);
    for (const [inviteeId, d] of b.invitees) {
      const cur = this.inviteeRead.get(inviteeId) as { volume: string; fees: string; rebate: string } | undefined;
      if (cur) this.inviteeUpdate.run((parseMinor(cur.volume) + d.volume).toString(), (parseMinor(cur.fees) + d.fees).toString(), (parseMinor(cur.rebate) + d.rebate).toString(), d.updated_at, inviteeId);
      else this.inviteeInsert.run(inviteeId, d.inviter_id, d.volume.toString(), d.fees.toString(), d.rebate.toString(), d.updated_at);
    }
    this.rows('convert_quotes', b.quotes.values(), 'id');
    this.rows('copy_follows', b.follows.values(), 'id');
    this.rows('copy_positions', b.copyPositions.values(), 'id');
    this.rows('copy_orders', b.copyOrders);
    for (const [name, last] of b.jobs) this.jobUpsert.run(name, last);
    for (const [userId, active] of b.traders) this.traderStatus.run(active ? 'active' : 'suspended', userId);
  }
}
