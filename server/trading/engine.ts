import { Code } from '../../src/protocol/envelope.ts';
import type { MarketFrame } from '../../src/protocol/market.ts';
import { TRADE_MSG } from '../../src/protocol/trading.ts';
import type { Order, PlaceOrderParsed, Position } from '../../src/protocol/trading.ts';
import type { Db } from '../db/connection.ts';
import { parseMinor } from '../db/money.ts';
import type { Wallet } from '../db/schema.ts';
import { Rejection } from '../http/errors.ts';
import type { MarketSource } from '../market/source.ts';
import type { UserEventBus } from '../ws/userBus.ts';
import { balanceOf } from '../wallet/wallet.ts';
import { balanceCacheOf } from '../ledger/post.ts';
import type { ContractRules } from '../../src/protocol/contractRules.ts';
import type { DepthSnapshot } from '../../src/protocol/market.ts';
import { FUNDING_INTERVAL_MS, lastBoundary, notional, OVERNIGHT_INTERVAL_MS, scaled, shouldLiquidate } from './formulas.ts';
import type { Rules } from './formulas.ts';
import { BOOK_DEPTH } from './matching.ts';
import { liquidationRows } from './execute.ts';
import type { MarketView } from './execute.ts';
import { cancelOrder, closeAll, closePosition, editOrder, placeOrder, setTpsl } from './orders.ts';
import { closePart, emptyTouched, periodicFee } from './settle.ts';
import type { Ctx, ExecutedFill, Touched } from './settle.ts';

/** Called with the executions of a committed operation (see TradingEngine.onFills). */
export type FillListener = (fills: readonly ExecutedFill[]) => Promise<void>;
import { contractRulesDto, findOrder, newId, orderDto, positionDto, tpslOf } from './store.ts';
import type { OrderRow, PositionRow } from './store.ts';
import { actOn, cancelRefused, dueStep } from './triggers.ts';
import { isRetryableTxError, withTxRetry } from '../db/tx.ts';
import { sql } from 'kysely';

/** At most this many operations share one transaction (bounds the time a batch holds the database). */
const MAX_BATCH = 32;

interface BatchOp {
  fn: (c: Ctx) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (err: unknown) => void;
}

type BatchOutcome = { ok: true; result: unknown; touched: Touched } | { ok: false; error: unknown };

/** One event-loop turn: lets the I/O callbacks already due (requests received) queue their operations first. */
const gatherTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The operations of a batch inside its transaction, in order. A lone operation runs bare; in a group
 * each runs inside a savepoint: a refusal (or any error) rolls back that operation's writes only and
 * becomes its outcome. A retryable PostgreSQL error (deadlock, serialization) aborts the whole
 * transaction, so it is rethrown and the batch runs again from the start (server/db/tx.ts).
 */
async function runOps(trx: Db, batch: readonly BatchOp[], now: number): Promise<BatchOutcome[]> {
  // The batch's postings share what they read of balances (a rolled-back operation's changes to it are undone with it).
  const balances = balanceCacheOf(trx);
  const [only] = batch;
  if (batch.length === 1 && only) {
    // Alone in its transaction: an error rolls the transaction back and rejects the operation.
    const touched = emptyTouched();
    const result = await only.fn({ trx, now, touched });
    await balances.flush(trx);
    return [{ ok: true, result, touched }];
  }
  const out: BatchOutcome[] = [];
  for (const op of batch) {
    const touched = emptyTouched();
    const before = balances.snapshot();
    await sql`SAVEPOINT engine_op`.execute(trx);
    try {
      const result = await op.fn({ trx, now, touched });
      await sql`RELEASE SAVEPOINT engine_op`.execute(trx);
      out.push({ ok: true, result, touched });
    } catch (error) {
      if (isRetryableTxError(error)) throw error;
      await sql`ROLLBACK TO SAVEPOINT engine_op`.execute(trx);
      await sql`RELEASE SAVEPOINT engine_op`.execute(trx);
      balances.restore(before);
      out.push({ ok: false, error });
    }
  }
  // Each balance the batch changed is written once, before the commit (server/ledger/post.ts TxBalances).
  await balances.flush(trx);
  return out;
}

