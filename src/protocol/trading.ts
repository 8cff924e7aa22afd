import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import { contractKindSchema } from './market.ts';
import { decimalNumber, decimalString, optionalDecimalNumber, wholeNumber } from './numberRule.ts';
import type { MarginBracket } from './contractRules.ts';

/**
 * Futures trading and wallet protocol (issue 4): REST bodies, DTOs and the user-socket frames.
 *
 * Units:
 * - money (balances, margin, fees, PnL) is a decimal STRING with the coin's fixed decimals
 *   (USDT: 6), computed on the server in integer minor units, never in binary floating point;
 * - prices and quantities are JSON numbers or plain decimal strings on the instrument's tick / step
 *   (the number rule, src/protocol/numberRule.ts);
 * - times are Unix milliseconds.
 * Formulas (margin, liquidation price, margin ratio, fees, funding): docs/TRADING.md.
 */

/** SPEC §5 messages and the other rejections the trading calls answer with (envelope `msg`). */
export const TRADE_MSG = {
  transferAmountRequired: 'Please fill in the transfer amount',
  insufficientBalance: 'Insufficient Balance',
  sameWallet: 'Please choose two different accounts',
  limitPriceRequired: 'Please enter the limit order price!',
  /** Followed by the instrument's minimum, e.g. 'Min order quantity:0.001'. */
  minOrderQuantity: 'Min order quantity:',
  /** Followed by the instrument's maximum. */
  maxOrderQuantity: 'Max order quantity:',
  /** Followed by the step, e.g. 'Order quantity must be a multiple of 0.001'. */
  qtyStep: 'Order quantity must be a multiple of ',
  /** Followed by `${min}-${max}`, e.g. 'Leverage must be between 1-125'. */
  leverageRange: 'Leverage must be between ',
  /** Leverage that is not a plain whole number ('5.5', '0x10', true, [5]). */
  leverageWhole: 'Leverage must be a whole number',
  priceStep: 'Price must be a multiple of ',
  unknownSymbol: 'Unknown symbol',
  contractNotListed: 'This contract is not available for the symbol',
  noPrice: 'No market price yet, please try again',
  noPosition: 'No open position',
  closeQtyTooLarge: 'Close quantity exceeds the position size',
  tpInvalid: 'Invalid take-profit price',
  slInvalid: 'Invalid stop-loss price',
  orderNotFound: 'Order not found',
  orderNotPending: 'Only pending orders can be canceled',
  clientOrderIdConflict: 'clientOrderId already used for a different order',
  /** A TP/SL or close order whose side does not close the position. */
  closeSide: 'The order side must close the position',
  /** Reduce-only with no position, or on the position's own side (Binance -2022). */
  reduceOnlyWouldIncrease: 'Reduce-only order would increase the position',
  /** Post-only whose price would match at once (Binance -5022). */
  postOnlyWouldTake: 'Post-only order would take liquidity',
  postOnlyLimitOnly: 'Post-only applies to limit orders only',
  triggerPriceRequired: 'Please enter the trigger price',
  /** A stop whose trigger is already reached (Binance -2021). */
  wouldTriggerImmediately: 'Order would trigger immediately',
  /** Followed by the bracket's maximum, e.g. 'Leverage too high for this position size, max 50x'. */
  leverageBracket: 'Leverage too high for this position size, max ',
  editNotAllowed: 'Only pending limit and stop orders can be edited',
  editNothing: 'Enter a new price or quantity',
  editQtyBelowFilled: 'Quantity must be above the filled quantity',
  noPositions: 'No open positions to close',
} as const;

/** Why an order ended canceled without a user cancel (Order.cancelReason). */
export const CANCEL_REASONS = ['user', 'ioc', 'fok', 'reduceOnly', 'positionClosed', 'insufficientBalance', 'postOnly', 'rejected'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** Time in force of limit orders: rest until canceled, fill what can be taken now, or all-or-nothing now. */
export const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];
/** The price a stop order watches: the last trade price or the mark price. */
export const TRIGGER_BY = ['last', 'mark'] as const;
export type TriggerBy = (typeof TRIGGER_BY)[number];

