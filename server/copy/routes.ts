import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { Code, ok } from '../../src/protocol/envelope.ts';
import {
  COPY_MSG, copyApplyBody, copyClosePositionBody, copyDevReviewBody, copyDevTradeBody, copyFollowBody, copyOrdersQuery, copyUnfollowBody, traderHistoryQuery, tradersQuery,
} from '../../src/protocol/copy.ts';
import type { CopyTraderDetail, CopyTraderFill } from '../../src/protocol/copy.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import { pageOf } from '../db/paged.ts';
import { requireUser, resolveToken } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { requireOperator } from '../http/operator.ts';
import type { TradingEngine } from '../trading/engine.ts';
import { tradingEngineOf } from '../trading/wiring.ts';
import { leadPositions, listTraders, traderFigures } from './figures.ts';
import { CopyService } from './service.ts';
import { runSimRound, seedSimTraders, traderOrder } from './sim.ts';

/** How often the copy job runs by default (simulated rounds are due every SIM_ROUND_MS). */
export const COPY_JOB_MS = 5_000;

const SERVICES = new WeakMap<TradingEngine, CopyService>();

/** The copy service on the trading engine of `deps.db` (one per engine), or undefined without trading. */
export function copyServiceOf(deps: Pick<FeatureDeps, 'db' | 'bus'>, engine = tradingEngineOf(deps.db)): CopyService | undefined {
  if (!engine) return undefined;
  let s = SERVICES.get(engine);
  if (!s) {
    s = new CopyService(deps.db, engine, deps.bus);
    SERVICES.set(engine, s);
  }
  return s;
}

/** The feature job: a simulated trading round when due (unless deps.simRounds is false), then liquidations and stops of copies. */
export async function runCopyJobs(deps: FeatureDeps, now: number): Promise<void> {
  const s = copyServiceOf(deps);
  if (!s) return;
  if (deps.simRounds !== false) await runSimRound(deps.db, s.engine, now);
  await s.checkAll();
}

export interface CopyPluginOptions {
  /** The engine to mirror on; default the trading feature's engine on the same database. */
  engine?: TradingEngine;
  /** Seed the simulated lead traders (default true). */
  seed?: boolean;
}

/**
 * The copy-trading feature: /api/copy/* (traders and their figures, follow / unfollow, copied
 * positions and orders, trader_apply) and the operator endpoints /api/dev/copy/* (behind
 * config.exposeOutbox). Registers the mirroring listener on the trading engine for its lifetime.
 */
