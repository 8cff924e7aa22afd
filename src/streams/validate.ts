import type { KlineInterval, MarketFrame } from '../protocol/market.ts';
import { KLINE_INTERVALS } from '../protocol/market.ts';

/**
 * The cheap structural check of a market frame against its `type`, at the edge where socket
 * frames enter the core's streams (src/core/marketStreams.ts). The reducers trust their input and
 * the socket layer checks only `type`; the hot path cannot afford zod, so this is hand-written.
 * Invariant: a frame passing {@link isMarketFrame} has every field its reducer reads, with finite
 * numbers and non-negative level quantities.
 */

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** `[price, qty][]` with finite numbers and qty >= 0. */
export const isLevels = (v: unknown): v is [number, number][] =>
  Array.isArray(v) && v.every((l) => Array.isArray(l) && l.length === 2 && isNum(l[0]) && isNum(l[1]) && l[1] >= 0);

const isTicker = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Record<string, unknown>;
  return typeof t.symbol === 'string' && isNum(t.last) && isNum(t.ts);
};

/** Frame types the market reducers handle (a frame of one of these types that fails the check is "rejected"). */
export const MARKET_FRAME_TYPES: ReadonlySet<string> = new Set(['depth', 'trade', 'kline', 'ticker', 'tickers']);

/** Whether a parsed socket frame has the shape its `type` promises. */
export function isMarketFrame(f: { type: string }): f is MarketFrame {
  const r = f as Record<string, unknown>;
  switch (f.type) {
    case 'depth':
      if (typeof r.symbol !== 'string' || !isLevels(r.bids) || !isLevels(r.asks) || !isNum(r.ts)) return false;
      return r.snapshot === true ? Number.isInteger(r.seq) : r.snapshot === false && Number.isInteger(r.firstSeq) && Number.isInteger(r.lastSeq) && Number.isInteger(r.prevSeq);
    case 'trade':
      return typeof r.symbol === 'string' && Number.isInteger(r.id) && isNum(r.price) && isNum(r.qty) && (r.side === 'buy' || r.side === 'sell') && isNum(r.ts);
    case 'ticker':
      return isTicker(r);
    case 'tickers':
      return Array.isArray(r.items) && r.items.every(isTicker) && isNum(r.ts);
    case 'kline': {
      const c = r.candle as Record<string, unknown> | null | undefined;
      return typeof r.symbol === 'string' && KLINE_INTERVALS.includes(r.interval as KlineInterval) && typeof r.closed === 'boolean' && !!c && isNum(c.t) && isNum(c.o) && isNum(c.h) && isNum(c.l) && isNum(c.c) && isNum(c.v);
    }
    default:
      return false;
  }
}
