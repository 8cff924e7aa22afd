import { parseMinor } from '../db/money.ts';
import { decimalsOf as coinDecimals } from '../db/money.ts';
import { notional, PPB, pnl, scaled, unscaled } from '../trading/formulas.ts';
import type { Rules } from '../trading/formulas.ts';
import type { ExecutedFill } from '../trading/settle.ts';
import type { CopyOrderAction, CopySkipReason } from '../../src/protocol/copy.ts';
import type { Selectable } from 'kysely';
import type { CopyOrdersTable } from '../db/schema.ts';
import { closeCopyPart, openCopyPart, openingCost } from './settle.ts';
import type { CopyCtx, CopyPositionRow, FollowRow } from './settle.ts';

/**
 * Mirroring (docs/COPY.md "Mirroring"): each execution of a lead trader is mirrored for each active
 * follow at the same price, in the follow's own transaction (run by the trading engine's queue right
 * after the trader's commit).
 *
 * The follow's target position after the trader's execution (signed, units of 10^-qtyPrecision):
 * - ratio mode: `ratio × trader's position`, rounded down to the quantity step;
 * - fixed mode: an opening (new side) or an increase adds `fixedAmount × leverage / price` (rounded
 *   down to the step); a reduction keeps the same fraction the trader kept (rounded down); a close
 *   closes.
 * The follow then moves from its current position to the target like a one-way order: the closing
 * part first (always executed), then the opening part, capped by `maxPerOrder` (notional), skipped
 * below the minimum order quantity, and skipped when the follow's cash cannot pay margin + fee.
 */

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
const sign = (x: bigint): bigint => (x > 0n ? 1n : x < 0n ? -1n : 0n);

export function stepUnits(rules: Rules): bigint {
  const s = scaled(rules.qtyStep, rules.qtyPrecision);
  return s > 0n ? s : 1n;
}

export function floorToStep(u: bigint, step: bigint): bigint {
  return (u / step) * step;
}

/** Quantity (units) whose notional at `priceU` is at most `amount` minor units, rounded down to the step. */
export function qtyForNotional(rules: Rules, amount: bigint, priceU: bigint): bigint {
  if (priceU <= 0n) return 0n;
  const cd = BigInt(coinDecimals(rules.quote));
  const u = (amount * 10n ** BigInt(rules.pricePrecision + rules.qtyPrecision)) / (priceU * 10n ** cd);
  return floorToStep(u, stepUnits(rules));
}

/** The follow's target signed quantity after the trader's execution `e` (pure; property-tested). */
export function targetQty(rules: Rules, f: Pick<FollowRow, 'mode' | 'ratio_ppb' | 'fixed_amount'>, current: bigint, e: Pick<ExecutedFill, 'beforeU' | 'afterU' | 'leverage'>, priceU: bigint): bigint {
  const step = stepUnits(rules);
  const a = e.afterU;
  const b = e.beforeU;
  if (a === 0n) return 0n;
  if (f.mode === 'ratio') {
    const r = BigInt(f.ratio_ppb ?? PPB.toString());
    return sign(a) * floorToStep((abs(a) * r) / PPB, step);
  }
  const fixed = parseMinor(f.fixed_amount ?? '0');
  const lot = qtyForNotional(rules, fixed * BigInt(e.leverage), priceU);
  if (b === 0n || sign(a) !== sign(b)) return sign(a) * lot;
  if (abs(a) > abs(b)) return sign(current) === sign(a) ? current + sign(a) * lot : sign(a) * lot;
  if (sign(current) !== sign(a)) return 0n;
  return sign(current) * floorToStep((abs(current) * abs(a)) / abs(b), step);
}

export interface MirrorStep {
  action: CopyOrderAction;
  side: 'buy' | 'sell';
  qtyU: bigint;
  status: 'filled' | 'skipped';
  reason: CopySkipReason | null;
  fee: bigint;
  realized: bigint;
  positionId: string | null;
}

export type CopyOrderRow = Omit<Selectable<CopyOrdersTable>, 'id'>;

