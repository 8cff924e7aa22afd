import { toFiniteNumber } from '../../../format/number.ts';
import type { CompensationOrder, CompensationStatus } from '../../../protocol/compensation.ts';
import { ACTION_STATUSES } from '../../../protocol/compensation.ts';
import type { VoucherKind } from '../../../protocol/vouchers.ts';

/**
 * Pure view helpers of the compensation screen (no React, no I/O), shared by the table, the cards
 * and the action dialog.
 */

/** The status filter: every status, or one. */
export type StatusFilter = CompensationStatus | 'all';
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', 'notActive', 'active', 'inCompensation', 'pending', 'completed'];

/** Share paid, 0..100 (0 for a zero amount). */
export function paidPercent(o: Pick<CompensationOrder, 'paid' | 'amount'>): number {
  const amount = toFiniteNumber(o.amount) ?? 0;
  const paid = toFiniteNumber(o.paid) ?? 0;
  if (amount <= 0) return 0;
  return Math.min(100, Math.max(0, (paid / amount) * 100));
}

/** Which action a voucher kind is for: a loss-protection voucher is used when claiming, a speed voucher boosts. */
export function actionForVoucher(kind: VoucherKind): 'claim' | 'boost' {
  return kind === 'lossProtection' ? 'claim' : 'boost';
}

/** The first order (in list order) a voucher of `kind` can be used on, for the coupon screen's "Use" link. */
export function firstEligible(orders: readonly CompensationOrder[], kind: VoucherKind): CompensationOrder | undefined {
  const allowed = ACTION_STATUSES[actionForVoucher(kind)];
  return orders.find((o) => allowed.includes(o.status));
}

/** Days left after a boost of `percent` (the server's formula: max(1, ceil(n × (1 − p/100)))), for the dialog's preview. */
export function boostedDays(daysLeft: number, percent: number): number {
  if (daysLeft <= 0) return 0;
  const p = Math.min(100, Math.max(0, Math.floor(percent)));
  return Math.max(1, Math.ceil((daysLeft * (100 - p)) / 100));
}

/** What is still owed on an order, as a decimal string with 6 decimals (exact: integer micro-units). */
export function remainingOf(o: Pick<CompensationOrder, 'paid' | 'amount'>): string {
  const micro = (s: string): bigint => {
    const m = /^(-?)(\d+)(?:\.(\d{0,6}))?/.exec(s);
    if (!m) return 0n;
    const v = BigInt(m[2] ?? '0') * 1_000_000n + BigInt((m[3] ?? '').padEnd(6, '0') || '0');
    return m[1] === '-' ? -v : v;
  };
  const r = micro(o.amount) - micro(o.paid);
  const abs = r < 0n ? -r : r;
  return `${r < 0n ? '-' : ''}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}
