import { formatScaled, parseScaled, SCALE } from '../protocol/decimal.ts';
import { scaledOf } from '../protocol/positionMath.ts';
import { maintenanceMarginOf, marginRatioOf } from '../protocol/contractRules.ts';
import type { Position } from '../protocol/trading.ts';

/**
 * A position's figures at the live mark (issue 26, Major 1): the server sends a position frame only
 * when the position itself changes, so its mark, uPnL, return and margin ratio would freeze between
 * frames. The core values every open position again at each mark from the market socket, with the
 * server's own formulas (server/trading/formulas.ts, docs/TRADING.md), exactly: the property test
 * (tests/property/positionFigures.prop.test.ts) checks the result against the server's DTO.
 *
 * Exact arithmetic: decimal.ts scaled BigInts (12 fractional digits); money at the quote coin's
 * minor units (USDT 6), rounded as the server rounds (the notional down, ratios truncated).
 */

/** The quote coin's decimals (USDT, the margin coin of every contract). */
export const QUOTE_DECIMALS = 6;

/** A position with its live figures: what the positions panel, its dialogs and the phone cards show. */
export interface LivePosition extends Position {
  /**
   * How far the mark is from the liquidation price, as a share of the mark (0.05 = 5 %): long
   * `(mark − liq) / mark`, short `(liq − mark) / mark`; ≤ 0 at or past the liquidation price; null
   * when the position cannot be liquidated (liquidation price 0).
   */
  liqDistance: number | null;
}

const ONE = 10n ** BigInt(SCALE);

/** Scaled units (12 digits) floored to `dp` digits, still scaled. */
function floorTo(v: bigint, dp: number): bigint {
  const unit = 10n ** BigInt(SCALE - dp);
  const q = v / unit;
  return (v < 0n && v % unit !== 0n ? q - 1n : q) * unit;
}

/**
 * The position's cost (the sum of its opening notionals, minor units) recovered exactly from the
 * server's figures: the server's uPnL is `floor(qty × mark) − cost` (long) or `cost − floor(qty ×
 * mark)` (short), so `qty × mark ∓ uPnL` is the cost plus the fraction the floor dropped.
 */
export function costOf(p: Pick<Position, 'side' | 'qty' | 'markPrice' | 'unrealizedPnl'>, dp = QUOTE_DECIMALS): bigint | null {
  const q = scaledOf(p.qty);
  const m = scaledOf(p.markPrice);
  const u = parseScaled(p.unrealizedPnl);
  if (q === null || m === null || u === null) return null;
  const exact = (q * m) / ONE;
  return floorTo(p.side === 'long' ? exact - u : exact + u, dp);
}

/** The notional at `mark`, rounded down to the quote's minor units (as the server's `notional`). */
function notionalAt(qty: bigint, mark: bigint, dp: number): bigint {
  return floorTo((qty * mark) / ONE, dp);
}

/** `a / b` truncated toward zero at `digits` decimals, as a number (the server's display ratios). */
function ratio(a: bigint, b: bigint, digits: bigint): number {
  return Number((a * digits) / b) / Number(digits);
}

/**
 * The position valued at `mark` (a price on the instrument's tick): mark, uPnL, return %, margin
 * ratio and the distance to liquidation. A DTO whose figures do not parse (a replayed log with a
 * bad row), or no mark, leaves the figures as the server sent them.
 */
export function revaluePosition(p: Position, mark: number | null | undefined, dp = QUOTE_DECIMALS): LivePosition {
  const cost = costOf(p, dp);
  const q = scaledOf(p.qty);
  const margin = parseScaled(p.margin);
  const m = mark === null || mark === undefined || !(mark > 0) ? null : scaledOf(mark);
  if (cost === null || q === null || margin === null || m === null) return withDistance(p, p.markPrice);
  const value = notionalAt(q, m, dp);
  const upnl = p.side === 'long' ? value - cost : cost - value;
  // Both ratios at the server's precision: the DTO's returnPct is a percent at 4 decimals, marginRatio at 6.
  const returnPct = margin > 0n ? ratio(upnl * 100n, margin, 10_000n) : 0;
  const marginRatio = liveMarginRatio(p, value, margin + upnl, dp);
  return {
    ...p,
    markPrice: mark as number,
    unrealizedPnl: formatScaled(upnl, dp),
    returnPct,
    marginRatio,
    liqDistance: distance(p.side, mark as number, p.liquidationPrice),
  };
}

/**
 * Maintenance margin / margin balance at the live notional (issue 26: 100 % is liquidation), with
 * the brackets the DTO carries and the engine's rounding (marginRatioOf, maintenanceMarginOf); a DTO
 * without brackets (a recording from before) keeps the server's figure.
 */
function liveMarginRatio(p: Position, value: bigint, balance: bigint, dp: number): number {
  if (scaledOf(p.qty) === 0n) return 0;
  if (!p.brackets) return p.marginRatio;
  const unit = 10n ** BigInt(SCALE - dp);
  const mm = maintenanceMarginOf(p.brackets, value / unit, dp);
  return mm === null ? p.marginRatio : marginRatioOf(mm, balance / unit);
}

function distance(side: Position['side'], mark: number, liq: number): number | null {
  if (!(liq > 0) || !(mark > 0)) return null;
  return side === 'long' ? (mark - liq) / mark : (liq - mark) / mark;
}

function withDistance(p: Position, mark: number): LivePosition {
  return { ...p, liqDistance: distance(p.side, mark, p.liquidationPrice) };
}

/**
 * Every position valued at its symbol's mark (`marks`: symbol → mark; a symbol without a mark keeps
 * the server's figures). Pure; the previous result's rows are reused when their input is the same,
 * so a frame that moves one symbol's mark does not rebuild the others.
 */
export function revaluePositions(
  positions: readonly Position[],
  marks: Readonly<Record<string, number | undefined>>,
  prev?: { positions: readonly Position[]; marks: Readonly<Record<string, number | undefined>>; out: readonly LivePosition[] },
): LivePosition[] {
  return positions.map((p, i) => {
    const mark = marks[p.symbol];
    const before = prev?.positions[i];
    const reused = prev?.out[i];
    if (before === p && reused && prev && prev.marks[p.symbol] === mark) return reused;
    return mark === undefined ? withDistance(p, p.markPrice) : revaluePosition(p, mark);
  });
}
