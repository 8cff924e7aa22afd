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
