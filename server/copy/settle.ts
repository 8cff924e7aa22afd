import { timeId } from '../services/timeIds.ts';
import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import type { LedgerType } from '../db/repos/ledger.ts';
import { parseMinor } from '../db/money.ts';
import type { CopyFollowsTable, CopyPositionsTable, Wallet } from '../db/schema.ts';
import type { AccountRef } from '../ledger/post.ts';
import { feeOf, initialMargin } from '../trading/formulas.ts';
import { grownPosition, settleClose, settleMove } from '../trading/settle.ts';
import type { CloseSettlement, PostFn } from '../trading/settle.ts';
import type { Rules } from '../trading/formulas.ts';
import { ESCROW_ACCOUNT_ID } from '../wallet/wallet.ts';

/**
 * Money of copy trading, all through the ledger (postLedger via move) in the caller's transaction,
 * on the user's `copy` wallet (docs/COPY.md "Ledger flows"):
 * - follow: WALLET_TRANSFER_OUT/IN source wallet → copy wallet; unfollow the way back;
 * - a copied opening part: CONTRACT_OPEN copy → escrow (margin), CONTRACT_OPEN_FEE copy → system;
 * - a copied closing part: CONTRACT_MARGIN_UNLOCK escrow → copy, CONTRACT_CLOSE system ⇄ copy (a
 *   loss capped at the margin part: isolated), CONTRACT_CLOSE_FEE copy → system (capped at what the
 *   copy holds); a liquidation forfeits the rest of the margin (CONTRACT_TRADE).
 * Each follow tracks `cash`, its part of the copy wallet: every posting here updates it with the
 * same amounts, so the copy wallet's balance is the sum of its follows' cash and no copy can spend
 * another's funds.
 */

export type FollowRow = Selectable<CopyFollowsTable>;
export type CopyPositionRow = Selectable<CopyPositionsTable>;

export const COIN = 'USDT';
const COPY: Wallet = 'copy';

/** A posting the service checked beforehand was refused: a programmer error, rolls the transaction back. */
export class CopySettlementError extends Error {}

/** What a transaction touched, for the frames after the commit. */
export interface CopyTouched {
  balances: Set<`${number}|${Wallet}`>;
  /** copy_orders ids (new rows) to push as `copy` frames. */
  orders: number[];
  follows: Set<number>;
}

export function emptyCopyTouched(): CopyTouched {
  return { balances: new Set(), orders: [], follows: new Set() };
}

export interface CopyCtx {
  trx: Db;
  now: number;
  t: CopyTouched;
}

const mv = (c: CopyCtx, type: LedgerType, from: AccountRef, to: AccountRef, amount: bigint, symbol?: string, inType?: LedgerType): Promise<void> =>
  settleMove({ trx: c.trx, now: c.now, touched: c.t.balances }, type, from, to, amount, { ...(symbol ? { symbol } : {}), ...(inType ? { inType } : {}) }, (m) => new CopySettlementError(m));

const user = (userId: number, wallet: Wallet = COPY): AccountRef => ({ userId, wallet });
const escrow: AccountRef = { userId: ESCROW_ACCOUNT_ID, wallet: COPY };
const system: AccountRef = { userId: SYSTEM_ACCOUNT_ID, wallet: COPY };

/** The accounts a follower's copy postings move between (their copy wallet, the escrow's, the system's). */
export function copyAccounts(userId: number): { user: AccountRef; escrow: AccountRef; system: AccountRef } {
  return { user: user(userId), escrow, system };
}

/** Writes the follow's cash / realized / fees after a money change. */
async function saveFollow(c: CopyCtx, f: FollowRow): Promise<void> {
  await c.trx.updateTable('copy_follows').set({ cash: f.cash, realized_pnl: f.realized_pnl, fees: f.fees, status: f.status, end_reason: f.end_reason, ended_at: f.ended_at }).where('id', '=', f.id).execute();
  c.t.follows.add(f.id);
}

/** Moves `amount` from the user's source wallet into the copy wallet for a new follow. */
export async function fundFollow(c: CopyCtx, userId: number, from: Wallet, amount: bigint): Promise<void> {
  await mv(c, 'WALLET_TRANSFER_OUT', user(userId, from), user(userId), amount, undefined, 'WALLET_TRANSFER_IN');
}

/** Returns a follow's free cash to the wallet it came from (cash becomes 0). */
export async function returnCash(c: CopyCtx, f: FollowRow): Promise<FollowRow> {
  const cash = parseMinor(f.cash);
  await mv(c, 'WALLET_TRANSFER_OUT', user(f.user_id), user(f.user_id, f.source_wallet), cash, undefined, 'WALLET_TRANSFER_IN');
  const next = { ...f, cash: '0' };
  await saveFollow(c, next);
  return next;
}

export function newCopyPositionId(now: number): string {
  return timeId('C', now, 5);
}

/** Margin + opening fee of an opening part of notional `n`. */
export function openingCost(rules: Rules, n: bigint, leverage: number): { margin: bigint; fee: bigint } {
  return { margin: initialMargin(n, leverage), fee: feeOf(n, rules.openingFeeRatio) };
}

/**
 * Opens or increases a copied position (the caller checked that the follow's cash covers margin
 * and fee). Returns the position as written and the fee.
 */
