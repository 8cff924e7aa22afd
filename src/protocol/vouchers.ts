import { z } from 'zod';
import { pageQuerySchema } from './envelope.ts';

/**
 * Vouchers (coupons, SPEC §3/§4): loss-protection and speed vouchers, shared by the coupon screen
 * and the compensation feature (a loss-protection voucher raises a compensation order's amount when
 * it is claimed; a speed voucher boosts a running one).
 *
 * Units: a loss-protection voucher's `value` is USDT as a decimal string (6 decimals on the server,
 * minor units in the database); a speed voucher's `value` is a whole percent as a string ("50" =
 * the remaining payout days are cut by 50%). Times are Unix milliseconds; `expiresAt: null` means
 * permanently valid.
 */

export const VOUCHER_KINDS = ['lossProtection', 'speed'] as const;
export const voucherKindSchema = z.enum(VOUCHER_KINDS);
export type VoucherKind = z.infer<typeof voucherKindSchema>;

/** SPEC §4: `use` = usable now; `expired` is also derived on read once `expiresAt` has passed. */
export const VOUCHER_STATUSES = ['use', 'used', 'merged', 'expired'] as const;
export const voucherStatusSchema = z.enum(VOUCHER_STATUSES);
export type VoucherStatus = z.infer<typeof voucherStatusSchema>;

export interface Voucher {
  id: number;
  kind: VoucherKind;
  value: string;
  status: VoucherStatus;
  expiresAt: number | null;
  /** Where it came from: 'welcome', 'seed', 'merge', 'promo', ... (translated on screen). */
  source: string;
  /** What consumed it, e.g. 'compensation:12'; null while usable. */
  usedRef: string | null;
  /** The voucher it was merged into (status `merged`). */
  mergedInto: number | null;
  createdAt: number;
  usedAt: number | null;
}

/** REST paths (under /api). */
export const VOUCHER_PATHS = {
  /** GET ?kind=&status=&page=&pageSize= → Page<Voucher>, newest first. */
  list: '/vouchers',
  /** POST {ids: number[]} (2..10 usable vouchers of one kind) → the new merged Voucher. */
  merge: '/vouchers/merge',
} as const;

export const voucherListQuery = pageQuerySchema.extend({
  kind: voucherKindSchema.optional(),
  status: voucherStatusSchema.optional(),
});
export type VoucherListQuery = z.infer<typeof voucherListQuery>;

export const voucherMergeBody = z.object({ ids: z.array(z.coerce.number().int().positive()).min(2).max(10) });

/** Rejections (envelope `msg`). */
export const VOUCHER_MSG = {
  notFound: 'Voucher not found',
  notUsable: 'This voucher can no longer be used',
  wrongKind: 'This voucher cannot be used here',
  mergeKinds: 'Only vouchers of the same kind can be merged',
  /** A merge needs 2..10 distinct vouchers. */
  mergeCount: 'Select 2 to 10 vouchers to merge',
} as const;

/** A speed voucher can never cut more than this percent of the remaining payout days. */
export const SPEED_MAX_PERCENT = 90;
/** The smallest speed voucher the platform issues. */
export const SPEED_MIN_PERCENT = 10;
/** How many vouchers one merge takes (inclusive). */
export const MERGE_MIN = 2;
export const MERGE_MAX = 10;

/**
 * Combined speed of several speed vouchers, each cutting the remaining days by p_i %: applying them
 * one after the other leaves Π(1 − p_i) of the days, so the merged cut is 1 − Π(1 − p_i), in whole
 * percent, floored, capped at {@link SPEED_MAX_PERCENT}. Exact integer arithmetic (BigInt): the
 * floor of 100 − Π(100 − p_i) / 100^(n−1) is 100 − ceil(Π(100 − p_i) / 100^(n−1)).
 * Invariant: never below the largest input (each factor is ≤ 1) and never above the cap.
 * Shared by the server (the merge itself) and the coupon screen (the preview before confirming).
 */
export function mergeSpeed(percents: readonly number[]): number {
  if (percents.length === 0) return 0;
  let rest = 1n;
  for (const p of percents) rest *= BigInt(100 - p);
  const scale = 100n ** BigInt(percents.length - 1);
  const restCeil = (rest + scale - 1n) / scale;
  return Math.min(SPEED_MAX_PERCENT, 100 - Number(restCeil));
}

/** The merged voucher's expiry: the earliest among the inputs; null (permanent) only if all are permanent. */
export function mergeExpiry(expiries: readonly (number | null)[]): number | null {
  let min: number | null = null;
  for (const e of expiries) if (e !== null && (min === null || e < min)) min = e;
  return min;
}

const USDT_DECIMALS = 6;

/** Exact sum of USDT decimal strings (as the API sends them, up to 6 decimals), as a 6-decimal string. */
export function sumUsdt(values: readonly string[]): string {
  let total = 0n;
  for (const v of values) {
    const [whole = '0', frac = ''] = v.split('.');
    total += BigInt(whole) * 10n ** BigInt(USDT_DECIMALS) + BigInt(frac.padEnd(USDT_DECIMALS, '0').slice(0, USDT_DECIMALS) || '0');
  }
  const s = total.toString().padStart(USDT_DECIMALS + 1, '0');
  return `${s.slice(0, -USDT_DECIMALS)}.${s.slice(-USDT_DECIMALS)}`;
}

/** What merging `vouchers` (all of one kind) yields, in the API form: the preview the screen shows. */
export function mergePreview(vouchers: readonly Pick<Voucher, 'kind' | 'value' | 'expiresAt'>[]): { value: string; expiresAt: number | null } {
  const kind = vouchers[0]?.kind ?? 'lossProtection';
  const value = kind === 'lossProtection' ? sumUsdt(vouchers.map((v) => v.value)) : String(mergeSpeed(vouchers.map((v) => Number(v.value))));
  return { value, expiresAt: mergeExpiry(vouchers.map((v) => v.expiresAt)) };
}

/** Screen path and the query the compensation screen reads to preselect a voucher ("Use" on a coupon). */
export const COUPON_USE_PATH = '/my/compensation/orders';

/** Where the coupon "Use" button leads: the compensation orders with this voucher preselected. */
export function couponUseHref(v: Pick<Voucher, 'id' | 'kind'>): string {
  return `${COUPON_USE_PATH}?voucher=${v.id}&kind=${v.kind}`;
}

/** The user-socket frame pushed when a voucher changes (used, merged, granted). */
export interface VoucherFrame {
  type: 'voucher';
  data: Voucher;
}

/** True when a user-socket frame is a voucher frame with a voucher in it (frames are untrusted input). */
export function isVoucherFrame(f: { type: string; data?: unknown }): f is VoucherFrame {
  if (f.type !== 'voucher' || typeof f.data !== 'object' || f.data === null) return false;
  const d = f.data as Partial<Voucher>;
  return typeof d.id === 'number' && voucherKindSchema.safeParse(d.kind).success && voucherStatusSchema.safeParse(d.status).success && typeof d.value === 'string';
}