export const WALLETS = ['fund', 'spot', 'std', 'perp', 'copy'] as const;
export const walletSchema = z.enum(WALLETS);
export type WalletType = z.infer<typeof walletSchema>;

/** Ledger entry types (SPEC §4). Meaning of each in the futures flow: docs/TRADING.md. */
export const LEDGER_ENTRY_TYPES = [
  'ADMIN_ADJUST', 'ADMIN_DEDUCTION', 'CONTRACT_OPEN', 'CONTRACT_OPEN_FEE', 'CONTRACT_TRADE', 'CONTRACT_CANCEL',
  'CONTRACT_CLOSE', 'CONTRACT_CLOSE_FEE', 'CONTRACT_MARGIN_UNLOCK', 'WALLET_TRANSFER_OUT', 'WALLET_TRANSFER_IN',
  'EXCHANGE_DEDUCTION', 'EXCHANGE_RECEIVED', 'TRADE_COMMISSION', 'FUNDING_FEE', 'OVERNIGHT_FEE',
  'COMPENSATION_PAYOUT',
  'DEPOSIT', 'WITHDRAW_HOLD', 'WITHDRAW_RELEASE', 'WITHDRAW', 'WITHDRAW_FEE',
] as const;
export const ledgerEntryTypeSchema = z.enum(LEDGER_ENTRY_TYPES);
export type LedgerEntryType = z.infer<typeof ledgerEntryTypeSchema>;

// ---------------------------------------------------------------- wallets

/**
 * One wallet balance. `available` can be spent or transferred; `frozen` is margin locked by
 * pending open orders and open positions of that wallet (std / perp); `total = available + frozen`.
 */
export interface Balance {
  wallet: WalletType;
  coin: string;
  available: string;
  frozen: string;
  total: string;
}

/** Amount fields accept a decimal string or a number; empty / missing / zero → the SPEC §5 message. */
const transferAmountSchema = decimalString(TRADE_MSG.transferAmountRequired);

/** POST /api/wallet/transfer: move `amount` of `coin` between two of the caller's wallets. */
export const transferBody = z
  .object({
    from: walletSchema,
    to: walletSchema,
    coin: z.string().trim().toUpperCase().min(1).max(16).default('USDT'),
    amount: transferAmountSchema,
  })
  .refine((b) => b.from !== b.to, { message: TRADE_MSG.sameWallet, path: ['to'] });
export type TransferBody = z.input<typeof transferBody>;

/** What a successful transfer answers: both balances after the move. */
export interface TransferResult {
  from: Balance;
  to: Balance;
}

/** One ledger row of the caller (transaction history). `amount` is signed. */
export interface LedgerEntry {
  id: number;
  wallet: WalletType;
  coin: string;
  type: LedgerEntryType;
  amount: string;
  balanceAfter: string;
  /** Groups the legs of one posting; for trading entries the order or position id. */
  ref: string;
  /** The pair a trading entry belongs to, '' otherwise. */
  symbol: string;
  time: number;
}

const timeFilter = {
  from: z.coerce.number().int().nonnegative().optional(),
  to: z.coerce.number().int().nonnegative().optional(),
};

/** GET /api/wallet/ledger query. */
export const ledgerQuery = pageQuerySchema.extend({
  wallet: walletSchema.optional(),
  coin: z.string().trim().toUpperCase().min(1).max(16).optional(),
  type: ledgerEntryTypeSchema.optional(),
  symbol: z.string().trim().toUpperCase().min(1).max(32).optional(),
  ...timeFilter,
});
export type LedgerQuery = z.input<typeof ledgerQuery>;

// ---------------------------------------------------------------- orders

/**
 * Order kinds. `limitOpen` / `marketOpen` net against the position (one-way mode: they open,
 * increase, reduce, close or flip it; see src/protocol/netting.ts). `limitClose` / `marketClose`,
 * `limitTakeProfit` and `limitStopLoss` are reduce-only. `stopMarket` / `stopLimit` wait for their
 * trigger price (last or mark), then act as a market / limit order.
 */
