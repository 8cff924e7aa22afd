import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import { findUserByEmail } from '../../server/db/repos/users.ts';
import { MSG, USER_MSG } from '../../src/protocol/user.ts';
import type { UserInfo } from '../../src/protocol/user.ts';
import { call, lastCode, login, register, sendCode, startServer } from './harness.ts';
import type { Harness } from './harness.ts';

describe('/api/user: sendMailCode, register, authType, login, logout, info', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ seed: true });
  });
  afterAll(async () => h.close());

  describe('sendMailCode', () => {
    it('validates email and type', async () => {
      const cases: [unknown, string][] = [
        [{ type: 'register' }, MSG.emailRequired],
        [{ email: '', type: 'register' }, MSG.emailRequired],
        [{ email: 'nope', type: 'register' }, MSG.emailInvalid],
        [{ email: 42, type: 'register' }, MSG.emailRequired],
      ];
      for (const [body, msg] of cases) {
        const r = await call(h, '/user/sendMailCode', { body });
        expect([r.code, r.msg], JSON.stringify(body)).toEqual([400, msg]);
      }
      const badType = await call(h, '/user/sendMailCode', { body: { email: 'a@b.co', type: 'spam' } });
      expect(badType.code).toBe(400);
    });

    it('mails a 6-digit code to the outbox and the dev endpoint', async () => {
      const r = await call(h, '/user/sendMailCode', { body: { email: 'Mail1@Example.com', type: 'register' } });
      expect([r.code, r.msg]).toEqual([200, USER_MSG.codeSent]);
      const code = await lastCode(h, 'mail1@example.com');
      expect(code).toMatch(/^\d{6}$/);
      const dev = await call<{ to: string; code: string }[]>(h, '/dev/outbox?email=mail1@example.com');
      expect(dev.data[0]).toMatchObject({ to: 'mail1@example.com', code });
    });

    it('refuses a resend within 60 s per email and purpose, allows it after', async () => {
      await sendCode(h, 'resend@example.com', 'register');
      const again = await call(h, '/user/sendMailCode', { body: { email: 'resend@example.com', type: 'register' } });
      expect([again.code, again.msg]).toEqual([429, USER_MSG.resendWait]);
      h.clock.advance(60_000);
      const later = await call(h, '/user/sendMailCode', { body: { email: 'resend@example.com', type: 'register' } });
      expect(later.code).toBe(200);
    });

    it('register needs an unused email; login/reset for unknown emails say success but send nothing', async () => {
      const taken = await call(h, '/user/sendMailCode', { body: { email: 'demo@example.com', type: 'register' } });
      expect([taken.code, taken.msg]).toEqual([409, USER_MSG.emailTaken]);
      for (const type of ['login', 'reset']) {
        const r = await call(h, '/user/sendMailCode', { body: { email: 'ghost@example.com', type } });
        expect(r.code).toBe(200);
      }
      await expect(lastCode(h, 'ghost@example.com')).rejects.toThrow();
    });

    it("a security code goes only to the logged-in account's own email (issue 26, Minor 16)", async () => {
      await register(h, 'owner@example.com');
      const token = await login(h, 'owner@example.com');
      await register(h, 'victim@example.com');
      h.clock.advance(61_000);
      const mailsTo = async (email: string) => (await h.db.selectFrom('outbox').select('id').where('to_email', '=', email).execute()).length;
      const victimBefore = await mailsTo('victim@example.com');
      // a guest cannot ask for one, whatever address it types
      const guest = await call(h, '/user/sendMailCode', { body: { email: 'victim@example.com', type: 'security' } });
      expect(guest.code).toBe(401);
      // a logged-in user typing another account's (or any other) address is refused, and nothing is mailed
      for (const email of ['victim@example.com', 'stranger@example.com']) {
        const r = await call(h, '/user/sendMailCode', { token, body: { email, type: 'security' } });
        expect([r.code, r.msg], email).toEqual([400, USER_MSG.securityEmailOnly]);
      }
      expect(await mailsTo('victim@example.com')).toBe(victimBefore);
      expect(await mailsTo('stranger@example.com')).toBe(0);
      // without an address (what the withdrawal screen sends) it goes to the session's email
      const r = await call(h, '/user/sendMailCode', { token, body: { type: 'security' } });
      expect([r.code, r.msg]).toEqual([200, USER_MSG.codeSent]);
      const mail = (await h.db.selectFrom('outbox').selectAll().where('to_email', '=', 'owner@example.com').orderBy('id', 'desc').executeTakeFirstOrThrow());
      expect(mail.subject).toBe('Your security verification code');
      // its own address, in any case, is fine too (after the resend window)
      h.clock.advance(61_000);
      const own = await call(h, '/user/sendMailCode', { token, body: { email: 'Owner@Example.com', type: 'security' } });
      expect(own.code).toBe(200);
    });
  });

  describe('register', () => {
    const valid = { email: 'reg@example.com', password: 'secret12', confirmPassword: 'secret12', code: '000000', agree: true };

    it('validates every field with the SPEC messages', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ ...valid, email: undefined }, MSG.emailRequired],
        [{ ...valid, email: 'x@' }, MSG.emailInvalid],
        [{ ...valid, password: '' }, MSG.passwordRequired],
        [{ ...valid, password: '12345', confirmPassword: '12345' }, MSG.passwordLength],
        [{ ...valid, password: 'x'.repeat(17), confirmPassword: 'x'.repeat(17) }, MSG.passwordLength],
        [{ ...valid, confirmPassword: 'other123' }, MSG.passwordMismatch],
        [{ ...valid, code: '12ab56' }, MSG.googleCodeInvalid],
        [{ ...valid, code: undefined }, MSG.codeRequired],
        [{ ...valid, agree: false }, MSG.registerAgreement],
        [{ ...valid, agree: 'true' }, MSG.registerAgreement],
        [{ ...valid, password: 123456 }, MSG.passwordRequired],
      ];
      for (const [body, msg] of cases) {
        const r = await call(h, '/user/register', { body });
        expect([r.code, r.msg], JSON.stringify(body)).toEqual([400, msg]);
      }
    });

    it('needs the mailed register code, and the code is single use', async () => {
      const wrong = await call(h, '/user/register', { body: valid });
      expect([wrong.code, wrong.msg]).toEqual([400, USER_MSG.codeInvalid]);
      const code = await sendCode(h, 'reg@example.com', 'register');
      const r = await call(h, '/user/register', { body: { ...valid, code } });
      expect([r.code, r.msg]).toEqual([200, USER_MSG.registered]);
      const again = await call(h, '/user/register', { body: { ...valid, email: 'reg@example.com', code } });
      expect([again.code, again.msg]).toEqual([409, USER_MSG.emailTaken]);
    });

    it('creates UID ≥ 10000001, an 8-char invite code and the demo balances through the ledger', async () => {
      const user = await findUserByEmail(h.db, 'reg@example.com');
      expect(user?.id).toBeGreaterThanOrEqual(10_000_001);
      expect(user?.invite_code).toMatch(/^[A-Z0-9]{8}$/);
      const balances = await balancesOf(h.db, user?.id ?? 0);
      expect(balances).toEqual([
        { wallet: 'fund', asset: 'USDT', amount: 10_000_000_000n },
        { wallet: 'perp', asset: 'USDT', amount: 10_000_000_000n },
      ]);
      expect(await ledgerSum(h.db, user?.id ?? 0, 'fund', 'USDT')).toBe(10_000_000_000n);
    });

    it('checks an optional invite code and records the inviter', async () => {
      const inviter = await findUserByEmail(h.db, 'reg@example.com');
      const code = await sendCode(h, 'invited@example.com', 'register');
      const body = { email: 'invited@example.com', password: 'secret12', confirmPassword: 'secret12', code, agree: true };
      const bad = await call(h, '/user/register', { body: { ...body, inviteCode: 'NOPE1234' } });
      expect([bad.code, bad.msg]).toEqual([400, USER_MSG.inviteInvalid]);
      // NOTE: a rejected invite code does not burn the mail code.
      const good = await call(h, '/user/register', { body: { ...body, inviteCode: inviter?.invite_code.toLowerCase() } });
      expect(good.code).toBe(200);
      expect((await findUserByEmail(h.db, 'invited@example.com'))?.invited_by).toBe(inviter?.id);
    });

    it('a mail code expires after 10 minutes', async () => {
      const code = await sendCode(h, 'late@example.com', 'register');
      h.clock.advance(10 * 60_000);
      const r = await call(h, '/user/register', { body: { email: 'late@example.com', password: 'secret12', confirmPassword: 'secret12', code, agree: true } });
      expect([r.code, r.msg]).toEqual([400, USER_MSG.codeInvalid]);
    });

    it('a code is burnt after 5 wrong guesses', async () => {
      h.clock.advance(61_000);
      const code = await sendCode(h, 'guess@example.com', 'register');
      const wrong = code === '111111' ? '222222' : '111111';
      const body = { email: 'guess@example.com', password: 'secret12', confirmPassword: 'secret12', agree: true };
      for (let i = 0; i < 5; i++) await call(h, '/user/register', { body: { ...body, code: wrong } });
      const r = await call(h, '/user/register', { body: { ...body, code } });
      expect([r.code, r.msg]).toEqual([400, USER_MSG.codeInvalid]);
    });
  });

  describe('authType, login, info, logout', () => {
    beforeAll(async () => {
      await register(h, 'trader@example.com', 'secret12');
    });

    it('authType checks credentials with one message for wrong password and unknown email', async () => {
      const okR = await call(h, '/user/authType', { body: { email: 'trader@example.com', password: 'secret12' } });
      expect([okR.code, okR.data]).toEqual([200, { authType: 'email' }]);
      for (const body of [{ email: 'trader@example.com', password: 'wrong123' }, { email: 'nobody@example.com', password: 'secret12' }]) {
        const r = await call(h, '/user/authType', { body });
        expect([r.code, r.msg]).toEqual([400, USER_MSG.credentialsInvalid]);
      }
      const v = await call(h, '/user/authType', { body: { email: 'trader@example.com' } });
      expect([v.code, v.msg]).toEqual([400, MSG.passwordRequired]);
    });

    it('login takes a form payload, needs the login code, and the code works once', async () => {
      h.clock.advance(61_000);
      const code = await sendCode(h, 'trader@example.com', 'login');
      const badPw = await call(h, '/user/login', { form: { email: 'trader@example.com', password: 'wrong123', code } });
      expect([badPw.code, badPw.msg]).toEqual([400, USER_MSG.credentialsInvalid]);
      const wrongCode = code === '123456' ? '654321' : '123456';
      const bad = await call(h, '/user/login', { form: { email: 'trader@example.com', password: 'secret12', code: wrongCode } });
      expect([bad.code, bad.msg]).toEqual([400, USER_MSG.codeInvalid]);
      const r = await call<{ token: string }>(h, '/user/login', { form: { email: 'trader@example.com', password: 'secret12', code } });
      expect([r.code, r.msg]).toEqual([200, USER_MSG.loggedIn]);
      expect(r.data.token).toMatch(/^[0-9a-f]{64}$/);
      const reuse = await call(h, '/user/login', { form: { email: 'trader@example.com', password: 'secret12', code } });
      expect([reuse.code, reuse.msg]).toEqual([400, USER_MSG.codeInvalid]);
    });

    it('login accepts JSON too, and validates fields', async () => {
      h.clock.advance(61_000);
      const code = await sendCode(h, 'trader@example.com', 'login');
      const r = await call(h, '/user/login', { body: { email: 'trader@example.com', password: 'secret12', code } });
      expect(r.code).toBe(200);
      const v = await call(h, '/user/login', { form: { email: 'trader@example.com', password: 'secret12' } });
      expect([v.code, v.msg]).toEqual([400, MSG.codeRequired]);
    });

    it('info returns the UserInfo with a masked email; Bearer prefix accepted', async () => {
      const token = await login(h, 'trader@example.com');
      for (const auth of [token, `Bearer ${token}`]) {
        const r = await call<UserInfo>(h, '/user/info', { token: auth });
        expect(r.code).toBe(200);
        expect(r.data).toMatchObject({ cover_email: 'tr***@example.com', avatar: '', kycStatus: 'unverified', googleBound: false, withdrawLockUntil: 0 });
        expect(r.data.id).toBeGreaterThanOrEqual(10_000_001);
        expect(r.data.inviteCode).toMatch(/^[A-Z0-9]{8}$/);
        expect(r.data.nickname.length).toBeGreaterThan(0);
        expect(JSON.stringify(r.data)).not.toMatch(/password|secret|hash/i);
      }
    });

    it('401 for a missing, malformed or unknown token', async () => {
      for (const token of [undefined, 'garbage', 'a'.repeat(64)]) {
        const r = await call(h, '/user/info', token ? { token } : {});
        expect([r.res.status, r.code, r.msg]).toEqual([200, 401, USER_MSG.loginAgain]);
      }
    });

    it('logout revokes the token server-side; other tokens stay valid', async () => {
      const a = await login(h, 'trader@example.com');
      const b = await login(h, 'trader@example.com');
      const out = await call(h, '/user/logout', { token: a });
      expect([out.code, out.msg]).toEqual([200, USER_MSG.loggedOut]);
      expect((await call(h, '/user/info', { token: a })).code).toBe(401);
      expect((await call(h, '/user/logout', { token: a })).code).toBe(401);
      expect((await call(h, '/user/info', { token: b })).code).toBe(200);
    });

    it('a token expires after 7 days (injected clock)', async () => {
      const t = await login(h, 'trader@example.com');
      h.clock.advance(7 * 24 * 3_600_000 - 1);
      expect((await call(h, '/user/info', { token: t })).code).toBe(200);
      h.clock.advance(1);
      expect((await call(h, '/user/info', { token: t })).code).toBe(401);
    });

    it('the seeded demo account logs in with an email code', async () => {
      const token = await login(h, 'demo@example.com', 'demo1234');
      const r = await call<UserInfo>(h, '/user/info', { token });
      expect(r.data.cover_email).toBe('de***@example.com');
    });
  });
});

describe('/api/user/register under concurrency', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(async () => h.close());

  it('two simultaneous registrations of one email: exactly one succeeds, the other gets 409 or a used-code 400', async () => {
    const code = await sendCode(h, 'race@example.com', 'register');
    const body = { email: 'race@example.com', password: 'secret12', confirmPassword: 'secret12', code, agree: true };
    const results = await Promise.all([call(h, '/user/register', { body }), call(h, '/user/register', { body })]);
    const codes = results.map((r) => r.code).sort();
    expect(codes[0]).toBe(200);
    expect([400, 409]).toContain(codes[1]);
    const users = await h.db.selectFrom('users').select('id').where('email', '=', 'race@example.com').execute();
    expect(users).toHaveLength(1);
  });
});