export async function openCopyPart(
  c: CopyCtx, f: FollowRow, rules: Rules, existing: CopyPositionRow | null, contract: 'perp' | 'std', side: 'long' | 'short', qtyU: bigint, n: bigint, leverage: number,
): Promise<{ f: FollowRow; pos: CopyPositionRow; fee: bigint }> {
  const o = openedCopy(f, rules, existing, contract, side, qtyU, n, leverage, c.now, existing ? existing.id : newCopyPositionId(c.now));
  await mv(c, 'CONTRACT_OPEN', user(f.user_id), escrow, o.margin, rules.symbol);
  await mv(c, 'CONTRACT_OPEN_FEE', user(f.user_id), system, o.fee, rules.symbol);
  await saveFollow(c, o.f);
  const pos = o.pos;
  if (existing) {
    await c.trx.updateTable('copy_positions').set({ qty: pos.qty, cost: pos.cost, margin: pos.margin, leverage, updated_at: c.now }).where('id', '=', pos.id).execute();
  } else {
    await c.trx.insertInto('copy_positions').values(pos).execute();
  }
  return { f: o.f, pos, fee: o.fee };
}

/**
 * What a copied opening part of notional `n` books (pure; shared with the in-memory engine,
 * server/engine/apply.ts): its margin and fee (CONTRACT_OPEN, CONTRACT_OPEN_FEE from the copy
 * wallet), the follow with its cash and fees after them, the position grown or opened as `id`.
 */
export function openedCopy(
  f: FollowRow, rules: Rules, existing: CopyPositionRow | null, contract: 'perp' | 'std', side: 'long' | 'short', qtyU: bigint, n: bigint, leverage: number, now: number, id: string,
): { f: FollowRow; pos: CopyPositionRow; margin: bigint; fee: bigint } {
  const { margin, fee } = openingCost(rules, n, leverage);
  const nf: FollowRow = { ...f, cash: (parseMinor(f.cash) - margin - fee).toString(), fees: (parseMinor(f.fees) + fee).toString() };
  const pos: CopyPositionRow = existing
    ? grownPosition(existing, qtyU, n, margin, leverage, now)
    : {
        id, follow_id: f.id, user_id: f.user_id, trader_id: f.trader_id, symbol: rules.symbol, contract, side,
        qty: qtyU.toString(), cost: n.toString(), margin: margin.toString(), leverage, status: 'open', realized_pnl: '0', opened_at: now, updated_at: now, closed_at: null,
      };
  return { f: nf, pos, margin, fee };
}

/** A copied position pays its closing fee out of its follow's cash (after the margin part and PnL came back). */
export const copyCloseBudget = (f: FollowRow) => (part: bigint, pnl: bigint): bigint => parseMinor(f.cash) + part + pnl;

/**
 * The follow and the position after a copied closing part booked `plan` (pure; shared with the
 * in-memory engine): the cash back (margin part + PnL - fee), realized and fees added, the
 * position shrunk or closed (liquidated).
 */
export function closedCopy(f: FollowRow, pos: CopyPositionRow, plan: CloseSettlement, liquidation: boolean, now: number): { f: FollowRow; pos: CopyPositionRow } {
  const { qty, qtyU, cost, costPart, margin, marginPart, realized, fee } = plan;
  const remaining = qty - qtyU;
  const next: CopyPositionRow = {
    ...pos,
    qty: remaining.toString(),
    cost: (cost - costPart).toString(),
    margin: (margin - marginPart).toString(),
    realized_pnl: (parseMinor(pos.realized_pnl) + realized).toString(),
    status: remaining === 0n ? (liquidation ? 'liquidated' : 'closed') : 'open',
    updated_at: now,
    closed_at: remaining === 0n ? now : null,
  };
  const cash = parseMinor(f.cash) + marginPart + realized - fee;
  const nf: FollowRow = { ...f, cash: cash.toString(), realized_pnl: (parseMinor(f.realized_pnl) + realized).toString(), fees: (parseMinor(f.fees) + fee).toString() };
  return { f: nf, pos: next };
}

/**
 * Closes `qtyU` of a copied position for the exact notional `n`. Returns the follow and position as
 * written, the realized PnL and the fee. After the close of a follow that has ended (positions
 * kept), what came back goes straight to the source wallet.
 */
export async function closeCopyPart(
  c: CopyCtx, f: FollowRow, rules: Rules, pos: CopyPositionRow, qtyWanted: bigint, n: bigint, liquidation: boolean,
): Promise<{ f: FollowRow; pos: CopyPositionRow; realized: bigint; fee: bigint; qtyU: bigint }> {
  const post: PostFn = (type, from, to, amount) => mv(c, type, from, to, amount, pos.symbol);
  const plan = await settleClose(post, copyAccounts(f.user_id), pos, qtyWanted, n, rules.closingFeeRatio, liquidation, { budget: copyCloseBudget(f) });
  const { realized, fee, qtyU } = plan;
  const closed = closedCopy(f, pos, plan, liquidation, c.now);
  const next = closed.pos;
  await c.trx
    .updateTable('copy_positions')
    .set({ qty: next.qty, cost: next.cost, margin: next.margin, realized_pnl: next.realized_pnl, status: next.status, updated_at: c.now, closed_at: next.closed_at })
    .where('id', '=', pos.id)
    .execute();
  let nf = closed.f;
  await saveFollow(c, nf);
  if (nf.status === 'ended') nf = await returnCash(c, nf);
  return { f: nf, pos: next, realized, fee, qtyU };
}
