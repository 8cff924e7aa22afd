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