/** How an order command ended, for the metrics endpoint: answered, refused by a rule, refused because the engine could not take it (503), or failed. */
export type CommandResult = 'accepted' | 'refused' | 'unavailable' | 'error';

/** What an engine tells the metrics endpoint (server/http/metrics.ts, issue 28 point 9) as it works; set by it, null otherwise. */
export interface EngineObserver {
  /** A command answered: its kind (place, cancel, edit, close, closeAll, tpsl; on the memory engine every journaled command: market, book, periodic, post, ...). */
  command(kind: string, result: CommandResult): void;
  /** The memory engine's journal: one batch made durable (records, bytes, write + sync ms). */
  journalBatch?(b: { records: number; bytes: number; ms: number }): void;
  /** The memory engine's journal: one positioned write (ms) and one fdatasync (ms). */
  journalWrite?(ms: number): void;
  journalSync?(ms: number): void;
}

/** Gauges an engine reports when scraped. */
export interface EngineFigures {
  /** Commands taken and not answered yet (the engine's queue). */
  queueDepth: number;
  /** The memory engine's: last applied seq, the journal's durable seq, the projection's seq and lag, the last snapshot. */
  seq?: number;
  durableSeq?: number;
  projectedSeq?: number;
  projectorLagCommands?: number;
  projectorLagMs?: number;
  snapshotSeq?: number;
  /** Wall-clock ms since the last snapshot was written (or, after a restart, since the one recovered from was). */
  snapshotAgeMs?: number;
}

export function commandResult(err: unknown): CommandResult {
  if (!(err instanceof Rejection)) return 'error';
  return err.code === Code.serviceUnavailable ? 'unavailable' : 'refused';
}

export interface TradingEngineOptions {
  db: Db;
  clock: { now(): number };
  source: MarketSource;
  /** Where order / position / balance frames go; omitted in pure ledger tests. */
  bus?: UserEventBus;
  onError?: (err: unknown) => void;
}

/**
 * The futures engine: order placement and matching against the market source, TP/SL, liquidation
 * and the periodic funding / overnight fees.
 *
 * Invariants:
 * - every mutation runs through one serial queue, each as ONE database transaction: a failure
 *   rolls the whole fill / close / fee back, and no two mutations interleave their reads and writes;
 * - frames are published only after the commit, in the order of the changes;
 * - market frames only mark a symbol dirty; the check (limit crossings by the last price, TP/SL
 *   and liquidation by the mark price) runs in the queue, once per burst of frames.
 * Time comes from the injected clock only, so tests drive fees and triggers deterministically.
 */
export class TradingEngine implements MarketView {
  readonly db: Db;
  readonly clock: { now(): number };
  readonly source: MarketSource;
  private readonly bus: UserEventBus | undefined;
  private readonly onError: (err: unknown) => void;
  private chain: Promise<unknown> = Promise.resolve();
  /** The batch of {@link run} operations queued but not started yet (group commit). */
  private openBatch: BatchOp[] | null = null;
  private readonly dirty = new Set<string>();
  private flushQueued = false;
  private unsubscribe: (() => void) | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly fillListeners: FillListener[] = [];
  /** Transactions run by the queue and the operations they carried (the bench reports operations per commit). */
  readonly stats = { batches: 0, operations: 0 };
  /**
   * Set only in a gateway process (server/broker/remoteEngine.ts): the engine process that runs
   * every command. Features whose commands run in this queue (copy trading) forward them there.
   */
  readonly remote: { call<T>(method: string, ...args: unknown[]): Promise<T> } | undefined = undefined;
  /** Whether the engine mirrors a lead trader's fills into the copies itself (the memory engine): copy trading then registers no fill listener. */
  readonly mirrorsCopies: boolean = false;
  /** Set by the metrics endpoint (server/http/metrics.ts): told of every command's result. */
  observer: EngineObserver | null = null;
  private inFlight = 0;

