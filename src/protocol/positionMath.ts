import { formatScaled, parseScaled, SCALE } from './decimal.ts';
import { fromUnits, toUnits } from './netting.ts';

/**
 * Exact arithmetic of the position dialogs (issue 14): the close quantity of a percentage, the
 * estimated PnL of a close or of a TP/SL trigger, and the side of the mark a trigger must be on.
 * Quantities are integer units at the instrument's qtyPrecision; prices and money are decimal.ts
 * scaled BigInts (12 fractional digits). Nothing passes through a binary float: DTO numbers are
 * read through their shortest decimal (`String(n)`), the decimal the server meant.
 */

/** The percentage buttons of the close dialog. */
export const CLOSE_PERCENTS = [25, 50, 75, 100] as const;
export type ClosePercent = (typeof CLOSE_PERCENTS)[number];

/** A JSON number or decimal string → scaled units (null when not a decimal). */
export function scaledOf(v: number | string): bigint | null {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    let s = String(v);
    if (/e/i.test(s)) s = v.toFixed(SCALE);
    return parseScaled(s);
  }
  return parseScaled(v);
}

/**
 * `pct` % of a position of `qtyUnits`, rounded DOWN to the step (`stepUnits`, both at the same
 * precision): never more than the position, always on the step; 100 % is the whole position
 * exactly (even when the position itself is off the step, it is what the server closes).
 */
export function percentQty(qtyUnits: bigint, pct: number, stepUnits: bigint): bigint {
  if (qtyUnits <= 0n || pct <= 0) return 0n;
  if (pct >= 100) return qtyUnits;
  const step = stepUnits > 0n ? stepUnits : 1n;
  const raw = (qtyUnits * BigInt(Math.floor(pct))) / 100n;
  return (raw / step) * step;
}

/** The subset of a Position the estimates need. */
export interface PositionFigures {
  side: 'long' | 'short';
  qty: number;
  markPrice: number;
  /** Decimal string (USDT), exact from the server. */
  unrealizedPnl: string;
}

/**
 * The position's cost (the sum of its opening notionals) recovered exactly from the server's own
 * figures: long `qty × mark − uPnL`, short `qty × mark + uPnL` (docs/TRADING.md: uPnL long
 * `qty × mark − cost`, short `cost − qty × mark`).
 */
export function positionCost(p: PositionFigures): bigint | null {
  const q = scaledOf(p.qty);
  const m = scaledOf(p.markPrice);
  const u = parseScaled(p.unrealizedPnl);
  if (q === null || m === null || u === null) return null;
  const value = (q * m) / 10n ** BigInt(SCALE);
  return p.side === 'long' ? value - u : value + u;
}

/**
 * Estimated realized PnL (before fees) of closing `closeQty` of the position at `price`: the cost
 * part is `cost × closeQty / qty` rounded down (as the server books it); long `closeQty × price −
 * cost part`, short `cost part − closeQty × price`. Scaled units; null on bad input.
 */
export function closePnl(p: PositionFigures, closeQty: number | string, price: number | string): bigint | null {
  const cost = positionCost(p);
  const q = scaledOf(p.qty);
  const c = scaledOf(closeQty);
  const px = scaledOf(price);
  if (cost === null || q === null || c === null || px === null || q <= 0n || c <= 0n) return null;
  const part = (cost * c) / q;
  const notional = (c * px) / 10n ** BigInt(SCALE);
  return p.side === 'long' ? notional - part : part - notional;
}

/** Scaled units rounded half away from zero to `decimals`, as a plain decimal string. */
export function roundScaled(v: bigint, decimals: number): string {
  const d = Math.max(0, Math.min(SCALE, Math.floor(decimals)));
  const unit = 10n ** BigInt(SCALE - d);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const rounded = ((abs + unit / 2n) / unit) * unit;
  const text = formatScaled(rounded, d);
  return neg && !/^0(\.0*)?$/.test(text) ? `-${text}` : text;
}

/** Why a trigger is refused before it is sent (i18n keys of the positions namespace). */
export type TriggerProblem = 'tpAboveMark' | 'tpBelowMark' | 'slBelowMark' | 'slAboveMark' | 'notNumber' | 'offTick';

/**
 * The side of the mark a trigger must be on (the server's check, docs/TRADING.md): a long's TP
 * above the mark and its SL below; a short's reversed. Equal to the mark is the wrong side.
 * `tickUnits`/`pricePrecision`: a trigger must also be on the tick.
 */
export function triggerProblem(
  kind: 'tp' | 'sl',
  side: 'long' | 'short',
  mark: number,
  text: string,
  pricePrecision: number,
  tickSize: number,
): TriggerProblem | null {
  const t = text.trim();
  if (t === '') return null;
  const units = toUnits(t, pricePrecision);
  const s = scaledOf(t);
  if (s === null || s <= 0n || !/^\d+(\.\d+)?$/.test(t)) return 'notNumber';
  if (units === null) return 'offTick';
  const tick = toUnits(tickSize, pricePrecision);
  if (tick !== null && tick > 0n && units % tick !== 0n) return 'offTick';
  const m = scaledOf(mark);
  if (m === null) return null;
  const above = s > m;
  const below = s < m;
  if (kind === 'tp') return side === 'long' ? (above ? null : 'tpAboveMark') : below ? null : 'tpBelowMark';
  return side === 'long' ? (below ? null : 'slBelowMark') : above ? null : 'slAboveMark';
}

/** A quantity typed by the user → integer units at `dp`, or null when not a positive decimal on the grid. */
export function qtyUnitsOf(text: string, dp: number): bigint | null {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  return toUnits(t, dp);
}

export { fromUnits, toUnits };
