import { z } from 'zod';
import { decimalNumber, decimalString, decimalText, wholeNumber } from './numberRule.ts';
import { pageQuerySchema } from './envelope.ts';
import { emailSchema } from './user.ts';

/**
 * Copy trading (SPEC §2 /copy, §3 copy wallet, §6 trader_apply; docs/COPY.md). Shared by the
 * server (zod parsing, DTOs) and the app (the same rules run in the forms before anything is sent).
 *
 * Money is decimal strings of USDT; ratios are decimal strings (parts per billion on the server).
 */

/** REST paths under /api (the app's api client adds /api). */
export const COPY_PATHS = {
  /** GET ?sort&q → CopyTrader[] (public). */
  traders: '/copy/traders',
  /** GET /copy/traders/:id → CopyTraderDetail (public). */
  trader: (id: number | string) => `/copy/traders/${id}`,
  /** GET /copy/traders/:id/history ?page&pageSize → Page<CopyTraderFill> (public). */
  traderHistory: (id: number | string) => `/copy/traders/${id}/history`,
  /** POST CopyFollowBody → CopyFollow. */
  follow: '/copy/follow',
  /** POST CopyUnfollowBody → CopyFollow. */
  unfollow: '/copy/unfollow',
  /** GET → CopyFollow[] (mine: active, and ended ones that still hold kept positions). */
  follows: '/copy/follows',
  /** GET → CopyPosition[] (my open copied positions at the mark). */
  positions: '/copy/positions',
  /** POST {positionId} → CopyPosition (closed at the mark). */
  closePosition: '/copy/position/close',
  /** GET ?page&pageSize → Page<CopyOrder> (every mirrored order, skipped ones with their reason). */
  orders: '/copy/orders',
  /** GET → CopyApplication | null; POST CopyApplyBody → CopyApplication (trader_apply). */
  apply: '/copy/apply',
  /** Dev only (config.exposeOutbox): POST CopyDevTradeBody → the lead trader's order (deterministic next order). */
  devTrade: '/dev/copy/trade',
  /** Dev only: POST {email, decision} → CopyApplication. */
  devReview: '/dev/copy/review',
  /** Dev only: POST {} → runs one simulated trading round now. */
  devSim: '/dev/copy/sim',
} as const;

/** Fastify route patterns (the server registers these). */
export const COPY_ROUTES = {
  trader: '/api/copy/traders/:id',
  traderHistory: '/api/copy/traders/:id/history',
} as const;

export const COPY_MSG = {
  traderNotFound: 'Lead trader not found',
  cannotFollowSelf: 'You cannot copy yourself',
  alreadyFollowing: 'You already copy this trader',
  amountRequired: 'Please enter the amount to copy with',
  amountTooSmall: 'The minimum copy amount is:',
  insufficientBalance: 'Insufficient Balance',
  ratioRange: 'The copy ratio must be between 0.01 and 10',
  fixedRequired: 'Please enter the fixed amount per order',
  /** Followed by the smallest margin that opens a minimum order on the trader's markets, e.g. 'The fixed amount per order must be at least:0.48 USDT'. */
  fixedTooSmall: 'The fixed amount per order must be at least:',
  invalidAmount: 'Invalid amount',
  followNotFound: 'Copy not found',
  followEnded: 'This copy has already ended',
  positionNotFound: 'Position not found',
  nicknameRequired: 'Please enter a trader name',
  nicknameLength: 'The trader name must be 2 to 24 characters',
  experienceLength: 'Please describe your trading in 20 to 500 characters',
  alreadyApplied: 'Your application is under review',
  alreadyTrader: 'You are already a lead trader',
  applicationNotFound: 'No application under review',
  userNotFound: 'User not found',
  noPrice: 'No price for this market yet',
  followed: 'Copy started',
  unfollowed: 'Copy ended',
  applied: 'Application submitted',
  approved: 'Application approved',
  rejected: 'Application rejected',
  closed: 'Position closed',
} as const;

/** Why a mirrored order was skipped (CopyOrder.reason, the `copy` frame's `reason`). */
export const COPY_SKIP_REASONS = ['insufficientMargin', 'belowMinQty', 'noPrice'] as const;
export type CopySkipReason = (typeof COPY_SKIP_REASONS)[number];

/** Why a follow ended. */
export const COPY_END_REASONS = ['user', 'stopLoss'] as const;
export type CopyEndReason = (typeof COPY_END_REASONS)[number];

/** Minimum amount that can be moved into a copy (USDT). */
export const COPY_MIN_AMOUNT = '10';

export const COPY_SORTS = ['roi30', 'roi7', 'roi90', 'pnl30', 'winRate', 'followers', 'aum'] as const;
export type CopySort = (typeof COPY_SORTS)[number];

export const tradersQuery = z.object({
  sort: z.enum(COPY_SORTS).default('roi30'),
  q: z.string().trim().max(40).optional(),
});

