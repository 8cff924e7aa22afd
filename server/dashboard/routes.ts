import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../src/protocol/envelope.ts';
import { DEMO_CREDIT_REF } from '../../src/protocol/demoCredit.ts';
import type { DashboardSummary } from '../../src/protocol/help.ts';
import type { Db } from '../db/connection.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { requireUser } from '../http/auth.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Today's figures for /my/dashboard on the server clock: realized PnL and fees of the fills since
 * 00:00 UTC (read from trade_fills, USDT minor units summed as BigInt) and the usable vouchers.
 * Read-only: it owns no table and moves no money.
 */
export async function dashboardSummary(db: Db, userId: number, now: number): Promise<DashboardSummary> {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const fills = await db.selectFrom('trade_fills').select(['fee', 'realized_pnl']).where('user_id', '=', userId).where('created_at', '>=', dayStart).execute();
  let pnl = 0n;
  let fees = 0n;
  for (const f of fills) {
    pnl += parseMinor(f.realized_pnl);
    fees += parseMinor(f.fee);
  }
  const v = await db
    .selectFrom('vouchers')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'use')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  // The demo credit (issue 26, Major 7): its ADMIN_ADJUST postings, summed exactly.
  const demo = await db
    .selectFrom('ledger_entries')
    .select('amount')
    .where('user_id', '=', userId)
    .where('type', '=', 'ADMIN_ADJUST')
    .where('asset', '=', 'USDT')
    .where('ref', 'like', `${DEMO_CREDIT_REF}%`)
    .execute();
  const demoTotal = demo.reduce((sum, r) => sum + parseMinor(r.amount), 0n);
  return {
    dayStart,
    todayRealizedPnl: formatMinor(pnl - fees, 'USDT'),
    todayFees: formatMinor(fees, 'USDT'),
    todayTrades: fills.length,
    usableVouchers: Number(v?.n ?? 0),
    demoCredit: demo.length > 0 ? formatMinor(demoTotal, 'USDT') : null,
  };
}

/** GET /api/dashboard/summary. */
export function dashboardPlugin(deps: FeatureDeps): FastifyPluginAsync {
  return async (app) => {
    const { db, clock } = deps;
    await app.register(
      async (r) => {
        r.get('/summary', async (req) => {
          const { user } = await requireUser(req);
          return ok(await dashboardSummary(db, user.id, clock.now()));
        });
      },
      { prefix: '/api/dashboard' },
    );
  };
}
