import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../src/protocol/envelope.ts';
import { Code } from '../../src/protocol/envelope.ts';
import { boostBody, claimBody, COMPENSATION_MSG, compensationListQuery, fastForwardBody, withdrawBody } from '../../src/protocol/compensation.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { requireOperator } from '../http/operator.ts';
import type { ActionResult } from './service.ts';
import { boostCompensation, claimCompensation, fastForward, listCompensation, publishAction, withdrawCompensation } from './service.ts';

/** Default period of the payout job (run by server/features.ts; FeatureDeps.periodicMs overrides it). */
export const COMPENSATION_JOB_MS = 60_000;

function answer(r: ActionResult) {
  return r.ok ? ok(r.order) : reject(r.code, r.msg);
}

/**
 * The compensation feature plugin for `createFeatures`: GET /api/compensation/orders, POST
 * /api/compensation/{claim,boost,withdraw} and the dev fast-forward (only with config.exposeOutbox).
 * Its payout job (runCompensationJobs) is registered beside it in server/features.ts.
 */
export function compensationPlugin(deps: FeatureDeps): FastifyPluginAsync {
  return async (app) => {
    const { db, clock, bus } = deps;
    await app.register(
      async (r) => {
        r.get('/orders', async (req) => {
          const { user } = await requireUser(req);
          const q = parseInput(compensationListQuery, req.query);
          return ok(await listCompensation(db, user.id, q, clock.now(), bus));
        });
        r.post('/claim', async (req) => {
          const { user } = await requireUser(req);
          const b = parseInput(claimBody, req.body);
          const res = await claimCompensation(db, { userId: user.id, id: b.id, voucherId: b.voucherId, now: clock.now() });
          publishAction(bus, user.id, res);
          return answer(res);
        });
        r.post('/boost', async (req) => {
          const { user } = await requireUser(req);
          const b = parseInput(boostBody.partial({ voucherId: true }), req.body);
          if (b.voucherId === undefined) return reject(Code.badRequest, COMPENSATION_MSG.voucherRequired);
          const res = await boostCompensation(db, { userId: user.id, id: b.id, voucherId: b.voucherId, now: clock.now() });
          publishAction(bus, user.id, res);
          return answer(res);
        });
        r.post('/withdraw', async (req) => {
          const { user } = await requireUser(req);
          const b = parseInput(withdrawBody, req.body);
          const res = await withdrawCompensation(db, { userId: user.id, id: b.id, now: clock.now() });
          publishAction(bus, user.id, res);
          return answer(res);
        });
      },
      { prefix: '/api/compensation' },
    );

    if (app.deps.config.exposeOutbox) {
      await app.register(
        async (r) => {
          r.addHook('onRequest', requireOperator);
          r.post('/fast-forward', async (req) => {
            const b = parseInput(fastForwardBody, req.body);
            const changed = await fastForward(db, b.email, b.days, clock.now(), bus);
            return changed === null ? reject(Code.notFound, COMPENSATION_MSG.userNotFound) : ok(changed);
          });
        },
        { prefix: '/api/dev/compensation' },
      );
    }
  };
}