export const ORDER_KINDS = ['limitOpen', 'limitTakeProfit', 'limitStopLoss', 'marketOpen', 'marketClose', 'limitClose', 'stopMarket', 'stopLimit'] as const;
export const orderKindSchema = z.enum(ORDER_KINDS);
export type OrderKind = z.infer<typeof orderKindSchema>;
export const orderSideSchema = z.enum(['buy', 'sell']);
export type TradeSide = z.infer<typeof orderSideSchema>;
export const orderStatusSchema = z.enum(['pending', 'filled', 'canceled']);
export type TradeOrderStatus = z.infer<typeof orderStatusSchema>;

/**
 * An order. Open kinds (limitOpen, marketOpen): `buy` opens/adds to a long, `sell` a short.
 * Reduce kinds (limitTakeProfit, limitStopLoss, marketClose) close part or all of `positionId`
 * and have the side opposite to the position. `price` is the limit / trigger price (the fill price
 * for market orders once filled, 0 before). `fee` and `realizedPnl` are decimal strings.
 */
export interface Order {
  id: string;
  clientOrderId: string;
  symbol: string;
  contract: 'perp' | 'std';
  kind: OrderKind;
  side: TradeSide;
  price: number;
  qty: number;
  leverage: number;
  status: TradeOrderStatus;
  executedQty: number;
  avgPrice: number;
  fee: string;
  realizedPnl: string;
  /** Margin locked by this order while pending (open kinds), decimal string. */
  margin: string;
  positionId: string | null;
  /** Take-profit / stop-loss to attach to the position once an open order fills; null when none. */
  tp: number | null;
  sl: number | null;
  createdAt: number;
  updatedAt: number;
  /* The fields below are always sent by this server; optional so fixtures written before them stay valid. */
  /** Never increases the position (refused when it would, capped at the position size when it fills). */
  reduceOnly?: boolean;
  /** Refused if it would take liquidity when placed: it only ever rests (maker). */
  postOnly?: boolean;
  timeInForce?: TimeInForce;
  /** Stop orders: the price that arms them (buy at or above, sell at or below); null otherwise. */
  triggerPrice?: number | null;
  triggerBy?: TriggerBy;
  /** Stop orders: whether the trigger has been reached (a triggered stop-limit rests at `price`). */
  triggered?: boolean;
  /** Why the engine canceled it (IOC / FOK rest, reduce-only with nothing to reduce...); null otherwise. */
  cancelReason?: CancelReason | null;
}

/** Quantities: a positive plain decimal (the number rule, src/protocol/numberRule.ts). */
const positiveNumber = (msg: string) => decimalNumber(msg);
/** Prices (limit, trigger, TP, SL): absent, null or '' is none; otherwise a positive plain decimal. */
const optionalTrigger = (msg: string) => optionalDecimalNumber(msg);

/**
 * POST /api/trade/order. `clientOrderId` makes placement idempotent per user: a retry with the
 * same id answers the order already placed and never opens twice.
 * - limitOpen: `price` required ('Please enter the limit order price!').
 * - marketOpen: `price` ignored; fills at once at the market engine's price.
 * - limitTakeProfit / limitStopLoss: `price` is the trigger, `qty` at most the position size.
 * - marketClose: closes `qty` of the position at the market price; limitClose: at `price` (reduce-only limit).
 * - stopMarket / stopLimit: `triggerPrice` required (buy above / sell below the `triggerBy` price);
 *   once reached, a market order / a limit order at `price`.
 * - reduceOnly: refused when it would increase ('Reduce-only order would increase the position').
 * - postOnly: limit orders only, refused when it would take at once.
 * - timeInForce (limit kinds): GTC rests, IOC cancels what it cannot take at once, FOK takes all or nothing.
 * Prices and quantities are JSON numbers or plain decimal strings ('0.001', '60000.5'), leverage a
 * whole number: the number rule of src/protocol/numberRule.ts (no exponent, hex, sign, array or
 * boolean); a price must be positive and on the tick, checked by the server against the instrument.
 * Quantity, step and leverage are checked against the instrument's rules (messages in TRADE_MSG).
 */
