import { mergeExpiry, mergeSpeed } from '../../src/protocol/vouchers.ts';
import type { VoucherKind, VoucherStatus } from '../../src/protocol/vouchers.ts';

/**
 * The pure voucher rules (docs/VOUCHERS.md): derived status, merge value and expiry, and which
 * status changes are allowed. No I/O, no clock: `now` is always passed in, so the property tests
 * (tests/property/voucherRules.prop.test.ts) can explore them freely.
 */

export { MERGE_MAX, MERGE_MIN, mergeExpiry, mergeSpeed, SPEED_MAX_PERCENT, SPEED_MIN_PERCENT } from '../../src/protocol/vouchers.ts';

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
