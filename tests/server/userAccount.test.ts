import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../src/protocol/envelope.ts';
import { MSG, USER_MSG } from '../../src/protocol/user.ts';
import type { GoogleCodeResult, LoginRecord, UserInfo } from '../../src/protocol/user.ts';
import { call, login, register, sendCode, startServer } from './harness.ts';
import type { Harness } from './harness.ts';

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);
const HOUR = 3_600_000;

function avatarForm(bytes: Buffer, name: string, nickname?: string): FormData {
  const fd = new FormData();
  if (nickname !== undefined) fd.append('nickname', nickname);
  fd.append('avatar', new Blob([new Uint8Array(bytes)]), name);
  return fd;
}

describe('/api/user: passwords, profile, login history, Google authenticator', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer();
  });
  afterAll(async () => h.close());

  describe('resetPassword', () => {
    it('resets with the reset code, revokes all tokens, locks withdrawals 48 h', async () => {
      await register(h, 'reset@example.com', 'oldpass1');
      const token = await login(h, 'reset@example.com', 'oldpass1');
      const code = await sendCode(h, 'reset@example.com', 'reset');
      const mismatch = await call(h, '/user/resetPassword', { body: { email: 'reset@example.com', code, password: 'newpass1', confirmPassword: 'newpass2' } });
      expect([mismatch.code, mismatch.msg]).toEqual([400, MSG.passwordMismatch]);
      const r = await call(h, '/user/resetPassword', { body: { email: 'reset@example.com', code, password: 'newpass1', confirmPassword: 'newpass1' } });
      expect([r.code, r.msg]).toEqual([200, USER_MSG.passwordReset]);
      const now = h.clock.now();
      expect((await call(h, '/user/info', { token })).code).toBe(401);
      const fresh = await login(h, 'reset@example.com', 'newpass1');
      const info = await call<UserInfo>(h, '/user/info', { token: fresh });
      expect(info.data.withdrawLockUntil).toBe(now + 48 * HOUR);
      const oldPw = await call(h, '/user/authType', { body: { email: 'reset@example.com', password: 'oldpass1' } });
      expect(oldPw.msg).toBe(USER_MSG.credentialsInvalid);
    });

    it('a wrong code and an unknown email give the same answer', async () => {
      for (const email of ['reset@example.com', 'ghost@example.com']) {
        const r = await call(h, '/user/resetPassword', { body: { email, code: '000000', password: 'newpass9', confirmPassword: 'newpass9' } });
        expect([r.code, r.msg]).toEqual([400, USER_MSG.codeInvalid]);
      }
    });
  });

  describe('modify-password', () => {
    it('refuses the same password again, and nothing changes: no withdrawal lock, no session ended (issue 26)', async () => {
      await register(h, 'same@example.com', 'first111');
      const mine = await login(h, 'same@example.com', 'first111');
      const other = await login(h, 'same@example.com', 'first111');
      const same = await call(h, '/user/modify-password', { token: mine, body: { oldPassword: 'first111', password: 'first111', confirmPassword: 'first111' } });
      expect([same.code, same.msg]).toEqual([400, MSG.passwordSameAsOld]);
      const info = await call<UserInfo>(h, '/user/info', { token: mine });
      expect(info.data.withdrawLockUntil ?? 0).toBeLessThanOrEqual(h.clock.now());
      expect((await call(h, '/user/info', { token: other })).code).toBe(200);
    });

    it('checks the old password, keeps this token, revokes the others, locks 24 h', async () => {
      await register(h, 'modify@example.com', 'first111');
      const mine = await login(h, 'modify@example.com', 'first111');
      const other = await login(h, 'modify@example.com', 'first111');
      const noAuth = await call(h, '/user/modify-password', { body: { oldPassword: 'first111', password: 'second22', confirmPassword: 'second22' } });
      expect(noAuth.code).toBe(401);
      const wrong = await call(h, '/user/modify-password', { token: mine, body: { oldPassword: 'nope1234', password: 'second22', confirmPassword: 'second22' } });
      expect([wrong.code, wrong.msg]).toEqual([400, USER_MSG.oldPasswordInvalid]);
      const short = await call(h, '/user/modify-password', { token: mine, body: { oldPassword: 'first111', password: 'abc', confirmPassword: 'abc' } });
      expect([short.code, short.msg]).toEqual([400, MSG.passwordLength]);
      const r = await call(h, '/user/modify-password', { token: mine, body: { oldPassword: 'first111', password: 'second22', confirmPassword: 'second22' } });
      expect([r.code, r.msg]).toEqual([200, USER_MSG.passwordChanged]);
      const info = await call<UserInfo>(h, '/user/info', { token: mine });
      expect(info.code).toBe(200);
      expect(info.data.withdrawLockUntil).toBe(h.clock.now() + 24 * HOUR);
      expect((await call(h, '/user/info', { token: other })).code).toBe(401);
      expect((await call(h, '/user/authType', { body: { email: 'modify@example.com', password: 'second22' } })).code).toBe(200);
    });
  });

  describe('modify-info and avatars', () => {
    let token: string;
    beforeAll(async () => {
      await register(h, 'avatar@example.com');
      token = await login(h, 'avatar@example.com');
    });

    it('needs a token', async () => {
      expect((await call(h, '/user/modify-info', { body: { nickname: 'x' } })).code).toBe(401);
    });

    it('sets the nickname from JSON and validates its length', async () => {
      const r = await call<UserInfo>(h, '/user/modify-info', { token, body: { nickname: '  Whale  ' } });
      expect([r.code, r.msg, r.data.nickname]).toEqual([200, USER_MSG.infoSaved, 'Whale']);
      for (const nickname of ['', 'x'.repeat(21)]) {
        const bad = await call(h, '/user/modify-info', { token, body: { nickname } });
        expect([bad.code, bad.msg]).toEqual([400, MSG.nicknameLength]);
      }
    });

    it('accepts a real PNG (multipart, with a nickname) and serves it with its content type', async () => {
      const r = await call<UserInfo>(h, '/user/modify-info', { token, multipart: avatarForm(PNG_1X1, 'me.png', 'Pixel') });
      expect([r.code, r.data.nickname]).toEqual([200, 'Pixel']);
      expect(r.data.avatar).toMatch(/^\/api\/files\/avatars\/[0-9a-f]{32}\.png$/);
      const img = await fetch(h.base + r.data.avatar);
      expect(img.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await img.arrayBuffer()).equals(PNG_1X1)).toBe(true);
      expect(readdirSync(join(h.dataDir, 'avatars'))).toContain(r.data.avatar.split('/').pop());
      const info = await call<UserInfo>(h, '/user/info', { token });
      expect(info.data.avatar).toBe(r.data.avatar);
    });

    it('accepts a JPEG by magic bytes and .jpg/.jpeg extension', async () => {
      for (const name of ['me.jpg', 'ME.JPEG']) {
        const r = await call<UserInfo>(h, '/user/modify-info', { token, multipart: avatarForm(JPEG_HEAD, name) });
        expect(r.code, name).toBe(200);
        expect(r.data.avatar).toMatch(/\.jpg$/);
        const img = await fetch(h.base + r.data.avatar);
        expect(img.headers.get('content-type')).toBe('image/jpeg');
        await img.arrayBuffer();
      }
    });

    it('rejects a text file renamed .png, a PNG named .gif, and a JPEG named .png', async () => {
      const cases: [Buffer, string][] = [
        [Buffer.from('just some text, not an image'), 'evil.png'],
        [PNG_1X1, 'pic.gif'],
        [JPEG_HEAD, 'pic.png'],
        [PNG_1X1, 'noextension'],
      ];
      for (const [bytes, name] of cases) {
        const r = await call(h, '/user/modify-info', { token, multipart: avatarForm(bytes, name) });
        expect([r.code, r.msg], name).toEqual([400, MSG.onlyImages]);
      }
    });

    it('rejects an avatar over 2 MB and keeps the old one', async () => {
      const before = await call<UserInfo>(h, '/user/info', { token });
      const big = Buffer.concat([PNG_1X1, Buffer.alloc(2 * 1024 * 1024)]);
      const r = await call(h, '/user/modify-info', { token, multipart: avatarForm(big, 'big.png') });
      expect([r.code, r.msg]).toEqual([413, MSG.avatarTooLarge]);
      const after = await call<UserInfo>(h, '/user/info', { token });
      expect(after.data.avatar).toBe(before.data.avatar);
    });

    it('404 envelope for unknown or path-traversing avatar names', async () => {
      for (const name of ['0'.repeat(32) + '.png', '..%2F..%2Fapp.db', 'x.png']) {
        const r = await call(h, `/files/avatars/${name}`);
        expect(r.code, name).toBe(404);
      }
    });
  });

  describe('login-history', () => {
    it('pages the logins newest first with client, IP and masked account', async () => {
      await register(h, 'history@example.com');
      const tokens: string[] = [];
      for (let i = 0; i < 3; i++) tokens.push(await login(h, 'history@example.com'));
      const token = tokens[2] ?? '';
      const r = await call<Page<LoginRecord>>(h, '/user/login-history', { token, body: { page: 1, pageSize: 2 } });
      expect(r.code).toBe(200);
      expect([r.data.total, r.data.page, r.data.pageSize, r.data.list.length]).toEqual([3, 1, 2, 2]);
      const [first, second] = r.data.list;
      expect(first?.time).toBeGreaterThan(second?.time ?? Infinity);
      expect(first).toMatchObject({ client: expect.stringMatching(/^web/), ip: '127.0.0.1', account: 'hi***@example.com' });
      const p2 = await call<Page<LoginRecord>>(h, '/user/login-history', { token, body: { page: 2, pageSize: 2 } });
      expect(p2.data.list).toHaveLength(1);
      const defaults = await call<Page<LoginRecord>>(h, '/user/login-history', { token, body: {} });
      expect([defaults.data.page, defaults.data.pageSize]).toEqual([1, 20]);
      const bad = await call(h, '/user/login-history', { token, body: { page: 0 } });
      expect(bad.code).toBe(400);
      expect((await call(h, '/user/login-history', { body: {} })).code).toBe(401);
    });
  });

  describe('Google authenticator', () => {
    it('get → check → bind, then authType says google and login needs the TOTP', async () => {
      await register(h, 'totp@example.com');
      const token = await login(h, 'totp@example.com');
      const g = await call<GoogleCodeResult>(h, '/user/get-google-code', { token });
      expect(g.code).toBe(200);
      expect(g.data.uri).toMatch(/^otpauth:\/\/totp\/RiskFree:totp%40example\.com\?/);
      const again = await call<GoogleCodeResult>(h, '/user/get-google-code', { token });
      expect(again.data.secret).toBe(g.data.secret);

      const totp = new TOTP({ issuer: 'RiskFree', secret: g.data.secret, algorithm: 'SHA1', digits: 6, period: 30 });
      const now = (): string => totp.generate({ timestamp: h.clock.now() });
      const check = await call<{ valid: boolean }>(h, '/user/check-google-code', { token, body: { code: now() } });
      expect([check.code, check.data.valid]).toEqual([200, true]);
      const prev = totp.generate({ timestamp: h.clock.now() - 30_000 });
      expect((await call<{ valid: boolean }>(h, '/user/check-google-code', { token, body: { code: prev } })).data.valid).toBe(true);
      const old = totp.generate({ timestamp: h.clock.now() - 90_000 });
      expect((await call<{ valid: boolean }>(h, '/user/check-google-code', { token, body: { code: old } })).data.valid).toBe(false);
      const fmt = await call(h, '/user/check-google-code', { token, body: { code: '12345' } });
      expect([fmt.code, fmt.msg]).toEqual([400, MSG.googleCodeInvalid]);

      const badBind = await call(h, '/user/bind-google-authen', { token, body: { code: old } });
      expect([badBind.code, badBind.msg]).toEqual([400, USER_MSG.googleCodeInvalid]);
      const bind = await call(h, '/user/bind-google-authen', { token, body: { code: now() } });
      expect([bind.code, bind.msg]).toEqual([200, USER_MSG.googleBound]);
      const twice = await call(h, '/user/bind-google-authen', { token, body: { code: now() } });
      expect([twice.code, twice.msg]).toEqual([400, USER_MSG.googleAlreadyBound]);
      expect((await call<UserInfo>(h, '/user/info', { token })).data.googleBound).toBe(true);
      // The binding code's step is spent: the same code cannot log in (replay guard).
      const replayBind = await call(h, '/user/login', { form: { email: 'totp@example.com', password: 'secret12', code: now() } });
      expect([replayBind.code, replayBind.msg]).toEqual([400, USER_MSG.codeInvalid]);

      const at = await call(h, '/user/authType', { body: { email: 'totp@example.com', password: 'secret12' } });
      expect(at.data).toEqual({ authType: 'google' });
      h.clock.advance(61_000);
      const mailCode = await sendCode(h, 'totp@example.com', 'login');
      const withMail = await call(h, '/user/login', { form: { email: 'totp@example.com', password: 'secret12', code: mailCode } });
      // Once Google is bound the email code no longer logs in (unless it happens to equal the TOTP).
      if (mailCode !== now()) expect([withMail.code, withMail.msg]).toEqual([400, USER_MSG.codeInvalid]);
      const r = await call<{ token: string }>(h, '/user/login', { form: { email: 'totp@example.com', password: 'secret12', code: now() } });
      expect([r.code, r.msg]).toEqual([200, USER_MSG.loggedIn]);
      const replay = await call(h, '/user/login', { form: { email: 'totp@example.com', password: 'secret12', code: now() } });
      expect([replay.code, replay.msg]).toEqual([400, USER_MSG.codeInvalid]);
      h.clock.advance(30_000);
      const next = await call(h, '/user/login', { form: { email: 'totp@example.com', password: 'secret12', code: now() } });
      expect(next.code).toBe(200);
    });

    it('all Google calls need a token', async () => {
      expect((await call(h, '/user/get-google-code')).code).toBe(401);
      expect((await call(h, '/user/check-google-code', { body: { code: '123456' } })).code).toBe(401);
      expect((await call(h, '/user/bind-google-authen', { body: { code: '123456' } })).code).toBe(401);
    });
  });
});