export const placeOrderBody = z.object({
  clientOrderId: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/),
  symbol: z.string().trim().toUpperCase().min(1).max(32),
  contract: contractKindSchema,
  kind: orderKindSchema,
  side: orderSideSchema,
  price: optionalTrigger(TRADE_MSG.limitPriceRequired),
  qty: positiveNumber(TRADE_MSG.minOrderQuantity),
  leverage: wholeNumber(TRADE_MSG.leverageWhole).default(10),
  tp: optionalTrigger(TRADE_MSG.tpInvalid),
  sl: optionalTrigger(TRADE_MSG.slInvalid),
  reduceOnly: z.boolean().default(false),
  postOnly: z.boolean().default(false),
  timeInForce: z.enum(TIME_IN_FORCE).default('GTC'),
  triggerPrice: optionalTrigger(TRADE_MSG.triggerPriceRequired),
  triggerBy: z.enum(TRIGGER_BY).default('last'),
});
export type PlaceOrderBody = z.input<typeof placeOrderBody>;
export type PlaceOrderParsed = z.output<typeof placeOrderBody>;

/**
 * POST /api/trade/order/edit: changes a pending order's `price` (limit price), `triggerPrice`
 * (untriggered stops) and/or `qty` in place (same id; a locked margin is released and locked again
 * at the new values). A new price that crosses the market takes at once, as a new order would.
 */
export const editOrderBody = z
  .object({
    orderId: z.string().min(1).max(64).optional(),
    clientOrderId: z.string().min(1).max(64).optional(),
    price: optionalTrigger(TRADE_MSG.limitPriceRequired),
    triggerPrice: optionalTrigger(TRADE_MSG.triggerPriceRequired),
    qty: positiveNumber(TRADE_MSG.minOrderQuantity).optional(),
  })
  .refine((b) => b.orderId !== undefined || b.clientOrderId !== undefined, { message: TRADE_MSG.orderNotFound })
  .refine((b) => b.price !== null || b.triggerPrice !== null || b.qty !== undefined, { message: TRADE_MSG.editNothing });
export type EditOrderBody = z.input<typeof editOrderBody>;

/** POST /api/trade/order/cancel: by server id or by client order id. */
export const cancelOrderBody = z
  .object({ orderId: z.string().min(1).max(64).optional(), clientOrderId: z.string().min(1).max(64).optional() })
  .refine((b) => b.orderId !== undefined || b.clientOrderId !== undefined, { message: TRADE_MSG.orderNotFound });
export type CancelOrderBody = z.input<typeof cancelOrderBody>;

/** GET /api/trade/orders/open and /api/trade/orders/history. `type` filters the order kind. */
export const ordersQuery = pageQuerySchema.extend({
  symbol: z.string().trim().toUpperCase().min(1).max(32).optional(),
  contract: contractKindSchema.optional(),
  type: orderKindSchema.optional(),
  status: orderStatusSchema.optional(),
  side: orderSideSchema.optional(),
  ...timeFilter,
});
export type OrdersQuery = z.input<typeof ordersQuery>;

/** One execution (trade history row). `fee` and `realizedPnl` are decimal strings. */
export interface Fill {
  id: number;
  orderId: string;
  positionId: string;
  symbol: string;
  contract: 'perp' | 'std';
  kind: OrderKind | 'liquidation';
  side: TradeSide;
  price: number;
  qty: number;
  fee: string;
  realizedPnl: string;
  time: number;
  /** Maker (a resting order filled) or taker; always sent by this server. */
  liquidity?: 'maker' | 'taker';
}

/** GET /api/trade/fills. */
export const fillsQuery = pageQuerySchema.extend({
  symbol: z.string().trim().toUpperCase().min(1).max(32).optional(),
  contract: contractKindSchema.optional(),
  type: z.union([orderKindSchema, z.literal('liquidation')]).optional(),
  ...timeFilter,
});
export type FillsQuery = z.input<typeof fillsQuery>;

