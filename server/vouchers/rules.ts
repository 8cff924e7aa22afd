import type { VoucherKind, VoucherStatus } from '../../src/protocol/vouchers.ts';

/**
 * The pure voucher rules (docs/VOUCHERS.md): derived status, merge value and expiry, and which
 * status changes are allowed. No I/O, no clock: `now` is always passed in, so the property tests
 * (tests/property/voucherRules.prop.test.ts) can explore them freely.
 */

/** A speed voucher can never cut more than this percent of the remaining payout days. */
export const SPEED_MAX_PERCENT = 90;
/** The smallest speed voucher the platform issues. */
export const SPEED_MIN_PERCENT = 10;
/** How many vouchers one merge takes (inclusive). */
export const MERGE_MIN = 2;
export const MERGE_MAX = 10;

/**
 * The status a reader must see: a stored `use` whose expiry has passed (`expiresAt <= now`) is
 * `expired`. Terminal statuses are returned unchanged. Invariant: the result is `use` only if the
 * voucher is really usable at `now`.
 */
export function effectiveStatus(status: VoucherStatus, expiresAt: number | null, now: number): VoucherStatus {
  if (status === 'use' && expiresAt !== null && expiresAt <= now) return 'expired';
  return status;
}

/** True when the voucher can be used or merged at `now`. */
export function isUsable(status: VoucherStatus, expiresAt: number | null, now: number): boolean {
  return effectiveStatus(status, expiresAt, now) === 'use';
}

/**
 * Allowed status changes: only forward, and only out of `use` (use → used | merged | expired).
 * Staying put is not a change and is not allowed here (callers update conditionally on `use`).
 */
export function canTransition(from: VoucherStatus, to: VoucherStatus): boolean {
  return from === 'use' && to !== 'use';
}

/** Sum of loss-protection values (USDT minor units): a merge conserves the protected amount exactly. */
export function mergeLossProtection(values: readonly bigint[]): bigint {
  return values.reduce((a, b) => a + b, 0n);
}

/**
 * Combined speed of several speed vouchers, each cutting the remaining days by p_i %: applying them
 * one after the other leaves Π(1 − p_i) of the days, so the merged cut is 1 − Π(1 − p_i), in whole
 * percent, floored, capped at {@link SPEED_MAX_PERCENT}. Exact integer arithmetic (BigInt): the
 * floor of 100 − Π(100 − p_i) / 100^(n−1) is 100 − ceil(Π(100 − p_i) / 100^(n−1)).
 * Invariant: never below the largest input (each factor is ≤ 1) and never above the cap.
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

/** A stored voucher value as the merge rules see it. */
export interface MergeInput {
  kind: VoucherKind;
  /** Stored value: minor units for lossProtection, whole percent for speed. */
  value: string;
  expiresAt: number | null;
}

/** Value (stored form) and expiry of the voucher that replaces `inputs` (all of one kind, checked by the caller). */
export function mergeResult(kind: VoucherKind, inputs: readonly MergeInput[]): { value: string; expiresAt: number | null } {
  const value =
    kind === 'lossProtection'
      ? mergeLossProtection(inputs.map((i) => BigInt(i.value))).toString()
      : String(mergeSpeed(inputs.map((i) => Number(i.value))));
  return { value, expiresAt: mergeExpiry(inputs.map((i) => i.expiresAt)) };
}
