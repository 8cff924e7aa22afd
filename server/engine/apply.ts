import type { DepthSnapshot } from '../../src/protocol/market.ts';
import { REFERRAL_RATE_BPS, REFERRAL_WALLET, rebateOf } from '../../src/protocol/referral.ts';
import { TRADE_MSG } from '../../src/protocol/trading.ts';
import { CONVERT_MSG } from '../../src/protocol/convert.ts';
import type { CancelReason, PlaceOrderParsed } from '../../src/protocol/trading.ts';
import type { editOrderBody } from '../../src/protocol/trading.ts';
import type { z } from 'zod';
import { applyPosting, balanceKey, SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import type { BalanceKey } from '../db/ledgerRule.ts';
import { parseMinor, toMinor } from '../db/money.ts';
import type { LedgerType } from '../db/repos/ledger.ts';
import type { Wallet } from '../db/schema.ts';
import { Rejection } from '../http/errors.ts';
import type { AccountRef } from '../ledger/post.ts';
import { checkOpening, executedFill, executedOrder, isReduceOnly, liquidationRows, newOrderRow, reject as bad, splitExecution } from '../trading/execute.ts';
import type { MarketView } from '../trading/execute.ts';
import { entryPrice, feeOf, FUNDING_INTERVAL_MS, initialMargin, lastBoundary, makerRate, notional, OVERNIGHT_INTERVAL_MS, scaled, shouldLiquidate, unscaled } from '../trading/formulas.ts';
import type { Rules } from '../trading/formulas.ts';
import { BOOK_DEPTH, takeFromBook, wouldTake } from '../trading/matching.ts';
import { checkEdit, checkPlacement, checkSameOrder, checkTpsl, editNeedsPosition, TPSL_KINDS } from '../trading/orders.ts';
import { chargeSplit, COIN, grownPosition, planClose, REDUCE_KINDS, SettlementError, shrunkTpslQty } from '../trading/settle.ts';
import type { Execution } from '../trading/matching.ts';
import type { FillRow, OrderRow, PositionRow } from '../trading/store.ts';
import { dueStep } from '../trading/triggers.ts';
import type { Step } from '../trading/triggers.ts';
import { ESCROW_ACCOUNT_ID } from '../wallet/wallet.ts';
import { checkConvert, checkFunds, convertLegs, quoteRowOf, quoteTerms } from '../money/convert.ts';
import type { QuoteInput, QuoteRow, Refusal } from '../money/convert.ts';
import { COPY_MSG } from '../../src/protocol/copy.ts';
import { closeStep, copyOrderRow, followEquity, openStep, signedQty, targetQty, unchangedAction } from '../copy/mirror.ts';
import type { CopyOrderRow, MirrorStep } from '../copy/mirror.ts';
import { checkFixedFloor, fixedFloorOf, liquidationCopyOrder, newFollow, stopHit } from '../copy/service.ts';
import type { FollowParsed } from '../copy/service.ts';
import { closedCopy, copyAccounts, copyCloseBudget, CopySettlementError, openedCopy } from '../copy/settle.ts';
import type { CopyPositionRow, FollowRow } from '../copy/settle.ts';
import type { ExecutedFill } from '../trading/settle.ts';
import { Code } from '../../src/protocol/envelope.ts';
import { clientKey, idOf, positionKey } from './state.ts';
import type { EngineState, MarketQuote, OrderSide } from './state.ts';

/**
 * The in-memory engine (issue 28 step 1, docs/SCALING.md): `apply(state, command, seq, t)` changes
 * the state and returns the outcome, synchronously, with no database, clock or randomness (time is
 * `t`, ids derive from `seq`). The money rules are the SQL engine's (server/trading): the checks
 * of a placement and an edit (checkPlacement / checkEdit), the close settlement (planClose), the
 * charge split, netting, matching against the book, the formulas, the ledger rule (applyPosting)
 * are the same functions; what is here is the order of the steps, which mirrors
 * server/trading/orders.ts, execute.ts, settle.ts, triggers.ts and engine.ts function by function
 * (the differential property test, tests/server/engineState.prop.test.ts, runs both on the same
 * commands and compares every outcome, balance, position, order, fill and posting).
 *
 * All or nothing, as the SQL engine's transaction: a refusal undoes every change of the command
 * (an undo log), and in a market check each triggered order is its own step (a step the account
 * cannot carry is undone and the order canceled, as the SQL engine does with two transactions).
 *
 * NOT the production path: the SQL engine stays it until every command runs here (no half-wired switch).
 */

type EditParsed = z.output<typeof editOrderBody>;

export type Command =
  | { type: 'place'; userId: number; body: PlaceOrderParsed }
  | { type: 'cancel'; userId: number; by: { orderId?: string | undefined; clientOrderId?: string | undefined } }
  | { type: 'edit'; userId: number; body: EditParsed }
  | { type: 'close'; userId: number; body: { positionId: string; qty?: number | undefined; price?: number | null | undefined; clientOrderId?: string | undefined } }
  | { type: 'closeAll'; userId: number; filter: { symbol?: string | undefined; contract?: 'perp' | 'std' | undefined } }
  | { type: 'tpsl'; userId: number; body: { positionId: string; tp: number | null; sl: number | null } }
  /** Between two of the user's wallets (a futures wallet in or out), `amount` a decimal string as the route takes it. */
  | { type: 'transfer'; userId: number; from: Wallet; to: Wallet; coin: string; amount: string }
  /** The market moved (a burst of frames): the prices and book now, then the checks (triggers, limit crossings, TP/SL, liquidation). */
  | { type: 'market'; symbol: string; last: number; mark: number; book?: MarketQuote['book'] | undefined }
  /**
   * The periodic fees due at `t` (TradingEngine.runPeriodic): funding on perp positions for every
   * 8-hour boundary passed since the last charged, overnight on std positions for every day; then
   * the check of every symbol with an open position (a fee may make one liquidable).
   */
  | { type: 'periodic' }
  /** The book changed with no trade (takers walk it; nothing is checked). */
  | { type: 'book'; symbol: string; book: MarketQuote['book'] }
  /** An instant-convert quote (server/money/convert.ts createQuote): the rate at the last prices, for QUOTE_TTL_MS. */
  | { type: 'quote'; userId: number; body: QuoteInput }
  /** Converts the user's quote at exactly its rate, once, before it expires (convertQuote). */
  | { type: 'convert'; userId: number; quoteId: string }
  /** Copy trading (server/copy/service.ts): follow a lead trader with an amount from a wallet into the copy wallet. */
  | { type: 'follow'; userId: number; body: FollowParsed }
  /** Ends a follow, closing its copied positions at the mark or keeping them; its cash goes back. */
  | { type: 'unfollow'; userId: number; followId: number; closePositions: boolean }
  /** Closes one copied position at the mark. */
  | { type: 'copyClose'; userId: number; positionId: string }
  /** The copy job's check (CopyService.checkAll): copied positions at their maintenance margin liquidated, then the stops. */
  | { type: 'copyCheck' }
  /** A user listed (an approved trader application) or unlisted as a lead trader. */
  | { type: 'trader'; userId: number; active: boolean }
  /**
   * A ledger posting made outside the order path (a deposit, withdrawal, admin or voucher credit,
   * compensation payout, wallet transfer, convert: server/ledger/post.ts postLedger) on the memory
   * engine, which holds every balance: applied through the ledger rule, all or nothing; refused
   * with code 400 and the rule's reason ('insufficient', 'unbalanced', …) as msg. Amounts are
   * signed minor units as decimal strings; `ref` is the caller's (a replay writes the same rows).
   */
  | { type: 'post'; posting: ExternalPosting }
  /** A user's inviter as users.invited_by holds it (set once at sign-up): the referral rebate of their fees goes to them. */
  | { type: 'inviter'; userId: number; inviterId: number };

/** The posting of a `post` command (postLedger's Posting, JSON-safe). */
export interface ExternalPosting {
  type: LedgerType;
  ref: string;
  symbol?: string | undefined;
  entries: { userId: number; wallet: Wallet; asset: string; amount: string; type?: LedgerType | undefined }[];
}

/** One ledger row of a `post` command (the projector writes it as it is, with the balance after it). */
export interface LegEvent {
  userId: number;
  wallet: Wallet;
  asset: string;
  amount: bigint;
  after: bigint;
  type: LedgerType;
  ref: string;
  symbol?: string;
}

/** One ledger posting of the outcome (the projector writes it as two ledger rows). */
export interface PostingEvent {
  type: LedgerType;
  from: AccountRef;
  to: AccountRef;
  coin: string;
  amount: bigint;
  /** The pair (ledger_refs). */
  symbol?: string;
  /** The type of the incoming row when it differs (WALLET_TRANSFER_IN). */
  inType?: LedgerType;
  /** The ledger ref when the SQL code sets one (`convert:<quoteId>`: both postings of a convert share it). */
  ref?: string;
  /** The balances of `from` and `to` right after this posting (the ledger rows' `balance_after`; the last one of a balance in an outcome is its new value). */
  fromAfter: bigint;
  toAfter: bigint;
}

/** A referral rebate record (referral_rebates / referral_invitees rows; the credit itself is a posting). */
export interface RebateEvent {
  inviterId: number;
  inviteeId: number;
  symbol: string;
  wallet: Wallet;
  asset: string;
  notional: bigint;
  fee: bigint;
  rebate: bigint;
  rateBps: number;
  /** The index in the outcome's `postings` of the rebate's TRADE_COMMISSION posting (null when the rebate rounded down to 0: no posting). */
  posting: number | null;
}

/** A periodic fee's last charged boundary as the command left it (trading_jobs rows). */
export interface JobEvent {
  name: 'funding' | 'overnight';
  lastRun: number;
}

/** A lead trader listed or unlisted (copy_traders' status). */
export interface TraderEvent {
  userId: number;
  active: boolean;
}

export type FillEvent = Omit<FillRow, 'id'>;

export type Outcome =
  | {
      seq: number;
      t: number;
      ok: true;
      /** What the route answers: the order(s), position or convert quote (null for a market command or a transfer). */
      result: OrderRow | OrderRow[] | PositionRow | QuoteRow | FollowRow | CopyPositionRow | null;
      postings: PostingEvent[];
      /** Every order row the command wrote, as it now is. */
      orders: OrderRow[];
      /** Every position row the command wrote, as it now is (closed ones too). */
      positions: PositionRow[];
      fills: FillEvent[];
      rebates: RebateEvent[];
      /** Every convert quote row the command wrote, as it now is. */
      quotes: QuoteRow[];
      /** Copy trading: every follow and copied position the command wrote, as it now is, and the copy_orders rows it added. */
      follows: FollowRow[];
      copyPositions: CopyPositionRow[];
      copyOrders: CopyOrderRow[];
      /** The periodic fees' boundaries the command set, and the traders it listed or unlisted. */
      jobs: JobEvent[];
      traders: TraderEvent[];
      /** A `post` command's ledger rows (absent for every other command). */
      legs?: LegEvent[];
      /** The executions of the command (what the SQL engine hands its fill listeners: notifications). */
      executed?: ExecutedFill[];
    }
  | { seq: number; t: number; ok: false; code: number; msg: string };

// ------------------------------------------------------------------ undo log

/**
 * Every write of a command, so a refusal can put each back (newest first). Entries are flat
 * (operation, target, key, previous value): no closure per write.
 */
const enum Op {
  MapSet,
  MapDelete,
  SetAdd,
  SetDelete,
  Field,
  Pop,
}

class UndoLog {
  private readonly ops: Op[] = [];
  private readonly targets: unknown[] = [];
  private readonly keys: unknown[] = [];
  private readonly prevs: unknown[] = [];

  private note(op: Op, target: unknown, key: unknown, prev: unknown): void {
    this.ops.push(op);
    this.targets.push(target);
    this.keys.push(key);
    this.prevs.push(prev);
  }

  set<K, V>(m: Map<K, V>, k: K, v: V): void {
    if (m.has(k)) this.note(Op.MapSet, m, k, m.get(k));
    else this.note(Op.MapDelete, m, k, undefined);
    m.set(k, v);
  }

  del<K, V>(m: Map<K, V>, k: K): void {
    if (!m.has(k)) return;
    this.note(Op.MapSet, m, k, m.get(k));
    m.delete(k);
  }

  add<V>(s: Set<V>, v: V): void {
    if (s.has(v)) return;
    this.note(Op.SetDelete, s, v, undefined);
    s.add(v);
  }

  remove<V>(s: Set<V>, v: V): void {
    if (!s.has(v)) return;
    this.note(Op.SetAdd, s, v, undefined);
    s.delete(v);
  }

  field<T extends object, K extends keyof T>(o: T, k: K, v: T[K]): void {
    this.note(Op.Field, o, k, o[k]);
    o[k] = v;
  }

  push<V>(a: V[], v: V): void {
    this.note(Op.Pop, a, undefined, undefined);
    a.push(v);
  }

  get mark(): number {
    return this.ops.length;
  }

  undo(to: number): void {
    for (let i = this.ops.length - 1; i >= to; i--) {
      const target = this.targets[i];
      const key = this.keys[i];
      switch (this.ops[i]) {
        case Op.MapSet:
          (target as Map<unknown, unknown>).set(key, this.prevs[i]);
          break;
        case Op.MapDelete:
          (target as Map<unknown, unknown>).delete(key);
          break;
        case Op.SetAdd:
          (target as Set<unknown>).add(key);
          break;
        case Op.SetDelete:
          (target as Set<unknown>).delete(key);
          break;
        case Op.Field:
          (target as Record<PropertyKey, unknown>)[key as PropertyKey] = this.prevs[i];
          break;
        case Op.Pop:
          (target as unknown[]).pop();
          break;
      }
    }
    this.ops.length = to;
    this.targets.length = to;
    this.keys.length = to;
    this.prevs.length = to;
  }
}

/** One command's working context. */
interface X {
  s: EngineState;
  seq: number;
  t: number;
  /** Ids this command created so far. */
  n: number;
  tx: UndoLog;
  view: MarketView;
  postings: PostingEvent[];
  fills: FillEvent[];
  rebates: RebateEvent[];
  orders: Map<string, OrderRow>;
  positions: Map<string, PositionRow>;
  quotes: Map<string, QuoteRow>;
  follows: Map<number, FollowRow>;
  copyPositions: Map<string, CopyPositionRow>;
  copyOrders: CopyOrderRow[];
  jobs: JobEvent[];
  traders: TraderEvent[];
  /** The executions of traders' orders, in order (the SQL engine's fill listeners' input), and how many were mirrored. */
  executed: ExecutedFill[];
  mirrored: number;
}

const newId = (x: X, prefix: 'O' | 'P' | 'Q' | 'C'): string => idOf(prefix, x.seq, ++x.n);

function context(s: EngineState, seq: number, t: number): X {
  return {
    s, seq, t, n: 0, tx: new UndoLog(), view: marketView(s), postings: [], fills: [], rebates: [], orders: new Map(), positions: new Map(), quotes: new Map(),
    follows: new Map(), copyPositions: new Map(), copyOrders: [], jobs: [], traders: [], executed: [], mirrored: 0,
  };
}

const VIEWS = new WeakMap<EngineState, MarketView>();

/** The state's market as the SQL engine's MarketView (the shared checks read prices through it); one per state. */
export function marketView(s: EngineState): MarketView {
  const known = VIEWS.get(s);
  if (known) return known;
  const view: MarketView = {
    rules: (symbol) => s.rules.get(symbol),
    lastPrice: (symbol) => s.market.get(symbol)?.last,
    markPrice: (symbol) => s.market.get(symbol)?.mark,
    book: (symbol): DepthSnapshot | undefined => {
      const q = s.market.get(symbol);
      return q ? { symbol, seq: 0, bids: q.book.bids, asks: q.book.asks, ts: 0 } : undefined;
    },
  };
  VIEWS.set(s, view);
  return view;
}

// ------------------------------------------------------------------ state writes (the only ones)

/** Moves the user's frozen in `wallet` by `delta` (no zero entries). */
function freeze(x: X, userId: number, wallet: Wallet, delta: bigint): void {
  if (delta === 0n) return;
  const k = balanceKey(userId, wallet, COIN);
  const v = (x.s.frozen.get(k) ?? 0n) + delta;
  if (v === 0n) x.tx.del(x.s.frozen, k);
  else x.tx.set(x.s.frozen, k, v);
}

function saveOrder(x: X, row: OrderRow): void {
  const s = x.s;
  const prev = s.orders.get(row.id);
  const lockBefore = prev?.status === 'pending' ? parseMinor(prev.margin) : 0n;
  freeze(x, row.user_id, row.contract, (row.status === 'pending' ? parseMinor(row.margin) : 0n) - lockBefore);
  x.tx.set(s.orders, row.id, row);
  x.tx.set(x.orders, row.id, row);
  if (!prev) x.tx.set(s.clientIds, clientKey(row.user_id, row.client_order_id), row.id);
  const was = prev?.status === 'pending';
  const is = row.status === 'pending';
  if (was && !is) x.tx.del(sideIndex(x, row.symbol, row.side), row.id);
  if (!was && is) {
    x.tx.set(sideIndex(x, row.symbol, row.side), row.id, s.nextOrdinal);
    x.tx.field(s, 'nextOrdinal', s.nextOrdinal + 1);
  }
  const before = was ? (prev?.position_id ?? null) : null;
  const after = is ? row.position_id : null;
  if (before !== after) {
    if (before !== null) {
      const set = s.byPosition.get(before);
      if (set) {
        x.tx.remove(set, row.id);
        if (set.size === 0) x.tx.del(s.byPosition, before);
      }
    }
    if (after !== null) {
      let set = s.byPosition.get(after);
      if (!set) {
        set = new Set();
        x.tx.set(s.byPosition, after, set);
      }
      x.tx.add(set, row.id);
    }
  }
}

function sideIndex(x: X, symbol: string, side: OrderSide): Map<string, number> {
  let bySide = x.s.pending.get(symbol);
  if (!bySide) {
    bySide = { buy: new Map(), sell: new Map() };
    x.tx.set(x.s.pending, symbol, bySide);
  }
  return bySide[side];
}

/** The order as it now is, merged with `patch` (the SQL engine's `update … set … where id`). */
function updateOrder(x: X, id: string, patch: Partial<OrderRow>): OrderRow {
  const cur = x.s.orders.get(id);
  if (!cur) throw new Error(`order ${id} not in the state`);
  const row = { ...cur, ...patch };
  saveOrder(x, row);
  return row;
}

function reread(x: X, id: string): OrderRow {
  const o = x.s.orders.get(id);
  if (!o) throw new Error(`order ${id} not in the state`);
  return o;
}

function savePosition(x: X, p: PositionRow): void {
  const key = positionKey(p.user_id, p.symbol, p.contract);
  const before = x.s.positions.get(key);
  const marginBefore = before?.id === p.id ? parseMinor(before.margin) : 0n;
  freeze(x, p.user_id, p.contract, (p.status === 'open' ? parseMinor(p.margin) : 0n) - marginBefore);
  if (p.status === 'open') {
    x.tx.set(x.s.positions, key, p);
    x.tx.set(x.s.positionIds, p.id, key);
  } else {
    x.tx.del(x.s.positions, key);
    x.tx.del(x.s.positionIds, p.id);
  }
  x.tx.set(x.positions, p.id, p);
}

const openPositionOf = (x: X, userId: number, symbol: string, contract: string): PositionRow | null => x.s.positions.get(positionKey(userId, symbol, contract)) ?? null;

function positionById(x: X, id: string | null): PositionRow | null {
  if (id === null) return null;
  const key = x.s.positionIds.get(id);
  return key === undefined ? null : (x.s.positions.get(key) ?? null);
}

// ------------------------------------------------------------------ money (server/trading/settle.ts)

const userAcct = (userId: number, wallet: Wallet): AccountRef => ({ userId, wallet });
const escrowAcct = (wallet: Wallet): AccountRef => ({ userId: ESCROW_ACCOUNT_ID, wallet });
const systemAcct = (wallet: Wallet): AccountRef => ({ userId: SYSTEM_ACCOUNT_ID, wallet });

export function balanceOf(s: EngineState, userId: number, wallet: Wallet, coin = COIN): bigint {
  return s.balances.get(balanceKey(userId, wallet, coin)) ?? 0n;
}

/** A two-entry posting through the ledger rule (server/db/ledgerRule.ts); a no-op for 0. */
function post(x: X, type: LedgerType, from: AccountRef, to: AccountRef, amount: bigint, tag: { symbol?: string; inType?: LedgerType; coin?: string } = {}): boolean {
  if (amount <= 0n) return true;
  const coin = tag.coin ?? COIN;
  const kf = balanceKey(from.userId, from.wallet, coin);
  const kt = balanceKey(to.userId, to.wallet, coin);
  const known = new Map<BalanceKey, bigint>([[kf, x.s.balances.get(kf) ?? 0n], [kt, x.s.balances.get(kt) ?? 0n]]);
  const r = applyPosting(known, [
    { userId: from.userId, wallet: from.wallet, asset: coin, amount: -amount },
    { userId: to.userId, wallet: to.wallet, asset: coin, amount },
  ]);
  if (!r.ok) return false;
  x.tx.set(x.s.balances, kf, r.balances.get(kf) ?? 0n);
  x.tx.set(x.s.balances, kt, r.balances.get(kt) ?? 0n);
  x.tx.push(x.postings, { type, from, to, coin, amount, ...(tag.symbol ? { symbol: tag.symbol } : {}), ...(tag.inType ? { inType: tag.inType } : {}), fromAfter: r.after[0] ?? 0n, toAfter: r.after[1] ?? 0n });
  return true;
}

/**
 * A posting of several legs through the ledger rule at once (all or nothing, as postLedger), the
 * legs in (paid, received) pairs of one asset: each pair is recorded as one two-entry move.
 */
function postLegs(x: X, type: LedgerType, legs: readonly { userId: number; wallet: Wallet; asset: string; amount: bigint; type?: LedgerType }[], ref: string): boolean {
  const known = new Map<BalanceKey, bigint>();
  for (const l of legs) {
    const k = balanceKey(l.userId, l.wallet, l.asset);
    known.set(k, x.s.balances.get(k) ?? 0n);
  }
  const r = applyPosting(known, legs);
  if (!r.ok) return false;
  for (const k of known.keys()) x.tx.set(x.s.balances, k, r.balances.get(k) ?? 0n);
  for (let i = 0; i + 1 < legs.length; i += 2) {
    const out = legs[i];
    const into = legs[i + 1];
    if (!out || !into || out.asset !== into.asset || out.amount !== -into.amount) throw new Error('postLegs: legs not in (paid, received) pairs');
    x.tx.push(x.postings, {
      type: into.type ?? type, from: userAcct(out.userId, out.wallet), to: userAcct(into.userId, into.wallet), coin: into.asset, amount: into.amount, ref, fromAfter: r.after[i] ?? 0n, toAfter: r.after[i + 1] ?? 0n,
    });
  }
  return true;
}

/** settle.ts `mv`: a posting settlement cannot do without (a refusal is a programmer error). */
function mv(x: X, type: LedgerType, from: AccountRef, to: AccountRef, amount: bigint, symbol: string): void {
  if (!post(x, type, from, to, amount, { symbol })) throw new SettlementError(`${type} ${amount} refused: insufficient`);
}

const lockMargin = (x: X, userId: number, wallet: Wallet, amount: bigint, symbol: string): void => mv(x, 'CONTRACT_OPEN', userAcct(userId, wallet), escrowAcct(wallet), amount, symbol);
const releaseOrderMargin = (x: X, userId: number, wallet: Wallet, amount: bigint, symbol: string): void =>
  mv(x, 'CONTRACT_CANCEL', escrowAcct(wallet), userAcct(userId, wallet), amount, symbol);

/** server/referral/rebate.ts creditReferralRebate: the payer's inviter earns floor(fee × rate). */
function feePaid(x: X, userId: number, wallet: Wallet, fee: bigint, n: bigint, symbol: string): void {
  if (fee < 0n || n < 0n) return;
  const inviterId = x.s.inviters.get(userId);
  if (inviterId === undefined) return;
  const rebate = rebateOf(fee, REFERRAL_RATE_BPS);
  if (rebate > 0n && !post(x, 'TRADE_COMMISSION', systemAcct(wallet), userAcct(inviterId, REFERRAL_WALLET), rebate, { symbol })) {
    throw new SettlementError(`TRADE_COMMISSION ${rebate} refused`);
  }
  x.tx.push(x.rebates, { inviterId, inviteeId: userId, symbol, wallet, asset: COIN, notional: n, fee, rebate, rateBps: Number(REFERRAL_RATE_BPS), posting: rebate > 0n ? x.postings.length - 1 : null });
}

function charge(x: X, type: LedgerType, userId: number, wallet: Wallet, amount: bigint, positionMargin: bigint, symbol: string): [bigint, bigint] {
  const [fromWallet, fromMargin] = chargeSplit(amount, balanceOf(x.s, userId, wallet), positionMargin);
  mv(x, 'CONTRACT_MARGIN_UNLOCK', escrowAcct(wallet), userAcct(userId, wallet), fromMargin, symbol);
  mv(x, type, userAcct(userId, wallet), systemAcct(wallet), fromWallet + fromMargin, symbol);
  return [fromWallet + fromMargin, fromMargin];
}

function openPart(x: X, o: OrderRow, existing: PositionRow | null, qtyU: bigint, n: bigint, feeRatio: number, marginFromLock: bigint | null): { pos: PositionRow; fee: bigint } {
  const wallet: Wallet = o.contract;
  let margin = marginFromLock ?? initialMargin(n, o.leverage);
  if (marginFromLock === null) lockMargin(x, o.user_id, wallet, margin, o.symbol);
  const [fee, fromMargin] = charge(x, 'CONTRACT_OPEN_FEE', o.user_id, wallet, feeOf(n, feeRatio), margin, o.symbol);
  feePaid(x, o.user_id, wallet, fee, n, o.symbol);
  margin -= fromMargin;
  const pos: PositionRow = existing
    ? grownPosition(existing, qtyU, n, margin, o.leverage, x.t)
    : {
        id: newId(x, 'P'), user_id: o.user_id, symbol: o.symbol, contract: o.contract, side: o.side === 'buy' ? 'long' : 'short', qty: qtyU.toString(), cost: n.toString(),
        margin: margin.toString(), leverage: o.leverage, status: 'open', realized_pnl: '0', opened_at: x.t, updated_at: x.t, closed_at: null,
      };
  savePosition(x, pos);
  return { pos, fee };
}

function closePart(x: X, pos: PositionRow, rules: Rules, qtyWanted: bigint, n: bigint, feeRatio: number, liquidation: boolean, exceptOrderId = ''): { qtyU: bigint; realized: bigint; fee: bigint; remaining: bigint } {
  const wallet: Wallet = pos.contract;
  const avail = liquidation ? 0n : balanceOf(x.s, pos.user_id, wallet);
  const plan = planClose(pos, qtyWanted, n, feeRatio, liquidation, (part, pnl) => avail + part + pnl);
  const acct = { user: userAcct(pos.user_id, wallet), escrow: escrowAcct(wallet), system: systemAcct(wallet) };
  for (const p of plan.postings) {
    mv(x, p.type, acct[p.from], acct[p.to], p.amount, pos.symbol);
    if (p.type === 'CONTRACT_CLOSE_FEE') feePaid(x, pos.user_id, wallet, p.amount, n, pos.symbol);
  }
  const remaining = plan.qty - plan.qtyU;
  savePosition(x, {
    ...pos,
    qty: remaining.toString(),
    cost: (plan.cost - plan.costPart).toString(),
    margin: (plan.margin - plan.marginPart).toString(),
    realized_pnl: (parseMinor(pos.realized_pnl) + plan.realized).toString(),
    status: remaining === 0n ? (liquidation ? 'liquidated' : 'closed') : 'open',
    updated_at: x.t,
    closed_at: remaining === 0n ? x.t : null,
  });
  if (remaining === 0n) {
    // The position's reduce-only orders (TP/SL, limit closes) end with it; they lock no margin.
    for (const id of [...(x.s.byPosition.get(pos.id) ?? [])]) {
      const o = reread(x, id);
      if (id !== exceptOrderId && o.status === 'pending' && (o.reduce_only === 1 || REDUCE_KINDS.includes(o.kind))) {
        updateOrder(x, id, { status: 'canceled', cancel_reason: 'positionClosed', updated_at: x.t });
      }
    }
  } else {
    // settle.ts shrinkTpsl: TP / SL larger than what is left follow the position down.
    for (const id of [...(x.s.byPosition.get(pos.id) ?? [])]) {
      const o = reread(x, id);
      if (id === exceptOrderId || o.status !== 'pending' || !TPSL_KINDS.includes(o.kind)) continue;
      const qty = shrunkTpslQty(o, rules, remaining);
      if (qty !== null) updateOrder(x, id, { qty, updated_at: x.t });
    }
  }
  return { qtyU: plan.qtyU, realized: plan.realized, fee: plan.fee, remaining };
}

// ------------------------------------------------------------------ executions (server/trading/execute.ts)

const qtyUnits = (o: OrderRow, rules: Rules): bigint => scaled(o.qty, rules.qtyPrecision);
const executedUnits = (o: OrderRow, rules: Rules): bigint => scaled(o.executed_qty, rules.qtyPrecision);

function fillRow(x: X, o: OrderRow, rules: Rules, posId: string, qtyU: bigint, n: bigint, fee: bigint, realized: bigint, liquidity: 'maker' | 'taker'): void {
  x.tx.push(x.fills, {
    user_id: o.user_id, order_id: o.id, position_id: posId, symbol: o.symbol, contract: o.contract, kind: o.kind, side: o.side,
    price: entryPrice(rules, n, qtyU), qty: unscaled(qtyU, rules.qtyPrecision), fee: fee.toString(), realized_pnl: realized.toString(), created_at: x.t, liquidity,
  });
}

interface FillAt {
  known?: PositionRow | null;
  unsaved?: boolean;
}

function executeFill(x: X, o: OrderRow, rules: Rules, exec: Execution, liquidity: 'maker' | 'taker', lock: bigint, at: FillAt = {}): { done: bigint; row: OrderRow } {
  const nothing = () => {
    if (at.unsaved) saveOrder(x, o);
    return { done: 0n, row: o };
  };
  if (exec.qtyU <= 0n) return nothing();
  const pos = at.known !== undefined ? at.known : openPositionOf(x, o.user_id, o.symbol, o.contract);
  const split = splitExecution(o, rules, pos, exec, liquidity, lock);
  if (!split) return nothing();
  const { net, total, n, closeN, openN, fromLock } = split;
  let fee = 0n;
  let realized = 0n;
  let finalPos = pos;
  if (net.closeQty > 0n && pos) {
    const r = closePart(x, pos, rules, net.closeQty, closeN, split.closeFeeRatio, false, o.id);
    fillRow(x, o, rules, pos.id, net.closeQty, closeN, r.fee, r.realized, liquidity);
    fee += r.fee;
    realized += r.realized;
  }
  if (net.openQty > 0n) {
    const same = pos && net.kind === 'increase' ? pos : null;
    if (lock > 0n && fromLock !== null && fromLock < lock) releaseOrderMargin(x, o.user_id, o.contract, lock - fromLock, o.symbol);
    const feeRatio = split.openFeeRatio;
    checkOpening(o, rules, same, openN, feeRatio, fromLock === null ? balanceOf(x.s, o.user_id, o.contract) : undefined);
    const opened = openPart(x, o, same, net.openQty, openN, feeRatio, fromLock);
    fillRow(x, o, rules, opened.pos.id, net.openQty, openN, opened.fee, 0n, liquidity);
    fee += opened.fee;
    finalPos = opened.pos;
    if (o.tp !== null) replaceTrigger(x, opened.pos, rules, 'limitTakeProfit', o.tp);
    if (o.sl !== null) replaceTrigger(x, opened.pos, rules, 'limitStopLoss', o.sl);
  } else if (lock > 0n) {
    releaseOrderMargin(x, o.user_id, o.contract, lock, o.symbol);
  }
  x.tx.push(x.executed, executedFill(o, rules, pos, total, n));
  const set = executedOrder(o, rules, total, n, fee, realized, finalPos?.id ?? o.position_id, lock, x.t);
  const row = at.unsaved ? { ...o, ...set } : { ...reread(x, o.id), ...set };
  saveOrder(x, row);
  return { done: total, row: { ...o, ...set } };
}

function cancelWith(x: X, o: OrderRow, reason: CancelReason): void {
  releaseOrderMargin(x, o.user_id, o.contract, parseMinor(o.margin), o.symbol);
  updateOrder(x, o.id, { status: 'canceled', margin: '0', cancel_reason: reason, updated_at: x.t });
}

function workMarket(x: X, o: OrderRow, rules: Rules, at: FillAt = {}): OrderRow {
  const want = qtyUnits(o, rules) - executedUnits(o, rules);
  const exec = takeFromBook(rules, o.side, want, null, x.view.book(o.symbol), x.view.lastPrice(o.symbol));
  if (exec.qtyU === 0n) bad(TRADE_MSG.noPrice);
  const { done, row } = executeFill(x, o, rules, exec, 'taker', 0n, at);
  if (done === want) return row;
  cancelWith(x, row, isReduceOnly(o) ? 'reduceOnly' : 'ioc');
  return reread(x, o.id);
}

function workLimit(x: X, o: OrderRow, rules: Rules, placing: boolean): OrderRow {
  const limitU = scaled(o.price, rules.pricePrecision);
  const book = x.view.book(o.symbol);
  const last = x.view.lastPrice(o.symbol);
  if (o.post_only === 1 && wouldTake(rules, o.side, limitU, book, last)) {
    if (placing) bad(TRADE_MSG.postOnlyWouldTake);
    cancelWith(x, o, 'postOnly');
    return reread(x, o.id);
  }
  const want = qtyUnits(o, rules) - executedUnits(o, rules);
  const exec = takeFromBook(rules, o.side, want, limitU, book, last);
  if (o.time_in_force === 'FOK' && exec.qtyU < want) {
    cancelWith(x, o, 'fok');
    return reread(x, o.id);
  }
  if (exec.qtyU > 0n) {
    const { done } = executeFill(x, o, rules, exec, 'taker', 0n);
    if (done < exec.qtyU) {
      cancelWith(x, reread(x, o.id), 'reduceOnly');
      return reread(x, o.id);
    }
  }
  const now = reread(x, o.id);
  if (now.status !== 'pending') return now;
  if (o.time_in_force !== 'GTC') {
    cancelWith(x, now, 'ioc');
    return reread(x, o.id);
  }
  if (!isReduceOnly(o)) {
    const rest = qtyUnits(now, rules) - executedUnits(now, rules);
    const lock = initialMargin(notional(rules, limitU, rest), o.leverage);
    const reserve = feeOf(notional(rules, limitU, rest), makerRate(rules));
    if (balanceOf(x.s, o.user_id, o.contract) < lock + reserve) {
      if (placing) bad(TRADE_MSG.insufficientBalance);
      cancelWith(x, now, 'insufficientBalance');
      return reread(x, o.id);
    }
    lockMargin(x, o.user_id, o.contract, lock, o.symbol);
    updateOrder(x, o.id, { margin: lock.toString() });
  }
  return reread(x, o.id);
}

function replaceTrigger(x: X, pos: PositionRow, rules: Rules, kind: 'limitTakeProfit' | 'limitStopLoss', price: number | null): void {
  for (const id of [...(x.s.byPosition.get(pos.id) ?? [])]) {
    const o = reread(x, id);
    if (o.kind === kind && o.status === 'pending') updateOrder(x, id, { status: 'canceled', cancel_reason: 'user', updated_at: x.t });
  }
  if (price === null) return;
  const id = newId(x, 'O');
  saveOrder(x, newOrderRow({
    id, user_id: pos.user_id, client_order_id: `${kind === 'limitTakeProfit' ? 'tp' : 'sl'}-${id}`, symbol: pos.symbol, contract: pos.contract, kind,
    side: pos.side === 'long' ? 'sell' : 'buy', price, qty: unscaled(parseMinor(pos.qty), rules.qtyPrecision), leverage: pos.leverage,
    position_id: pos.id, reduce_only: 1, created_at: x.t, updated_at: x.t,
  }));
}

// ------------------------------------------------------------------ commands (server/trading/orders.ts)

function placeOrder(x: X, userId: number, b: PlaceOrderParsed): OrderRow {
  const knownId = x.s.clientIds.get(clientKey(userId, b.clientOrderId));
  if (knownId !== undefined) {
    const known = reread(x, knownId);
    checkSameOrder(known, b);
    return known;
  }
  const pos = x.s.rules.has(b.symbol) ? openPositionOf(x, userId, b.symbol, b.contract) : null;
  const { rules, limitPrice, reduceOnly, stop, trigger, attach } = checkPlacement(x.view, b, pos);
  const row = newOrderRow({
    id: newId(x, 'O'), user_id: userId, client_order_id: b.clientOrderId, symbol: b.symbol, contract: b.contract, kind: b.kind, side: b.side,
    price: limitPrice ?? 0, qty: b.qty, leverage: b.leverage, position_id: reduceOnly && pos ? pos.id : null, tp: attach ? b.tp : null, sl: attach ? b.sl : null,
    reduce_only: reduceOnly ? 1 : 0, post_only: b.postOnly ? 1 : 0, time_in_force: b.timeInForce, trigger_price: trigger, trigger_by: b.triggerBy, created_at: x.t, updated_at: x.t,
  });
  if (b.kind === 'marketOpen' || b.kind === 'marketClose') return workMarket(x, row, rules, { known: pos, unsaved: true });
  saveOrder(x, row);
  if (stop || TPSL_KINDS.includes(b.kind)) return row;
  return workLimit(x, row, rules, true);
}

function findOwn(x: X, userId: number, by: { orderId?: string | undefined; clientOrderId?: string | undefined }): OrderRow {
  const id = by.orderId ?? (by.clientOrderId !== undefined ? x.s.clientIds.get(clientKey(userId, by.clientOrderId)) : undefined);
  const o = id === undefined ? undefined : x.s.orders.get(id);
  if (!o || o.user_id !== userId || (by.clientOrderId !== undefined && o.client_order_id !== by.clientOrderId)) return bad(TRADE_MSG.orderNotFound);
  return o;
}

function cancelOrder(x: X, userId: number, by: { orderId?: string | undefined; clientOrderId?: string | undefined }): OrderRow {
  const o = findOwn(x, userId, by);
  if (o.status !== 'pending') bad(TRADE_MSG.orderNotPending);
  cancelWith(x, o, 'user');
  return reread(x, o.id);
}

function editOrder(x: X, userId: number, body: EditParsed): OrderRow {
  const o = findOwn(x, userId, body);
  const pos = editNeedsPosition(o) ? openPositionOf(x, userId, o.symbol, o.contract) : null;
  const { rules, price, trigger, qty } = checkEdit(x.view, o, body, pos);
  releaseOrderMargin(x, o.user_id, o.contract, parseMinor(o.margin), o.symbol);
  const edited = updateOrder(x, o.id, { price, qty, trigger_price: trigger, margin: '0', updated_at: x.t });
  const resting = o.kind === 'limitOpen' || o.kind === 'limitClose' || (o.kind === 'stopLimit' && o.triggered_at !== null);
  return resting ? workLimit(x, edited, rules, true) : edited;
}

function ownPosition(x: X, userId: number, positionId: string): PositionRow {
  const pos = positionById(x, positionId);
  if (!pos || pos.user_id !== userId) return bad(TRADE_MSG.noPosition);
  return pos;
}

function closePosition(x: X, userId: number, body: Extract<Command, { type: 'close' }>['body']): OrderRow {
  if (body.clientOrderId !== undefined) {
    const known = x.s.clientIds.get(clientKey(userId, body.clientOrderId));
    if (known !== undefined) return reread(x, known);
  }
  const pos = ownPosition(x, userId, body.positionId);
  const rules = x.s.rules.get(pos.symbol) ?? bad(TRADE_MSG.unknownSymbol);
  const qty = body.qty ?? unscaled(parseMinor(pos.qty), rules.qtyPrecision);
  const clientOrderId = body.clientOrderId ?? `close-${newId(x, 'O')}`;
  const limit = body.price ?? null;
  return placeOrder(x, userId, {
    clientOrderId, symbol: pos.symbol, contract: pos.contract, kind: limit === null ? 'marketClose' : 'limitClose', side: pos.side === 'long' ? 'sell' : 'buy',
    qty, leverage: pos.leverage, price: limit, tp: null, sl: null, reduceOnly: true, postOnly: false, timeInForce: 'GTC', triggerPrice: null, triggerBy: 'last',
  });
}

function closeAll(x: X, userId: number, filter: Extract<Command, { type: 'closeAll' }>['filter']): OrderRow[] {
  const ids = [...x.s.positions.values()]
    .filter((p) => p.user_id === userId && (!filter.symbol || p.symbol === filter.symbol) && (!filter.contract || p.contract === filter.contract))
    .sort((a, b) => a.opened_at - b.opened_at)
    .map((p) => p.id);
  if (ids.length === 0) bad(TRADE_MSG.noPositions);
  return ids.map((id) => closePosition(x, userId, { positionId: id }));
}

function setTpsl(x: X, userId: number, body: Extract<Command, { type: 'tpsl' }>['body']): PositionRow {
  const pos = ownPosition(x, userId, body.positionId);
  const rules = x.s.rules.get(pos.symbol) ?? bad(TRADE_MSG.unknownSymbol);
  const mark = x.view.markPrice(pos.symbol) ?? bad(TRADE_MSG.noPrice);
  checkTpsl(pos.side === 'long', mark, body.tp, body.sl, rules);
  replaceTrigger(x, pos, rules, 'limitTakeProfit', body.tp);
  replaceTrigger(x, pos, rules, 'limitStopLoss', body.sl);
  return pos;
}

/** server/wallet/wallet.ts transfer: one posting, WALLET_TRANSFER_OUT / WALLET_TRANSFER_IN; refused with the route's messages. */
function transfer(x: X, c: Extract<Command, { type: 'transfer' }>): null {
  let minor: bigint;
  try {
    minor = toMinor(c.amount, c.coin);
  } catch {
    return bad(TRADE_MSG.transferAmountRequired);
  }
  if (minor <= 0n) bad(TRADE_MSG.transferAmountRequired);
  if (!post(x, 'WALLET_TRANSFER_OUT', userAcct(c.userId, c.from), userAcct(c.userId, c.to), minor, { coin: c.coin, inType: 'WALLET_TRANSFER_IN' })) bad(TRADE_MSG.insufficientBalance);
  return null;
}

// ------------------------------------------------------------------ copy trading (server/copy: service.ts, mirror.ts, settle.ts)

const copyBad = (msg: string, code: number = Code.badRequest): never => {
  throw new Rejection(code, msg);
};

/** A copy posting the service checked beforehand (a refusal is a programmer error: CopySettlementError). */
function cmv(x: X, type: LedgerType, from: AccountRef, to: AccountRef, amount: bigint, tag: { symbol?: string; inType?: LedgerType } = {}): void {
  if (!post(x, type, from, to, amount, tag)) throw new CopySettlementError(`${type} ${amount} refused: insufficient`);
}

function saveFollow(x: X, f: FollowRow): void {
  x.tx.set(x.s.follows, f.id, f);
  x.tx.set(x.follows, f.id, f);
}

function saveCopyPosition(x: X, p: CopyPositionRow): void {
  if (p.status === 'open') x.tx.set(x.s.copyPositions, p.id, p);
  else x.tx.del(x.s.copyPositions, p.id);
  x.tx.set(x.copyPositions, p.id, p);
}

const record = (x: X, f: FollowRow, rules: Rules, leaderOrderId: string | null, priceU: bigint, step: MirrorStep): void => x.tx.push(x.copyOrders, copyOrderRow(f, rules, leaderOrderId, priceU, step, x.t));

const openCopyOf = (x: X, followId: number, symbol: string, contract: string): CopyPositionRow | null => {
  for (const p of x.s.copyPositions.values()) if (p.follow_id === followId && p.symbol === symbol && p.contract === contract) return p;
  return null;
};

const copyPositionsOf = (x: X, followId: number): CopyPositionRow[] => [...x.s.copyPositions.values()].filter((p) => p.follow_id === followId);

/** settle.ts returnCash: the follow's free cash back to the wallet it came from. */
function returnCash(x: X, f: FollowRow): FollowRow {
  cmv(x, 'WALLET_TRANSFER_OUT', copyAccounts(f.user_id).user, userAcct(f.user_id, f.source_wallet), parseMinor(f.cash), { inType: 'WALLET_TRANSFER_IN' });
  const next = { ...f, cash: '0' };
  saveFollow(x, next);
  return next;
}

/** settle.ts openCopyPart. */
function openCopyPart(x: X, f: FollowRow, rules: Rules, existing: CopyPositionRow | null, contract: 'perp' | 'std', side: 'long' | 'short', qtyU: bigint, n: bigint, leverage: number): { f: FollowRow; pos: CopyPositionRow; fee: bigint } {
  const o = openedCopy(f, rules, existing, contract, side, qtyU, n, leverage, x.t, existing ? existing.id : newId(x, 'C'));
  const acct = copyAccounts(f.user_id);
  cmv(x, 'CONTRACT_OPEN', acct.user, acct.escrow, o.margin, { symbol: rules.symbol });
  cmv(x, 'CONTRACT_OPEN_FEE', acct.user, acct.system, o.fee, { symbol: rules.symbol });
  saveFollow(x, o.f);
  saveCopyPosition(x, o.pos);
  return { f: o.f, pos: o.pos, fee: o.fee };
}

/** settle.ts closeCopyPart: planClose's postings on the copy wallet, then the position and the follow (an ended follow's cash goes straight back). */
function closeCopyPart(x: X, f: FollowRow, rules: Rules, pos: CopyPositionRow, qtyWanted: bigint, n: bigint, liquidation: boolean): { f: FollowRow; pos: CopyPositionRow; realized: bigint; fee: bigint; qtyU: bigint } {
  const { postings, ...plan } = planClose(pos, qtyWanted, n, rules.closingFeeRatio, liquidation, copyCloseBudget(f));
  const acct = copyAccounts(f.user_id);
  for (const p of postings) cmv(x, p.type, acct[p.from], acct[p.to], p.amount, { symbol: pos.symbol });
  const closed = closedCopy(f, pos, plan, liquidation, x.t);
  saveCopyPosition(x, closed.pos);
  let nf = closed.f;
  saveFollow(x, nf);
  if (nf.status === 'ended') nf = returnCash(x, nf);
  return { f: nf, pos: closed.pos, realized: plan.realized, fee: plan.fee, qtyU: plan.qtyU };
}

/** mirror.ts moveTo: the closing part, then the opening part, each recorded (filled or skipped). */
function moveTo(x: X, f: FollowRow, rules: Rules, contract: 'perp' | 'std', target: bigint, priceU: bigint, leverage: number, leaderOrderId: string | null): FollowRow {
  let pos = openCopyOf(x, f.id, rules.symbol, contract);
  const min = scaled(rules.minOrderQuantity, rules.qtyPrecision);
  let follow = f;
  const close = pos ? closeStep(signedQty(pos), target, min) : null;
  if (pos && close) {
    if (close.skip) {
      record(x, follow, rules, leaderOrderId, priceU, { action: 'reduce', side: close.side, qtyU: close.q, status: 'skipped', reason: 'belowMinQty', fee: 0n, realized: 0n, positionId: pos.id });
      return follow;
    }
    const r = closeCopyPart(x, follow, rules, pos, close.q, notional(rules, priceU, close.q), false);
    follow = r.f;
    record(x, follow, rules, leaderOrderId, priceU, { action: close.all ? 'close' : 'reduce', side: close.side, qtyU: r.qtyU, status: 'filled', reason: null, fee: r.fee, realized: r.realized, positionId: pos.id });
    pos = r.pos.status === 'open' ? r.pos : null;
  }
  const open = openStep(follow, rules, signedQty(pos), target, priceU, leverage, min);
  if (!open) return follow;
  const { action, side, want } = open;
  if (open.skip !== null) {
    record(x, follow, rules, leaderOrderId, priceU, { action, side, qtyU: want, status: 'skipped', reason: open.skip, fee: 0n, realized: 0n, positionId: pos?.id ?? null });
    return follow;
  }
  const o = openCopyPart(x, follow, rules, pos, contract, target > 0n ? 'long' : 'short', want, open.n, leverage);
  record(x, o.f, rules, leaderOrderId, priceU, { action, side, qtyU: want, status: 'filled', reason: null, fee: o.fee, realized: 0n, positionId: o.pos.id });
  return o.f;
}

/** mirror.ts mirrorFill. */
function mirrorFill(x: X, f: FollowRow, rules: Rules, e: ExecutedFill): FollowRow {
  const priceU = scaled(e.price, rules.pricePrecision);
  const pos = openCopyOf(x, f.id, rules.symbol, e.contract);
  const current = signedQty(pos);
  const target = targetQty(rules, f, current, e, priceU);
  if (target === current) {
    const action = unchangedAction(e, current);
    if (action !== null) record(x, f, rules, e.orderId, priceU, { action, side: e.side, qtyU: 0n, status: 'skipped', reason: 'belowMinQty', fee: 0n, realized: 0n, positionId: pos?.id ?? null });
    return f;
  }
  return moveTo(x, f, rules, e.contract, target, priceU, e.leverage, e.orderId);
}

/** service.ts endFollow: close the copied positions at the mark (or keep them), end it, return its cash. */
function endFollow(x: X, f: FollowRow, closePositions: boolean, reason: 'user' | 'stopLoss'): FollowRow {
  let follow = f;
  if (closePositions) {
    for (const p of copyPositionsOf(x, f.id).sort((a, b) => a.opened_at - b.opened_at)) {
      const rules = x.s.rules.get(p.symbol);
      const mark = x.view.markPrice(p.symbol);
      if (!rules || mark === undefined) return copyBad(COPY_MSG.noPrice);
      follow = moveTo(x, follow, rules, p.contract, 0n, scaled(mark, rules.pricePrecision), p.leverage, null);
    }
  }
  follow = { ...follow, status: 'ended', end_reason: reason, ended_at: x.t };
  saveFollow(x, follow);
  return returnCash(x, follow);
}

/** service.ts checkStopLoss. */
function checkStopLoss(x: X, f: FollowRow): boolean {
  if (f.stop_loss === null || f.status !== 'active') return false;
  if (!stopHit(f, followEquity(f, copyPositionsOf(x, f.id), (sym) => x.s.rules.get(sym), (sym) => x.view.markPrice(sym)).equity)) return false;
  endFollow(x, f, true, 'stopLoss');
  return true;
}

/**
 * service.ts onFills: each execution of a lead trader not mirrored yet, for each of their active
 * follows in id order, as its own step (the SQL service's own transaction): a refused step is undone
 * and the others stand.
 */
function mirror(x: X): void {
  while (x.mirrored < x.executed.length) {
    const e = x.executed[x.mirrored++] as ExecutedFill;
    const ids = [...x.s.follows.values()].filter((f) => f.trader_id === e.userId && f.status === 'active').map((f) => f.id).sort((a, b) => a - b);
    const rules = x.s.rules.get(e.symbol);
    if (ids.length === 0 || !rules) continue;
    for (const id of ids) {
      const at = x.tx.mark;
      try {
        const f = x.s.follows.get(id);
        if (!f || f.status !== 'active') continue;
        checkStopLoss(x, mirrorFill(x, f, rules, e));
      } catch (err) {
        if (!(err instanceof Rejection) && !(err instanceof CopySettlementError)) throw err;
        x.tx.undo(at);
      }
    }
  }
}

/** service.ts follow: the fixed amount's floor, the follow's refusals, its row (id = seq), the amount into the copy wallet. */
function follow(x: X, userId: number, b: FollowParsed): FollowRow {
  if (b.mode === 'fixed' && b.fixedAmount !== null) {
    const traded = new Map<string, number>();
    for (const o of x.s.orders.values()) if (o.user_id === b.traderId) traded.set(o.symbol, Math.max(traded.get(o.symbol) ?? 0, o.leverage));
    checkFixedFloor(b.fixedAmount, fixedFloorOf([...traded].map(([symbol, leverage]) => ({ symbol, leverage })), (sym) => x.s.rules.get(sym), (sym) => x.view.lastPrice(sym)));
  }
  const following = [...x.s.follows.values()].some((f) => f.user_id === userId && f.trader_id === b.traderId && f.status === 'active');
  const values = newFollow(userId, b, { traderActive: x.s.traders.has(b.traderId), following, available: balanceOf(x.s, userId, b.from) }, x.t);
  const f: FollowRow = { id: x.seq, ...values };
  saveFollow(x, f);
  cmv(x, 'WALLET_TRANSFER_OUT', userAcct(userId, b.from), copyAccounts(userId).user, parseMinor(values.invested), { inType: 'WALLET_TRANSFER_IN' });
  return f;
}

function unfollow(x: X, userId: number, followId: number, closePositions: boolean): FollowRow {
  const f = x.s.follows.get(followId);
  if (!f || f.user_id !== userId) return copyBad(COPY_MSG.followNotFound, Code.notFound);
  if (f.status !== 'active') copyBad(COPY_MSG.followEnded, Code.conflict);
  return endFollow(x, f, closePositions, 'user');
}

function copyClose(x: X, userId: number, positionId: string): CopyPositionRow {
  const p = x.s.copyPositions.get(positionId);
  if (!p || p.user_id !== userId) return copyBad(COPY_MSG.positionNotFound, Code.notFound);
  const f = x.s.follows.get(p.follow_id);
  if (!f) throw new Error(`follow ${p.follow_id} of ${p.id} not in the state`);
  const rules = x.s.rules.get(p.symbol);
  const mark = x.view.markPrice(p.symbol);
  if (!rules || mark === undefined) return copyBad(COPY_MSG.noPrice);
  moveTo(x, f, rules, p.contract, 0n, scaled(mark, rules.pricePrecision), p.leverage, null);
  return x.copyPositions.get(p.id) ?? p;
}

/**
 * service.ts checkAll: each copied position at its maintenance margin is liquidated at the mark,
 * then each follow with a stop is checked, each its own step; a refused step ends the job there
 * (the SQL job stops at the first error; what came before stands).
 */
function copyCheck(x: X): void {
  const steps: (() => void)[] = [];
  for (const p of [...x.s.copyPositions.values()].sort((a, b) => a.opened_at - b.opened_at)) {
    const rules = x.s.rules.get(p.symbol);
    const mark = x.view.markPrice(p.symbol);
    if (!rules || mark === undefined) continue;
    const markU = scaled(mark, rules.pricePrecision);
    if (!shouldLiquidate(rules, p.side, parseMinor(p.cost), parseMinor(p.margin), parseMinor(p.qty), markU)) continue;
    steps.push(() => {
      const now = x.s.copyPositions.get(p.id);
      const f = now ? x.s.follows.get(now.follow_id) : undefined;
      if (!now || !f) return;
      const r = closeCopyPart(x, f, rules, now, parseMinor(now.qty), notional(rules, markU, parseMinor(now.qty)), true);
      x.tx.push(x.copyOrders, liquidationCopyOrder(f, rules, now, markU, r, x.t));
    });
  }
  const run = (step: () => void): boolean => {
    const at = x.tx.mark;
    try {
      step();
      return true;
    } catch (err) {
      if (!(err instanceof Rejection) && !(err instanceof CopySettlementError)) throw err;
      x.tx.undo(at);
      return false;
    }
  };
  for (const step of steps) if (!run(step)) return;
  const stops = [...x.s.follows.values()].filter((f) => f.status === 'active' && f.stop_loss !== null).map((f) => f.id).sort((a, b) => a - b);
  for (const id of stops) {
    if (!run(() => {
      const f = x.s.follows.get(id);
      if (f) checkStopLoss(x, f);
    })) return;
  }
}

// ------------------------------------------------------------------ instant convert (server/money/convert.ts)

const refuse = (r: Refusal): never => {
  throw new Rejection(r.code, r.msg);
};

function saveQuote(x: X, q: QuoteRow): void {
  x.tx.set(x.s.quotes, q.quote_id, q);
  x.tx.set(x.quotes, q.quote_id, q);
}

/** createQuote: the terms at the last prices, the funds check on the paying wallet, a quote valid for QUOTE_TTL_MS. */
function quote(x: X, userId: number, b: QuoteInput): QuoteRow {
  const terms = quoteTerms((symbol) => x.s.market.get(symbol)?.last, b);
  if (!terms.ok) return refuse(terms);
  const funds = checkFunds(balanceOf(x.s, userId, b.account, b.from), terms.give);
  if (funds) return refuse(funds);
  const row = quoteRowOf(newId(x, 'Q'), userId, b, terms, x.t, x.seq);
  saveQuote(x, row);
  return row;
}

/** convertQuote: the caller's unused, unexpired quote, filled at its rate with its one posting (fee 0). */
function convert(x: X, userId: number, quoteId: string): QuoteRow {
  const found = x.s.quotes.get(quoteId);
  const checked = checkConvert(found?.user_id === userId ? found : undefined, x.t);
  if (!checked.ok) return refuse(checked);
  const filled: QuoteRow = { ...checked.q, filled_at: x.t };
  saveQuote(x, filled);
  if (!postLegs(x, 'EXCHANGE_DEDUCTION', convertLegs(checked.q), `convert:${quoteId}`)) bad(CONVERT_MSG.insufficientBalance);
  return filled;
}

// ------------------------------------------------------------------ the market (server/trading/triggers.ts, engine.ts)

function actOn(x: X, id: string, rules: Rules, step: Step): void {
  const o = reread(x, id);
  if (o.status !== 'pending') return;
  if (step === 'trigger') {
    const armed = updateOrder(x, id, { triggered_at: x.t, updated_at: x.t });
    if (armed.kind === 'stopMarket') workMarket(x, armed, rules);
    else workLimit(x, armed, rules, false);
    return;
  }
  const priceU = scaled(o.price, rules.pricePrecision);
  let want = qtyUnits(o, rules) - executedUnits(o, rules);
  if (step === 'tpsl') {
    const pos = positionById(x, o.position_id);
    if (!pos) return cancelWith(x, o, 'positionClosed');
    const pq = parseMinor(pos.qty);
    if (pq < want) want = pq;
  }
  const { done } = executeFill(x, o, rules, { qtyU: want, notional: notional(rules, priceU, want) }, step === 'fill' ? 'maker' : 'taker', parseMinor(o.margin));
  const after = reread(x, id);
  if (after.status !== 'pending') return;
  if (step === 'tpsl' && done > 0n) {
    updateOrder(x, id, { status: 'filled', updated_at: x.t });
    return;
  }
  cancelWith(x, after, 'reduceOnly');
}

function liquidate(x: X, positionId: string, rules: Rules, mark: number): void {
  const pos = positionById(x, positionId);
  if (!pos) return;
  const n = notional(rules, scaled(mark, rules.pricePrecision), parseMinor(pos.qty));
  const r = closePart(x, pos, rules, parseMinor(pos.qty), n, rules.closingFeeRatio, true);
  const { order, fill, executed } = liquidationRows(pos, rules, newId(x, 'O'), mark, n, r, x.t);
  saveOrder(x, order);
  x.tx.push(x.fills, fill);
  x.tx.push(x.executed, executed);
}

/** The check of one symbol after the market moved (TradingEngine.checkSymbolNow): pending orders in creation order, then liquidations. */
function checkSymbol(x: X, symbol: string): void {
  const rules = x.s.rules.get(symbol);
  const last = x.view.lastPrice(symbol);
  const mark = x.view.markPrice(symbol);
  if (!rules || last === undefined || mark === undefined) return;
  const bySide = x.s.pending.get(symbol);
  const due: [number, OrderRow][] = [];
  for (const side of ['buy', 'sell'] as const) {
    for (const [id, ordinal] of bySide?.[side] ?? []) {
      const o = reread(x, id);
      if (dueStep(o, last, mark) !== null) due.push([ordinal, o]);
    }
  }
  due.sort((a, b) => a[0] - b[0]);
  for (const [, o] of due) {
    // Each due order is a step of its own; one the account cannot carry is undone and ends canceled.
    const step = dueStep(o, last, mark);
    if (step === null) continue;
    const at = x.tx.mark;
    try {
      actOn(x, o.id, rules, step);
    } catch (err) {
      if (!(err instanceof Rejection)) throw err;
      x.tx.undo(at);
      const now = reread(x, o.id);
      if (now.status === 'pending') cancelWith(x, now, err.message === TRADE_MSG.insufficientBalance ? 'insufficientBalance' : 'rejected');
    }
    // Each step is its own commit in the SQL engine, mirrored by copy trading before the next one.
    mirror(x);
  }
  const markUnits = scaled(mark, rules.pricePrecision);
  const open = [...x.s.positions.values()].filter((p) => p.symbol === symbol);
  for (const p of open) {
    if (shouldLiquidate(rules, p.side, parseMinor(p.cost), parseMinor(p.margin), parseMinor(p.qty), markUnits)) {
      liquidate(x, p.id, rules, mark);
      mirror(x);
    }
  }
}

/** settle.ts periodicFee: ratio × notional(mark), paid to or by the system account. */
function periodicFee(x: X, pos: PositionRow, rules: Rules, type: 'FUNDING_FEE' | 'OVERNIGHT_FEE', ratio: number, mark: number, pays: boolean): void {
  const wallet: Wallet = pos.contract;
  const amount = feeOf(notional(rules, scaled(mark, rules.pricePrecision), parseMinor(pos.qty)), ratio);
  if (amount === 0n) return;
  if (!pays) {
    mv(x, type, systemAcct(wallet), userAcct(pos.user_id, wallet), amount, pos.symbol);
    return;
  }
  const margin = parseMinor(pos.margin);
  const [, fromMargin] = charge(x, type, pos.user_id, wallet, amount, margin, pos.symbol);
  if (fromMargin > 0n) savePosition(x, { ...pos, margin: (margin - fromMargin).toString(), updated_at: x.t });
}

/** TradingEngine.chargeAll: every open position of the contract, in opening order. */
function chargeAll(x: X, contract: 'perp' | 'std'): void {
  const open = [...x.s.positions.values()].filter((p) => p.contract === contract).sort((a, b) => a.opened_at - b.opened_at);
  for (const seen of open) {
    const p = positionById(x, seen.id);
    const rules = p ? x.s.rules.get(p.symbol) : undefined;
    const mark = p ? x.view.markPrice(p.symbol) : undefined;
    if (!p || !rules || mark === undefined) continue;
    if (contract === 'perp') {
      const rate = rules.fundingRateRatio;
      if (rate === 0) continue;
      periodicFee(x, p, rules, 'FUNDING_FEE', rate, mark, (p.side === 'long') === rate > 0);
    } else {
      if (rules.overnightFeeRatio === 0) continue;
      periodicFee(x, p, rules, 'OVERNIGHT_FEE', rules.overnightFeeRatio, mark, true);
    }
  }
}

function periodic(x: X): void {
  for (const [name, period] of [['funding', FUNDING_INTERVAL_MS], ['overnight', OVERNIGHT_INTERVAL_MS]] as const) {
    const due = lastBoundary(x.t, period);
    let last = x.s.jobs.get(name) ?? due;
    while (last < due) {
      last += period;
      chargeAll(x, name === 'funding' ? 'perp' : 'std');
    }
    x.tx.set(x.s.jobs, name, last);
    x.tx.push(x.jobs, { name, lastRun: last });
  }
  // Then the symbols with an open position are checked (in symbol order).
  const symbols = [...new Set([...x.s.positions.values()].map((p) => p.symbol))].sort();
  for (const symbol of symbols) checkSymbol(x, symbol);
}

function setMarket(x: X, symbol: string, last: number, mark: number, book: MarketQuote['book'] | undefined): void {
  // ControlledMarketSource / the simulator without a book of its own: one level at the last price each side.
  const b = book ?? { bids: [[last, 1000]], asks: [[last, 1000]] };
  x.tx.set(x.s.market, symbol, { last, mark, book: { bids: b.bids.slice(0, BOOK_DEPTH), asks: b.asks.slice(0, BOOK_DEPTH) } });
}

// ------------------------------------------------------------------ apply

function run(x: X, cmd: Command): Extract<Outcome, { ok: true }>['result'] {
  switch (cmd.type) {
    case 'place':
      return placeOrder(x, cmd.userId, cmd.body);
    case 'cancel':
      return cancelOrder(x, cmd.userId, cmd.by);
    case 'edit':
      return editOrder(x, cmd.userId, cmd.body);
    case 'close':
      return closePosition(x, cmd.userId, cmd.body);
    case 'closeAll':
      return closeAll(x, cmd.userId, cmd.filter);
    case 'tpsl':
      return setTpsl(x, cmd.userId, cmd.body);
    case 'transfer':
      return transfer(x, cmd);
    case 'market': {
      setMarket(x, cmd.symbol, cmd.last, cmd.mark, cmd.book);
      checkSymbol(x, cmd.symbol);
      return null;
    }
    case 'periodic':
      periodic(x);
      return null;
    case 'follow':
      return follow(x, cmd.userId, cmd.body);
    case 'unfollow':
      return unfollow(x, cmd.userId, cmd.followId, cmd.closePositions);
    case 'copyClose':
      return copyClose(x, cmd.userId, cmd.positionId);
    case 'copyCheck':
      copyCheck(x);
      return null;
    case 'trader':
      if (cmd.active) x.tx.add(x.s.traders, cmd.userId);
      else x.tx.remove(x.s.traders, cmd.userId);
      x.tx.push(x.traders, { userId: cmd.userId, active: cmd.active });
      return null;
    case 'quote':
      return quote(x, cmd.userId, cmd.body);
    case 'convert':
      return convert(x, cmd.userId, cmd.quoteId);
    case 'post':
      throw new Error('apply: a post command is applied by applyExternal');
    case 'inviter':
      x.tx.set(x.s.inviters, cmd.userId, cmd.inviterId);
      return null;
    case 'book': {
      const q = x.s.market.get(cmd.symbol) ?? bad(TRADE_MSG.noPrice);
      x.tx.set(x.s.market, cmd.symbol, { ...q, book: { bids: cmd.book.bids.slice(0, BOOK_DEPTH), asks: cmd.book.asks.slice(0, BOOK_DEPTH) } });
      return null;
    }
  }
}

/**
 * Puts rows the SQL engine wrote into the state (a first state loaded from the tables,
 * server/engine/load.ts): orders in creation order (their ordinal for the market checks) and open
 * positions, through the same writes `apply` uses, so the indexes and the frozen margins are built
 * as apply builds them.
 */
export function admitRows(s: EngineState, orders: readonly OrderRow[], positions: readonly PositionRow[]): void {
  const x = context(s, 0, 0);
  for (const p of positions) if (p.status === 'open') savePosition(x, p);
  for (const o of orders) saveOrder(x, o);
}

/**
 * Applies one command at sequence number `seq` and time `t`. A refusal (the SQL engine's
 * Rejection: same code, same message) changes nothing and is an outcome; any other error is a bug,
 * also changes nothing, and is thrown.
 */
export function apply(s: EngineState, cmd: Command, seq: number, t: number): Outcome {
  if (cmd.type === 'post') return applyExternal(s, cmd.posting, seq, t);
  const x = context(s, seq, t);
  let result: Extract<Outcome, { ok: true }>['result'];
  try {
    result = run(x, cmd);
    // The SQL engine's fill listeners run after the command's commit: copy trading mirrors its executions.
    mirror(x);
  } catch (err) {
    x.tx.undo(0);
    if (err instanceof Rejection) return { seq, t, ok: false, code: err.code, msg: err.message };
    throw err;
  }
  return { seq, t, ok: true, result, postings: x.postings, orders: [...x.orders.values()], positions: [...x.positions.values()], fills: x.fills, rebates: x.rebates, quotes: [...x.quotes.values()],
    follows: [...x.follows.values()], copyPositions: [...x.copyPositions.values()], copyOrders: x.copyOrders, jobs: x.jobs, traders: x.traders, executed: x.executed };
}


/** A `post` command: the posting through the ledger rule (postLedger's, without the database). */
function applyExternal(s: EngineState, p: ExternalPosting, seq: number, t: number): Outcome {
  const legs = p.entries.map((e) => ({ userId: e.userId, wallet: e.wallet, asset: e.asset, amount: BigInt(e.amount), ...(e.type ? { type: e.type } : {}) }));
  const known = new Map<BalanceKey, bigint>();
  for (const l of legs) {
    const k = balanceKey(l.userId, l.wallet, l.asset);
    if (!known.has(k)) known.set(k, s.balances.get(k) ?? 0n);
  }
  const r = applyPosting(known, legs);
  if (!r.ok) return { seq, t, ok: false, code: Code.badRequest, msg: r.reason };
  for (const k of known.keys()) s.balances.set(k, r.balances.get(k) ?? 0n);
  const rows: LegEvent[] = legs.map((l, i) => ({
    userId: l.userId, wallet: l.wallet, asset: l.asset, amount: l.amount, after: r.after[i] ?? 0n, type: l.type ?? p.type, ref: p.ref, ...(p.symbol ? { symbol: p.symbol } : {}),
  }));
  return { seq, t, ok: true, result: null, postings: [], orders: [], positions: [], fills: [], rebates: [], quotes: [], follows: [], copyPositions: [], copyOrders: [], jobs: [], traders: [], legs: rows };
}