// ---------------------------------------------------------------- positions

/**
 * An open isolated-margin position; one-way, so at most one per (user, symbol, contract).
 * Money fields are decimal strings; `marginRatio` and `returnPct` are plain ratios/percent numbers
 * for display (returnPct 12.5 = +12.5 %), derived from the exact values.
 */
export interface Position {
  id: string;
  symbol: string;
  contract: 'perp' | 'std';
  side: 'long' | 'short';
  qty: number;
  entryPrice: number;
  markPrice: number;
  liquidationPrice: number;
  margin: string;
  /**
   * Maintenance margin / margin balance (margin + unrealizedPnl), as Binance and Bybit: 1 (100 %)
   * is liquidation (marginRatioOf in src/protocol/contractRules.ts; the maintenance margin is that
   * of the notional's bracket at the mark).
   */
  marginRatio: number;
  /** The instrument's maintenance brackets, so the client values the margin ratio at a live mark (absent in recordings from before issue 26). */
  brackets?: MarginBracket[];
  unrealizedPnl: string;
  returnPct: number;
  tp: number | null;
  sl: number | null;
  leverage: number;
  openedAt: number;
  updatedAt: number;
}

/** GET /api/trade/positions query. */
export const positionsQuery = z.object({
  symbol: z.string().trim().toUpperCase().min(1).max(32).optional(),
  contract: contractKindSchema.optional(),
});

/** POST /api/trade/position/tpsl: sets (number) or clears (null) the TP and SL of a position. */
export const tpslBody = z.object({
  positionId: z.string().min(1).max(64),
  tp: optionalTrigger(TRADE_MSG.tpInvalid),
  sl: optionalTrigger(TRADE_MSG.slInvalid),
});
export type TpslBody = z.input<typeof tpslBody>;

/**
 * POST /api/trade/position/close: closes `qty` (default the whole position) at the market, or,
 * with `price`, places a reduce-only limit close (limitClose, GTC) at that price.
 */
export const closePositionBody = z.object({
  positionId: z.string().min(1).max(64),
  qty: positiveNumber(TRADE_MSG.minOrderQuantity).optional(),
  price: optionalTrigger(TRADE_MSG.limitPriceRequired),
  clientOrderId: z.string().trim().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/).optional(),
});
export type ClosePositionBody = z.input<typeof closePositionBody>;

/** POST /api/trade/position/close-all: market-closes every open position (optionally of one symbol / contract). */
export const closeAllBody = z.object({
  symbol: z.string().trim().toUpperCase().min(1).max(32).optional(),
  contract: contractKindSchema.optional(),
});
export type CloseAllBody = z.input<typeof closeAllBody>;


// ---------------------------------------------------------------- user socket

/**
 * Frames on GET /api/ws/user after auth. A `position` frame with `closed: true` means the
 * position no longer exists (closed, liquidated); otherwise it replaces the previous one by id.
 */
export type TradeUserFrame =
  | { type: 'order'; data: Order }
  | { type: 'position'; data: Position & { closed: boolean } }
  | { type: 'balance'; data: Balance };

// ---------------------------------------------------------------- paths

/** REST paths of the trading and wallet calls. */
export const TRADING_PATHS = {
  balances: '/api/wallet/balances',
  transfer: '/api/wallet/transfer',
  ledger: '/api/wallet/ledger',
  placeOrder: '/api/trade/order',
  cancelOrder: '/api/trade/order/cancel',
  openOrders: '/api/trade/orders/open',
  orderHistory: '/api/trade/orders/history',
  fills: '/api/trade/fills',
  positions: '/api/trade/positions',
  closePosition: '/api/trade/position/close',
  closeAll: '/api/trade/position/close-all',
  editOrder: '/api/trade/order/edit',
  rules: '/api/trade/rules',
  tpsl: '/api/trade/position/tpsl',
} as const;
