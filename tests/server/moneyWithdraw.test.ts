import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerSum } from '../../server/db/repos/ledger.ts';
import { HOLD_ACCOUNT_ID } from '../../server/money/accounts.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import type { GoogleCodeResult } from '../../src/protocol/user.ts';
import { MONEY_PATHS, WALLET_MSG } from '../../src/protocol/wallet.ts';
import type { HistoryRow, Withdrawal, WithdrawInfo, WithdrawLock } from '../../src/protocol/wallet.ts';
import { call, createRateLimits, login, sendCode } from './harness.ts';
import { api, HOUR, TRON, EVM, BTC, startMoney } from './moneyHarness.ts';
import type { MoneyHarness } from './moneyHarness.ts';


let m: MoneyHarness;
beforeAll(async () => {
  m = await startMoney();
});
afterAll(async () => m.close());

const code = (email: string, token: string): Promise<string> => m.securityCode(email, token);

function withdraw(token: string, body: Record<string, unknown>) {
  return call<Withdrawal | WithdrawLock>(m.h, api(MONEY_PATHS.withdraw), { token, body: { coin: 'USDT', network: 'TRC20', address: TRON, amount: '100', ...body } });
}

describe('withdrawal form rules', () => {
  it('info: available, minimum, fee, max and the security kind', async () => {
    const u = await m.user('w-info@example.com');
    const r = await call<WithdrawInfo>(m.h, `${api(MONEY_PATHS.withdrawInfo)}?coin=USDT&network=TRC20`, { token: u.token });
    expect(r.data).toEqual({ coin: 'USDT', network: 'TRC20', available: '10000.000000', minWithdrawal: '10', fee: '1', max: '9999.000000', security: 'email', lock: null,
      addresses: [], whitelist: { enabled: false, offAt: null }, limit: { limit: '20000', used: '0', verified: false, price: '1' } });
  });

  it('address required and checked per network, minimum, balance, code: each with its message', async () => {
    const email = 'w-rules@example.com';
    const u = await m.user(email);
    const c = '000000';
    expect((await withdraw(u.token, { address: '', code: c })).msg).toBe(WALLET_MSG.addressRequired);
    expect((await withdraw(u.token, { address: undefined, code: c })).msg).toBe(WALLET_MSG.addressRequired);
    expect((await withdraw(u.token, { address: EVM, code: c })).msg).toBe(WALLET_MSG.addressInvalid);
    expect((await withdraw(u.token, { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', code: c })).msg).toBe(WALLET_MSG.addressInvalid);
    expect((await withdraw(u.token, { network: 'ERC20', address: EVM.replace('a', 'A'), amount: '50', code: c })).msg).toBe(WALLET_MSG.addressInvalid);
    expect((await withdraw(u.token, { coin: 'BTC', network: 'Bitcoin', address: `${BTC.slice(0, -1)}5`, amount: '0.01', code: c })).msg).toBe(WALLET_MSG.addressInvalid);
    expect((await withdraw(u.token, { coin: 'BTC', network: 'Bitcoin', address: TRON, amount: '0.01', code: c })).msg).toBe(WALLET_MSG.addressInvalid);
    expect((await withdraw(u.token, { amount: '9.999999', code: c })).msg).toBe(`${WALLET_MSG.minWithdrawal}10 USDT`);
    expect((await withdraw(u.token, { network: 'ERC20', address: EVM, amount: '19', code: c })).msg).toBe(`${WALLET_MSG.minWithdrawal}20 USDT`);
    expect((await withdraw(u.token, { amount: '' })).msg).toBe(WALLET_MSG.amountRequired);
    expect((await withdraw(u.token, { coin: 'DOGE' })).msg).toBe(WALLET_MSG.unknownCoin);
    expect((await withdraw(u.token, { network: 'Bitcoin' })).msg).toBe(WALLET_MSG.unknownNetwork);
    expect((await withdraw(u.token, { code: undefined })).msg).toBe(WALLET_MSG.codeRequired);
    expect((await withdraw(u.token, { code: '123456' })).msg).toBe(WALLET_MSG.codeInvalid);
    // 10 000 + 1 fee > 10 000 available.
    expect((await withdraw(u.token, { amount: '10000', code: await code(email, u.token) })).msg).toBe(WALLET_MSG.insufficientBalance);
    expect((await withdraw(u.token, { amount: '9999', code: await code(email, u.token) })).code).toBe(200);
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe('0.000000');
  });
});

describe('holds and statuses', () => {
  it('accepting holds amount + fee; cancel while pending releases it; then cancel is refused', async () => {
    const email = 'w-cancel@example.com';
    const u = await m.user(email);
    const r = await withdraw(u.token, { code: await code(email, u.token) });
    expect([r.code, r.msg]).toEqual([200, WALLET_MSG.withdrawalSubmitted]);
    const w = r.data as Withdrawal;
    expect(w).toMatchObject({ status: 'pending', amount: '100.000000', fee: '1.000000', total: '101.000000', address: TRON });
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe('9899.000000');
    // (the withdrawal's 'notification' frame, issue 26 Major 8, is the notification centre's)
    expect(u.frames.filter((f) => f.type !== 'notification').map((f) => f.type)).toEqual(['withdrawal', 'balance']);
    const c = await call<Withdrawal>(m.h, api(MONEY_PATHS.withdrawCancel), { token: u.token, body: { id: w.id } });
    expect([c.code, c.data.status]).toEqual([200, 'cancelled']);
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe('10000.000000');
    const again = await call(m.h, api(MONEY_PATHS.withdrawCancel), { token: u.token, body: { id: w.id } });
    expect([again.code, again.msg]).toEqual([409, WALLET_MSG.notCancellable]);
    const other = await m.user('w-other@example.com');
    expect((await call(m.h, api(MONEY_PATHS.withdrawCancel), { token: other.token, body: { id: w.id } })).msg).toBe(WALLET_MSG.withdrawalNotFound);
  });

  it('approve → processing → completed one block later with a txid; reject releases the hold', async () => {
    const email = 'w-review@example.com';
    const u = await m.user(email);
    const a = (await withdraw(u.token, { network: 'ERC20', address: EVM, amount: '50', code: await code(email, u.token) })).data as Withdrawal;
    const b = (await withdraw(u.token, { amount: '30', code: await code(email, u.token) })).data as Withdrawal;
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe(`${10000 - 55 - 31}.000000`);
    const approve = await call<Withdrawal>(m.h, api(MONEY_PATHS.devReview), { body: { id: a.id, decision: 'approve' } });
    expect(approve.data.status).toBe('processing');
    expect((await call(m.h, api(MONEY_PATHS.withdrawCancel), { token: u.token, body: { id: a.id } })).msg).toBe(WALLET_MSG.notCancellable);
    m.h.clock.advance(4_999);
    await m.jobs();
    expect(u.frames.filter((f) => f.type === 'withdrawal').at(-1)?.data).toMatchObject({ id: a.id, status: 'processing' });
    m.h.clock.advance(1);
    await m.jobs();
    const done = u.frames.filter((f) => f.type === 'withdrawal').at(-1)?.data as Withdrawal;
    expect(done).toMatchObject({ id: a.id, status: 'completed' });
    expect(done.txid).toMatch(/^0x[0-9a-f]{64}$/);
    const reject = await call<Withdrawal>(m.h, api(MONEY_PATHS.devReview), { body: { id: b.id, decision: 'reject', reason: 'address on a sanctions list' } });
    expect(reject.data).toMatchObject({ status: 'rejected', reason: 'address on a sanctions list' });
    expect((await call(m.h, api(MONEY_PATHS.devReview), { body: { id: b.id, decision: 'approve' } })).msg).toBe(WALLET_MSG.notReviewable);
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe('9945.000000');
    // Nothing left on hold for this user's withdrawals; the hold account's ledger matches its balance.
    const holdRows = await m.h.db.selectFrom('balances').select('amount').where('user_id', '=', HOLD_ACCOUNT_ID).where('asset', '=', 'USDT').executeTakeFirst();
    expect(BigInt(holdRows?.amount ?? '0')).toBe(await ledgerSum(m.h.db, HOLD_ACCOUNT_ID, 'fund', 'USDT'));
    const hist = await call<Page<HistoryRow>>(m.h, `${api(MONEY_PATHS.history)}?type=withdrawal`, { token: u.token });
    expect(hist.data.list.map((r) => [r.id, r.status])).toEqual([[b.id, 'rejected'], [a.id, 'completed']]);
    const listed = await call<Page<Withdrawal>>(m.h, `${api(MONEY_PATHS.devWithdrawals)}?status=completed`);
    expect(listed.data.list.some((w) => w.id === a.id)).toBe(true);
  });
});

describe('security step and password locks', () => {
  it('with Google authenticator bound, the TOTP is required (mail codes no longer work) and cannot be replayed', async () => {
    const email = 'w-totp@example.com';
    const u = await m.user(email);
    const g = await call<GoogleCodeResult>(m.h, '/user/get-google-code', { token: u.token });
    const totp = new TOTP({ issuer: 'RiskFree', secret: g.data.secret, algorithm: 'SHA1', digits: 6, period: 30 });
    const now = (): string => totp.generate({ timestamp: m.h.clock.now() });
    expect((await call(m.h, '/user/bind-google-authen', { token: u.token, body: { code: now() } })).code).toBe(200);
    m.h.clock.advance(30_000);
    const info = await call<WithdrawInfo>(m.h, `${api(MONEY_PATHS.withdrawInfo)}?coin=USDT&network=TRC20`, { token: u.token });
    expect(info.data.security).toBe('google');
    expect((await withdraw(u.token, { code: await code(email, u.token) })).msg).toBe(WALLET_MSG.codeInvalid);
    const c = now();
    expect((await withdraw(u.token, { code: c })).code).toBe(200);
    expect((await withdraw(u.token, { code: c })).msg).toBe(WALLET_MSG.codeInvalid);
  });

  it('24 h after a password change: refused with the time left until exactly 24 h have passed', async () => {
    const email = 'w-change@example.com';
    const u = await m.user(email);
    const changedAt = m.h.clock.now();
    expect((await call(m.h, '/user/modify-password', { token: u.token, body: { oldPassword: 'secret12', password: 'secret34', confirmPassword: 'secret34' } })).code).toBe(200);
    const c = await code(email, u.token);
    const r = await withdraw(u.token, { code: c });
    expect([r.code, r.msg]).toEqual([403, WALLET_MSG.lockedAfterChange]);
    expect(r.data).toEqual({ reason: 'change', until: changedAt + 24 * HOUR, leftMs: changedAt + 24 * HOUR - m.h.clock.now() });
    const info = await call<WithdrawInfo>(m.h, `${api(MONEY_PATHS.withdrawInfo)}?coin=USDT&network=TRC20`, { token: u.token });
    expect(info.data.lock?.reason).toBe('change');
    m.h.clock.t = changedAt + 24 * HOUR - 1;
    const last = await withdraw(u.token, { code: c });
    expect([last.code, (last.data as WithdrawLock).leftMs]).toEqual([403, 1]);
    m.h.clock.t = changedAt + 24 * HOUR;
    // The lock is over (the earlier code has expired by now: a fresh one).
    const ok = await withdraw(u.token, { code: await code(email, u.token) });
    expect(ok.code).toBe(200);
  });

  it('a password change cancels every pending withdrawal asked for before it and returns the funds, said in the wallet history (issue 29)', async () => {
    const email = 'w-change-pending@example.com';
    const u = await m.user(email);
    const a = (await withdraw(u.token, { amount: '100', code: await code(email, u.token) })).data as Withdrawal;
    const b = (await withdraw(u.token, { network: 'ERC20', address: EVM, amount: '50', code: await code(email, u.token) })).data as Withdrawal;
    const c = (await withdraw(u.token, { amount: '30', code: await code(email, u.token) })).data as Withdrawal;
    // One is already approved (on its way to the chain): it stays as it is.
    expect((await call<Withdrawal>(m.h, api(MONEY_PATHS.devReview), { body: { id: c.id, decision: 'approve' } })).data.status).toBe('processing');
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe(`${10000 - 101 - 55 - 31}.000000`);
    u.frames.length = 0;

    expect((await call(m.h, '/user/modify-password', { token: u.token, body: { oldPassword: 'secret12', password: 'secret34', confirmPassword: 'secret34' } })).code).toBe(200);

    expect(await m.balance(u.token, 'fund', 'USDT')).toBe(`${10000 - 31}.000000`);
    const mine = await call<Page<Withdrawal>>(m.h, api(MONEY_PATHS.withdrawals), { token: u.token });
    expect(mine.data.list.map((w) => [w.id, w.status, w.reason])).toEqual([
      [c.id, 'processing', ''],
      [b.id, 'cancelled', WALLET_MSG.cancelledPasswordChange],
      [a.id, 'cancelled', WALLET_MSG.cancelledPasswordChange],
    ]);
    // The operator can no longer approve them; the user's screens were told at once.
    expect((await call(m.h, api(MONEY_PATHS.devReview), { body: { id: a.id, decision: 'approve' } })).msg).toBe(WALLET_MSG.notReviewable);
    expect(u.frames.filter((f) => f.type === 'withdrawal').map((f) => [(f.data as Withdrawal).id, (f.data as Withdrawal).status])).toEqual([[a.id, 'cancelled'], [b.id, 'cancelled']]);
    const hist = await call<Page<HistoryRow>>(m.h, `${api(MONEY_PATHS.history)}?type=withdrawal`, { token: u.token });
    expect(hist.data.list.map((r) => [r.id, r.status, r.note])).toEqual([
      [c.id, 'processing', undefined],
      [b.id, 'cancelled', WALLET_MSG.cancelledPasswordChange],
      [a.id, 'cancelled', WALLET_MSG.cancelledPasswordChange],
    ]);
    for (const id of [a.id, b.id]) {
      const rows = await m.h.db.selectFrom('ledger_entries').select(['type', 'amount', 'user_id']).where('ref', '=', `withdrawal:${id}`).where('user_id', '=', u.id).orderBy('id').execute();
      expect(rows.map((r) => r.type)).toEqual(['WITHDRAW_HOLD', 'WITHDRAW_RELEASE']);
    }
    const holdRows = await m.h.db.selectFrom('balances').select('amount').where('user_id', '=', HOLD_ACCOUNT_ID).where('asset', '=', 'USDT').executeTakeFirst();
    expect(BigInt(holdRows?.amount ?? '0')).toBe(await ledgerSum(m.h.db, HOLD_ACCOUNT_ID, 'fund', 'USDT'));
  });

  it('a password reset cancels the pending withdrawals too', async () => {
    const email = 'w-reset-pending@example.com';
    const u = await m.user(email);
    const a = (await withdraw(u.token, { amount: '200', code: await code(email, u.token) })).data as Withdrawal;
    m.h.clock.advance(61_000);
    const resetCode = await sendCode(m.h, email, 'reset');
    expect((await call(m.h, '/user/resetPassword', { body: { email, code: resetCode, password: 'secret99', confirmPassword: 'secret99' } })).code).toBe(200);
    const token = await login(m.h, email, 'secret99');
    expect(await m.balance(token, 'fund', 'USDT')).toBe('10000.000000');
    const hist = await call<Page<HistoryRow>>(m.h, `${api(MONEY_PATHS.history)}?type=withdrawal`, { token });
    expect(hist.data.list.map((r) => [r.id, r.status, r.note])).toEqual([[a.id, 'cancelled', WALLET_MSG.cancelledPasswordChange]]);
  });

  it('48 h after a password reset, with the reset screen message', async () => {
    const email = 'w-reset@example.com';
    await m.user(email);
    m.h.clock.advance(61_000);
    const resetCode = await sendCode(m.h, email, 'reset');
    const resetAt = m.h.clock.now();
    expect((await call(m.h, '/user/resetPassword', { body: { email, code: resetCode, password: 'secret99', confirmPassword: 'secret99' } })).code).toBe(200);
    const token = await login(m.h, email, 'secret99');
    m.h.clock.t = resetAt + 24 * HOUR;
    const r = await withdraw(token, { code: await code(email, token) });
    expect([r.code, r.msg]).toEqual([403, WALLET_MSG.lockedAfterReset]);
    expect(r.data).toMatchObject({ reason: 'reset', until: resetAt + 48 * HOUR });
    m.h.clock.t = resetAt + 48 * HOUR;
    expect((await withdraw(token, { code: await code(email, token) })).code).toBe(200);
  });
});

describe('code guessing', () => {
  it('5 wrong security codes in 15 minutes block the next attempt, even with the right code', async () => {
    const limited = await startMoney({ limits: createRateLimits() });
    try {
      const email = 'w-guess@example.com';
      const u = await limited.user(email);
      limited.h.clock.advance(61_000);
      const good = await sendCode(limited.h, email, 'security', u.token);
      const body = { coin: 'USDT', network: 'TRC20', address: TRON, amount: '10' };
      for (let i = 0; i < 5; i += 1) {
        const bad = await call(limited.h, api(MONEY_PATHS.withdraw), { token: u.token, body: { ...body, code: '000000' === good ? '111111' : '000000' } });
        expect(bad.msg).toBe(WALLET_MSG.codeInvalid);
      }
      const blocked = await call(limited.h, api(MONEY_PATHS.withdraw), { token: u.token, body: { ...body, code: good } });
      expect([blocked.code, blocked.msg]).toEqual([429, WALLET_MSG.tooManyAttempts]);
      limited.h.clock.advance(15 * 60_000);
      const fresh = await sendCode(limited.h, email, 'security', u.token);
      expect((await call(limited.h, api(MONEY_PATHS.withdraw), { token: u.token, body: { ...body, code: fresh } })).code).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('development fast-forward', () => {
  it('ends a reset lock sooner (keeping its reading) and lets confirming deposits confirm, without moving the server clock', async () => {
    const email = 'w-ff@example.com';
    await m.user(email);
    m.h.clock.advance(61_000);
    const resetCode = await sendCode(m.h, email, 'reset');
    expect((await call(m.h, '/user/resetPassword', { body: { email, code: resetCode, password: 'secret77', confirmPassword: 'secret77' } })).code).toBe(200);
    const token = await login(m.h, email, 'secret77');
    await call(m.h, api(MONEY_PATHS.devDeposit), { body: { email, coin: 'BTC', network: 'Bitcoin', amount: '0.01' } });
    const ff = await call<{ withdrawLockUntil: number; deposits: number }>(m.h, api(MONEY_PATHS.devFastForward), { body: { email, hours: 47 } });
    expect(ff.data.deposits).toBe(1);
    const locked = await withdraw(token, { code: await code(email, token) });
    expect([locked.code, locked.msg, (locked.data as WithdrawLock).reason]).toEqual([403, WALLET_MSG.lockedAfterReset, 'reset']);
    expect((locked.data as WithdrawLock).leftMs).toBeLessThanOrEqual(HOUR);
    await m.jobs();
    expect(await m.balance(token, 'fund', 'BTC')).toBe('0.01000000');
    await call(m.h, api(MONEY_PATHS.devFastForward), { body: { email, hours: 1 } });
    expect((await withdraw(token, { code: await code(email, token) })).code).toBe(200);
    expect((await call(m.h, api(MONEY_PATHS.devFastForward), { body: { email: 'nobody@example.com', hours: 1 } })).msg).toBe(WALLET_MSG.userNotFound);
  });
});