  constructor(opts: TradingEngineOptions) {
    this.db = opts.db;
    this.clock = opts.clock;
    this.source = opts.source;
    this.bus = opts.bus;
    this.onError = opts.onError ?? ((err) => console.error('trading engine', err));
  }

  /**
   * Follows the source's trade and ticker frames and, when `periodicMs > 0`, runs the fee
   * schedule on a real interval (production). Tests pass 0 and call {@link runPeriodic}.
   */
  async start({ periodicMs = 1000 }: { periodicMs?: number; /** The memory engine's journal and snapshots live under it (server/engine/memoryEngine.ts). */ dataDir?: string } = {}): Promise<void> {
    await this.initJobs(this.clock.now());
    this.unsubscribe = this.source.subscribe((f: MarketFrame) => {
      if (f.type === 'trade' || f.type === 'ticker') this.markDirty(f.symbol);
    });
    if (periodicMs > 0) {
      this.timer = setInterval(() => void this.runPeriodic().catch(this.onError), periodicMs);
      this.timer.unref();
    }
  }

  /** Stops following the market and the fee timer, then waits for queued work. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
  }

  /** Resolves when everything queued so far has run. */
  async idle(): Promise<void> {
    let last: Promise<unknown> | undefined;
    while (last !== this.chain) {
      last = this.chain;
      await last.catch(() => undefined);
    }
  }

  rules(symbol: string): Rules | undefined {
    return this.source.symbol(symbol);
  }

  /** Last traded price (limit crossings, market fills fall back to it). */
  lastPrice(symbol: string): number | undefined {
    return this.source.ticker(symbol)?.last;
  }

  /** Mark price (positions, TP/SL, liquidation); the last price when the source has none. */
  markPrice(symbol: string): number | undefined {
    return this.source.markPrice(symbol) ?? this.lastPrice(symbol);
  }

  /** The top of the source's book that takers walk. */
  book(symbol: string): DepthSnapshot | undefined {
    return this.source.snapshot(symbol, BOOK_DEPTH);
  }

