import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../src/protocol/envelope.ts';
import { inviteesQuery } from '../../src/protocol/referral.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput } from '../http/errors.ts';
import { listInvitees, referralSummary } from './service.ts';

/**
 * The referral feature plugin for `createFeatures` (issue 15, docs/REFERRAL.md):
 * GET /api/referral/summary (code, link, rate, earnings, invited count) and GET /api/referral/invitees
 * (paged). The rebates themselves are credited by the trading settlement (server/referral/rebate.ts)
 * in the fee's transaction; the link is made at sign-up (POST /api/user/register `inviteCode`).
 */
export function referralPlugin(deps: FeatureDeps): FastifyPluginAsync {
  return async (app) => {
    const { db, clock } = deps;
    await app.register(
      async (r) => {
        r.get('/summary', async (req) => {
          const { user } = await requireUser(req);
          return ok(await referralSummary(db, user, clock.now()));
        });
        r.get('/invitees', async (req) => {
          const { user } = await requireUser(req);
          return ok(await listInvitees(db, user.id, parseInput(inviteesQuery, req.query)));
        });
      },
      { prefix: '/api/referral' },
    );
  };
}
