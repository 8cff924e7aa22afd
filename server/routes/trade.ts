import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ok } from '../../src/protocol/envelope.ts';
import { cancelOrderBody, closeAllBody, closePositionBody, editOrderBody, fillsQuery, ordersQuery, placeOrderBody, positionsQuery, TRADE_MSG, tpslBody } from '../../src/protocol/trading.ts';
import { rulesQuery } from '../../src/protocol/contractRules.ts';
import { Code } from '../../src/protocol/envelope.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { hitOrderLimits } from '../http/rateLimit.ts';
import { helpLangOf } from '../help/service.ts';
import { orderRateLimitMsg } from '../../src/protocol/orderRateLimit.ts';
import type { TradingEngine } from '../trading/engine.ts';
import { fillsPage, ordersPage } from '../trading/store.ts';

export interface TradeRoutesOptions {
  engine: TradingEngine;
}

/**
 * Counts an order command against the account's order rate limits (docs/API.md): over either
 * window it is refused with 429 in the request's language (Web-Lang) before it reaches the engine.
 */
async function orderBudget(req: FastifyRequest, userId: number): Promise<void> {
  const { limits, clock } = req.server.deps;
  const refused = await hitOrderLimits(limits, userId, clock.now());
  if (refused) reject(Code.tooManyRequests, orderRateLimitMsg(helpLangOf(undefined, req.headers['web-lang']), refused.limit, refused.windowMs));
}

/**
 * Futures trading under /api/trade (register with that prefix); paths in TRADING_PATHS.
 * Every mutation goes through the engine's serial queue; reads go straight to the database.
 */
export const tradeRoutes: FastifyPluginAsync<TradeRoutesOptions> = async (app, { engine }) => {
  app.post('/order', async (req) => {
    const { user } = await requireUser(req);
    await orderBudget(req, user.id);
    return ok(await engine.placeOrder(user.id, parseInput(placeOrderBody, req.body)));
  });

  app.post('/order/cancel', async (req) => {
    const { user } = await requireUser(req);
    return ok(await engine.cancelOrder(user.id, parseInput(cancelOrderBody, req.body)));
  });

  app.get('/orders/open', async (req) => {
    const { user } = await requireUser(req);
    return ok(await ordersPage(app.deps.db, user.id, parseInput(ordersQuery, req.query), true));
  });

  app.get('/orders/history', async (req) => {
    const { user } = await requireUser(req);
    return ok(await ordersPage(app.deps.db, user.id, parseInput(ordersQuery, req.query), false));
  });

  app.get('/fills', async (req) => {
    const { user } = await requireUser(req);
    return ok(await fillsPage(app.deps.db, user.id, parseInput(fillsQuery, req.query)));
  });

  app.get('/positions', async (req) => {
    const { user } = await requireUser(req);
    return ok(await engine.positions(user.id, parseInput(positionsQuery, req.query)));
  });

  app.post('/position/close', async (req) => {
    const { user } = await requireUser(req);
    await orderBudget(req, user.id);
    return ok(await engine.closePosition(user.id, parseInput(closePositionBody, req.body)));
  });

  app.post('/order/edit', async (req) => {
    const { user } = await requireUser(req);
    await orderBudget(req, user.id);
    return ok(await engine.editOrder(user.id, parseInput(editOrderBody, req.body)));
  });

  app.post('/position/close-all', async (req) => {
    const { user } = await requireUser(req);
    await orderBudget(req, user.id);
    return ok(await engine.closeAll(user.id, parseInput(closeAllBody, req.body)));
  });

  // Public: the contract details (maker / taker rates, maintenance margin brackets).
  app.get('/rules', async (req) => {
    const { symbol } = parseInput(rulesQuery, req.query);
    return ok(engine.contractRules(symbol) ?? reject(Code.badRequest, TRADE_MSG.unknownSymbol));
  });

  app.post('/position/tpsl', async (req) => {
    const { user } = await requireUser(req);
    await orderBudget(req, user.id);
    return ok(await engine.setTpsl(user.id, parseInput(tpslBody, req.body)));
  });
};
