import type { FastifyPluginAsync } from 'fastify';
import { Code, ok } from '../../src/protocol/envelope.ts';
import { ledgerQuery, TRADE_MSG, transferBody } from '../../src/protocol/trading.ts';
import type { UserEventBus } from '../ws/userBus.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { balancesView, ledgerPage, transfer } from '../wallet/wallet.ts';

export interface WalletRoutesOptions {
  /** Balance frames after a transfer; optional so the routes also run without sockets. */
  bus?: UserEventBus;
}

/**
 * GET /api/wallet/balances, POST /api/wallet/transfer, GET /api/wallet/ledger (register with
 * prefix '/api/wallet'). Messages: SPEC §5 ('Please fill in the transfer amount', 'Insufficient Balance').
 */
export const walletRoutes: FastifyPluginAsync<WalletRoutesOptions> = async (app, opts) => {
  app.get('/balances', async (req) => {
    const { user } = await requireUser(req);
    return ok(await balancesView(app.deps.db, user.id));
  });

  app.post('/transfer', async (req) => {
    const { user } = await requireUser(req);
    const b = parseInput(transferBody, req.body);
    const r = await transfer(app.deps.db, user.id, b.from, b.to, b.coin, b.amount, app.deps.clock.now());
    if (!r.ok) return reject(Code.badRequest, r.reason === 'insufficient' ? TRADE_MSG.insufficientBalance : TRADE_MSG.transferAmountRequired);
    opts.bus?.publish(user.id, { type: 'balance', data: r.from });
    opts.bus?.publish(user.id, { type: 'balance', data: r.to });
    return ok({ from: r.from, to: r.to });
  });

  app.get('/ledger', async (req) => {
    const { user } = await requireUser(req);
    const q = parseInput(ledgerQuery, req.query);
    return ok(await ledgerPage(app.deps.db, user.id, q));
  });
};
