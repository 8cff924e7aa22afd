import { z } from 'zod';

/**
 * Contract details (issue 14): what GET /api/trade/rules answers — the SPEC §3 trading rule plus
 * the maker / taker rates and the maintenance-margin brackets (docs/TRADING.md "Maintenance margin
 * brackets"). The path is TRADING_PATHS.rules in src/protocol/trading.ts.
 */

/**
 * One maintenance-margin bracket (Binance USDⓈ-M leverage brackets): for a position notional in
 * [notionalFloor, notionalCap) the maintenance margin is `notional × mmr − maintAmount`, and the
 * leverage is at most `maxLeverage`. `maintAmount` makes the maintenance margin continuous across
 * brackets: cum(n) = cum(n−1) + floor(n) × (mmr(n) − mmr(n−1)). Money as decimal strings;
 * `notionalCap` null for the last bracket.
 */
export interface MarginBracket {
  bracket: number;
  notionalFloor: string;
  notionalCap: string | null;
  maxLeverage: number;
  mmr: number;
  maintAmount: string;
}

/** GET /api/trade/rules?symbol=: the contract details (SPEC §3 trading rule + maker/taker fees + brackets). */
export interface ContractRules {
  symbol: string;
  tickSize: number;
  qtyStep: number;
  minOrderQuantity: number;
  maxOrderQuantity: number;
  minLever: number;
  maxLever: number;
  /** Fee of a fill that rests on the book first. */
  makerFeeRatio: number;
  /** Fee of a fill that takes (market orders, crossing limits, triggered stops, TP/SL, liquidation). */
  takerFeeRatio: number;
  openingFeeRatio: number;
  closingFeeRatio: number;
  /** The first bracket's maintenance margin rate. */
  mMarginRatio: number;
  overnightFeeRatio: number;
  fundingRateRatio: number;
  brackets: MarginBracket[];
}

export const rulesQuery = z.object({ symbol: z.string().trim().toUpperCase().min(1).max(32) });

/**
 * Margin ratio as Binance and Bybit define it (issue 26): maintenance margin / margin balance, where
 * the margin balance of an isolated position is its margin + unrealized PnL. 100 % (1) is
 * liquidation: the engine liquidates when the margin balance is at or below the maintenance margin.
 * Both in quote minor units; truncated at 6 decimals (1 ⇔ liquidation holds, exactly); a margin
 * balance at or below 0 reads 1.
 */
export function marginRatioOf(maintenanceMinor: bigint, marginBalanceMinor: bigint): number {
  if (marginBalanceMinor <= 0n) return 1;
  return Number((maintenanceMinor * 1_000_000n) / marginBalanceMinor) / 1_000_000;
}

/** `text` (a decimal string) as an integer at `dp` decimals, truncated; null when it does not parse. */
function minorOf(text: string, dp: number): bigint | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const v = BigInt((m[2] ?? '0') + (m[3] ?? '').padEnd(dp, '0').slice(0, dp));
  return m[1] === '-' ? -v : v;
}

/**
 * The maintenance margin (quote minor units, `dp` decimals) of a position whose notional at the mark
 * is `notionalMinor`, from the instrument's brackets as the API sends them: `ceil(notional × mmr) −
 * maintAmount` of the bracket holding the notional, as the engine computes it
 * (server/trading/formulas.ts maintenanceMargin). Null when the brackets do not parse.
 */
export function maintenanceMarginOf(brackets: readonly MarginBracket[], notionalMinor: bigint, dp: number): bigint | null {
  const b = brackets.find((x) => {
    const cap = x.notionalCap === null ? null : minorOf(x.notionalCap, dp);
    return cap === null || notionalMinor < cap;
  }) ?? brackets[brackets.length - 1];
  if (!b) return null;
  const cum = minorOf(b.maintAmount, dp);
  if (cum === null || !Number.isFinite(b.mmr)) return null;
  const ppb = 1_000_000_000n;
  const mmrPpb = BigInt(Math.round(b.mmr * 1e9));
  const prod = notionalMinor * mmrPpb;
  const up = prod >= 0n ? (prod + ppb - 1n) / ppb : prod / ppb;
  return up - cum;
}
