import type { Db } from '../db/connection.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import { pageOf } from '../db/paged.ts';
import type { PageRequest } from '../db/paged.ts';
import { maskEmail } from '../services/format.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import { inviteLinkPath, ratePercent, REFERRAL_COIN, REFERRAL_RATE_BPS } from '../../src/protocol/referral.ts';
import type { Invitee, ReferralSummary } from '../../src/protocol/referral.ts';

export const DAY_MS = 86_400_000;

/** 00:00 UTC of the day holding `now`. */
export function utcDayStart(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

async function rebateSum(db: Db, inviterId: number, from: number, to: number): Promise<bigint> {
  const rows = await db
    .selectFrom('referral_rebates')
    .select('rebate')
    .where('inviter_id', '=', inviterId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .execute();
  return rows.reduce((s, r) => s + parseMinor(r.rebate), 0n);
}

/**
 * The caller's referral figures at `now` (server clock): code and link, rate, total earnings (the
 * invitees' running totals), yesterday's and today's earnings by UTC day, and how many signed up.
 */
export async function referralSummary(db: Db, user: { id: number; invite_code: string }, now: number): Promise<ReferralSummary> {
  const totals = await db.selectFrom('referral_invitees').select('rebate').where('inviter_id', '=', user.id).execute();
  const total = totals.reduce((s, r) => s + parseMinor(r.rebate), 0n);
  const today = utcDayStart(now);
  const invited = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('invited_by', '=', user.id)
    .executeTakeFirst();
  return {
    code: user.invite_code,
    link: inviteLinkPath(user.invite_code),
    ratePercent: ratePercent(REFERRAL_RATE_BPS),
    coin: REFERRAL_COIN,
    totalEarnings: formatMinor(total, REFERRAL_COIN),
    yesterdayEarnings: formatMinor(await rebateSum(db, user.id, today - DAY_MS, today), REFERRAL_COIN),
    todayEarnings: formatMinor(await rebateSum(db, user.id, today, today + DAY_MS), REFERRAL_COIN),
    totalInvited: Number(invited?.n ?? 0),
  };
}

/** The caller's invitees, newest sign-up first, with their volume, fees and the rebate they produced. */
export function listInvitees(db: Db, inviterId: number, q: PageRequest): Promise<Page<Invitee>> {
  const base = db
    .selectFrom('users')
    .leftJoin('referral_invitees', 'referral_invitees.invitee_id', 'users.id')
    .where('users.invited_by', '=', inviterId);
  return pageOf(
    base,
    q,
    ['users.created_at', 'users.id'],
    (qb) => qb.select(['users.email', 'users.created_at', 'referral_invitees.volume', 'referral_invitees.fees', 'referral_invitees.rebate']),
    (r) => ({
      email: maskEmail(r.email),
      registeredAt: Number(r.created_at),
      volume: formatMinor(parseMinor(r.volume ?? '0'), REFERRAL_COIN),
      fees: formatMinor(parseMinor(r.fees ?? '0'), REFERRAL_COIN),
      rebate: formatMinor(parseMinor(r.rebate ?? '0'), REFERRAL_COIN),
    }),
  );
}
