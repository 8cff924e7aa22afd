import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_MSG } from '../../src/protocol/user.ts';
import { call, createRateLimits, register, relaxedLimits, startServer } from './harness.ts';
import type { Harness } from './harness.ts';

describe('rate limits over HTTP (default limits, injected clock)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ limits: createRateLimits() });
  });
  afterAll(async () => h.close());

  it('sendMailCode: 5 per 10 minutes per IP', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await call(h, '/user/sendMailCode', { body: { email: `m${i}@example.com`, type: 'register' } });
      expect(r.code, `call ${i}`).toBe(200);
    }
    const sixth = await call(h, '/user/sendMailCode', { body: { email: 'm5@example.com', type: 'register' } });
    expect([sixth.code, sixth.msg]).toEqual([429, USER_MSG.tooManyRequests]);
    h.clock.advance(10 * 60_000);
    expect((await call(h, '/user/sendMailCode', { body: { email: 'm5@example.com', type: 'register' } })).code).toBe(200);
  });

  it('authType + login: 10 per minute per IP', async () => {
    h.clock.advance(10 * 60_000);
    for (let i = 0; i < 10; i++) {
      const path = i % 2 === 0 ? '/user/authType' : '/user/login';
      const r = await call(h, path, { body: { email: `nobody${i}@example.com`, password: 'secret12', code: '123456' } });
      expect(r.code, `call ${i}`).toBe(400);
    }
    const eleventh = await call(h, '/user/authType', { body: { email: 'other@example.com', password: 'secret12' } });
    expect([eleventh.code, eleventh.msg]).toEqual([429, USER_MSG.tooManyRequests]);
    h.clock.advance(60_000);
    expect((await call(h, '/user/authType', { body: { email: 'other@example.com', password: 'secret12' } })).code).toBe(400);
  });
});

describe('failed logins: 5 per account per 15 minutes', () => {
  let h: Harness;
  beforeAll(async () => {
    const limits = { ...relaxedLimits(), loginFailuresPerAccount: createRateLimits().loginFailuresPerAccount };
    h = await startServer({ limits });
    await register(h, 'victim@example.com', 'secret12');
  });
  afterAll(async () => h.close());

  it('locks the account (even for the right password) after 5 failures, then unlocks', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await call(h, '/user/authType', { body: { email: 'victim@example.com', password: 'wrong123' } });
      expect(r.msg).toBe(USER_MSG.credentialsInvalid);
    }
    const locked = await call(h, '/user/authType', { body: { email: 'victim@example.com', password: 'secret12' } });
    expect([locked.code, locked.msg]).toEqual([429, USER_MSG.tooManyRequests]);
    const otherAccount = await call(h, '/user/authType', { body: { email: 'someone@example.com', password: 'secret12' } });
    expect(otherAccount.code).toBe(400);
    h.clock.advance(15 * 60_000);
    const unlocked = await call(h, '/user/authType', { body: { email: 'victim@example.com', password: 'secret12' } });
    expect([unlocked.code, unlocked.data]).toEqual([200, { authType: 'email' }]);
  });
});

describe('RATE_LIMIT_SCALE multiplies the budgets', () => {
  it('scale 2 allows 10 mails per IP instead of 5, then refuses', async () => {
    const h = await startServer({ limits: createRateLimits(2) });
    try {
      for (let i = 0; i < 10; i++) {
        const r = await call(h, '/user/sendMailCode', { body: { email: `s${i}@example.com`, type: 'register' } });
        expect(r.code, `call ${i}`).toBe(200);
      }
      const over = await call(h, '/user/sendMailCode', { body: { email: 's10@example.com', type: 'register' } });
      expect(over.code).toBe(429);
    } finally {
      await h.close();
    }
  });
});