/** The copy_orders row of one mirrored part (pure; shared with the in-memory engine). */
export function copyOrderRow(f: FollowRow, rules: Rules, leaderOrderId: string | null, priceU: bigint, s: MirrorStep, now: number): CopyOrderRow {
  return {
    follow_id: f.id, user_id: f.user_id, trader_id: f.trader_id, position_id: s.positionId, leader_order_id: leaderOrderId, symbol: rules.symbol, side: s.side,
    action: s.action, qty: unscaled(s.qtyU, rules.qtyPrecision), price: unscaled(priceU, rules.pricePrecision), fee: s.fee.toString(),
    realized_pnl: s.realized.toString(), status: s.status, reason: s.reason, created_at: now,
  };
}

async function record(c: CopyCtx, f: FollowRow, rules: Rules, leaderOrderId: string | null, priceU: bigint, s: MirrorStep): Promise<void> {
  const row = await c.trx.insertInto('copy_orders').values(copyOrderRow(f, rules, leaderOrderId, priceU, s, c.now)).returning('id').executeTakeFirstOrThrow();
  c.t.orders.push(row.id);
}

/** The signed quantity of a copied position (+ long, - short; 0 without one). */
export const signedQty = (pos: CopyPositionRow | null | undefined): bigint => (pos ? (pos.side === 'long' ? parseMinor(pos.qty) : -parseMinor(pos.qty)) : 0n);

/**
 * The closing part of a move from `current` to `target` (pure; shared with the in-memory engine):
 * none, or what to close (all of it on a close or a flip, else the difference) on which side, and
 * whether it is skipped (a partial reduction below the minimum order quantity).
 */
export function closeStep(current: bigint, target: bigint, min: bigint): { all: boolean; q: bigint; side: 'buy' | 'sell'; skip: boolean } | null {
  if (current === 0n || !(target === 0n || sign(target) !== sign(current) || abs(target) < abs(current))) return null;
  const all = target === 0n || sign(target) !== sign(current);
  const q = all ? abs(current) : abs(current) - abs(target);
  return { all, q, side: current > 0n ? 'sell' : 'buy', skip: !all && q < min };
}

/**
 * The opening part of a move from `held` (after the closing part) to `target` (pure; shared with
 * the in-memory engine): none, or the quantity on which side, capped by the follow's maximum per
 * order, with its notional, or the reason it is skipped (below the minimum, or the follow's cash
 * cannot pay margin + fee).
 */
export function openStep(
  follow: FollowRow, rules: Rules, held: bigint, target: bigint, priceU: bigint, leverage: number, min: bigint,
): { action: CopyOrderAction; side: 'buy' | 'sell'; want: bigint; n: bigint; skip: CopySkipReason | null } | null {
  if (target === 0n || abs(target) <= abs(held)) return null;
  let want = abs(target) - (sign(held) === sign(target) ? abs(held) : 0n);
  const side = target > 0n ? 'buy' : 'sell';
  const action: CopyOrderAction = held === 0n ? 'open' : 'add';
  if (follow.max_per_order !== null) {
    const cap = qtyForNotional(rules, parseMinor(follow.max_per_order), priceU);
    if (want > cap) want = cap;
  }
  if (want < min || want <= 0n) return { action, side, want, n: 0n, skip: 'belowMinQty' };
  const n = notional(rules, priceU, want);
  const need = openingCost(rules, n, leverage);
  if (parseMinor(follow.cash) < need.margin + need.fee) return { action, side, want, n, skip: 'insufficientMargin' };
  return { action, side, want, n, skip: null };
}

/**
 * When the copy's target equals what it holds (its share rounds to no change): the action of the
 * 'belowMinQty' record, or null when there is none (the trader did not move, or reduced / closed
 * what the copy never held: not an order of the copy at all, issue 26, Minor 17). Pure.
 */
export function unchangedAction(e: Pick<ExecutedFill, 'beforeU' | 'afterU'>, current: bigint): CopyOrderAction | null {
  if (e.afterU === e.beforeU) return null;
  // A close (afterU 0) never grows: sign(0) differs from the old side but it is not a flip.
  const grows = abs(e.afterU) > abs(e.beforeU) || (e.afterU !== 0n && sign(e.afterU) !== sign(e.beforeU));
  if (!grows && current === 0n) return null;
  return grows ? (current === 0n ? 'open' : 'add') : e.afterU === 0n ? 'close' : 'reduce';
}