export function copyPlugin(deps: FeatureDeps, opts: CopyPluginOptions = {}): FastifyPluginAsync {
  return async (app) => {
    const { db, clock } = deps;
    const engine = opts.engine ?? tradingEngineOf(db);
    if (!engine) throw new Error('copy trading needs the trading feature (register it first)');
    const svc = copyServiceOf(deps, engine) ?? new CopyService(db, engine, deps.bus);
    // The memory engine mirrors the fills itself (server/engine/apply.ts): no listener then.
    const off = engine.mirrorsCopies ? () => undefined : engine.onFills(svc.onFills);
    app.addHook('onClose', async () => off());
    if (opts.seed !== false) await seedSimTraders(db, clock.now());
    const market = { rules: (s: string) => engine.rules(s), markPrice: (s: string) => engine.markPrice(s) };

    const traderRow = async (id: number) =>
      (await db.selectFrom('copy_traders').selectAll().where('user_id', '=', id).where('status', '=', 'active').executeTakeFirst()) ?? reject(Code.notFound, COPY_MSG.traderNotFound);
    const idParam = (p: unknown): number => {
      const n = Number((p as { id?: string }).id);
      return Number.isInteger(n) && n > 0 ? n : reject(Code.notFound, COPY_MSG.traderNotFound);
    };

    await app.register(
      async (r) => {
        r.get('/traders', async (req) => {
          const q = parseInput(tradersQuery, req.query);
          return ok(await listTraders(db, clock.now(), q.sort, q.q));
        });
        r.get('/traders/:id', async (req) => {
          const id = idParam(req.params);
          const row = await traderRow(id);
          const auth = await resolveToken(db, req.headers.authorization, clock.now());
          const mine = auth
            ? await db.selectFrom('copy_follows').select('id').where('user_id', '=', auth.user.id).where('trader_id', '=', id).where('status', '=', 'active').executeTakeFirst()
            : undefined;
          const detail: CopyTraderDetail = { ...(await traderFigures(db, id, row, clock.now())), positions: await leadPositions(db, id, market), myFollowId: mine?.id ?? null };
          return ok(detail);
        });
        r.get('/traders/:id/history', async (req) => {
          const id = idParam(req.params);
          await traderRow(id);
          const q = parseInput(traderHistoryQuery, req.query);
          const page = await pageOf(db.selectFrom('trade_fills').where('user_id', '=', id), q, ['created_at', 'id'], (qb) => qb.select(['id', 'symbol', 'side', 'price', 'qty', 'realized_pnl', 'fee', 'created_at']), (f): CopyTraderFill => ({
            id: f.id, symbol: f.symbol, side: f.side, price: f.price, qty: f.qty, realizedPnl: formatMinor(parseMinor(f.realized_pnl), 'USDT'), fee: formatMinor(parseMinor(f.fee), 'USDT'), time: f.created_at,
          }));
          return ok(page);
        });
        r.post('/follow', async (req) => {
          const { user } = await requireUser(req);
          const b = parseInput(copyFollowBody, req.body);
          return ok(await svc.follow(user.id, b), COPY_MSG.followed);
        });
        r.post('/unfollow', async (req) => {
          const { user } = await requireUser(req);
          const b = parseInput(copyUnfollowBody, req.body);
          return ok(await svc.unfollow(user.id, b.followId, b.closePositions), COPY_MSG.unfollowed);
        });
        r.get('/follows', async (req) => {
          const { user } = await requireUser(req);
          return ok(await svc.follows(user.id));
        });
        r.get('/positions', async (req) => {
          const { user } = await requireUser(req);
          return ok(await svc.positions(user.id));
        });
        r.post('/position/close', async (req) => {
          const { user } = await requireUser(req);
          const b = parseInput(copyClosePositionBody, req.body);
          return ok(await svc.closePosition(user.id, b.positionId), COPY_MSG.closed);
        });
        r.get('/orders', async (req) => {
          const { user } = await requireUser(req);
          const q = parseInput(copyOrdersQuery, req.query);
          return ok(await svc.ordersPage(user.id, q.page, q.pageSize));
        });
        r.get('/apply', async (req) => {
          const { user } = await requireUser(req);
          return ok(await svc.application(user.id));
        });
        r.post('/apply', async (req) => {
          const { user } = await requireUser(req);
          const b = parseInput(copyApplyBody, req.body);
          return ok(await svc.apply(user.id, b, clock.now()), COPY_MSG.applied);
        });
      },
      { prefix: '/api/copy' },
    );

    if (app.deps.config.exposeOutbox) {
      await app.register(
        async (r) => {
          r.addHook('onRequest', requireOperator);
          r.post('/trade', async (req) => {
            const b = parseInput(copyDevTradeBody, req.body);
            await traderRow(b.traderId);
            return ok(await traderOrder(engine, b.traderId, b, `dev-${randomBytes(8).toString('hex')}`));
          });
          r.post('/review', async (req) => {
            const b = parseInput(copyDevReviewBody, req.body);
            const u = await db.selectFrom('users').select('id').where('email', '=', b.email).executeTakeFirst();
            if (!u) return reject(Code.notFound, COPY_MSG.userNotFound);
            const res = await svc.review(u.id, b.decision, b.reason, clock.now());
            return ok(res, b.decision === 'approve' ? COPY_MSG.approved : COPY_MSG.rejected);
          });
          r.post('/sim', async () => ok({ placed: await runSimRound(db, engine, clock.now(), true) }));
        },
        { prefix: '/api/dev/copy' },
      );
    }
  };
}
