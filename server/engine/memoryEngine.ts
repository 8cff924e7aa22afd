import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MarketFrame } from '../../src/protocol/market.ts';
import type { Order, PlaceOrderParsed, Position } from '../../src/protocol/trading.ts';
import { TRADE_MSG, WALLETS } from '../../src/protocol/trading.ts';
import { Code } from '../../src/protocol/envelope.ts';
import type { Db } from '../db/connection.ts';
import { balanceKey, SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import type { Wallet } from '../db/schema.ts';
import { Rejection } from '../http/errors.ts';
import { setLedgerAuthority } from '../ledger/post.ts';
import { setReadBarrier } from '../db/readBarrier.ts';
import type { Posting, PostResult } from '../ledger/post.ts';
import { BOOK_DEPTH } from '../trading/matching.ts';
import { TradingEngine } from '../trading/engine.ts';
import { commandResult } from '../trading/engine.ts';
import type { EngineFigures, TradingEngineOptions } from '../trading/engine.ts';
import type { Ctx } from '../trading/settle.ts';
import { orderDto, positionDto } from '../trading/store.ts';
import type { OrderRow, PositionRow } from '../trading/store.ts';
import { balanceOf, ESCROW_ACCOUNT_ID } from '../wallet/wallet.ts';
import type { Command, Outcome } from './apply.ts';
import type { CopyFrameData } from '../../src/protocol/copy.ts';
import { CopyService } from '../copy/service.ts';
import type { FollowParsed } from '../copy/service.ts';
import type { CopyPositionRow, FollowRow } from '../copy/settle.ts';
import { copyOrderDto, nicknameOf, positionDto as copyPositionDto } from '../copy/views.ts';
import type { FillListener } from '../trading/engine.ts';
import type { FileHandle } from 'node:fs/promises';
import { FileJournal, realIo } from './journalFile.ts';
import type { JournalFileIo } from './journalFile.ts';
import { loadState } from './load.ts';
import { assertProjection, PROJECTION_NAME, Projector, recoverAndProject } from './projector.ts';
import { ProjectorThread, sqliteFileOf } from './projectorThread.ts';
import { recoverState, removeStrayTemp, writeSnapshot } from './recovery.ts';
import { EngineUnavailable, Sequencer } from './sequencer.ts';
import { SnapshotWriter } from './snapshots.ts';
import type { EngineRules, EngineState, MarketQuote } from './state.ts';

/**
 * The memory engine behind the HTTP routes and the user socket (ENGINE=memory, issue 28 step 3,
 * docs/SCALING.md "The switch"). Same public surface as the SQL {@link TradingEngine} (the routes
 * do not know which one runs): every order command goes to the {@link Sequencer} (applied in memory
 * by `apply`, appended to the file journal `DATA_DIR/engine/journal.rfj`, answered once durable);
 * the {@link Projector} writes the relational tables behind from the durable outcomes; snapshots
 * of the state (at or below the projection's mark) bound the recovery.
 *
 * The engine holds EVERY balance: a ledger posting anywhere in the server (a deposit, a withdrawal, a
 * transfer, a voucher or admin credit, a convert) becomes a `post` command through
 * server/ledger/post.ts's ledger authority, so no balance the engine holds changes behind its back.
 *
 * Answers: `ack: 'durable'` (the default, the design) answers as soon as the journal record
 * is durable; the tables lag by the projector's batch, so balances (available and frozen) are read
 * from the state and every authenticated GET waits until the tables hold the caller's last answered
 * command (the read barrier, server/db/readBarrier.ts). `ack: 'projected'` also waits for the
 * projector to have written the command. Frames to the user socket are published from the outcome
 * just before the answer. On a SQLite file the projector writes from its own thread
 * (server/engine/projectorThread.ts).
 *
 * Not wired here yet: copy trading's commands (follow / unfollow / copy close / copy check run on
 * the SQL code: `run` / `transact` refuse), the fill listeners (notifications of fills), the
 * journal table on PostgreSQL (the file journal is used on both dialects), journal segments per
 * snapshot.
 */
export interface MemoryEngineOptions extends TradingEngineOptions {
  ack?: 'durable' | 'projected';
  /** A snapshot every this many commands (at a moment the projection has caught up); default 50 000. */
  snapshotEvery?: number;
  /** The longest a user's read waits for the projector to write what was answered to them (default 5 000 ms). */
  readWaitMs?: number;
  /** The journal file's operations (tests wrap them to fail a write: a full disk). */
  journalIo?: (fh: FileHandle) => JournalFileIo;
}

type Accepted = Extract<Outcome, { ok: true }>;

const TPSL = new Set(['limitTakeProfit', 'limitStopLoss']);

export class MemoryTradingEngine extends TradingEngine {
  private seqr: Sequencer | null = null;
  private projector: Projector | null = null;
  private journal: FileJournal | null = null;
  private snapshots: SnapshotWriter | null = null;
  private dir = '';
  private lastSnapshot = 0;
  /** Wall-clock time the last snapshot was written (or, after a start, the file recovered from): the metrics' snapshot age. */
  private lastSnapshotAt = 0;
  private snapshotting: Promise<unknown> | null = null;
  private readonly ack: 'durable' | 'projected';
  private readonly snapshotEvery: number;
  private readonly journalIo: MemoryEngineOptions['journalIo'];
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly dirtySymbols = new Set<string>();
  private flushScheduled = false;
  private stopSource: (() => void) | null = null;
  private timers: ReturnType<typeof setInterval>[] = [];
  private stopped = false;
  private readonly bus2: TradingEngineOptions['bus'];
  private readonly listeners: FillListener[] = [];
  private readonly knownUsers = new Set<number>();
  private copySvc: CopyService | null = null;
  override readonly mirrorsCopies = true;
  /** Copy trading's commands (CopyService forwards follow / unfollow / close / the check here, as a gateway forwards them to the engine process). */
  override readonly remote = { call: <T>(method: string, ...args: unknown[]): Promise<T> => this.copyCall(method, args) as Promise<T> };
  private readonly report: (err: unknown) => void;
  /** Each user's last command answered (or journaled for them): the seq the tables must hold before a read of theirs (read your writes). */
  private readonly lastSeqOf = new Map<number, number>();
  private unsetBarrier: (() => void) | null = null;
  /** The longest a read waits for the projector (then it reads what the tables hold). */
  private readonly readWaitMs: number;

  constructor(opts: MemoryEngineOptions) {
    super(opts);
    this.ack = opts.ack ?? 'durable';
    this.snapshotEvery = opts.snapshotEvery ?? 50_000;
    this.journalIo = opts.journalIo;
    this.bus2 = opts.bus;
    this.report = opts.onError ?? ((err) => console.error('memory engine', err));
    this.readWaitMs = opts.readWaitMs ?? 5_000;
  }

  /** The sequencer (state, seq, stats) once started. */
  get sequencer(): Sequencer {
    if (!this.seqr) throw new Error('memory engine not started');
    return this.seqr;
  }

  get projection(): Projector {
    if (!this.projector) throw new Error('memory engine not started');
    return this.projector;
  }

  get journalStats(): FileJournal['stats'] | null {
    return this.journal?.stats ?? null;
  }

  private get s(): EngineState {
    return this.sequencer.state;
  }

  // ------------------------------------------------------------ life cycle

  override async start({ periodicMs = 1000, dataDir }: { periodicMs?: number; dataDir?: string } = {}): Promise<void> {
    if (!dataDir) throw new Error('ENGINE=memory needs a data directory (DATA_DIR) for its journal and snapshots');
    const db = this.db;
    this.dir = join(dataDir, 'engine');
    mkdirSync(this.dir, { recursive: true });
    await removeStrayTemp(this.dir);
    const journalPath = join(this.dir, 'journal.rfj');
    const rules = this.source.symbols() as readonly EngineRules[];
    if (!existsSync(this.dir) || !readdirSync(this.dir).some((n) => /^snapshot-\d+\.json$/.test(n))) {
      // First start on these tables: the state read from them is snapshot 0, at a seq past every id
      // the SQL code numbered in the tables the engine numbers by seq (a follow's id is its seq).
      if (existsSync(journalPath)) throw new Error(`${journalPath} exists but no snapshot does: the engine cannot know the state the journal starts from (refusing to start)`);
      const base = await firstSeq(db);
      const s0 = await loadState(db, rules, new Map<string, MarketQuote>());
      await writeSnapshot(this.dir, base, s0);
      await db
        .insertInto('engine_projection')
        .values({ name: PROJECTION_NAME, seq: base, t: this.clock.now() })
        .onConflict((oc) => oc.column('name').doUpdateSet({ seq: base }))
        .execute();
    }
    // On a SQLite file the projector writes from its own thread and connection (off this loop); elsewhere in process.
    const file = await sqliteFileOf(db);
    const projector = file ? await ProjectorThread.openThread({ db, file, onError: this.report }) : await Projector.open({ db, onError: this.report });
    const noInitial = (): EngineState => {
      throw new Error(`no valid snapshot in ${this.dir}`);
    };
    const r = await recoverAndProject(projector, { journal: journalPath, snapshots: this.dir, initial: noInitial, onSkipped: (p, why) => this.report(new Error(`snapshot ${p} skipped: ${why}`)) });
    await assertProjection(db, { seq: r.seq, balances: r.state.balances });
    this.lastSnapshot = r.fromSnapshot;
    this.lastSnapshotAt = snapshotTime(join(this.dir, `snapshot-${r.fromSnapshot}.json`));
    this.projector = projector;
    const io = this.journalIo ?? realIo;
    this.journal = await FileJournal.open(journalPath, { firstSeq: r.seq + 1, io: (fh) => this.timedIo(io(fh)) });
    this.journal.onBatch = (b) => this.observer?.journalBatch?.(b);
    this.seqr = new Sequencer({
      journal: this.journal,
      clock: this.clock,
      state: r.state,
      recover: (seq) => recoverState({ journal: journalPath, snapshots: this.dir, initial: noInitial, to: seq }).state,
      onDurable: (o) => projector.push(o),
      onError: this.report,
    });
    setLedgerAuthority(db, {
      post: (p, inTransaction) => this.post(p, inTransaction),
      balance: (k) => this.s.balances.get(k) ?? 0n,
      balancesOf: (userId) => {
        const out: { wallet: Wallet; asset: string; amount: bigint }[] = [];
        const prefix = `${userId}|`;
        for (const [k, amount] of this.s.balances) {
          if (!k.startsWith(prefix)) continue;
          const [, wallet, asset] = k.split('|') as [string, Wallet, string];
          out.push({ wallet, asset, amount });
        }
        return out;
      },
      frozenOf: (userId) => {
        const out = new Map<Wallet, bigint>();
        for (const wallet of WALLETS) {
          const f = this.s.frozen.get(balanceKey(userId, wallet, 'USDT'));
          if (f !== undefined) out.set(wallet, f);
        }
        return out;
      },
    });
    this.unsetBarrier = setReadBarrier(db, (userId) => this.readYourWrites(userId));
    this.stopSource = this.source.subscribe((f: MarketFrame) => {
      if (f.type === 'trade' || f.type === 'ticker') this.markDirty(f.symbol);
    });
    if (periodicMs > 0) {
      const t = setInterval(() => void this.runPeriodic().catch(this.report), periodicMs);
      t.unref();
      this.timers.push(t);
    }
    // The SQL engine's initJobs: the periodic fees start counting at the first start's boundary.
    if (!r.state.jobs.has('funding') || !r.state.jobs.has('overnight')) await this.submit({ type: 'periodic' });
    const snap = setInterval(() => this.maybeSnapshot(), 1_000);
    snap.unref();
    this.timers.push(snap);
  }

  override async stop(): Promise<void> {
    this.unsetBarrier?.();
    this.unsetBarrier = null;
    this.stopSource?.();
    this.stopSource = null;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.idle();
    // From here every command (a posting of a feature still closing too) is refused: the ledger
    // authority stays on the database, so nothing moves a balance behind the journal's back.
    this.stopped = true;
    await this.snapshotting;
    if (this.seqr && this.projector) await this.projector.reached(this.seqr.seq);
    this.projector?.close();
    await this.journal?.close();
    await this.snapshots?.close();
  }

  /** Resolves once every command submitted so far is answered (durable, projected, frames sent) and no market sync is pending. */
  override async idle(): Promise<void> {
    for (;;) {
      if (this.flushScheduled) this.flushDirty();
      if (this.inflight.size === 0) break;
      await Promise.allSettled([...this.inflight]);
    }
    if (this.seqr && this.projector) await this.projector.reached(this.seqr.seq);
  }

  // ------------------------------------------------------------ commands

  /** Submits `cmd` and resolves with its outcome once durable (and projected, by `ack`), its frames published. */
  private submit(cmd: Command): Promise<Outcome> {
    if (this.stopped) return Promise.reject(new EngineUnavailable(new Error('the memory engine is stopped')));
    const p = this.sequenced(cmd).then(async (o) => {
      if (o.ok) this.touched(cmd, o);
      if (this.ack === 'projected') await this.projection.reached(o.seq);
      // A posting's frames are its feature's (as with the SQL engine's postLedger).
      if (o.ok && cmd.type !== 'post') await this.publishOutcome(o).catch(this.report);
      return o;
    });
    this.inflight.add(p);
    const done = (): void => void this.inflight.delete(p);
    p.then(done, done);
    return p;
  }

  /** Notes the seq of an accepted command for every user whose rows it wrote (the caller, a posting's accounts, the orders, positions, copy orders, copied positions and follows it changed): seqs only grow, since outcomes come in seq order. */
  private touched(cmd: Command, o: Accepted): void {
    const seq = o.seq;
    const last = this.lastSeqOf;
    if ('userId' in cmd) last.set(cmd.userId, seq);
    for (const p of o.postings) {
      last.set(p.from.userId, seq);
      last.set(p.to.userId, seq);
    }
    if (o.legs) for (const l of o.legs) last.set(l.userId, seq);
    for (const r of o.orders) last.set(r.user_id, seq);
    for (const r of o.positions) last.set(r.user_id, seq);
    // Copy trading: a lead trader's order writes its followers' copy orders and positions.
    for (const r of o.copyOrders) last.set(r.user_id, seq);
    for (const r of o.copyPositions) last.set(r.user_id, seq);
    for (const r of o.follows) last.set(r.user_id, seq);
  }

  /**
   * The read barrier (server/db/readBarrier.ts): nothing to wait for when the tables hold the user's
   * last command; else a wait for the projector to write it, at most `readWaitMs`.
   */
  private readYourWrites(userId: number): Promise<void> | undefined {
    const seq = this.lastSeqOf.get(userId);
    const projector = this.projector;
    if (seq === undefined || !projector || projector.seq >= seq) return undefined;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.readWaitMs);
      timer.unref();
      void projector.reached(seq).then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The sequencer's submit, its result told to the metrics observer (by the command's type) once durable or refused. */
  private sequenced(cmd: Command): Promise<Outcome> {
    const p = this.sequencer.submit(cmd);
    if (!this.observer) return p;
    p.then(
      (o) => this.observer?.command(cmd.type, o.ok ? 'accepted' : 'refused'),
      (err: unknown) => this.observer?.command(cmd.type, commandResult(err)),
    );
    return p;
  }

  /** The journal file's operations, each write and fdatasync timed for the metrics observer. */
  private timedIo(io: JournalFileIo): JournalFileIo {
    return {
      write: async (buf, position) => {
        const t0 = performance.now();
        await io.write(buf, position);
        this.observer?.journalWrite?.(performance.now() - t0);
      },
      sync: async () => {
        const t0 = performance.now();
        await io.sync();
        this.observer?.journalSync?.(performance.now() - t0);
      },
      truncate: (length) => io.truncate(length),
    };
  }

  /** The metrics' gauges: queue depth (commands submitted, not answered), seqs, projector lag, snapshot age. */
  override figures(): EngineFigures {
    const seqr = this.seqr;
    const projector = this.projector;
    if (!seqr || !projector) return { queueDepth: this.inflight.size };
    const lag = projector.lag(this.clock.now());
    return {
      queueDepth: this.inflight.size,
      seq: seqr.seq,
      durableSeq: this.journal?.durableSeq ?? seqr.seq,
      projectedSeq: projector.seq,
      projectorLagCommands: lag.commands,
      projectorLagMs: lag.ms,
      snapshotSeq: this.lastSnapshot,
      snapshotAgeMs: this.lastSnapshotAt > 0 ? Math.max(0, Date.now() - this.lastSnapshotAt) : 0,
    };
  }

  /**
   * The engine learns a user's inviter (users.invited_by, written once at sign-up by the account
   * code) the first time a command of theirs comes: an `inviter` command, journaled like any other.
   */
  private async knowUser(userId: number): Promise<void> {
    if (this.knownUsers.has(userId)) return;
    const row = await this.db.selectFrom('users').select('invited_by').where('id', '=', userId).executeTakeFirst();
    const inviterId = row?.invited_by ?? null;
    if (inviterId !== null && this.s.inviters.get(userId) !== Number(inviterId)) await this.submit({ type: 'inviter', userId, inviterId: Number(inviterId) });
    this.knownUsers.add(userId);
  }

  /** A command the routes wait on: a refusal is thrown as the route's Rejection. */
  private async command(cmd: Command, symbols: readonly string[]): Promise<Accepted> {
    // Known users (all but a user's first command) skip the await: one promise and turn less per command.
    if ('userId' in cmd && !this.knownUsers.has(cmd.userId)) await this.knowUser(cmd.userId);
    this.flushDirty();
    for (const sym of symbols) this.syncMarket(sym);
    const o = await this.submit(cmd);
    if (!o.ok) throw new Rejection(o.code, o.msg);
    return o;
  }

  private async post(p: Posting & { ref: string }, inTransaction: boolean): Promise<PostResult> {
    const cmd: Command = {
      type: 'post',
      posting: { type: p.type, ref: p.ref, ...(p.symbol ? { symbol: p.symbol } : {}), entries: p.entries.map((e) => ({ userId: e.userId, wallet: e.wallet, asset: e.asset, amount: e.amount.toString(), ...(e.type ? { type: e.type } : {}) })) },
    };
    if (inTransaction) {
      // The caller's transaction may hold the database (SQLite): wait for the journal only.
      if (this.stopped) throw new EngineUnavailable(new Error('the memory engine is stopped'));
      const o = await this.sequenced(cmd);
      if (o.ok) this.touched(cmd, o);
      return o.ok ? { ok: true, ref: p.ref } : { ok: false, reason: o.msg as Extract<PostResult, { ok: false }>['reason'] };
    }
    const o = await this.submit(cmd);
    return o.ok ? { ok: true, ref: p.ref } : { ok: false, reason: o.msg as Extract<PostResult, { ok: false }>['reason'] };
  }

  override placeOrder(userId: number, body: PlaceOrderParsed): Promise<Order> {
    return this.command({ type: 'place', userId, body }, [body.symbol]).then((o) => orderDto(o.result as OrderRow));
  }

  override cancelOrder(userId: number, by: { orderId?: string | undefined; clientOrderId?: string | undefined }): Promise<Order> {
    return this.command({ type: 'cancel', userId, by }, []).then((o) => orderDto(o.result as OrderRow));
  }

  override closePosition(userId: number, body: { positionId: string; qty?: number | undefined; price?: number | null | undefined; clientOrderId?: string | undefined }): Promise<Order> {
    return this.command({ type: 'close', userId, body }, this.symbolOfPosition(body.positionId)).then((o) => orderDto(o.result as OrderRow));
  }

  override closeAll(userId: number, filter: { symbol?: string | undefined; contract?: 'perp' | 'std' | undefined }): Promise<Order[]> {
    const symbols = [...new Set([...this.s.positions.values()].filter((p) => p.user_id === userId).map((p) => p.symbol))];
    return this.command({ type: 'closeAll', userId, filter }, symbols).then((o) => (o.result as OrderRow[]).map((r) => orderDto(r)));
  }

  override editOrder(userId: number, body: Parameters<TradingEngine['editOrder']>[1]): Promise<Order> {
    const id = body.orderId ?? (body.clientOrderId !== undefined ? this.s.clientIds.get(`${userId}|${body.clientOrderId}`) : undefined);
    const order = id === undefined ? undefined : this.s.orders.get(id);
    return this.command({ type: 'edit', userId, body }, order ? [order.symbol] : []).then((o) => orderDto(o.result as OrderRow));
  }

  override setTpsl(userId: number, body: { positionId: string; tp: number | null; sl: number | null }): Promise<Position> {
    return this.command({ type: 'tpsl', userId, body }, this.symbolOfPosition(body.positionId)).then((o) => this.positionView(o.result as PositionRow));
  }

  override runPeriodic(): Promise<void> {
    this.flushDirty();
    for (const sym of new Set([...this.s.positions.values()].map((p) => p.symbol))) this.syncMarket(sym);
    return this.submit({ type: 'periodic' }).then(() => undefined);
  }

  override checkSymbol(symbol: string): Promise<void> {
    const q = this.s.market.get(symbol);
    const t = this.source.ticker(symbol);
    if (!t) return Promise.resolve();
    const mark = this.source.markPrice(symbol) ?? t.last;
    if (q && q.last === t.last && q.mark === mark) return this.submit({ type: 'market', symbol, last: q.last, mark: q.mark, book: q.book }).then(() => undefined);
    return this.syncMarket(symbol, true) ?? Promise.resolve();
  }

  override onFills(listener: FillListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  private get copy(): CopyService {
    this.copySvc ??= new CopyService(this.db, this, this.bus2);
    return this.copySvc;
  }

  /** Every listed symbol brought to the source's prices (a follow's fixed floor reads every market's last price). */
  private allSymbols(): string[] {
    return this.source.symbols().map((i) => i.symbol);
  }

  private async copyCall(method: string, args: readonly unknown[]): Promise<unknown> {
    switch (method) {
      case 'copy.follow': {
        const [userId, body] = args as [number, FollowParsed];
        await this.knowTrader(body.traderId);
        const o = await this.command({ type: 'follow', userId, body }, this.allSymbols());
        return this.copy.followView(o.result as FollowRow);
      }
      case 'copy.unfollow': {
        const [userId, followId, closePositions] = args as [number, number, boolean];
        const o = await this.command({ type: 'unfollow', userId, followId, closePositions }, this.copySymbols());
        return this.copy.followView(o.result as FollowRow);
      }
      case 'copy.closePosition': {
        const [userId, positionId] = args as [number, string];
        const o = await this.command({ type: 'copyClose', userId, positionId }, this.copySymbols());
        const row = o.result as CopyPositionRow;
        return copyPositionDto(row, await nicknameOf(this.db, row.trader_id), true, { rules: (x: string) => this.rules(x), markPrice: (x: string) => this.markPrice(x) });
      }
      case 'copy.checkAll':
        await this.command({ type: 'copyCheck' }, this.copySymbols());
        return undefined;
      default:
        throw new Error(`memory engine: no method ${method}`);
    }
  }

  /**
   * The listing of a lead trader as copy_traders holds it (the application review and the simulated
   * traders' seed write it): a `trader` command when the engine's state says otherwise.
   */
  private async knowTrader(traderId: number): Promise<void> {
    const row = await this.db.selectFrom('copy_traders').select('status').where('user_id', '=', traderId).executeTakeFirst();
    const active = row?.status === 'active';
    if (active !== this.s.traders.has(traderId)) await this.submit({ type: 'trader', userId: traderId, active });
  }

  private copySymbols(): string[] {
    return [...new Set([...this.s.copyPositions.values()].map((p) => p.symbol))];
  }

  /** Copy trading's SQL transactions are not run by the memory engine (its commands are: follow, unfollow, copy close, the copy check). */
  override run<T>(_fn: (c: Ctx) => Promise<T>): Promise<T> {
    return Promise.reject(new Rejection(Code.serviceUnavailable, 'copy trading is not available on ENGINE=memory yet'));
  }

  override transact<T>(fn: (c: Ctx) => Promise<T>): Promise<T> {
    return this.run(fn);
  }

  // ------------------------------------------------------------ reads from the state

  override async positions(userId: number, filter: { symbol?: string | undefined; contract?: 'perp' | 'std' | undefined } = {}): Promise<Position[]> {
    const rows = [...this.s.positions.values()]
      .filter((p) => p.user_id === userId && (!filter.symbol || p.symbol === filter.symbol) && (!filter.contract || p.contract === filter.contract))
      .sort((a, b) => b.opened_at - a.opened_at);
    const out: Position[] = [];
    for (const r of rows) out.push(await this.positionView(r));
    return out;
  }

  override positionView(r: PositionRow): Promise<Position> {
    const rules = this.rules(r.symbol);
    if (!rules) return Promise.reject(new Rejection(Code.badRequest, TRADE_MSG.unknownSymbol));
    let tp: number | null = null;
    let sl: number | null = null;
    const ids = this.s.byPosition.get(r.id);
    const rows = ids ? [...ids].map((id) => this.s.orders.get(id)).filter((o): o is OrderRow => o !== undefined && o.status === 'pending' && TPSL.has(o.kind)) : [];
    rows.sort((a, b) => a.created_at - b.created_at);
    for (const o of rows) {
      if (o.kind === 'limitTakeProfit' && tp === null) tp = o.price;
      if (o.kind === 'limitStopLoss' && sl === null) sl = o.price;
    }
    return Promise.resolve(positionDto(r, rules, this.markPrice(r.symbol), tp, sl));
  }

  private symbolOfPosition(positionId: string): string[] {
    const key = this.s.positionIds.get(positionId);
    const p = key === undefined ? undefined : this.s.positions.get(key);
    return p ? [p.symbol] : [];
  }

  // ------------------------------------------------------------ the market as commands

  override markDirty(symbol: string): void {
    this.dirtySymbols.add(symbol);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flushDirty());
  }

  /** A `market` command (prices, book, then the check) for every symbol whose frames came since the last one. */
  private flushDirty(): void {
    this.flushScheduled = false;
    if (!this.seqr || this.stopped) return;
    const symbols = [...this.dirtySymbols];
    this.dirtySymbols.clear();
    for (const sym of symbols) void this.syncMarket(sym);
  }

  /**
   * Brings the state's market for `symbol` to the source's: a `market` command when the last or mark
   * price moved (or `force`), a `book` command when only the book did. Submitted synchronously, so a
   * command submitted next is applied after it.
   */
  private syncMarket(symbol: string, force = false): Promise<void> | undefined {
    const t = this.source.ticker(symbol);
    if (!t) return undefined;
    const mark = this.source.markPrice(symbol) ?? t.last;
    const snap = this.source.snapshot(symbol, BOOK_DEPTH);
    const book = snap ? { bids: snap.bids.slice(0, BOOK_DEPTH), asks: snap.asks.slice(0, BOOK_DEPTH) } : undefined;
    const q = this.s.market.get(symbol);
    let p: Promise<Outcome> | undefined;
    if (force || !q || q.last !== t.last || q.mark !== mark) p = this.submit({ type: 'market', symbol, last: t.last, mark, ...(book ? { book } : {}) });
    else if (book && !sameBook(q.book, book)) p = this.submit({ type: 'book', symbol, book });
    if (!p) return undefined;
    return p.then(
      () => undefined,
      (err: unknown) => this.report(err),
    );
  }

  // ------------------------------------------------------------ frames

  private async publishOutcome(o: Accepted): Promise<void> {
    if (o.executed && o.executed.length > 0 && this.listeners.length > 0) {
      // The fill listeners read the tables (a notification reads the order's row), as the SQL
      // engine calls them after its commit: once the projector has written the command. The answer
      // does not wait for it (ack durable); idle() does.
      const executed = o.executed;
      const listeners = [...this.listeners];
      const p = this.projection.reached(o.seq).then(async () => {
        for (const l of listeners) await l(executed).catch(this.report);
      });
      this.inflight.add(p);
      void p.finally(() => this.inflight.delete(p));
    }
    const bus = this.bus2;
    if (!bus) return;
    if (o.copyOrders.length > 0) {
      // copy_orders ids are the table's own (autoincrement): read the rows back once projected.
      await this.projection.reached(o.seq);
      const used = new Set<number>();
      const rows = await this.db.selectFrom('copy_orders').selectAll().where('created_at', '=', o.t).where('follow_id', 'in', [...new Set(o.copyOrders.map((r) => r.follow_id))]).orderBy('id').execute();
      for (const r of o.copyOrders) {
        const row = rows.find((x) => !used.has(x.id) && x.follow_id === r.follow_id && x.leader_order_id === r.leader_order_id && x.action === r.action && x.qty === r.qty && x.status === r.status && x.position_id === r.position_id);
        if (!row) continue;
        used.add(row.id);
        if (bus.listenerCount(row.user_id) === 0) continue;
        const order = copyOrderDto(row);
        bus.publish(row.user_id, { type: 'copy', data: (row.status === 'skipped' ? { event: 'skipped', order } : { event: 'order', order }) satisfies CopyFrameData });
      }
    }
    for (const f of o.follows) {
      if (bus.listenerCount(f.user_id) > 0) bus.publish(f.user_id, { type: 'copy', data: { event: 'follow', follow: await this.copy.followView(f) } satisfies CopyFrameData });
    }
    for (const r of o.orders) if (bus.listenerCount(r.user_id) > 0) bus.publish(r.user_id, { type: 'order', data: orderDto(r) });
    for (const p of o.positions) {
      if (bus.listenerCount(p.user_id) === 0) continue;
      bus.publish(p.user_id, { type: 'position', data: { ...(await this.positionView(p)), closed: p.status !== 'open' } });
    }
    // (No closure here: the server runs under tsx, whose keepNames wraps each one created: 6 % of the engine's thread.)
    const wallets = new Map<string, [number, Wallet]>();
    for (const p of o.postings) {
      if (p.coin !== 'USDT') continue;
      touchWallet(wallets, bus, p.from.userId, p.from.wallet);
      touchWallet(wallets, bus, p.to.userId, p.to.wallet);
    }
    if (!o.legs) {
      // The margins frozen by orders and positions change without a posting of the user's (a pending order's edit).
      for (const r of o.orders) touchWallet(wallets, bus, r.user_id, r.contract);
    }
    for (const [userId, wallet] of wallets.values()) bus.publish(userId, { type: 'balance', data: await balanceOf(this.db, userId, wallet, 'USDT') });
  }

  // ------------------------------------------------------------ snapshots

  /** A snapshot every `snapshotEvery` commands, taken when the state, the journal and the projection are at the same seq. */
  private maybeSnapshot(): void {
    const seqr = this.seqr;
    const projector = this.projector;
    const journal = this.journal;
    if (!seqr || !projector || !journal || this.snapshotting) return;
    const seq = seqr.seq;
    if (seq - this.lastSnapshot < this.snapshotEvery) return;
    if (journal.durableSeq !== seq || projector.seq !== seq) return;
    this.snapshots ??= new SnapshotWriter();
    this.lastSnapshot = seq;
    this.snapshotting = this.snapshots
      .write(this.dir, seq, seqr.state)
      .then(() => {
        this.lastSnapshotAt = Date.now();
      })
      .catch(this.report)
      .finally(() => {
        this.snapshotting = null;
      });
  }
}