  /**
   * Runs `fn` in the serial queue inside one transaction, then publishes what it touched.
   *
   * Group commit: operations queued while an earlier one runs wait in one open batch; the batch runs
   * as ONE transaction with a savepoint around each operation, so a refused operation rolls back
   * alone and the others commit together (one commit instead of one per order: the commit was the
   * largest single cost of a placement). Each caller still gets its own result or error, and frames
   * go out per operation in queue order after the batch commits. A batch closes when anything else
   * is queued (market checks), so the queue's order is kept.
   */
  run<T>(fn: (c: Ctx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const op: BatchOp = { fn, resolve: resolve as (v: unknown) => void, reject };
      const open = this.openBatch;
      if (open && open.length < MAX_BATCH) {
        open.push(op);
        return;
      }
      const batch: BatchOp[] = [op];
      void this.enqueue(async () => {
        // Gather: the rest of this event-loop turn's callbacks (requests already received) join the batch.
        if (this.openBatch === batch) await gatherTurn();
        if (this.openBatch === batch) this.openBatch = null;
        await this.runBatch(batch);
      });
      this.openBatch = batch;
    });
  }

  /** Appends a job to the serial queue; closes the open batch so later operations queue after it. */
  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    this.openBatch = null;
    const p = this.chain.then(job);
    this.chain = p.catch(() => undefined);
    return p;
  }

  private async runBatch(batch: readonly BatchOp[]): Promise<void> {
    this.stats.batches += 1;
    this.stats.operations += batch.length;
    const now = this.clock.now();
    let outcomes: BatchOutcome[];
    try {
      outcomes = await withTxRetry(this.db, () => this.db.transaction().execute((trx) => runOps(trx, batch, now)));
    } catch (err) {
      for (const op of batch) op.reject(err);
      return;
    }
    for (const [i, op] of batch.entries()) {
      const out = outcomes[i];
      if (!out || !out.ok) {
        op.reject(out ? out.error : new Error('batch lost an operation'));
        continue;
      }
      try {
        await this.publish(out.touched);
        await this.notifyFills(out.touched);
        op.resolve(out.result);
      } catch (err) {
        op.reject(err);
      }
    }
  }

  // ------------------------------------------------------------ public operations (serialised)

  /** Runs an order command, counting it in the queue depth and telling the observer how it ended. */
  protected counted<T>(kind: string, fn: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    const p = fn();
    p.then(
      () => {
        this.inFlight -= 1;
        this.observer?.command(kind, 'accepted');
      },
      (err: unknown) => {
        this.inFlight -= 1;
        this.observer?.command(kind, commandResult(err));
      },
    );
    return p;
  }

  /** The gauges the metrics endpoint reads when scraped. */
  figures(): EngineFigures {
    return { queueDepth: this.inFlight };
  }

  placeOrder(userId: number, body: PlaceOrderParsed): Promise<Order> {
    return this.counted('place', () => this.run((c) => placeOrder(this, c, userId, body)).then((row) => orderDto(row)));
  }

  cancelOrder(userId: number, by: { orderId?: string | undefined; clientOrderId?: string | undefined }): Promise<Order> {
    return this.counted('cancel', () => this.run((c) => cancelOrder(this, c, userId, by)).then((row) => orderDto(row)));
  }

  closePosition(userId: number, body: { positionId: string; qty?: number | undefined; price?: number | null | undefined; clientOrderId?: string | undefined }): Promise<Order> {
    return this.counted('close', () => this.run((c) => closePosition(this, c, userId, body)).then((row) => orderDto(row)));
  }

  /** Market-closes every open position (of a symbol / contract), in one transaction: all or none. */
  closeAll(userId: number, filter: { symbol?: string | undefined; contract?: 'perp' | 'std' | undefined }): Promise<Order[]> {
    return this.counted('closeAll', () => this.run((c) => closeAll(this, c, userId, filter)).then((rows) => rows.map((r) => orderDto(r))));
  }

  /** Edits a pending order's price / trigger / quantity in place. */
  editOrder(userId: number, body: Parameters<typeof editOrder>[3]): Promise<Order> {
    return this.counted('edit', () => this.run((c) => editOrder(this, c, userId, body)).then((row) => orderDto(row)));
  }

  /** The contract details of a symbol (fees, brackets), or undefined when unknown. */
  contractRules(symbol: string): ContractRules | undefined {
    const rules = this.rules(symbol);
    return rules ? contractRulesDto(rules) : undefined;
  }

  setTpsl(userId: number, body: { positionId: string; tp: number | null; sl: number | null }): Promise<Position> {
    return this.counted('tpsl', () => this.run((c) => setTpsl(this, c, userId, body)).then((row) => this.positionView(row)));
  }

  /** The caller's open positions valued at the current mark. */
  async positions(userId: number, filter: { symbol?: string | undefined; contract?: 'perp' | 'std' | undefined } = {}): Promise<Position[]> {
    let q = this.db.selectFrom('trade_positions').selectAll().where('user_id', '=', userId).where('status', '=', 'open');
    if (filter.symbol) q = q.where('symbol', '=', filter.symbol);
    if (filter.contract) q = q.where('contract', '=', filter.contract);
    const rows = await q.orderBy('opened_at', 'desc').execute();
    const out: Position[] = [];
    for (const r of rows) out.push(await this.positionView(r));
    return out;
  }

  async positionView(r: PositionRow, db: Db = this.db): Promise<Position> {
    const rules = this.rules(r.symbol);
    if (!rules) throw new Rejection(Code.badRequest, TRADE_MSG.unknownSymbol);
    const { tp, sl } = await tpslOf(db, r.id);
    return positionDto(r, rules, this.markPrice(r.symbol), tp, sl);
  }

  // ------------------------------------------------------------ market-driven checks

  /** Marks a symbol for a check; one queued flush handles every dirty symbol. */
  markDirty(symbol: string): void {
    this.dirty.add(symbol);
    if (this.flushQueued) return;
    this.flushQueued = true;
    void this.enqueue(async () => {
      this.flushQueued = false;
      const symbols = [...this.dirty];
      this.dirty.clear();
      for (const s of symbols) await this.checkSymbolNow(s).catch(this.onError);
    });
  }

  /** Checks one symbol now (queued): crossed limit opens, triggered TP/SL, liquidations. */
  checkSymbol(symbol: string): Promise<void> {
    return this.enqueue(() => this.checkSymbolNow(symbol));
  }

  private async checkSymbolNow(symbol: string): Promise<void> {
    const rules = this.rules(symbol);
    const last = this.lastPrice(symbol);
    const mark = this.markPrice(symbol);
    if (!rules || last === undefined || mark === undefined) return;
    const pending = await this.db.selectFrom('trade_orders').selectAll().where('status', '=', 'pending').where('symbol', '=', symbol).orderBy('created_at').execute();
    for (const o of pending) {
      const step = dueStep(o, last, mark);
      if (step === null) continue;
      try {
        await this.runNow((c) => actOn(this, c, o.id, rules, step));
      } catch (err) {
        // A triggered order the account can no longer carry (balance, leverage bracket) ends canceled.
        if (!(err instanceof Rejection)) throw err;
        await this.runNow((c) => cancelRefused(c, o.id, err.message));
      }
    }
    const positions = await this.db.selectFrom('trade_positions').selectAll().where('status', '=', 'open').where('symbol', '=', symbol).execute();
    const markUnits = scaled(mark, rules.pricePrecision);
    for (const p of positions) {
      if (shouldLiquidate(rules, p.side, parseMinor(p.cost), parseMinor(p.margin), parseMinor(p.qty), markUnits)) {
        await this.runNow((c) => this.liquidate(c, p.id, rules, mark));
      }
    }
  }

  /** Like {@link run} but for code already inside the queue (no re-queueing). */
  private runNow(fn: (c: Ctx) => Promise<void>): Promise<void> {
    return this.runNowValue(fn);
  }

  /** Liquidates the whole position at `mark` (a filled marketClose order plus a 'liquidation' fill). */
  private async liquidate(c: Ctx, positionId: string, rules: Rules, mark: number): Promise<void> {
    const pos = await c.trx.selectFrom('trade_positions').selectAll().where('id', '=', positionId).executeTakeFirst();
    if (!pos || pos.status !== 'open') return;
    const n = notional(rules, scaled(mark, rules.pricePrecision), parseMinor(pos.qty));
    const r = await closePart(c, pos, rules, parseMinor(pos.qty), n, rules.closingFeeRatio, true);
    const id = newId('O', c.now);
    const { order, fill, executed } = liquidationRows(pos, rules, id, mark, n, r, c.now);
    await c.trx.insertInto('trade_orders').values(order).execute();
    await c.trx.insertInto('trade_fills').values(fill).execute();
    c.touched.orders.set(id, pos.user_id);
    c.touched.fills.push(executed);
  }

  // ------------------------------------------------------------ fill listeners

  /**
   * Registers a listener called with the executions of every committed operation (in the serial
   * queue, after the commit and the frames): copy trading mirrors a lead trader's fills there. A
   * listener runs its own transactions with {@link transact}; its failure is reported, never undoes
   * the operation. Returns the unregister function.
   */
  onFills(listener: FillListener): () => void {
    this.fillListeners.push(listener);
    return () => {
      const i = this.fillListeners.indexOf(listener);
      if (i >= 0) this.fillListeners.splice(i, 1);
    };
  }

  /** For fill listeners (already inside the queue): one transaction now, then its frames. */
  transact<T>(fn: (c: Ctx) => Promise<T>): Promise<T> {
    return this.runNowValue(fn);
  }

  /** Runs `fn` now, as a batch of one (for code already inside the queue): its transaction, then its frames. */
  private runNowValue<T>(fn: (c: Ctx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => void this.runBatch([{ fn, resolve: resolve as (v: unknown) => void, reject }]));
  }

  private async notifyFills(t: Touched): Promise<void> {
    if (t.fills.length === 0 || this.fillListeners.length === 0) return;
    for (const l of [...this.fillListeners]) {
      try {
        await l(t.fills);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  // ------------------------------------------------------------ periodic fees

  private async initJobs(now: number): Promise<void> {
    for (const [name, period] of [['funding', FUNDING_INTERVAL_MS], ['overnight', OVERNIGHT_INTERVAL_MS]] as const) {
      await this.db.insertInto('trading_jobs').values({ name, last_run: lastBoundary(now, period) }).onConflict((oc) => oc.column('name').doNothing()).execute();
    }
  }

  /**
   * Charges funding (perp, every 8 h at 00/08/16 UTC) and overnight fees (std, daily at 00 UTC)
   * for every boundary passed since the last run, each boundary once (the job's last run is
   * stored in the same transaction as the charges). Positions open at run time are charged.
   */
  runPeriodic(now: number = this.clock.now()): Promise<void> {
    return this.run(async (c) => {
      for (const [name, period] of [['funding', FUNDING_INTERVAL_MS], ['overnight', OVERNIGHT_INTERVAL_MS]] as const) {
        const row = await c.trx.selectFrom('trading_jobs').select('last_run').where('name', '=', name).executeTakeFirst();
        const due = lastBoundary(now, period);
        let last = row?.last_run ?? due;
        while (last < due) {
          last += period;
          await this.chargeAll(c, name === 'funding' ? 'perp' : 'std');
        }
        await c.trx.insertInto('trading_jobs').values({ name, last_run: last }).onConflict((oc) => oc.column('name').doUpdateSet({ last_run: last })).execute();
      }
    }).then(async () => {
      const symbols = await this.db.selectFrom('trade_positions').select('symbol').distinct().where('status', '=', 'open').execute();
      for (const s of symbols) this.markDirty(s.symbol);
    });
  }

  private async chargeAll(c: Ctx, contract: 'perp' | 'std'): Promise<void> {
    const positions = await c.trx.selectFrom('trade_positions').selectAll().where('status', '=', 'open').where('contract', '=', contract).orderBy('opened_at').execute();
    for (const p of positions) {
      const rules = this.rules(p.symbol);
      const mark = this.markPrice(p.symbol);
      if (!rules || mark === undefined) continue;
      if (contract === 'perp') {
        const rate = rules.fundingRateRatio;
        if (rate === 0) continue;
        const pays = (p.side === 'long') === rate > 0;
        await periodicFee(c, p, rules, 'FUNDING_FEE', rate, mark, pays);
      } else {
        if (rules.overnightFeeRatio === 0) continue;
        await periodicFee(c, p, rules, 'OVERNIGHT_FEE', rules.overnightFeeRatio, mark, true);
      }
    }
  }

  // ------------------------------------------------------------ user socket

  private async publish(t: Touched): Promise<void> {
    const bus = this.bus;
    if (!bus) return;
    // Rows are read back only for users with a socket somewhere (a cluster's engine counts every user as listening).
    for (const [id, userId] of t.orders) {
      if (bus.listenerCount(userId) === 0) continue;
      const o = await this.db.selectFrom('trade_orders').selectAll().where('id', '=', id).executeTakeFirst();
      if (o) bus.publish(o.user_id, { type: 'order', data: orderDto(o) });
    }
    for (const [id, userId] of t.positions) {
      if (bus.listenerCount(userId) === 0) continue;
      const p = await this.db.selectFrom('trade_positions').selectAll().where('id', '=', id).executeTakeFirst();
      if (p) bus.publish(p.user_id, { type: 'position', data: { ...(await this.positionView(p)), closed: p.status !== 'open' } });
    }
    for (const key of t.balances) {
      const [u, w] = key.split('|') as [string, Wallet];
      const userId = Number(u);
      if (bus.listenerCount(userId) > 0) bus.publish(userId, { type: 'balance', data: await balanceOf(this.db, userId, w, 'USDT') });
    }
  }

  /** The order of a user by id or client order id (for the routes). */
  findOrder(userId: number, by: { orderId?: string; clientOrderId?: string }): Promise<OrderRow | undefined> {
    return findOrder(this.db, userId, by);
  }
}
