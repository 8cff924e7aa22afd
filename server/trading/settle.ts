import type { Db } from '../db/connection.ts';
import { compiledShape, insertRow } from '../db/compiledShape.ts';
import { SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import type { LedgerType } from '../db/repos/ledger.ts';
import { parseMinor } from '../db/money.ts';
import type { Wallet } from '../db/schema.ts';
import { move } from '../ledger/post.ts';
import type { AccountRef } from '../ledger/post.ts';
import { creditReferralRebate } from '../referral/rebate.ts';
import { REFERRAL_WALLET } from '../../src/protocol/referral.ts';
import { availableOf, ESCROW_ACCOUNT_ID } from '../wallet/wallet.ts';
import { feeOf, initialMargin, notional, proRata, scaled, unscaled } from './formulas.ts';
import type { Rules } from './formulas.ts';
import { newId } from './store.ts';
import type { OrderRow, PositionRow } from './store.ts';

/**
 * Settlement: every money movement of an order fill, a close, a liquidation or a periodic fee,
 * as ledger postings inside the caller's transaction (docs/TRADING.md, "Ledger flows").
 * Accounts: the user's futures wallet (std or perp), the escrow (locked margins) and the system
 * account (fees, the counter-party of PnL, and the insurance fund that absorbs shortfalls).
 */

/** What changed, so the engine can push order / position / balance frames after the commit. */
export interface Touched {
  /** Order / position id → its user (frames go to users with a socket). */
  orders: Map<string, number>;
  positions: Map<string, number>;
  balances: Set<`${number}|${Wallet}`>;
  symbols: Set<string>;
  /** Every execution of the operation, in order, for the engine's fill listeners (copy trading mirrors them). */
  fills: ExecutedFill[];
}

/**
 * One execution of a user's order against their position (one-way netting), as the fill
 * listeners see it after the commit: the signed position quantity before and after (units of
 * 10^-qtyPrecision, + long, - short) and the execution's price.
 */
export interface ExecutedFill {
  userId: number;
  orderId: string;
  symbol: string;
  contract: 'perp' | 'std';
  side: 'buy' | 'sell';
  qtyU: bigint;
  price: number;
  beforeU: bigint;
  afterU: bigint;
  leverage: number;
  liquidation: boolean;
}

export function emptyTouched(): Touched {
  return { orders: new Map(), positions: new Map(), balances: new Set(), symbols: new Set(), fills: [] };
}

export const COIN = 'USDT';

/** Thrown inside a transaction when a posting the engine checked beforehand is refused: a programmer error, rolls back. */
export class SettlementError extends Error {}

export interface Ctx {
  trx: Db;
  now: number;
  touched: Touched;
}

const user = (userId: number, wallet: Wallet) => ({ userId, wallet });

/** A position grown by an opening execution (compiled once per dialect: it runs on most placements). */
const updatePositionSize = compiledShape(
  (db: Db, id: string, qty: string, cost: string, margin: string, leverage: number, now: number) =>
    db.updateTable('trade_positions').set({ qty, cost, margin, leverage, updated_at: now }).where('id', '=', id),
  6,
);
const escrow = (wallet: Wallet) => ({ userId: ESCROW_ACCOUNT_ID, wallet });
const system = (wallet: Wallet) => ({ userId: SYSTEM_ACCOUNT_ID, wallet });

/**
 * A ledger move settlement cannot do without: a refusal throws `refused(reason)` (the operation rolls
 * back), and the user balances it touched (not the system or escrow accounts) are noted for the
 * balance frames after the commit. Shared by trading and copy settlement (server/copy/settle.ts).
 */
export async function settleMove(
  at: { trx: Db; now: number; touched: Set<`${number}|${Wallet}`> },
  type: LedgerType,
  from: AccountRef,
  to: AccountRef,
  amount: bigint,
  tag: { symbol?: string; inType?: LedgerType },
  refused: (message: string) => Error,
): Promise<void> {
  if (amount <= 0n) return;
  const r = await move(at.trx, type, from, to, COIN, amount, at.now, tag);
  if (!r.ok) throw refused(`${type} ${amount} refused: ${r.reason}`);
  for (const a of [from, to]) if (a.userId !== SYSTEM_ACCOUNT_ID && a.userId !== ESCROW_ACCOUNT_ID) at.touched.add(`${a.userId}|${a.wallet}`);
}

const mv = (c: Ctx, type: LedgerType, from: AccountRef, to: AccountRef, amount: bigint, symbol: string): Promise<void> =>
  settleMove({ trx: c.trx, now: c.now, touched: c.touched.balances }, type, from, to, amount, { symbol }, (m) => new SettlementError(m));

/**
 * A trading fee was paid: the payer's inviter, if any, earns the referral rebate in this same
 * transaction (server/referral/rebate.ts, docs/REFERRAL.md), and gets a balance frame after the commit.
 */
async function feePaid(c: Ctx, userId: number, wallet: Wallet, fee: bigint, n: bigint, symbol: string): Promise<void> {
  const credit = await creditReferralRebate(c.trx, { userId, wallet, asset: COIN, fee, notional: n, symbol, now: c.now });
  if (credit && credit.rebate > 0n) c.touched.balances.add(`${credit.inviterId}|${REFERRAL_WALLET}`);
}

/** Locks margin for an order (CONTRACT_OPEN, user → escrow). */
export function lockMargin(c: Ctx, userId: number, wallet: Wallet, amount: bigint, symbol: string): Promise<void> {
  return mv(c, 'CONTRACT_OPEN', user(userId, wallet), escrow(wallet), amount, symbol);
}

/** Returns a pending order's margin (CONTRACT_CANCEL, escrow → user). */
export function releaseOrderMargin(c: Ctx, userId: number, wallet: Wallet, amount: bigint, symbol: string): Promise<void> {
  return mv(c, 'CONTRACT_CANCEL', escrow(wallet), user(userId, wallet), amount, symbol);
}

/**
 * How a charge of `amount` is paid (pure, shared with the in-memory engine server/engine/apply.ts):
 * [from the wallet's available balance `avail`, from the position's margin]; what neither covers is waived.
 */
export function chargeSplit(amount: bigint, avail: bigint, positionMargin: bigint): [fromWallet: bigint, fromMargin: bigint] {
  const fromWallet = amount < avail ? amount : avail;
  const short = amount - fromWallet;
  return [fromWallet, short < positionMargin ? short : positionMargin];
}

/**
 * Charges `amount` of type `type` to the user: from the wallet first, the rest from the position's
 * margin (unlocked with CONTRACT_MARGIN_UNLOCK, then charged). What neither covers is waived
 * (absorbed by the system account). Returns [charged, taken from margin].
 */
async function charge(c: Ctx, type: LedgerType, userId: number, wallet: Wallet, amount: bigint, positionMargin: bigint, symbol: string, knownAvail?: bigint): Promise<[bigint, bigint]> {
  const avail = knownAvail ?? (await availableOf(c.trx, userId, wallet, COIN));
  const [fromWallet, fromMargin] = chargeSplit(amount, avail, positionMargin);
  await mv(c, 'CONTRACT_MARGIN_UNLOCK', escrow(wallet), user(userId, wallet), fromMargin, symbol);
  await mv(c, type, user(userId, wallet), system(wallet), fromWallet + fromMargin, symbol);
  return [fromWallet + fromMargin, fromMargin];
}

/**
 * The opening part of an execution: `qtyU` at the exact notional `n` opens or increases the
 * position of the order's side (`existing` is that position when it is open on the same side).
 * Margin: `marginFromLock` when it was locked while the order rested (already in escrow), else
 * initial margin locked now (CONTRACT_OPEN); then the opening fee at `feeRatio` (CONTRACT_OPEN_FEE,
 * from the wallet, the rest from the new margin). Cost and quantity add up (weighted entry).
 */
export async function openPart(
  c: Ctx, o: OrderRow, rules: Rules, existing: PositionRow | null, qtyU: bigint, n: bigint, feeRatio: number, marginFromLock: bigint | null, availBefore?: bigint,
): Promise<{ pos: PositionRow; fee: bigint }> {
  const wallet: Wallet = o.contract;
  let margin = marginFromLock ?? initialMargin(n, o.leverage);
  if (marginFromLock === null) await lockMargin(c, o.user_id, wallet, margin, o.symbol);
  const availNow = availBefore === undefined ? undefined : marginFromLock === null ? availBefore - margin : availBefore;
  const [fee, fromMargin] = await charge(c, 'CONTRACT_OPEN_FEE', o.user_id, wallet, feeOf(n, feeRatio), margin, o.symbol, availNow);
  await feePaid(c, o.user_id, wallet, fee, n, o.symbol);
  margin -= fromMargin;
  let pos: PositionRow;
  if (existing) {
    pos = grownPosition(existing, qtyU, n, margin, o.leverage, c.now);
    await updatePositionSize(c.trx, pos.id, pos.qty, pos.cost, pos.margin, pos.leverage, c.now);
  } else {
    pos = {
      id: newId('P', c.now),
      user_id: o.user_id,
      symbol: o.symbol,
      contract: o.contract,
      side: o.side === 'buy' ? 'long' : 'short',
      qty: qtyU.toString(),
      cost: n.toString(),
      margin: margin.toString(),
      leverage: o.leverage,
      status: 'open',
      realized_pnl: '0',
      opened_at: c.now,
      updated_at: c.now,
      closed_at: null,
    };
    await insertRow(c.trx, 'trade_positions', pos);
  }
  c.touched.positions.set(pos.id, pos.user_id);
  c.touched.symbols.add(o.symbol);
  return { pos, fee };
}

/** A position (trading or copied) after an opening part of `qtyU` for notional `n` with `margin` locked. */
export function grownPosition<P extends { qty: string; cost: string; margin: string; leverage: number; updated_at: number }>(
  existing: P, qtyU: bigint, n: bigint, margin: bigint, leverage: number, now: number,
): P {
  return {
    ...existing,
    qty: (parseMinor(existing.qty) + qtyU).toString(),
    cost: (parseMinor(existing.cost) + n).toString(),
    margin: (parseMinor(existing.margin) + margin).toString(),
    leverage,
    updated_at: now,
  };
}

/** Kinds that never increase a position whatever their flag says. */
export const REDUCE_KINDS: readonly OrderRow['kind'][] = ['marketClose', 'limitClose', 'limitTakeProfit', 'limitStopLoss'];

/** One posting of `amount` between two accounts (a no-op for 0); the caller's transaction, symbol and bookkeeping. */
export type PostFn = (type: LedgerType, from: AccountRef, to: AccountRef, amount: bigint) => Promise<void>;

/** What closing part of a position booked: the parts of its quantity, cost and margin, the PnL and the fee. */
export interface CloseSettlement {
  qty: bigint;
  qtyU: bigint;
  cost: bigint;
  costPart: bigint;
  margin: bigint;
  marginPart: bigint;
  realized: bigint;
  fee: bigint;
}

/** Who a close posting moves money between (the accounts of the position's wallet). */
export type CloseRole = 'user' | 'escrow' | 'system';

/** One posting of a close, in order (amount 0: nothing to post; the fee's posting is always present). */
export interface ClosePosting {
  type: LedgerType;
  from: CloseRole;
  to: CloseRole;
  amount: bigint;
}

/**
 * The postings of closing `qtyWanted` (capped at the position) for the exact notional `n`, pure
 * (shared by the SQL settlement below and the in-memory engine, server/engine/apply.ts): the
 * pro-rata margin back (CONTRACT_MARGIN_UNLOCK), the PnL against the system account
 * (CONTRACT_CLOSE; a loss capped at that margin: isolated), the closing fee (CONTRACT_CLOSE_FEE)
 * capped at what can pay it (`budget(marginPart, realized)`: what the payer holds once the margin
 * part and the PnL came back; for a liquidation what is left of the margin part); a liquidation
 * forfeits the rest of the margin part (CONTRACT_TRADE) and books it as loss.
 */
export function planClose(
  pos: { side: 'long' | 'short'; qty: string; cost: string; margin: string },
  qtyWanted: bigint, n: bigint, feeRatio: number, liquidation: boolean,
  budget: (marginPart: bigint, realized: bigint) => bigint,
): CloseSettlement & { postings: ClosePosting[] } {
  const qty = parseMinor(pos.qty);
  const qtyU = qtyWanted < qty ? qtyWanted : qty;
  const cost = parseMinor(pos.cost);
  const margin = parseMinor(pos.margin);
  const costPart = proRata(cost, qtyU, qty);
  const marginPart = proRata(margin, qtyU, qty);
  const gross = pos.side === 'long' ? n - costPart : costPart - n;
  const postings: ClosePosting[] = [{ type: 'CONTRACT_MARGIN_UNLOCK', from: 'escrow', to: 'user', amount: marginPart }];
  let realized: bigint;
  if (gross >= 0n) {
    postings.push({ type: 'CONTRACT_CLOSE', from: 'system', to: 'user', amount: gross });
    realized = gross;
  } else {
    const loss = -gross < marginPart ? -gross : marginPart;
    postings.push({ type: 'CONTRACT_CLOSE', from: 'user', to: 'system', amount: loss });
    realized = -loss;
  }
  const feeDue = feeOf(n, feeRatio);
  const room = liquidation ? marginPart + (realized < 0n ? realized : 0n) : budget(marginPart, realized);
  const fee = feeDue < room ? feeDue : room > 0n ? room : 0n;
  postings.push({ type: 'CONTRACT_CLOSE_FEE', from: 'user', to: 'system', amount: fee });
  if (liquidation) {
    const rest = marginPart + (realized < 0n ? realized : 0n) - fee;
    if (rest > 0n) {
      postings.push({ type: 'CONTRACT_TRADE', from: 'user', to: 'system', amount: rest });
      realized -= rest;
    }
  }
  return { qty, qtyU, cost, costPart, margin, marginPart, realized, fee, postings };
}

/**
 * The postings of {@link planClose}, for a trading position and a copied one alike
 * (server/copy/settle.ts), through `post`; `feePaid` runs right after the fee's posting.
 */
export async function settleClose(
  post: PostFn,
  acct: { user: AccountRef; escrow: AccountRef; system: AccountRef },
  pos: { side: 'long' | 'short'; qty: string; cost: string; margin: string },
  qtyWanted: bigint, n: bigint, feeRatio: number, liquidation: boolean,
  hooks: { budget: (marginPart: bigint, realized: bigint) => bigint; feePaid?: (fee: bigint) => Promise<void> },
): Promise<CloseSettlement> {
  const { postings, ...plan } = planClose(pos, qtyWanted, n, feeRatio, liquidation, hooks.budget);
  for (const p of postings) {
    await post(p.type, acct[p.from], acct[p.to], p.amount);
    if (p.type === 'CONTRACT_CLOSE_FEE') await hooks.feePaid?.(p.amount);
  }
  return plan;
}

export interface CloseResult {
  qtyU: bigint;
  realized: bigint;
  fee: bigint;
  remaining: bigint;
}

/**
 * Closes `qtyWanted` of a trading position for the exact notional `n` (price × qty), paying `feeRatio`:
 * the postings of {@link settleClose} (the fee out of the wallet's available balance, the payer's
 * inviter rebated after it; a liquidation loses exactly the position's margin), then the position row,
 * and when it is closed whole its reduce-only orders.
 */
export async function closePart(c: Ctx, pos: PositionRow, rules: Rules, qtyWanted: bigint, n: bigint, feeRatio: number, liquidation: boolean, exceptOrderId = ''): Promise<CloseResult> {
  const wallet: Wallet = pos.contract;
  const post: PostFn = (type, from, to, amount) => mv(c, type, from, to, amount, pos.symbol);
  // The fee is paid out of the wallet: what it holds once the margin part and the PnL came back.
  const avail = liquidation ? 0n : await availableOf(c.trx, pos.user_id, wallet, COIN);
  const { qty, qtyU, cost, costPart, margin, marginPart, realized, fee } = await settleClose(
    post, { user: user(pos.user_id, wallet), escrow: escrow(wallet), system: system(wallet) }, pos, qtyWanted, n, feeRatio, liquidation, {
      budget: (part, pnl) => avail + part + pnl,
      feePaid: (paid) => feePaid(c, pos.user_id, wallet, paid, n, pos.symbol),
    },
  );
  const remaining = qty - qtyU;
  const status = remaining === 0n ? (liquidation ? 'liquidated' : 'closed') : 'open';
  await c.trx
    .updateTable('trade_positions')
    .set({
      qty: remaining.toString(),
      cost: (cost - costPart).toString(),
      margin: (margin - marginPart).toString(),
      realized_pnl: (parseMinor(pos.realized_pnl) + realized).toString(),
      status,
      updated_at: c.now,
      closed_at: remaining === 0n ? c.now : null,
    })
    .where('id', '=', pos.id)
    .execute();
  if (remaining === 0n) {
    // The position's reduce-only orders (TP/SL, limit closes) end with it; they lock no margin.
    const canceled = await c.trx
      .updateTable('trade_orders')
      .set({ status: 'canceled', cancel_reason: 'positionClosed', updated_at: c.now })
      .where('position_id', '=', pos.id)
      .where('status', '=', 'pending')
      .where('id', '!=', exceptOrderId)
      .where((eb) => eb.or([eb('reduce_only', '=', 1), eb('kind', 'in', REDUCE_KINDS)]))
      .returning('id')
      .execute();
    for (const r of canceled) c.touched.orders.set(r.id, pos.user_id);
  } else {
    await shrinkTpsl(c, pos, rules, remaining, exceptOrderId);
  }
  c.touched.positions.set(pos.id, pos.user_id);
  c.touched.symbols.add(pos.symbol);
  return { qtyU, realized, fee, remaining };
}

/** A pending TP / SL's new quantity when its position shrank to `remaining` units, or null when it fits (pure; shared with server/engine/apply.ts). */
export function shrunkTpslQty(o: { qty: number; executed_qty: number }, rules: Rules, remaining: bigint): number | null {
  const done = scaled(o.executed_qty, rules.qtyPrecision);
  if (scaled(o.qty, rules.qtyPrecision) - done <= remaining) return null;
  return unscaled(done + remaining, rules.qtyPrecision);
}

/**
 * The position shrank to `remaining` (units) without closing: its pending TP / SL orders larger than
 * that are resized to it (issue 26, Minor 10), so a TP/SL never shows or works for more than the
 * position holds. Smaller ones (a TP/SL placed for a part) keep their size.
 */
async function shrinkTpsl(c: Ctx, pos: PositionRow, rules: Rules, remaining: bigint, exceptOrderId: string): Promise<void> {
  const rows = await c.trx
    .selectFrom('trade_orders')
    .select(['id', 'qty', 'executed_qty'])
    .where('position_id', '=', pos.id)
    .where('status', '=', 'pending')
    .where('id', '!=', exceptOrderId)
    .where('kind', 'in', ['limitTakeProfit', 'limitStopLoss'])
    .execute();
  for (const r of rows) {
    const qty = shrunkTpslQty(r, rules, remaining);
    if (qty === null) continue;
    await c.trx.updateTable('trade_orders').set({ qty, updated_at: c.now }).where('id', '=', r.id).execute();
    c.touched.orders.set(r.id, pos.user_id);
  }
}

/**
 * A periodic charge on a position (FUNDING_FEE or OVERNIGHT_FEE) of ratio × notional(mark).
 * `pays` false means the user receives it from the system account (the other side of funding).
 */
export async function periodicFee(c: Ctx, pos: PositionRow, rules: Rules, type: 'FUNDING_FEE' | 'OVERNIGHT_FEE', ratio: number, mark: number, pays: boolean): Promise<bigint> {
  const wallet: Wallet = pos.contract;
  const n = notional(rules, scaled(mark, rules.pricePrecision), parseMinor(pos.qty));
  const amount = feeOf(n, ratio);
  if (amount === 0n) return 0n;
  if (!pays) {
    await mv(c, type, system(wallet), user(pos.user_id, wallet), amount, pos.symbol);
    return amount;
  }
  const margin = parseMinor(pos.margin);
  const [charged, fromMargin] = await charge(c, type, pos.user_id, wallet, amount, margin, pos.symbol);
  if (fromMargin > 0n) {
    await c.trx.updateTable('trade_positions').set({ margin: (margin - fromMargin).toString(), updated_at: c.now }).where('id', '=', pos.id).execute();
    c.touched.positions.set(pos.id, pos.user_id);
  }
  return -charged;
}