export function openCopyPosition(c: CopyCtx, followId: number, symbol: string, contract: 'perp' | 'std'): Promise<CopyPositionRow | undefined> {
  return c.trx.selectFrom('copy_positions').selectAll().where('follow_id', '=', followId).where('symbol', '=', symbol).where('contract', '=', contract).where('status', '=', 'open').executeTakeFirst();
}

/**
 * Moves follow `f` to `target` (signed units) at `priceU`: closing part, then opening part. Writes a
 * copy_orders row per part (filled or skipped). Returns the follow as written.
 */
export async function moveTo(c: CopyCtx, f: FollowRow, rules: Rules, contract: 'perp' | 'std', target: bigint, priceU: bigint, leverage: number, leaderOrderId: string | null): Promise<FollowRow> {
  let pos = (await openCopyPosition(c, f.id, rules.symbol, contract)) ?? null;
  const min = scaled(rules.minOrderQuantity, rules.qtyPrecision);
  let follow = f;
  const close = pos ? closeStep(signedQty(pos), target, min) : null;
  if (pos && close) {
    if (close.skip) {
      await record(c, follow, rules, leaderOrderId, priceU, { action: 'reduce', side: close.side, qtyU: close.q, status: 'skipped', reason: 'belowMinQty', fee: 0n, realized: 0n, positionId: pos.id });
      return follow;
    }
    const r = await closeCopyPart(c, follow, rules, pos, close.q, notional(rules, priceU, close.q), false);
    follow = r.f;
    await record(c, follow, rules, leaderOrderId, priceU, { action: close.all ? 'close' : 'reduce', side: close.side, qtyU: r.qtyU, status: 'filled', reason: null, fee: r.fee, realized: r.realized, positionId: pos.id });
    pos = r.pos.status === 'open' ? r.pos : null;
  }
  const open = openStep(follow, rules, signedQty(pos), target, priceU, leverage, min);
  if (!open) return follow;
  const { action, side, want } = open;
  if (open.skip !== null) {
    await record(c, follow, rules, leaderOrderId, priceU, { action, side, qtyU: want, status: 'skipped', reason: open.skip, fee: 0n, realized: 0n, positionId: pos?.id ?? null });
    return follow;
  }
  const o = await openCopyPart(c, follow, rules, pos, contract, target > 0n ? 'long' : 'short', want, open.n, leverage);
  await record(c, o.f, rules, leaderOrderId, priceU, { action, side, qtyU: want, status: 'filled', reason: null, fee: o.fee, realized: 0n, positionId: o.pos.id });
  return o.f;
}

/** Mirrors one execution of the trader for one follow. */
export async function mirrorFill(c: CopyCtx, f: FollowRow, rules: Rules, e: ExecutedFill): Promise<FollowRow> {
  const priceU = scaled(e.price, rules.pricePrecision);
  const pos = await openCopyPosition(c, f.id, rules.symbol, e.contract);
  const current = signedQty(pos);
  const target = targetQty(rules, f, current, e, priceU);
  if (target === current) {
    // The trader moved but the copy's share rounds to no change: below the minimum order quantity.
    const action = unchangedAction(e, current);
    if (action !== null) await record(c, f, rules, e.orderId, priceU, { action, side: e.side, qtyU: 0n, status: 'skipped', reason: 'belowMinQty', fee: 0n, realized: 0n, positionId: pos?.id ?? null });
    return f;
  }
  return moveTo(c, f, rules, e.contract, target, priceU, e.leverage, e.orderId);
}

/** Equity of a follow at the marks: cash + Σ (margin + unrealized PnL) of its open positions. */
export function followEquity(f: FollowRow, positions: readonly CopyPositionRow[], rulesOf: (s: string) => Rules | undefined, markOf: (s: string) => number | undefined): { equity: bigint; margin: bigint; upnl: bigint } {
  let margin = 0n;
  let upnl = 0n;
  for (const p of positions) {
    margin += parseMinor(p.margin);
    const rules = rulesOf(p.symbol);
    const mark = markOf(p.symbol);
    if (!rules || mark === undefined) continue;
    upnl += pnl(rules, p.side, parseMinor(p.cost), parseMinor(p.qty), scaled(mark, rules.pricePrecision));
  }
  return { equity: parseMinor(f.cash) + margin + upnl, margin, upnl };
}
