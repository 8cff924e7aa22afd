import { sql } from 'kysely';
import { dialectOf } from '../db/connection.ts';
import type { Db } from '../db/connection.ts';
import { transact } from '../db/tx.ts';
import { timeId } from '../services/timeIds.ts';
import { compiledShape } from '../db/compiledShape.ts';
import { applyPosting, balanceKey, SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import type { BalanceKey, Leg } from '../db/ledgerRule.ts';
import { parseMinor } from '../db/money.ts';
import type { LedgerType } from '../db/repos/ledger.ts';
import type { Wallet } from '../db/schema.ts';

/**
 * THE ledger write. Every balance change in the system (trading settlement, wallet transfers,
 * compensation payouts, admin credits, deposits, withdrawals, converts) is one call of
 * {@link postLedger}; nothing else writes `balances` or `ledger_entries`.
 *
 * Invariants (property-tested on a real SQLite file in tests/server/ledgerPost.prop.test.ts):
 *  - double entry: per asset the entries sum to zero, so value is never created or destroyed;
 *  - no balance of an account other than the system account (id 1) ends below zero;
 *  - all or nothing: a refused posting writes no row; `balance == sum(ledger amounts)` always holds.
 *
 * Concurrency: on SQLite one writer runs at a time, so read-then-write is safe. On PostgreSQL (several
 * processes, pooled connections, READ COMMITTED) the posting first takes a transaction-scoped lock per
 * touched balance (user, wallet, asset) in sorted key order, then reads: a second posting on the same
 * balance waits for the first to commit and then reads its result (each READ COMMITTED statement sees
 * the latest commits), so no update is lost and no check passes on a stale balance. The lock is an
 * advisory lock on the key, not `SELECT … FOR UPDATE`, because a balance row that does not exist yet
 * cannot be row-locked (two first credits would both insert). docs/DATABASE.md.
 */

/** One signed movement of a posting. `type` overrides the posting's type for this row (e.g. WALLET_TRANSFER_IN). */
export interface LedgerEntryInput extends Leg {
  type?: LedgerType;
}

export interface Posting {
  /** The ledger type of every entry that does not carry its own. */
  type: LedgerType;
  entries: readonly LedgerEntryInput[];
  now: number;
  /** Groups the entries; a random id when omitted. */
  ref?: string;
  /** Tags the posting with a trading pair (ledger_refs) for the history's pair filter. */
  symbol?: string;
}

export type PostResult = { ok: true; ref: string } | { ok: false; reason: 'empty' | 'zeroLeg' | 'unbalanced' | 'insufficient' };

/**
 * Posts one double-entry movement atomically: reads the touched balances, applies the pure rule
 * (server/db/ledgerRule.ts), then writes the new balances and one ledger row per entry. Pass the
 * caller's transaction as `db` to join a larger unit of work (a status change and its money move
 * commit together); otherwise it opens its own.
 */
export async function postLedger(db: Db, p: Posting): Promise<PostResult> {
  const authority = ledgerAuthorityOf(db);
  if (authority) return authority.post({ ...p, ref: p.ref ?? newRef(p.now) }, db.isTransaction);
  const run = async (trx: Db): Promise<PostResult> => {
    if (dialectOf(trx) === 'postgres') await lockBalances(trx, p.entries);
    const tx = TX_BALANCES.get(trx);
    const known = tx?.values;
    const current = new Map<BalanceKey, bigint>();
    for (const l of p.entries) {
      const k = balanceKey(l.userId, l.wallet, l.asset);
      if (current.has(k)) continue;
      const cached = known?.get(k);
      if (cached !== undefined) {
        current.set(k, cached);
        continue;
      }
      const [row] = (await selectBalance(trx, l.userId, l.wallet, l.asset)).rows;
      current.set(k, row ? parseMinor(row.amount) : 0n);
    }
    const result = applyPosting(current, p.entries);
    if (!result.ok) return result;
    const ref = p.ref ?? newRef(p.now);
    for (const [i, l] of p.entries.entries()) {
      const k = balanceKey(l.userId, l.wallet, l.asset);
      const balance = result.balances.get(k) ?? 0n;
      // In a transaction with a balance cache the row is written once, by its owner's flush before the commit.
      if (tx) tx.write(k, l, balance, p.now);
      else await upsertBalance(trx, l.userId, l.wallet, l.asset, balance.toString(), p.now);
      await insertEntry(trx, l.userId, l.wallet, l.asset, l.amount.toString(), (result.after[i] ?? 0n).toString(), l.type ?? p.type, ref, p.now);
    }
    if (p.symbol) await insertRef(trx, ref, p.symbol);
    return { ok: true, ref };
  };
  return transact(db, run);
}

/**
 * The memory engine (ENGINE=memory, server/engine/memoryEngine.ts) holds every balance: on a database
 * it serves, a posting is a command to it (applied through the same ledger rule, made durable in its
 * journal, written to the tables behind by its projector) and a balance is read from its state.
 * `inTransaction`: the caller posts inside a transaction of its own, so the answer cannot wait for
 * the projector (on SQLite its write would wait for that transaction): it comes once the command is
 * durable.
 */
export interface LedgerAuthority {
  post(p: Posting & { ref: string }, inTransaction: boolean): Promise<PostResult>;
  balance(k: BalanceKey): bigint;
  /** Every balance of a user (wallet, asset, amount), as the state holds them. */
  balancesOf(userId: number): { wallet: Wallet; asset: string; amount: bigint }[];
  /** A user's frozen margin by wallet (USDT), as the state holds it (server/wallet/wallet.ts frozenOf reads it instead of the rows written behind). */
  frozenOf?(userId: number): Map<Wallet, bigint>;
}

/** Keyed by the database's adapter, which a Kysely instance shares with its transactions. */
const AUTHORITIES = new WeakMap<object, LedgerAuthority>();

export function ledgerAuthorityOf(db: Db): LedgerAuthority | undefined {
  return AUTHORITIES.get(db.getExecutor().adapter);
}

/** Makes `authority` the ledger of `db` (and its transactions) until the returned function is called. */
export function setLedgerAuthority(db: Db, authority: LedgerAuthority): () => void {
  const key = db.getExecutor().adapter;
  AUTHORITIES.set(key, authority);
  return () => {
    if (AUTHORITIES.get(key) === authority) AUTHORITIES.delete(key);
  };
}

/** A posting's ref: time-ordered (server/services/timeIds.ts), so `ledger_refs` inserts append. */
const newRef = (now: number): string => timeId('', now, 8);

/**
 * Balances known inside one transaction (the trading engine's batch: server/trading/engine.ts):
 * a balance read by a posting, or written by one, is the database's value until the transaction
 * ends, because every balance write is a posting and (PostgreSQL) the posting holds the balance's
 * lock until the commit. Later postings and {@link balanceMinor} in that transaction use it instead of
 * selecting again, and a balance changed by several postings of the batch is written once
 * ({@link TxBalances.flush}, which the owner calls before the commit; the ledger rows, each with its
 * balance after, are inserted as the postings run). The owner snapshots it before each savepoint and
 * restores it on a rollback; a transaction without one (every other caller) reads and writes the
 * database at each posting.
 *
 * Nothing else may read the `balances` table inside such a transaction (the rows lag until the flush):
 * every balance read on the engine's path is {@link balanceMinor} or a posting.
 */
export class TxBalances {
  /** Minor units by balance key: what the database holds, or will once flushed. */
  readonly values = new Map<BalanceKey, bigint>();
  /** Balances changed since the last flush (with the time of their last posting). */
  private dirty = new Map<BalanceKey, { userId: number; wallet: Wallet; asset: string; now: number }>();

  write(k: BalanceKey, at: { userId: number; wallet: Wallet; asset: string }, amount: bigint, now: number): void {
    this.values.set(k, amount);
    this.dirty.set(k, { userId: at.userId, wallet: at.wallet, asset: at.asset, now });
  }

  /** What a savepoint's rollback restores. */
  snapshot(): { values: Map<BalanceKey, bigint>; dirty: TxBalances['dirty'] } {
    return { values: new Map(this.values), dirty: new Map(this.dirty) };
  }

  restore(s: ReturnType<TxBalances['snapshot']>): void {
    this.values.clear();
    for (const [k, v] of s.values) this.values.set(k, v);
    this.dirty = new Map(s.dirty);
  }

  /** Writes every changed balance (one upsert each, however many postings changed it). */
  async flush(trx: Db): Promise<void> {
    for (const [k, d] of this.dirty) await upsertBalance(trx, d.userId, d.wallet, d.asset, (this.values.get(k) ?? 0n).toString(), d.now);
    this.dirty.clear();
  }
}

const TX_BALANCES = new WeakMap<Db, TxBalances>();

/** Starts (or returns) the balance cache of transaction `trx`; it lives as long as `trx`. */
export function balanceCacheOf(trx: Db): TxBalances {
  let known = TX_BALANCES.get(trx);
  if (!known) {
    known = new TxBalances();
    TX_BALANCES.set(trx, known);
  }
  return known;
}

/**
 * A balance in minor units (0 when the row does not exist): from the transaction's cache when a
 * posting of this transaction knows it, else read (not cached: on PostgreSQL a read outside a posting
 * holds no lock).
 */
export async function balanceMinor(db: Db, userId: number, wallet: Wallet, asset: string): Promise<bigint> {
  const authority = ledgerAuthorityOf(db);
  if (authority) return authority.balance(balanceKey(userId, wallet, asset));
  const cached = TX_BALANCES.get(db)?.values.get(balanceKey(userId, wallet, asset));
  if (cached !== undefined) return cached;
  const [row] = (await selectBalance(db, userId, wallet, asset)).rows;
  return row ? parseMinor(row.amount) : 0n;
}

// The posting's statements, compiled once per dialect (server/db/compiledShape.ts): they run a dozen times per order.
const selectBalance = compiledShape(
  (db: Db, userId: number, wallet: Wallet, asset: string) =>
    db.selectFrom('balances').select('amount').where('user_id', '=', userId).where('wallet', '=', wallet).where('asset', '=', asset),
  3,
);
const upsertBalance = compiledShape(
  (db: Db, userId: number, wallet: Wallet, asset: string, amount: string, now: number) =>
    db
      .insertInto('balances')
      .values({ user_id: userId, wallet, asset, amount, updated_at: now })
      .onConflict((oc) => oc.columns(['user_id', 'wallet', 'asset']).doUpdateSet({ amount, updated_at: now })),
  5,
);
const insertEntry = compiledShape(
  (db: Db, userId: number, wallet: Wallet, asset: string, amount: string, balanceAfter: string, type: LedgerType, ref: string, now: number) =>
    db.insertInto('ledger_entries').values({ user_id: userId, wallet, asset, amount, balance_after: balanceAfter, type, ref, created_at: now }),
  8,
);
const insertRef = compiledShape(
  (db: Db, ref: string, symbol: string) => db.insertInto('ledger_refs').values({ ref, symbol }).onConflict((oc) => oc.column('ref').doNothing()),
  2,
);

/**
 * PostgreSQL: one `pg_advisory_xact_lock` per distinct balance key, in sorted order (so two postings
 * over the same balances cannot deadlock each other), released at commit or rollback.
 */
async function lockBalances(trx: Db, entries: readonly Leg[]): Promise<void> {
  const keys = [...new Set(entries.map((l) => `balance:${balanceKey(l.userId, l.wallet, l.asset)}`))].sort();
  for (const k of keys) await sql`SELECT pg_advisory_xact_lock(hashtextextended(${k}, 0))`.execute(trx);
}

/** An account side of a two-entry movement. */
export interface AccountRef {
  userId: number;
  wallet: Wallet;
}

/**
 * A two-entry movement of `amount` (> 0; 0 or less is a no-op) from one account to another, through
 * {@link postLedger}. `tag.inType` types the incoming entry differently (WALLET_TRANSFER_IN).
 */
export function move(
  db: Db,
  type: LedgerType,
  from: AccountRef,
  to: AccountRef,
  coin: string,
  amount: bigint,
  now: number,
  tag: { ref?: string; symbol?: string; inType?: LedgerType } = {},
): Promise<PostResult> {
  if (amount <= 0n) return Promise.resolve({ ok: true, ref: '' });
  return postLedger(db, {
    type,
    now,
    entries: [
      { userId: from.userId, wallet: from.wallet, asset: coin, amount: -amount },
      { userId: to.userId, wallet: to.wallet, asset: coin, amount, ...(tag.inType ? { type: tag.inType } : {}) },
    ],
    ...(tag.ref !== undefined ? { ref: tag.ref } : {}),
    ...(tag.symbol ? { symbol: tag.symbol } : {}),
  });
}

/** Credits a user from the system account (ADMIN_ADJUST), e.g. the demo balances of a new account. */
export function adminCredit(db: Db, userId: number, wallet: Wallet, asset: string, amount: bigint, now: number, ref?: string): Promise<PostResult> {
  return postLedger(db, {
    type: 'ADMIN_ADJUST',
    now,
    ...(ref !== undefined ? { ref } : {}),
    entries: [
      { userId, wallet, asset, amount },
      { userId: SYSTEM_ACCOUNT_ID, wallet, asset, amount: -amount },
    ],
  });
}
