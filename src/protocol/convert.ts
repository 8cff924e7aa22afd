import { z } from 'zod';
import { decimalString } from './numberRule.ts';
import { pageQuerySchema } from './envelope.ts';

/**
 * Instant convert (issue 12): a quote locks the rate for {@link QUOTE_TTL_MS} on the server clock;
 * converting with the quote id fills at exactly that rate, fee 0, once. Ledger types
 * EXCHANGE_DEDUCTION (the coin paid) and EXCHANGE_RECEIVED (the coin received). docs/WALLET.md.
 */

export const CONVERT_MSG = {
  unknownCoin: 'Unsupported coin',
  sameCoin: 'Please choose two different coins',
  amountRequired: 'Please enter an amount',
  /** SPEC §5. */
  insufficientBalance: 'Insufficient balance, please deposit',
  noPrice: 'No market price yet, please try again',
  amountTooSmall: 'The amount is too small to convert',
  quoteNotFound: 'Quote not found',
  quoteExpired: 'The quote has expired, please get a new quote',
  quoteUsed: 'This quote has already been used',
  converted: 'Converted',
} as const;

export const CONVERT_COINS = ['USDT', 'BTC', 'ETH'] as const;
export type ConvertCoin = (typeof CONVERT_COINS)[number];
/** Payment accounts a convert may use (both legs stay in that wallet). */
export const CONVERT_ACCOUNTS = ['fund', 'spot'] as const;
export type ConvertAccount = (typeof CONVERT_ACCOUNTS)[number];
/** How long a quote's rate holds on the server clock. */
export const QUOTE_TTL_MS = 8_000;
/** Decimals of a quoted rate (the rate is truncated, and the received amount is computed from the truncated rate). */
export const RATE_DECIMALS = 16;

const coin = z.string({ error: CONVERT_MSG.unknownCoin }).trim().toUpperCase().pipe(z.enum(CONVERT_COINS, { error: CONVERT_MSG.unknownCoin }));

/** POST /api/convert/quote. */
export const quoteBody = z
  .object({
    from: coin,
    to: coin,
    amount: decimalString(CONVERT_MSG.amountRequired),
    account: z.enum(CONVERT_ACCOUNTS).default('fund'),
  })
  .refine((b) => b.from !== b.to, { message: CONVERT_MSG.sameCoin, path: ['to'] });
export type QuoteBody = z.input<typeof quoteBody>;

export const quoteSchema = z.object({
  quoteId: z.string(),
  from: z.enum(CONVERT_COINS),
  to: z.enum(CONVERT_COINS),
  /** Units of `to` per one `from`, RATE_DECIMALS decimals. */
  rate: z.string(),
  fromAmount: z.string(),
  toAmount: z.string(),
  fee: z.literal('0'),
  account: z.enum(CONVERT_ACCOUNTS),
  createdAt: z.number().int(),
  /** Server-clock ms; a convert at or after this instant is refused. */
  expiresAt: z.number().int(),
});
export type Quote = z.infer<typeof quoteSchema>;

/** POST /api/convert. */
export const convertBody = z.object({ quoteId: z.string({ error: CONVERT_MSG.quoteNotFound }).trim().min(1, CONVERT_MSG.quoteNotFound).max(64) });

/** A filled convert (history row). */
export const conversionSchema = quoteSchema.extend({ id: z.number().int(), time: z.number().int() });
export type Conversion = z.infer<typeof conversionSchema>;

export const convertHistoryQuery = pageQuerySchema.extend({
  from: z.string().trim().toUpperCase().optional(),
  to: z.string().trim().toUpperCase().optional(),
  account: z.enum(CONVERT_ACCOUNTS).optional(),
  start: z.coerce.number().int().nonnegative().optional(),
  end: z.coerce.number().int().nonnegative().optional(),
});
export type ConvertHistoryQuery = z.input<typeof convertHistoryQuery>;

/** User-socket frame after a fill (the balance frames of both coins follow). */
export const convertUserFrameSchema = z.object({ type: z.literal('convert'), data: conversionSchema });
export type ConvertUserFrame = z.infer<typeof convertUserFrameSchema>;

export const CONVERT_PATHS = {
  pairs: '/api/convert/pairs',
  quote: '/api/convert/quote',
  convert: '/api/convert',
  history: '/api/convert/history',
} as const;
