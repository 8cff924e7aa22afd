/**
 * The compensation money rules, pure and in integer minor units (BigInt) so they can be
 * property-tested without a database (tests/property/compensationRules.prop.test.ts).
 *
 * Schedule model: an order owes `amount`, has paid `paid`, and pays `daily` per day. One day's
 * payout is `daily`, except that when what remains is less than two days' worth the day pays all
 * of it (so the last day pays the remainder and a schedule never leaves dust). Hence
 * `daysLeft(R, d) = max(1, floor(R / d))` for R > 0, and a schedule made with
 * `daily = floor(amount / n)` pays out in exactly n days.
 *
 * Invariants (property-tested): paid never exceeds amount; the payouts of a schedule sum to
 * exactly the amount; a boost never lengthens the schedule and never changes what is owed.
 */

/** Share of the net loss an order is worth, in basis points (50 %). */
export const COMPENSATION_BASE_RATIO_BP = 5000n;
/** Length of a new schedule. */
export const COMPENSATION_DURATION_DAYS = 30;
/** A net loss below 1 USDT (minor units) creates no order. */
export const MIN_LOSS_MINOR = 1_000_000n;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** What an order is worth for a net loss (positive minor units): floor(50 % × loss). */
export function compensationAmount(netLoss: bigint): bigint {
  if (netLoss <= 0n) return 0n;
  return (netLoss * COMPENSATION_BASE_RATIO_BP) / 10_000n;
}

/** The daily payout that spreads `remaining` over `days` days (at least 1 minor unit while something is owed). */
export function dailyReturnOf(remaining: bigint, days: number): bigint {
  if (remaining <= 0n) return 0n;
  const d = remaining / BigInt(Math.max(1, days));
  return d > 0n ? d : 1n;
}

/** Days of payouts left for `remaining` at `daily` per day (0 when nothing is owed). */
export function daysLeft(remaining: bigint, daily: bigint): number {
  if (remaining <= 0n) return 0;
  if (daily <= 0n) return 1;
  const n = remaining / daily;
  return n > 1n ? Number(n) : 1;
}

/** What the next daily payout pays: `daily`, or everything when less than two days' worth remains. */
export function payoutOf(remaining: bigint, daily: bigint): bigint {
  if (remaining <= 0n) return 0n;
  return daily <= 0n || remaining < 2n * daily ? remaining : daily;
}

/** The money state of a schedule. */
export interface Schedule {
  amount: bigint;
  paid: bigint;
  daily: bigint;
}

/**
 * Applies up to `days` daily payouts (catch-up after downtime). Returns the new schedule and the
 * payout of each day actually paid; stops when fully paid, so it never pays more than the amount.
 */
export function applyPayouts(s: Schedule, days: number): { schedule: Schedule; payouts: bigint[] } {
  let paid = s.paid;
  const payouts: bigint[] = [];
  for (let i = 0; i < days; i++) {
    const p = payoutOf(s.amount - paid, s.daily);
    if (p <= 0n) break;
    paid += p;
    payouts.push(p);
  }
  return { schedule: { ...s, paid }, payouts };
}

/**
 * Claim with a loss-protection voucher worth `voucherValue`: the amount rises by the voucher's
 * value, capped so the order never exceeds the loss it covers (amount ≤ netLoss). The daily
 * return is recomputed over the order's full duration. Without a voucher nothing changes.
 */
export function claimAmount(amount: bigint, netLoss: bigint, voucherValue: bigint): bigint {
  const room = netLoss - amount;
  const add = voucherValue < room ? voucherValue : room;
  return add > 0n ? amount + add : amount;
}

/**
 * Boost with a speed voucher of `percent` (1..99): the remaining days n become
 * m = max(1, ceil(n × (1 − percent/100))) and the daily return is recomputed so the remainder is
 * paid over m days. Returns the new daily return and m; `daysLeft` of the result is m whenever
 * remaining ≥ m² (always, for real amounts: a daily return is at least 0.016 USDT), and never
 * more than n.
 */
export function boostSchedule(s: Schedule, percent: number): { daily: bigint; days: number; before: number } {
  const remaining = s.amount - s.paid;
  const before = daysLeft(remaining, s.daily);
  if (remaining <= 0n) return { daily: s.daily, days: 0, before };
  const p = BigInt(Math.min(100, Math.max(0, Math.floor(percent))));
  const scaled = BigInt(before) * (100n - p);
  const m = Math.max(1, Number((scaled + 99n) / 100n));
  const daily = dailyReturnOf(remaining, m);
  // NOTE: floor(R/m) ≥ floor(R/n) ≥ the old daily (m ≤ n), so the schedule cannot get longer.
  const kept = daily > s.daily ? daily : s.daily;
  return { daily: kept, days: daysLeft(remaining, kept), before };
}

/** Number of daily payouts due at `now` for a schedule whose next payout is at `nextPayoutAt`. */
export function dueDays(nextPayoutAt: number | null, now: number): number {
  if (nextPayoutAt === null || nextPayoutAt > now) return 0;
  return Math.floor((now - nextPayoutAt) / DAY_MS) + 1;
}
