import { z } from 'zod';

/**
 * Market data protocol: REST DTOs and the /api/ws/market socket frames (docs/PROTOCOL.md).
 * Prices and quantities are JSON numbers already rounded by the server to the instrument's
 * tick size and quantity step; sequence ids are integers increasing per symbol.
 *
 * Topics are `<pair lowercased>@<type>`: `btcusdt@depth`, `btcusdt@trade`, `btcusdt@ticker`,
 * `btcusdt@kline_1m` (any of KLINE_INTERVALS), and `all@ticker` for the market list.
 */

export const KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '1d', '1w', '1M'] as const;
export type KlineInterval = (typeof KLINE_INTERVALS)[number];
export const klineIntervalSchema = z.enum(KLINE_INTERVALS);

/** Socket constants (SPEC §9). */
export const PING_INTERVAL_MS = 35_000;
export const RECONNECT_DELAY_MS = 10_000;
/** The server drops a client that has sent nothing (no ping) for this long. */
export const IDLE_TIMEOUT_MS = 90_000;
/**
 * The user socket's close code for "this token is not (or no longer) valid": bad token at auth, a
 * revoked session (logout, password reset or change) or an expired one. The app treats it as an
 * envelope 401 (SPEC §8): token cleared, /login?redirect=<path>.
 */
export const USER_SOCKET_CLOSE_UNAUTHORIZED = 4001;
/** At most this many topics per connection. */
export const MAX_TOPICS_PER_CONNECTION = 200;

export const contractKindSchema = z.enum(['perp', 'std']);
export type ContractKind = z.infer<typeof contractKindSchema>;
export const assetCategorySchema = z.enum(['crypto', 'commodity', 'stock', 'index']);
export type AssetCategory = z.infer<typeof assetCategorySchema>;

/** One instrument with its contract rules (SPEC §3). */
export interface SymbolInfo {
  symbol: string; // 'BTCUSDT'
  base: string; // 'BTC'
  quote: string; // 'USDT'
  name: string; // display name, e.g. 'Bitcoin', 'Gold', 'Apple'
  category: AssetCategory;
  /** Which futures screens list it: USDT-M perpetual, standard futures, or both. */
  kinds: ContractKind[];
  tickSize: number;
  qtyStep: number;
  pricePrecision: number;
  qtyPrecision: number;
  minOrderQuantity: number;
  maxOrderQuantity: number;
  /** Taker rates: a fill that takes liquidity pays openingFeeRatio when it opens, closingFeeRatio when it closes. */
  openingFeeRatio: number;
  closingFeeRatio: number;
  /** The rate of a fill that rested on the book first (maker); the server's default (0.02 %) when absent. */
  makerFeeRatio?: number;
  minLever: number;
  maxLever: number;
  mMarginRatio: number;
  overnightFeeRatio: number;
  fundingRateRatio: number;
  hot: boolean;
}

export type Level = [price: number, qty: number];
const levelSchema = z.tuple([z.number().finite(), z.number().finite().nonnegative()]);

/** 24 h ticker. `changePct` is a percentage (1.5 means +1.5 %). */
export const tickerSchema = z.object({
  symbol: z.string(),
  last: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  volume: z.number(),
  quoteVolume: z.number(),
  change: z.number(),
  changePct: z.number(),
  mark: z.number().optional(),
  ts: z.number(),
});
export type Ticker = z.infer<typeof tickerSchema>;

export const candleSchema = z.object({
  t: z.number(), // open time, unix ms
  o: z.number(),
  h: z.number(),
  l: z.number(),
  c: z.number(),
  v: z.number(),
});
export type Candle = z.infer<typeof candleSchema>;

export interface Trade {
  id: number;
  price: number;
  qty: number;
  /** Taker side. */
  side: 'buy' | 'sell';
  ts: number;
}

export interface DepthSnapshot {
  symbol: string;
  /** Sequence id of the last diff included in the snapshot (Binance lastUpdateId). */
  seq: number;
  bids: Level[];
  asks: Level[];
  ts: number;
}

