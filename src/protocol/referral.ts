import { pageQuerySchema } from './envelope.ts';

/**
 * Referral rebates (SPEC §3 "Referral", issue 15; rules in docs/REFERRAL.md).
 *
 * Every user has an invitation code; signing up with it (POST /user/register `inviteCode`) links
 * the new account to the inviter once and for ever. Each trading fee the invitee pays credits the
 * inviter with {@link REFERRAL_RATE_BPS} of it, rounded down to the coin's minor unit (the
 * remainder stays with the platform), through the ledger (TRADE_COMMISSION) in the same
 * transaction as the fee.
 *
 * Amounts are decimal strings of the coin (USDT, 6 decimals); times are Unix milliseconds.
 */

/** The rebate rate in basis points: 2000 = 20 % of each fee. */
export const REFERRAL_RATE_BPS = 2000n;
const BPS = 10_000n;

/** The coin rebates are paid in (the futures fees' coin) and the wallet they are paid into. */
export const REFERRAL_COIN = 'USDT';
export const REFERRAL_WALLET = 'fund';

/**
 * The inviter's share of a fee of `feeMinor` minor units: floor(fee × rate / 10 000). Exact
 * integer arithmetic; never more than the fee, never negative.
 */
export function rebateOf(feeMinor: bigint, rateBps: bigint = REFERRAL_RATE_BPS): bigint {
  if (feeMinor <= 0n) return 0n;
  return (feeMinor * rateBps) / BPS;
}

/** The rate as a percent string for display: 2000 → '20', 1250 → '12.5'. */
export function ratePercent(rateBps: bigint = REFERRAL_RATE_BPS): string {
  const whole = rateBps / 100n;
  const frac = (rateBps % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}

/** GET /api/referral/summary. */
export interface ReferralSummary {
  /** The caller's invitation code (8 characters, stable). */
  code: string;
  /** Where the invitation link points, relative to the site: `/register?code=<code>`. */
  link: string;
  /** The rebate rate as a percent string ('20'). */
  ratePercent: string;
  coin: string;
  /** Every rebate ever credited. */
  totalEarnings: string;
  /** Rebates credited during the previous UTC day on the server clock. */
  yesterdayEarnings: string;
  /** Rebates credited since 00:00 UTC today. */
  todayEarnings: string;
  /** How many accounts signed up with the code. */
  totalInvited: number;
}

/** One row of GET /api/referral/invitees. */
export interface Invitee {
  /** The invitee's masked email ('ab***@example.com'). */
  email: string;
  /** Sign-up time. */
  registeredAt: number;
  /** Sum of the notionals of the invitee's fills (USDT). */
  volume: string;
  /** Fees the invitee paid. */
  fees: string;
  /** Rebates the invitee produced for the caller. */
  rebate: string;
}

/** REST paths (under /api). */
export const REFERRAL_PATHS = {
  /** GET → ReferralSummary. */
  summary: '/api/referral/summary',
  /** GET ?page=&pageSize= → Page<Invitee>, newest sign-up first. */
  invitees: '/api/referral/invitees',
} as const;

export const inviteesQuery = pageQuerySchema;

/** The register link of a code (the register screen reads `code`). */
export function inviteLinkPath(code: string): string {
  return `/register?code=${encodeURIComponent(code)}`;
}