/** When a snapshot file was written (its mtime), 0 when it cannot be read. */
function snapshotTime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** A user's wallet whose balance frame is due (users with a socket open; never the system or escrow accounts). */
function touchWallet(wallets: Map<string, [number, Wallet]>, bus: NonNullable<TradingEngineOptions['bus']>, userId: number, wallet: Wallet): void {
  if (userId === SYSTEM_ACCOUNT_ID || userId === ESCROW_ACCOUNT_ID || bus.listenerCount(userId) === 0) return;
  wallets.set(`${userId}|${wallet}`, [userId, wallet]);
}

function sameBook(a: MarketQuote['book'], b: MarketQuote['book']): boolean {
  const side = (x: [number, number][], y: [number, number][]): boolean => x.length === y.length && x.every((l, i) => l[0] === y[i]?.[0] && l[1] === y[i]?.[1]);
  return side(a.bids, b.bids) && side(a.asks, b.asks);
}

/** The first seq of a memory engine on tables the SQL code wrote: past the projection's mark and every id the engine numbers by seq. */
async function firstSeq(db: Db): Promise<number> {
  const mark = await db.selectFrom('engine_projection').select('seq').where('name', '=', PROJECTION_NAME).executeTakeFirst();
  const follows = await db.selectFrom('copy_follows').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst();
  const quotes = await db.selectFrom('convert_quotes').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst();
  return Math.max(Number(mark?.seq ?? 0), Number(follows?.m ?? 0), Number(quotes?.m ?? 0));
}
