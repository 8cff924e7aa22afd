import { formatNumber } from '../../../format/number.ts';
import { VOUCHER_MSG } from '../../../protocol/vouchers.ts';
import type { Voucher, VoucherKind, VoucherStatus } from '../../../protocol/vouchers.ts';

/** Pure helpers of the coupon screen (no React), so they can be tested directly. */

/** Tab order on /my/coupon. */
export const KIND_TABS: readonly VoucherKind[] = ['lossProtection', 'speed'];
/** Status filter order (`use` is shown as "Usable"). */
export const STATUS_FILTERS: readonly VoucherStatus[] = ['use', 'used', 'merged', 'expired'];

/** Sources with their own translation; anything else reads as a generic reward. */
const KNOWN_SOURCES = new Set(['welcome', 'seed', 'merge', 'promo']);

/** The `coupon:` key naming a voucher's source. */
export function sourceKey(source: string): `source_${string}` {
  return KNOWN_SOURCES.has(source) ? `source_${source}` : 'source_other';
}

/**
 * The value as shown (SPEC §9 through src/format/number.ts): a loss-protection voucher in USDT with
 * 2 decimals ('20.00'), a speed voucher as a whole percent ('50'); the unit comes from the
 * translation ('{{value}} USDT', '{{value}}%').
 */
export function formatVoucherValue(kind: VoucherKind, value: string): { key: 'valueUsdt' | 'valuePercent'; value: string } {
  return kind === 'lossProtection' ? { key: 'valueUsdt', value: formatNumber(value, 2) } : { key: 'valuePercent', value: formatNumber(value, 0) };
}

/** `YYYY-MM-DD` in the viewer's time zone. */
export function formatDay(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** The compensation order id in a `compensation:<id>` used_ref, if that is what consumed it. */
export function compensationRefId(usedRef: string | null): number | null {
  const m = /^compensation:(\d+)$/.exec(usedRef ?? '');
  return m?.[1] === undefined ? null : Number(m[1]);
}

const MSG_KEYS: Readonly<Record<string, `msg_${keyof typeof VOUCHER_MSG}`>> = Object.fromEntries(
  (Object.entries(VOUCHER_MSG) as [keyof typeof VOUCHER_MSG, string][]).map(([k, v]) => [v, `msg_${k}` as const]),
);

/** The translation key of a known server rejection, or null (then the msg is shown as sent). */
export function voucherMsgKey(msg: string): `msg_${keyof typeof VOUCHER_MSG}` | null {
  return MSG_KEYS[msg] ?? null;
}

/** Replaces a voucher in a list by id (a frame); keeps the list order. */
export function replaceVoucher(list: readonly Voucher[], v: Voucher): Voucher[] {
  return list.map((x) => (x.id === v.id ? v : x));
}