// ---- server → client frames ----
export const depthSnapshotFrame = z.object({
  type: z.literal('depth'),
  symbol: z.string(),
  snapshot: z.literal(true),
  seq: z.number().int(),
  bids: z.array(levelSchema),
  asks: z.array(levelSchema),
  ts: z.number(),
});
/** A diff: absolute quantities, qty 0 removes the level. firstSeq..lastSeq covered, prevSeq = previous diff's lastSeq. */
export const depthDiffFrame = z.object({
  type: z.literal('depth'),
  symbol: z.string(),
  snapshot: z.literal(false),
  firstSeq: z.number().int(),
  lastSeq: z.number().int(),
  prevSeq: z.number().int(),
  bids: z.array(levelSchema),
  asks: z.array(levelSchema),
  ts: z.number(),
});
export const tradeFrame = z.object({
  type: z.literal('trade'),
  symbol: z.string(),
  id: z.number().int(),
  price: z.number(),
  qty: z.number(),
  side: z.enum(['buy', 'sell']),
  ts: z.number(),
});
export const tickerFrame = tickerSchema.extend({ type: z.literal('ticker') });
export const tickersFrame = z.object({ type: z.literal('tickers'), items: z.array(tickerSchema), ts: z.number() });
export const klineFrame = z.object({
  type: z.literal('kline'),
  symbol: z.string(),
  interval: klineIntervalSchema,
  candle: candleSchema,
  closed: z.boolean(),
});
export const pongFrame = z.object({ type: z.literal('pong'), ts: z.number() });
export const errorFrame = z.object({ type: z.literal('error'), msg: z.string(), code: z.number().optional() });
export const subscribedFrame = z.object({ type: z.literal('subscribed'), topics: z.array(z.string()) });

export const marketFrameSchema = z.union([
  depthSnapshotFrame,
  depthDiffFrame,
  tradeFrame,
  tickerFrame,
  tickersFrame,
  klineFrame,
  pongFrame,
  errorFrame,
  subscribedFrame,
]);
export type DepthSnapshotFrame = z.infer<typeof depthSnapshotFrame>;
export type DepthDiffFrame = z.infer<typeof depthDiffFrame>;
export type DepthFrame = DepthSnapshotFrame | DepthDiffFrame;
export type TradeFrame = z.infer<typeof tradeFrame>;
export type TickerFrame = z.infer<typeof tickerFrame>;
export type TickersFrame = z.infer<typeof tickersFrame>;
export type KlineFrame = z.infer<typeof klineFrame>;
export type MarketFrame = z.infer<typeof marketFrameSchema>;

// ---- client → server messages (both sockets) ----
export const topicSchema = z.string().min(3).max(64).regex(/^[a-z0-9]+@[a-z0-9_]+$/i);
export const clientMessageSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('subscribe'), topics: z.array(topicSchema).min(1).max(MAX_TOPICS_PER_CONNECTION) }),
  z.object({ action: z.literal('unsubscribe'), topics: z.array(topicSchema).min(1).max(MAX_TOPICS_PER_CONNECTION) }),
  z.object({ action: z.literal('ping'), ts: z.number() }),
  z.object({ action: z.literal('auth'), token: z.string().min(1).max(256) }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

// ---- REST queries ----
export const klinesQuery = z.object({
  symbol: z.string().min(1).max(32),
  interval: klineIntervalSchema,
  from: z.coerce.number().int().optional(),
  to: z.coerce.number().int().optional(),
  limit: z.coerce.number().int().min(1).max(1500).default(500),
});
export const depthQuery = z.object({ symbol: z.string().min(1).max(32), limit: z.coerce.number().int().min(5).max(500).default(100) });
export const tradesQuery = z.object({ symbol: z.string().min(1).max(32), limit: z.coerce.number().int().min(1).max(500).default(50) });