export const traderHistoryQuery = pageQuerySchema;
export const copyOrdersQuery = pageQuerySchema;

const decimalOf = (msg: string) => decimalString(msg);
/**
 * An optional decimal of the follow form (the number rule, src/protocol/numberRule.ts): absent, null
 * or '' is null; `zeroIsNone` also reads 0 as null (no cap, no stop-loss, no fixed amount), otherwise
 * 0 stays '0' for the range check (a ratio of 0 is refused, never read as the default 1).
 */
const optionalDecimal = (msg: string, zeroIsNone = true) =>
  z
    .union([z.string(), z.number(), z.null()], { error: msg })
    .optional()
    .transform((v, ctx) => {
      if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return null;
      const t = decimalText(v, { zero: true });
      if (t === null) {
        ctx.addIssue({ code: 'custom', message: msg });
        return z.NEVER;
      }
      return zeroIsNone && /^0+(\.0+)?$/.test(t) ? null : t;
    });

export const COPY_MODES = ['ratio', 'fixed'] as const;
export type CopyMode = (typeof COPY_MODES)[number];
export const COPY_SOURCE_WALLETS = ['fund', 'perp'] as const;

/**
 * POST /api/copy/follow. `amount` moves from `from` into the copy wallet. Mode `ratio`: the copied
 * position is `ratio` × the trader's; mode `fixed`: each opening order of the trader opens
 * `fixedAmount` of margin. `maxPerOrder` caps the notional of one copied order; `stopLoss` ends the
 * copy (closing its positions) once it has lost that much.
 */
export const copyFollowBody = z
  .object({
    traderId: z.coerce.number().int().positive(),
    amount: decimalOf(COPY_MSG.amountRequired),
    from: z.enum(COPY_SOURCE_WALLETS).default('fund'),
    mode: z.enum(COPY_MODES).default('ratio'),
    ratio: optionalDecimal(COPY_MSG.ratioRange, false),
    fixedAmount: optionalDecimal(COPY_MSG.fixedRequired),
    maxPerOrder: optionalDecimal(COPY_MSG.invalidAmount),
    stopLoss: optionalDecimal(COPY_MSG.invalidAmount),
  })
  .superRefine((b, ctx) => {
    if (b.mode === 'ratio') {
      // (0, 10] at 0.01 steps or finer: 0 (which could never copy a trade) and anything below 0.01 are refused.
      const r = Number(b.ratio ?? '1');
      if (!(r >= 0.01 && r <= 10)) ctx.addIssue({ code: 'custom', message: COPY_MSG.ratioRange, path: ['ratio'] });
    } else if (b.fixedAmount === null) {
      ctx.addIssue({ code: 'custom', message: COPY_MSG.fixedRequired, path: ['fixedAmount'] });
    }
    if (Number(b.amount) < Number(COPY_MIN_AMOUNT)) ctx.addIssue({ code: 'custom', message: `${COPY_MSG.amountTooSmall}${COPY_MIN_AMOUNT}`, path: ['amount'] });
  });
export type CopyFollowBody = z.input<typeof copyFollowBody>;

export const copyUnfollowBody = z.object({
  followId: z.coerce.number().int().positive(),
  /** true: close every copied position at the market; false: keep them (close them later one by one). */
  closePositions: z.boolean(),
});
export type CopyUnfollowBody = z.infer<typeof copyUnfollowBody>;

export const copyClosePositionBody = z.object({ positionId: z.string().min(1).max(64) });

export const TRADER_NICK_MIN = 2;
export const TRADER_NICK_MAX = 24;
export const TRADER_EXPERIENCE_MIN = 20;
export const TRADER_EXPERIENCE_MAX = 500;

/** POST /api/copy/apply (trader_apply). */
export const copyApplyBody = z.object({
  nickname: z
    .string({ error: COPY_MSG.nicknameRequired })
    .trim()
    .min(1, COPY_MSG.nicknameRequired)
    .refine((s) => s.length >= TRADER_NICK_MIN && s.length <= TRADER_NICK_MAX, { message: COPY_MSG.nicknameLength }),
  experience: z
    .string({ error: COPY_MSG.experienceLength })
    .trim()
    .refine((s) => s.length >= TRADER_EXPERIENCE_MIN && s.length <= TRADER_EXPERIENCE_MAX, { message: COPY_MSG.experienceLength }),
});
export type CopyApplyBody = z.infer<typeof copyApplyBody>;

export const copyDevTradeBody = z.object({
  traderId: z.coerce.number().int().positive(),
  symbol: z.string().min(1).max(20).default('BTCUSDT'),
  side: z.enum(['buy', 'sell']),
  qty: decimalNumber('Invalid quantity'),
  kind: z.enum(['marketOpen', 'marketClose']).default('marketOpen'),
  leverage: wholeNumber('Leverage must be a whole number').pipe(z.number().min(1).max(125)).default(10),
});

