import { decimalsOf as coinDecimals } from '../db/money.ts';
import type { SymbolInfo } from '../../src/protocol/market.ts';

/**
 * The futures formulas, exact and pure (docs/TRADING.md states each one with a worked example).
 *
 * Units: money is an integer count of quote-coin minor units (USDT: 10^-6); a quantity is an
 * integer count of 10^-qtyPrecision; a price an integer count of 10^-pricePrecision; a ratio an
 * integer count of parts per billion (PPB). Rounding always favours the house by at most one
 * minor unit (fees and margins round up, notional rounds down), so balances stay exact integers.
 */
export const PPB = 1_000_000_000n;

/** The instrument rules the formulas read (a subset of SymbolInfo). */
export type Rules = Pick<
  SymbolInfo,
  | 'symbol' | 'quote' | 'tickSize' | 'qtyStep' | 'pricePrecision' | 'qtyPrecision' | 'minOrderQuantity' | 'maxOrderQuantity'
  | 'openingFeeRatio' | 'closingFeeRatio' | 'minLever' | 'maxLever' | 'mMarginRatio' | 'overnightFeeRatio' | 'fundingRateRatio'
>;

/** A number → integer at `dp` decimals (the number must already be on that grid; toFixed absorbs float noise). */
export function scaled(x: number, dp: number): bigint {
  const s = x.toFixed(dp);
  const neg = s.startsWith('-');
  const [w = '0', f = ''] = (neg ? s.slice(1) : s).split('.');
  const v = BigInt(w + f);
  return neg ? -v : v;
}

/** An integer at `dp` decimals → number (display only). */
export function unscaled(v: bigint, dp: number): number {
  return Number(v) / 10 ** dp;
}

/** A ratio such as 0.0005 → parts per billion. */
export function ratioPpb(r: number): bigint {
  return BigInt(Math.round(r * 1e9));
}

function ceilDiv(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new Error('ceilDiv by non-positive');
  return a >= 0n ? (a + b - 1n) / b : a / b;
}

/** Whether `x` lies on the grid of `step` (both at the same decimals). */
export function onStep(x: number, step: number, dp: number): boolean {
  const s = scaled(step, dp);
  return s > 0n && scaled(x, dp) % s === 0n;
}

/**
 * notional = price × qty, in quote minor units, rounded down:
 * P·10^pp × Q·10^qp × 10^cd / 10^(pp+qp).
 */
export function notional(rules: Rules, priceUnits: bigint, qtyUnits: bigint): bigint {
  const cd = BigInt(coinDecimals(rules.quote));
  const num = priceUnits * qtyUnits * 10n ** cd;
  return num / 10n ** BigInt(rules.pricePrecision + rules.qtyPrecision);
}

/** Initial margin = ceil(notional / leverage). */
export function initialMargin(notionalMinor: bigint, leverage: number): bigint {
  return ceilDiv(notionalMinor, BigInt(leverage));
}

/** A fee or periodic charge = ceil(notional × ratio). Negative ratios are taken by magnitude. */
export function feeOf(notionalMinor: bigint, ratio: number): bigint {
  const r = ratioPpb(Math.abs(ratio));
  return ceilDiv(notionalMinor * r, PPB);
}

export type PositionSide = 'long' | 'short';

/** Unrealized (or realized) PnL of `qtyUnits` bought/sold for `cost` minor units, valued at `priceUnits`. */
export function pnl(rules: Rules, side: PositionSide, cost: bigint, qtyUnits: bigint, priceUnits: bigint): bigint {
  const value = notional(rules, priceUnits, qtyUnits);
  return side === 'long' ? value - cost : cost - value;
}

/** Share of `total` for `part` of `whole` units, rounded down; the last part takes the rest (part == whole → total). */
export function proRata(total: bigint, part: bigint, whole: bigint): bigint {
  if (part >= whole) return total;
  return (total * part) / whole;
}

/**
 * Liquidation test, exact: equity = margin + pnl(mark); liquidate when equity ≤ mMarginRatio × notional(mark),
 * i.e. when the margin ratio equity/notional has fallen to mMarginRatio.
 */
export function shouldLiquidate(rules: Rules, side: PositionSide, cost: bigint, margin: bigint, qtyUnits: bigint, markUnits: bigint): boolean {
  const value = notional(rules, markUnits, qtyUnits);
  const equity = margin + (side === 'long' ? value - cost : cost - value);
  return equity * PPB <= ratioPpb(rules.mMarginRatio) * value;
}

/** Margin ratio for display: (margin + pnl) / notional(mark); 0 when the notional is 0. */
export function marginRatio(rules: Rules, side: PositionSide, cost: bigint, margin: bigint, qtyUnits: bigint, markUnits: bigint): number {
  const value = notional(rules, markUnits, qtyUnits);
  if (value === 0n) return 0;
  const equity = margin + (side === 'long' ? value - cost : cost - value);
  return Number((equity * 1_000_000n) / value) / 1_000_000;
}

/**
 * The mark price at which {@link shouldLiquidate} starts to hold, solved from
 * (margin + q·P − cost) = mmr·q·P (long) and (margin + cost − q·P) = mmr·q·P (short):
 * long P = (cost − margin) / (q·(1 − mmr)), short P = (cost + margin) / (q·(1 + mmr)).
 * Rounded to the tick away from the entry (long down, short up): the first tick at which the check holds,
 * so a mark at the shown price always liquidates (give or take the one-minor-unit rounding of the notional).
 * 0 when a long cannot be liquidated (margin ≥ cost).
 */
export function liquidationPrice(rules: Rules, side: PositionSide, cost: bigint, margin: bigint, qtyUnits: bigint): number {
  if (qtyUnits <= 0n) return 0;
  const cd = BigInt(coinDecimals(rules.quote));
  const mmr = ratioPpb(rules.mMarginRatio);
  // price units = (money / 10^cd) / (qty / 10^qp) × 10^pp, with the (1 ∓ mmr) factor in PPB.
  const scale = 10n ** BigInt(rules.pricePrecision + rules.qtyPrecision) * PPB;
  let units: bigint;
  if (side === 'long') {
    const num = (cost - margin) * scale;
    if (num <= 0n) return 0;
    const den = qtyUnits * (PPB - mmr) * 10n ** cd;
    units = num / den;
  } else {
    const num = (cost + margin) * scale;
    const den = qtyUnits * (PPB + mmr) * 10n ** cd;
    units = ceilDiv(num, den);
  }
  const tick = scaled(rules.tickSize, rules.pricePrecision);
  const snapped = side === 'long' ? (units / tick) * tick : ceilDiv(units, tick) * tick;
  return unscaled(snapped, rules.pricePrecision);
}

/** Entry price for display: cost / qty, at pricePrecision + 2 decimals. */
export function entryPrice(rules: Rules, cost: bigint, qtyUnits: bigint): number {
  if (qtyUnits <= 0n) return 0;
  const cd = BigInt(coinDecimals(rules.quote));
  const dp = rules.pricePrecision + 2;
  const units = (cost * 10n ** BigInt(dp + rules.qtyPrecision)) / (qtyUnits * 10n ** cd);
  return unscaled(units, dp);
}

/** Funding boundaries are 00:00, 08:00 and 16:00 UTC; overnight is charged at 00:00 UTC. */
export const FUNDING_INTERVAL_MS = 8 * 3_600_000;
export const OVERNIGHT_INTERVAL_MS = 24 * 3_600_000;

/** The latest boundary at or before `t` for a period aligned to the Unix epoch (UTC). */
export function lastBoundary(t: number, period: number): number {
  return Math.floor(t / period) * period;
}
