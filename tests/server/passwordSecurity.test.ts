import { randomBytes, scryptSync } from 'node:crypto';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { findUserByEmail } from '../../server/db/repos/users.ts';
import { DEFAULT_SCRYPT_LOG_N, hashPassword, needsRehash, parseHash, verifyPassword } from '../../server/services/passwords.ts';
import { USER_MSG } from '../../src/protocol/user.ts';
import type { Envelope } from '../../src/protocol/envelope.ts';
import { call, createRateLimits, lastCode, register, relaxedLimits, startServer, type Harness } from './harness.ts';

/**
 * Issue 10: password hashes at OWASP's scrypt cost (N=2^17, r=8, p=1) with the parameters in the
 * hash, a transparent upgrade of old hashes at the next successful login, and a login lockout per
 * (account, source IP) so an attacker cannot lock the owner out from elsewhere.
 */

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** The hash format before this change: `scrypt$<salt>$<key>` at N=2^14, r=8, p=1. */
function legacyHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 2 ** 14, r: 8, p: 1 });
  return `scrypt$${salt.toString('hex')}$${key.toString('hex')}`;
}

describe('password hashes', () => {
  it('the production default is OWASP scrypt N=2^17, r=8, p=1, written into the hash', async () => {
    expect(DEFAULT_SCRYPT_LOG_N).toBe(17);
    expect(loadConfig({ NODE_ENV: 'production' }).passwordHashLogN).toBe(17);
    expect(loadConfig({}).passwordHashLogN).toBe(17);
    // The browser tests' servers may lower it; production refuses to start with that switch.
    expect(loadConfig({ TEST_PASSWORD_HASH_LOG_N: '12' }).passwordHashLogN).toBe(12);
    expect(() => loadConfig({ NODE_ENV: 'production', TEST_PASSWORD_HASH_LOG_N: '12' })).toThrow(/refused under NODE_ENV=production/);
    for (const bad of ['9', '18', '12.5', 'x']) expect(() => loadConfig({ TEST_PASSWORD_HASH_LOG_N: bad }), bad).toThrow(/Invalid TEST_PASSWORD_HASH_LOG_N/);
    const hash = await hashPassword('demo1234');
    expect(hash).toMatch(/^scrypt\$ln=17,r=8,p=1\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(parseHash(hash)?.params).toEqual({ logN: 17, r: 8, p: 1 });
    expect(await verifyPassword('demo1234', hash)).toBe(true);
    expect(await verifyPassword('demo1235', hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
  });

  it('reads the legacy format as N=2^14 and wants it re-hashed; refuses malformed or absurd parameters', async () => {
    const old = legacyHash('secret12');
    expect(parseHash(old)?.params).toEqual({ logN: 14, r: 8, p: 1 });
    expect(await verifyPassword('secret12', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('x', 12), 17)).toBe(true);
    expect(needsRehash(await hashPassword('x', 12), 12)).toBe(false);
    for (const bad of ['!', 'scrypt$zz$00', `scrypt$ln=30,r=8,p=1$${'00'.repeat(16)}$${'00'.repeat(32)}`, `bcrypt$${'00'.repeat(16)}$${'00'.repeat(32)}`]) {
      expect(await verifyPassword('x', bad), bad).toBe(false);
    }
  });

  it('a stored N=2^14 hash is upgraded to the configured cost at the next successful login, not on a failed one', async () => {
    h = await startServer({ config: { passwordHashLogN: DEFAULT_SCRYPT_LOG_N } });
    await register(h, 'old@example.com', 'secret12');
    const old = legacyHash('secret12');
    await h.db.updateTable('users').set({ password_hash: old }).where('email', '=', 'old@example.com').execute();

    const wrong = await call(h, '/user/authType', { body: { email: 'old@example.com', password: 'wrong123' } });
    expect(wrong.msg).toBe(USER_MSG.credentialsInvalid);
    expect((await findUserByEmail(h.db, 'old@example.com'))?.password_hash).toBe(old);

    const right = await call(h, '/user/authType', { body: { email: 'old@example.com', password: 'secret12' } });
    expect(right.data).toEqual({ authType: 'email' });
    const upgraded = (await findUserByEmail(h.db, 'old@example.com'))?.password_hash ?? '';
    expect(upgraded).toMatch(/^scrypt\$ln=17,r=8,p=1\$/);
    expect(await verifyPassword('secret12', upgraded)).toBe(true);

    // the full login still works with the upgraded hash (and does not re-hash again)
    h.clock.advance(61_000);
    await call(h, '/user/sendMailCode', { body: { email: 'old@example.com', type: 'login' } });
    const code = await lastCode(h, 'old@example.com');
    const login = await call<{ token: string }>(h, '/user/login', { form: { email: 'old@example.com', password: 'secret12', code } });
    expect(login.code).toBe(200);
    expect((await findUserByEmail(h.db, 'old@example.com'))?.password_hash).toBe(upgraded);
  });
});

/** POST JSON from a chosen local address (127.0.0.x are all loopback on Linux): a second client IP. */
function postFrom(localAddress: string, path: string, body: unknown): Promise<Envelope> {
  return new Promise((resolve, reject) => {
    const u = new URL(h?.base ?? '');
    const payload = JSON.stringify(body);
    const req = request(
      { host: u.hostname, port: u.port, path: `/api${path}`, method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), client: 'web' } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve(JSON.parse(text) as Envelope));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('login lockout per account AND source IP', () => {
  it('an attacker failing from one IP locks only that IP out of the account; the owner logs in from another', async () => {
    h = await startServer({ limits: { ...relaxedLimits(), loginFailuresPerAccount: createRateLimits().loginFailuresPerAccount } });
    await register(h, 'owner@example.com', 'secret12');
    const ATTACKER = '127.0.0.2';
    const OWNER = '127.0.0.1';

    for (let i = 0; i < 5; i++) {
      const r = await postFrom(ATTACKER, '/user/authType', { email: 'owner@example.com', password: `guess${i}xx` });
      expect(r.msg, `guess ${i}`).toBe(USER_MSG.credentialsInvalid);
    }
    // the attacker's address is locked for this account, even with the right password
    const locked = await postFrom(ATTACKER, '/user/authType', { email: 'owner@example.com', password: 'secret12' });
    expect([locked.code, locked.msg]).toEqual([429, USER_MSG.tooManyRequests]);
    // the owner, elsewhere, is not
    const owner = await postFrom(OWNER, '/user/authType', { email: 'owner@example.com', password: 'secret12' });
    expect([owner.code, owner.data]).toEqual([200, { authType: 'email' }]);
    // and the owner's own failures are counted apart from the attacker's
    expect((await postFrom(OWNER, '/user/authType', { email: 'owner@example.com', password: 'typo1234' })).msg).toBe(USER_MSG.credentialsInvalid);
    expect((await postFrom(OWNER, '/user/authType', { email: 'owner@example.com', password: 'secret12' })).code).toBe(200);
    // the attacker's lock ends after 15 minutes
    h.clock.advance(15 * 60_000);
    expect((await postFrom(ATTACKER, '/user/authType', { email: 'owner@example.com', password: 'wrong999' })).msg).toBe(USER_MSG.credentialsInvalid);
  });
});