export const copyDevReviewBody = z.object({ email: emailSchema, decision: z.enum(['approve', 'reject']), reason: z.string().max(200).optional() });

/** The figures of a lead trader, computed from their own trades on this platform. */
export interface CopyTrader {
  id: number;
  nickname: string;
  bio: string;
  /** A simulated lead trader run by the platform. */
  simulated: boolean;
  roi7: string;
  roi30: string;
  roi90: string;
  pnl7: string;
  pnl30: string;
  pnl90: string;
  /** Percent of closing trades (90 days) with a profit, e.g. '62.50'. */
  winRate: string;
  followers: number;
  /** USDT held by the active copies of this trader (cash + margin of copied positions). */
  aum: string;
  /** Cumulative PnL after each of the last trades (30 days), oldest first, starting at '0'. */
  series: string[];
  /** Unix ms of each point of `series` (the starting 0 at the first trade's time). */
  seriesTimes: number[];
  /**
   * Whole days since the trader's first trade here, rounded up (0: none yet). A window longer than
   * the previous one adds nothing while the history fits the shorter one (a trader active one day has
   * the same 7D, 30D and 90D figures): the page shows such a window as not covered yet.
   */
  historyDays: number;
  since: number;
}

export interface CopyLeadPosition {
  symbol: string;
  contract: 'perp' | 'std';
  side: 'long' | 'short';
  qty: number;
  entryPrice: number;
  markPrice: number;
  leverage: number;
  unrealizedPnl: string;
  openedAt: number;
}

export interface CopyTraderDetail extends CopyTrader {
  positions: CopyLeadPosition[];
  /** The caller's active copy of this trader, when logged in and copying. */
  myFollowId: number | null;
}

export interface CopyTraderFill {
  id: number;
  symbol: string;
  side: 'buy' | 'sell';
  price: number;
  qty: number;
  realizedPnl: string;
  fee: string;
  time: number;
}

export type CopyFollowStatus = 'active' | 'ended';

export interface CopyFollow {
  id: number;
  traderId: number;
  traderNickname: string;
  status: CopyFollowStatus;
  endReason: CopyEndReason | null;
  mode: CopyMode;
  ratio: string | null;
  fixedAmount: string | null;
  maxPerOrder: string | null;
  stopLoss: string | null;
  from: (typeof COPY_SOURCE_WALLETS)[number];
  /** Moved in at the start. */
  invested: string;
  /** Funds of this copy in the copy wallet not used as margin. */
  cash: string;
  /** Margin of its open copied positions. */
  margin: string;
  unrealizedPnl: string;
  realizedPnl: string;
  fees: string;
  openPositions: number;
  createdAt: number;
  endedAt: number | null;
}

export interface CopyPosition {
  id: string;
  followId: number;
  traderId: number;
  traderNickname: string;
  symbol: string;
  contract: 'perp' | 'std';
  side: 'long' | 'short';
  qty: number;
  entryPrice: number;
  markPrice: number;
  leverage: number;
  margin: string;
  unrealizedPnl: string;
  realizedPnl: string;
  status: 'open' | 'closed' | 'liquidated';
  /** The copy ended with the position kept: it is no longer mirrored. */
  kept: boolean;
  openedAt: number;
}

export type CopyOrderAction = 'open' | 'add' | 'reduce' | 'close';

export interface CopyOrder {
  id: number;
  followId: number;
  traderId: number;
  symbol: string;
  side: 'buy' | 'sell';
  action: CopyOrderAction;
  qty: number;
  price: number;
  fee: string;
  realizedPnl: string;
  status: 'filled' | 'skipped';
  reason: CopySkipReason | null;
  time: number;
}

export type CopyApplicationStatus = 'review' | 'approved' | 'rejected';

export interface CopyApplication {
  id: number;
  nickname: string;
  experience: string;
  status: CopyApplicationStatus;
  reason: string | null;
  createdAt: number;
  reviewedAt: number | null;
}

/** The user-socket frame `{type:'copy', data}`: something changed in the user's copies. */
export type CopyFrameData =
  | { event: 'order'; order: CopyOrder }
  | { event: 'skipped'; order: CopyOrder }
  | { event: 'follow'; follow: CopyFollow }
  | { event: 'application'; application: CopyApplication };

const applicationSchema = z.object({
  id: z.number(),
  nickname: z.string(),
  experience: z.string(),
  status: z.enum(['review', 'approved', 'rejected']),
  reason: z.string().nullable(),
  createdAt: z.number(),
  reviewedAt: z.number().nullable(),
});

/** A `copy` frame telling the application's new state (trader_apply reviewed). */
export function applicationOfFrame(f: { type: string; data?: unknown }): CopyApplication | null {
  if (f.type !== 'copy' || typeof f.data !== 'object' || f.data === null) return null;
  const d = f.data as { event?: unknown; application?: unknown };
  if (d.event !== 'application') return null;
  const r = applicationSchema.safeParse(d.application);
  return r.success ? r.data : null;
}
