import { decimalsOf as coinDecimals } from '../db/money.ts';
import type { SymbolInfo } from '../../src/protocol/market.ts';
import { marginRatioOf } from '../../src/protocol/contractRules.ts';

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
  | 'openingFeeRatio' | 'closingFeeRatio' | 'makerFeeRatio' | 'minLever' | 'maxLever' | 'mMarginRatio' | 'overnightFeeRatio' | 'fundingRateRatio'
>;

/** Binance's default maker rate, for instruments that do not state one. */
export const DEFAULT_MAKER_FEE_RATIO = 0.0002;

/** The fee rate of a maker fill (a resting order the market reached). */
export function makerRate(rules: Rules): number {
  return rules.makerFeeRatio ?? DEFAULT_MAKER_FEE_RATIO;
}

const POW10 = Array.from({ length: 101 }, (_, i) => 10 ** i);

/** A number → integer at `dp` decimals (the number must already be on that grid; toFixed absorbs float noise). */
export function scaled(x: number, dp: number): bigint {
  // On the grid and within 2^53 (every price, quantity and amount of the engine): the nearest
  // integer is what toFixed would print, without the string round trip (issue 28: 2.7 % of the
  // engine's thread). Anything else takes the exact path below.
  const m = x * POW10[dp]!;
  const r = Math.round(m);
  if (Math.abs(m - r) < 1e-6 && Math.abs(r) < 9_007_199_254_740_991) return BigInt(r);
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

export function ceilDiv(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new Error('ceilDiv by non-positive');
  return a >= 0n ? (a + b - 1n) / b : a / b;
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
 * One maintenance-margin bracket in minor units / PPB (see MarginBracket in src/protocol/contractRules.ts):
 * for a position notional in [floor, cap) the maintenance margin is notional × mmr − cum.
 */
export interface Bracket {
  bracket: number;
  floor: bigint;
  /** null: no upper bound. */
  cap: bigint | null;
  maxLeverage: number;
  mmrPpb: bigint;
  /** The maintenance amount, minor units: cum(n) = cum(n−1) + floor(n) × (mmr(n) − mmr(n−1)). */
  cum: bigint;
}

/** Binance USDⓈ-M BTCUSDT leverage brackets (notional cap in USDT, max leverage, maintenance margin rate). */
const LADDER: readonly [cap: number | null, maxLeverage: number, mmr: number][] = [
  [50_000, 125, 0.004], [500_000, 100, 0.005], [8_000_000, 50, 0.01], [50_000_000, 20, 0.025], [80_000_000, 10, 0.05],
  [100_000_000, 5, 0.1], [200_000_000, 4, 0.125], [300_000_000, 3, 0.15], [500_000_000, 2, 0.25], [null, 1, 0.5],
];

const bracketCache = new Map<string, readonly Bracket[]>();

/**
 * The instrument's brackets: the rows of the Binance ladder whose leverage fits `maxLever`; the first
 * takes `maxLever` and `mMarginRatio`, every later rate is at least the one before. The maintenance
 * amounts follow from the floors and rates, so the maintenance margin is continuous in the notional
 * (property-tested) and the liquidation price has exactly one solution.
 */
export function bracketsOf(rules: Rules): readonly Bracket[] {
  const key = `${rules.symbol}|${rules.quote}|${rules.maxLever}|${rules.mMarginRatio}`;
  const hit = bracketCache.get(key);
  if (hit) return hit;
  const unit = 10n ** BigInt(coinDecimals(rules.quote));
  const rows = LADDER.filter(([, lev]) => lev <= rules.maxLever);
  const out: Bracket[] = [];
  let floor = 0n;
  let prevMmr = 0n;
  let cum = 0n;
  rows.forEach(([cap, lev, mmr], i) => {
    const mmrPpb = i === 0 ? ratioPpb(rules.mMarginRatio) : ratioPpb(mmr) > prevMmr ? ratioPpb(mmr) : prevMmr;
    cum += i === 0 ? 0n : (floor * (mmrPpb - prevMmr)) / PPB;
    const capMinor = cap === null ? null : BigInt(cap) * unit;
    out.push({ bracket: i + 1, floor, cap: capMinor, maxLeverage: i === 0 ? rules.maxLever : lev, mmrPpb, cum });
    prevMmr = mmrPpb;
    floor = capMinor ?? floor;
  });
  bracketCache.set(key, out);
  return out;
}

/** The bracket of a position notional (minor units). */
export function bracketFor(rules: Rules, notionalMinor: bigint): Bracket {
  const list = bracketsOf(rules);
  const b = list.find((x) => x.cap === null || notionalMinor < x.cap) ?? list[list.length - 1];
  if (!b) throw new Error('no margin brackets');
  return b;
}

/** Maintenance margin = notional × mmr − cum of the notional's bracket, rounded up (minor units). */
export function maintenanceMargin(rules: Rules, notionalMinor: bigint): bigint {
  const b = bracketFor(rules, notionalMinor);
  return ceilDiv(notionalMinor * b.mmrPpb, PPB) - b.cum;
}

/**
 * Liquidation test, exact: equity = margin + pnl(mark); liquidate when equity ≤ the maintenance
 * margin of the notional at the mark (bracketed): (margin + pnl) × 10^9 ≤ mmrPpb × notional − cum × 10^9.
 */
export function shouldLiquidate(rules: Rules, side: PositionSide, cost: bigint, margin: bigint, qtyUnits: bigint, markUnits: bigint): boolean {
  const value = notional(rules, markUnits, qtyUnits);
  const equity = margin + (side === 'long' ? value - cost : cost - value);
  const b = bracketFor(rules, value);
  return equity * PPB <= b.mmrPpb * value - b.cum * PPB;
}

/**
 * Margin ratio (issue 26, as Binance / Bybit): maintenance margin of the notional at the mark /
 * margin balance (margin + pnl); 1 (100 %) is exactly where {@link shouldLiquidate} starts to hold
 * (marginRatioOf, shared with the client's live figures); 0 for an empty position.
 */
export function marginRatio(rules: Rules, side: PositionSide, cost: bigint, margin: bigint, qtyUnits: bigint, markUnits: bigint): number {
  const value = notional(rules, markUnits, qtyUnits);
  if (qtyUnits === 0n) return 0;
  const equity = margin + (side === 'long' ? value - cost : cost - value);
  return marginRatioOf(maintenanceMargin(rules, value), equity);
}

/**
 * The mark price at which {@link shouldLiquidate} starts to hold. With V the notional at the mark and
 * (mmr, cum) its bracket, equity = maintenance margin gives (Binance's isolated one-way formula)
 * long V = (cost − margin − cum) / (1 − mmr), short V = (cost + margin + cum) / (1 + mmr), and P = V / q.
 * Each bracket is tried; the answer is the one whose V lies inside that bracket (there is exactly one,
 * since equity − maintenance is strictly monotonic in the price).
 * Rounded to the tick away from the entry (long down, short up): the first tick at which the check holds,
 * so a mark at the shown price always liquidates (give or take the one-minor-unit rounding of the notional).
 * 0 when a long cannot be liquidated (margin + cum ≥ cost).
 */
export function liquidationPrice(rules: Rules, side: PositionSide, cost: bigint, margin: bigint, qtyUnits: bigint): number {
  if (qtyUnits <= 0n) return 0;
  const cd = BigInt(coinDecimals(rules.quote));
  const brackets = bracketsOf(rules);
  // V (minor units, ×PPB kept as a fraction num/den) for each bracket; keep the one inside its bracket.
  let pick: { num: bigint; den: bigint } | null = null;
  for (const b of brackets) {
    const num = side === 'long' ? (cost - margin - b.cum) * PPB : (cost + margin + b.cum) * PPB;
    const den = side === 'long' ? PPB - b.mmrPpb : PPB + b.mmrPpb;
    if (den <= 0n) continue;
    const v = num / den;
    if (v >= b.floor && (b.cap === null || v < b.cap)) {
      pick = { num, den };
      break;
    }
    pick ??= { num, den };
  }
  if (!pick || pick.num <= 0n) return 0;
  // price units = (V / 10^cd) / (q / 10^qp) × 10^pp.
  const scale = 10n ** BigInt(rules.pricePrecision + rules.qtyPrecision);
  const num = pick.num * scale;
  const den = pick.den * qtyUnits * 10n ** cd;
  const units = side === 'long' ? num / den : ceilDiv(num, den);
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
