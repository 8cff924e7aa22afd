import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';
import type { Page } from './envelope.ts';

/**
 * The compensation programme ("risk-free trading", backed by the 100 million USD risk fund;
 * SPEC §3, §4; model and formulas in docs/COMPENSATION.md).
 *
 * A trader's net realised futures loss becomes a compensation order worth a share of it. The
 * trader claims it (identity verification required), the risk fund pays it day by day (a claim on
 * the fund, not yet the trader's money), a speed voucher can boost it, and once fully paid it is
 * withdrawn into the fund wallet with one COMPENSATION_PAYOUT ledger posting.
 *
 * Units: money is a USDT decimal string with 6 decimals (computed on the server in integer minor
 * units); `totalUserPnl` is signed. Times are Unix milliseconds.
 */

/** SPEC §4, in lifecycle order: notActive → active → inCompensation → pending (awaiting withdrawal) → completed. */
export const COMPENSATION_STATUSES = ['notActive', 'active', 'inCompensation', 'pending', 'completed'] as const;
export const compensationStatusSchema = z.enum(COMPENSATION_STATUSES);
export type CompensationStatus = z.infer<typeof compensationStatusSchema>;

/** SPEC §4 actions, each allowed in these statuses only. */
export const COMPENSATION_ACTIONS = ['claim', 'boost', 'withdraw'] as const;
export type CompensationAction = (typeof COMPENSATION_ACTIONS)[number];
export const ACTION_STATUSES: Readonly<Record<CompensationAction, readonly CompensationStatus[]>> = {
  claim: ['notActive'],
  boost: ['active', 'inCompensation'],
  withdraw: ['pending'],
};

/** The action a status offers (at most one), or null (completed). */
export function actionOf(status: CompensationStatus): CompensationAction | null {
  for (const a of COMPENSATION_ACTIONS) if (ACTION_STATUSES[a].includes(status)) return a;
  return null;
}

/** Programme constants (the server is the authority; the UI shows them). */
export const COMPENSATION_RULES = {
  /** Share of the net realised loss an order is worth (50 %). */
  baseRatio: 0.5,
  /** Payout schedule of a new order, in days. */
  durationDays: 30,
  /** A net loss below this (USDT) creates no order. */
  minLossUsdt: '1',
  /** The risk fund behind the programme, USD (marketing, SPEC §1). */
  riskFundUsd: 100_000_000,
} as const;

/** One compensation order, every SPEC §3 field plus what the screen needs to show progress. */
export interface CompensationOrder {
  id: number;
  status: CompensationStatus;
  /** The trader's net realised futures PnL over all time when the order was created (signed). */
  totalUserPnl: string;
  /** Sum of all the trader's compensation amounts up to and including this order. */
  totalUserCompensation: string;
  /** What the risk fund pays for this order in total. */
  amount: string;
  /** Paid so far (a claim on the fund until withdrawn). */
  paid: string;
  /** The schedule's length in days (shortened by boosts). */
  durationDays: number;
  /** Days of payouts still to come (0 once fully paid). */
  daysLeft: number;
  /** What one daily payout pays (the last day pays the remainder). */
  dailyReturn: string;
  boosts: number;
  createdAt: number;
  activatedAt: number | null;
  /** When the next daily payout is due; null unless active / inCompensation. */
  nextPayoutAt: number | null;
  completedAt: number | null;
}

/** Totals over all the trader's orders, for the summary cards. */
export interface CompensationSummary {
  /** Net realised futures PnL over all time, now (signed). */
  totalUserPnl: string;
  /** Sum of every order's amount. */
  totalUserCompensation: string;
  /** Sum of every order's paid amount (withdrawn or not). */
  totalPaid: string;
  /** Paid but not yet withdrawn (orders in `pending`). */
  pendingWithdrawal: string;
}

/** GET orders answer: a page plus the summary. */
export interface CompensationList extends Page<CompensationOrder> {
  summary: CompensationSummary;
}

/** REST paths (under /api). */
export const COMPENSATION_PATHS = {
  /** GET ?status=&page=&pageSize= → CompensationList, newest first. Creates due orders first. */
  orders: '/compensation/orders',
  /** POST {id, voucherId?} → CompensationOrder (notActive → active). */
  claim: '/compensation/claim',
  /** POST {id, voucherId} → CompensationOrder (active | inCompensation, shorter schedule). */
  boost: '/compensation/boost',
  /** POST {id} → CompensationOrder (pending → completed, paid credited to the fund wallet). */
  withdraw: '/compensation/withdraw',
  /** Dev only (config.exposeOutbox): POST {email, days} moves schedules earlier and runs the jobs. */
  fastForward: '/dev/compensation/fast-forward',
} as const;

export const compensationListQuery = pageQuerySchema.extend({
  status: compensationStatusSchema.optional(),
});
export type CompensationListQuery = z.infer<typeof compensationListQuery>;

const id = z.coerce.number().int().positive();

export const claimBody = z.object({ id, voucherId: id.optional() });
export type ClaimBody = z.infer<typeof claimBody>;
export const boostBody = z.object({ id, voucherId: id });
export type BoostBody = z.infer<typeof boostBody>;
export const withdrawBody = z.object({ id });
export type WithdrawBody = z.infer<typeof withdrawBody>;
export const fastForwardBody = z.object({ email: z.string().email(), days: z.coerce.number().int().min(1).max(365) });

/** Rejections (envelope `msg`); a missing KYC answers KYC_REQUIRED_MSG (src/protocol/user.ts). */
export const COMPENSATION_MSG = {
  notFound: 'Compensation order not found',
  notClaimable: 'This compensation order cannot be claimed',
  notBoostable: 'Only a running compensation order can be boosted',
  notWithdrawable: 'This compensation order is not awaiting withdrawal',
  voucherRequired: 'Please choose a speed voucher',
  userNotFound: 'User not found',
} as const;

/** The user-socket frame pushed whenever an order changes (created, claimed, paid, boosted, withdrawn). */
export interface CompensationFrame {
  type: 'compensation';
  data: CompensationOrder;
}

/** Loose check for frames arriving on the user socket (the UI trusts the server's shape after this). */
export function isCompensationFrame(f: { type: string; data?: unknown }): f is CompensationFrame {
  return f.type === 'compensation' && typeof f.data === 'object' && f.data !== null && typeof (f.data as { id?: unknown }).id === 'number';
}
