import type { FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import { convertBody, convertHistoryQuery, CONVERT_MSG, quoteBody } from '../../src/protocol/convert.ts';
import { Code, ok } from '../../src/protocol/envelope.ts';
import type { Envelope, Page } from '../../src/protocol/envelope.ts';
import {
  addAddressBody, addressIdBody, CHAIN_RULES, depositAddressQuery, devDepositBody, renameAddressBody, whitelistBody, devFastForwardBody, devReviewBody, historyQuery, WALLET_MSG, withdrawalIdBody, withdrawRequestBody, withdrawInfoQuery,
} from '../../src/protocol/wallet.ts';
import type { AddressBook, ChainRule, LimitRefusal, Withdrawal, WithdrawLock } from '../../src/protocol/wallet.ts';
import { withdrawSafetyMsg } from '../../src/protocol/withdrawSafety.ts';
import type { Db } from '../db/connection.ts';
import { formatMinor } from '../db/money.ts';
import { consumeCode } from '../db/repos/mailCodes.ts';
import { claimTotpStep, findUserByEmail } from '../db/repos/users.ts';
import { pageOf } from '../db/paged.ts';
import type { UserRow } from '../db/schema.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { requireOperator } from '../http/operator.ts';
import { matchTotpStep } from '../services/totp.ts';
import { convertHistory, convertPairs, convertQuote, createQuote } from './convert.ts';
import { depositAddress, depositsPage, ruleOrMessage, sendDeposit } from './deposits.ts';
import { historyPage } from './history.ts';
import { fastForwardMoney } from './fastForward.ts';
import { addAddress, addressBook, dailyLimitOf, dailyLimitRefusal, dailyLimitView, deleteAddress, renameAddress, setWhitelist, whitelistRefusal } from './addressBook.ts';
import { helpLangOf } from '../help/service.ts';
import { cancelPendingAfterPasswordChange, checkRequest, holdWithdrawal, lockMessage, transition, withdrawalDto, withdrawInfo, withdrawLockOf } from './withdrawals.ts';

function ruleOf(coin: string, network: string): ChainRule {
  const r = ruleOrMessage(coin, network);
  return typeof r === 'string' ? reject(Code.badRequest, r) : r;
}

/** The security step of a withdrawal: the authenticator code when bound (replay-guarded), else a 'security' mail code. */
async function verifySecurityCode(db: Db, mailCodeSecret: string, user: UserRow, code: string, now: number): Promise<boolean> {
  if (user.google_secret) {
    const step = matchTotpStep(user.google_secret, code, now);
    return step !== undefined && (await claimTotpStep(db, user.id, step));
  }
  return consumeCode(db, mailCodeSecret, user.email, 'security', code, now);
}

function withdrawalsPage(db: Db, userId: number | undefined, q: z.output<typeof historyQuery>): Promise<Page<Withdrawal>> {
  let base = db.selectFrom('withdrawals');
  if (userId !== undefined) base = base.where('user_id', '=', userId);
  if (q.coin) base = base.where('coin', '=', q.coin);
  if (q.status) base = base.where('status', '=', q.status as Withdrawal['status']);
  if (q.from !== undefined) base = base.where('created_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('created_at', '<=', q.to);
  return pageOf(base, q, ['created_at', 'id'], (qb) => qb.selectAll(), withdrawalDto);
}

/**
 * The money feature (issue 12, docs/WALLET.md): /api/money/* (networks, deposit address,
 * deposits, withdrawal info / request / cancel / list, wallet history), /api/convert/* (pairs,
 * quote, convert, history) and, with config.exposeOutbox, the operator's /api/dev/money/*
 * (simulated deposit, withdrawal list and review) used by `npm run wallet`. Its chain job
 * (server/money/jobs.ts) is registered beside it in server/features.ts.
 */
export function moneyPlugin(deps: FeatureDeps): FastifyPluginAsync {
  return async (app) => {
    const { db, clock } = deps;
    // A password change or reset cancels the account's pending withdrawals and returns their funds.
    app.deps.accountHooks.passwordChanged.push(async (e) => {
      await cancelPendingAfterPasswordChange(deps, e.userId);
    });

    await app.register(
      async (r) => {
        r.get('/networks', async () => ok(CHAIN_RULES));
        r.get('/deposit/address', async (req) => {
          const { user } = await requireUser(req);
          const q = parseInput(depositAddressQuery, req.query);
          return ok(await depositAddress(db, user.id, ruleOf(q.coin, q.network)));
        });
        r.get('/deposits', async (req) => {
          const { user } = await requireUser(req);
          return ok(await depositsPage(db, user.id, parseInput(historyQuery, req.query)));
        });
        r.get('/withdraw/info', async (req) => {
          const { user } = await requireUser(req);
          const q = parseInput(withdrawInfoQuery, req.query);
          return ok(await withdrawInfo(db, user, ruleOf(q.coin, q.network), clock.now(), deps.source));
        });
        r.post('/withdraw', async (req): Promise<Envelope<Withdrawal | WithdrawLock | LimitRefusal>> => {
          const { user } = await requireUser(req);
          const b = parseInput(withdrawRequestBody.partial({ address: true, code: true }), req.body);
          const rule = ruleOf(b.coin, b.network);
          const now = clock.now();
          const lock = await withdrawLockOf(db, user, now);
          if (lock) return { code: Code.forbidden, msg: lockMessage(lock), data: lock };
          const checked = checkRequest(rule, b.address ?? '', b.amount);
          if (!checked.ok) return reject(checked.code, checked.msg);
          // Issue 26: whitelist mode and the daily limit refuse before the security code is spent.
          const lang = helpLangOf(undefined, req.headers['web-lang']);
          const address = (b.address ?? '').trim();
          const listed = await whitelistRefusal(db, user.id, rule, address, now);
          if (listed) return reject(Code.forbidden, withdrawSafetyMsg(lang, listed));
          const amountText = formatMinor(checked.amount, rule.coin);
          const limitCheck = async (q: Db): Promise<{ ok: false; code: number; msg: string; data?: LimitRefusal } | null> => {
            const refused = await dailyLimitRefusal(q, deps.source, user, rule.coin, amountText, now);
            if (refused === null) return null;
            if (refused === 'unpriced') return { ok: false, code: Code.badRequest, msg: WALLET_MSG.priceUnavailable };
            if (refused.kind !== 'dailyLimit') return null;
            const d = dailyLimitView(await dailyLimitOf(q, deps.source, user, rule.coin, now));
            return { ok: false, code: Code.badRequest, msg: withdrawSafetyMsg(lang, refused), data: { ...d, value: refused.value } };
          };
          const overLimit = await limitCheck(db);
          if (overLimit) return { code: overLimit.code, msg: overLimit.msg, data: overLimit.data ?? null } as Envelope<LimitRefusal>;
          if (!b.code) return reject(Code.badRequest, WALLET_MSG.codeRequired);
          // Wrong codes count like failed logins (5 per 15 min per account), so a 6-digit code cannot be guessed.
          const failures = app.deps.limits.loginFailuresPerAccount;
          const key = `withdraw:${user.id}`;
          if (!(await failures.allows(key, now))) return reject(Code.tooManyRequests, WALLET_MSG.tooManyAttempts);
          if (!(await verifySecurityCode(db, app.deps.config.mailCodeSecret, user, b.code, now))) {
            await failures.record(key, now);
            return reject(Code.badRequest, WALLET_MSG.codeInvalid);
          }
          await failures.reset(key);
          const res = await holdWithdrawal(deps, { userId: user.id, rule, address, amount: checked.amount, fee: checked.fee }, limitCheck);
          if (res.ok) return ok(res.withdrawal, WALLET_MSG.withdrawalSubmitted);
          const data = 'data' in res ? (res as { data?: LimitRefusal }).data : undefined;
          return data ? ({ code: res.code, msg: res.msg, data } as Envelope<LimitRefusal>) : reject(res.code, res.msg);
        });
        // The withdrawal address book and whitelist-only mode (issue 26): every answer is the whole book.
        r.get('/withdraw/addresses', async (req) => {
          const { user } = await requireUser(req);
          return ok(await addressBook(db, user.id, clock.now()));
        });
        r.post('/withdraw/addresses', async (req): Promise<Envelope<AddressBook>> => {
          const { user } = await requireUser(req);
          const b = parseInput(addAddressBody, req.body);
          const res = await addAddress(db, user.id, ruleOf(b.coin, b.network), b.address, b.label, clock.now());
          return 'ok' in res ? reject(res.code, res.msg) : ok(res, WALLET_MSG.addressSaved);
        });
        r.post('/withdraw/addresses/rename', async (req): Promise<Envelope<AddressBook>> => {
          const { user } = await requireUser(req);
          const b = parseInput(renameAddressBody, req.body);
          const res = await renameAddress(db, user.id, b.id, b.label, clock.now());
          return 'ok' in res ? reject(res.code, res.msg) : ok(res, WALLET_MSG.addressRenamed);
        });
        r.post('/withdraw/addresses/delete', async (req): Promise<Envelope<AddressBook>> => {
          const { user } = await requireUser(req);
          const b = parseInput(addressIdBody, req.body);
          const res = await deleteAddress(db, user.id, b.id, clock.now());
          return 'ok' in res ? reject(res.code, res.msg) : ok(res, WALLET_MSG.addressDeleted);
        });
        r.post('/withdraw/whitelist', async (req): Promise<Envelope<AddressBook>> => {
          const { user } = await requireUser(req);
          const b = parseInput(whitelistBody, req.body);
          const now = clock.now();
          // Both directions need the emailed 'security' code; wrong codes count like the withdrawal's.
          const failures = app.deps.limits.loginFailuresPerAccount;
          const key = `withdraw:${user.id}`;
          if (!(await failures.allows(key, now))) return reject(Code.tooManyRequests, WALLET_MSG.tooManyAttempts);
          if (!(await consumeCode(db, app.deps.config.mailCodeSecret, user.email, 'security', b.code, now))) {
            await failures.record(key, now);
            return reject(Code.badRequest, WALLET_MSG.codeInvalid);
          }
          await failures.reset(key);
          const res = await setWhitelist(db, user.id, b.enabled, now);
          return ok(res.book, res.msg);
        });
        r.post('/withdraw/cancel', async (req) => {
          const { user } = await requireUser(req);
          const b = parseInput(withdrawalIdBody, req.body);
          const res = await transition(deps, b.id, 'cancel', { userId: user.id });
          return res.ok ? ok(res.withdrawal, WALLET_MSG.withdrawalCancelled) : reject(res.code, res.msg);
        });
        r.get('/withdrawals', async (req) => {
          const { user } = await requireUser(req);
          return ok(await withdrawalsPage(db, user.id, parseInput(historyQuery, req.query)));
        });
        r.get('/history', async (req) => {
          const { user } = await requireUser(req);
          return ok(await historyPage(db, user.id, parseInput(historyQuery, req.query)));
        });
      },
      { prefix: '/api/money' },
    );

    await app.register(
      async (r) => {
        r.get('/pairs', async () => ok(convertPairs(deps.source)));
        r.post('/quote', async (req) => {
          const { user } = await requireUser(req);
          const res = await createQuote(deps, user.id, parseInput(quoteBody, req.body));
          return res.ok ? ok(res.quote) : reject(res.code, res.msg);
        });
        r.post('/', async (req) => {
          const { user } = await requireUser(req);
          const res = await convertQuote(deps, user.id, parseInput(convertBody, req.body).quoteId);
          return res.ok ? ok(res.conversion, CONVERT_MSG.converted) : reject(res.code, res.msg);
        });
        r.get('/history', async (req) => {
          const { user } = await requireUser(req);
          return ok(await convertHistory(db, user.id, parseInput(convertHistoryQuery, req.query)));
        });
      },
      { prefix: '/api/convert' },
    );

    if (!app.deps.config.exposeOutbox) return;
    await app.register(
      async (r) => {
        r.addHook('onRequest', requireOperator);
        r.post('/deposit', async (req) => {
          const b = parseInput(devDepositBody, req.body);
          const rule = ruleOf(b.coin, b.network);
          const user = await findUserByEmail(db, b.email);
          if (!user || user.role !== 'user') return reject(Code.notFound, WALLET_MSG.userNotFound);
          const res = await sendDeposit(deps, user.id, rule, b.amount);
          return typeof res === 'string' ? reject(Code.badRequest, res) : ok(res, res.status === 'belowMinimum' ? WALLET_MSG.depositBelowMinimum : 'success');
        });
        r.get('/withdrawals', async (req) => ok(await withdrawalsPage(db, undefined, parseInput(historyQuery, req.query))));
        r.post('/fast-forward', async (req) => {
          const b = parseInput(devFastForwardBody, req.body);
          const user = await findUserByEmail(db, b.email);
          if (!user || user.role !== 'user') return reject(Code.notFound, WALLET_MSG.userNotFound);
          return ok(await fastForwardMoney(db, user, Math.round(b.hours * 3_600_000), clock.now()));
        });
        r.post('/review', async (req) => {
          const b = parseInput(devReviewBody, req.body);
          const res = await transition(deps, b.id, b.decision, b.reason !== undefined ? { reason: b.reason } : {});
          return res.ok ? ok(res.withdrawal) : reject(res.code, res.msg);
        });
      },
      { prefix: '/api/dev/money' },
    );
  };
}
