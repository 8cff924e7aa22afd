import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../src/protocol/envelope.ts';
import { voucherListQuery, voucherMergeBody } from '../../src/protocol/vouchers.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { listVouchers, mergeVouchers, publishVouchers } from './service.ts';

/**
 * The vouchers feature plugin for `createFeatures`: GET /api/vouchers (paged, kind/status filters;
 * grants the welcome vouchers and persists expiries first) and POST /api/vouchers/merge (answers
 * the new voucher). Every changed voucher is pushed as a 'voucher' frame after the commit.
 */
export function vouchersPlugin(deps: FeatureDeps): FastifyPluginAsync {
  return async (app) => {
    const { db, clock, bus } = deps;
    await app.register(
      async (r) => {
        r.get('/', async (req) => {
          const { user } = await requireUser(req);
          const q = parseInput(voucherListQuery, req.query);
          return ok(await listVouchers(db, user.id, q, clock.now(), bus));
        });
        r.post('/merge', async (req) => {
          const { user } = await requireUser(req);
          const b = parseInput(voucherMergeBody, req.body);
          const res = await mergeVouchers(db, { userId: user.id, ids: b.ids, now: clock.now() });
          if (!res.ok) return reject(res.code, res.msg);
          publishVouchers(bus, user.id, [...res.merged, res.voucher]);
          return ok(res.voucher);
        });
      },
      { prefix: '/api/vouchers' },
    );
  };
}
