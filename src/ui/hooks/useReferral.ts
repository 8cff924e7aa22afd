import type { Page } from '../../protocol/envelope.ts';
import { REFERRAL_PATHS } from '../../protocol/referral.ts';
import type { Invitee, ReferralSummary } from '../../protocol/referral.ts';
import { useLiveGet, type Load } from './useLiveGet.ts';

/** How many invitees a page lists. */
export const INVITEES_PAGE_SIZE = 10;

/** A rebate is credited to the fund wallet, which pushes a `balance` frame: the figures follow it live. */
const RELOAD_ON = ['balance'];
const NO_QUERY = {};

const api = (p: string) => p.replace(/^\/api/, '');

/** GET /api/referral/summary through the core's live queries (src/core/liveQuery.ts). */
export function useReferralSummary(): Load<ReferralSummary> {
  return useLiveGet<ReferralSummary>(api(REFERRAL_PATHS.summary), NO_QUERY, RELOAD_ON).load;
}

/** One page of GET /api/referral/invitees, newest sign-up first. */
export function useInvitees(page: number): Load<Page<Invitee>> {
  return useLiveGet<Page<Invitee>>(api(REFERRAL_PATHS.invitees), { page, pageSize: INVITEES_PAGE_SIZE }, RELOAD_ON).load;
}

/** The invitation link on this site's origin. */
export function absoluteLink(link: string, origin: string): string {
  return new URL(link, origin).href;
}
