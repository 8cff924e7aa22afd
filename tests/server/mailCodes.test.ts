import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { consumeCode, hashCode, issueCode, purgeMailSecrets } from '../../server/db/repos/mailCodes.ts';
import { SERVER_MSG } from '../../server/http/errors.ts';
import { USER_MSG } from '../../src/protocol/user.ts';
import { call, startServer, T0, type Harness } from './harness.ts';

/**
 * Issue 10: how mail codes are stored and sent. The production end-to-end run with a real SMTP
 * server is tests/server/productionMail.test.ts; these are the edges around it.
 */

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/** A TCP port nothing listens on (bound then released), so an SMTP connection is refused. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function rows(harness: Harness): Promise<{ codes: number; outbox: number }> {
  const codes = await harness.db.selectFrom('mail_codes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const outbox = await harness.db.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { codes: Number(codes.n), outbox: Number(outbox.n) };
}

describe('stored codes', () => {
  it('code_hash is an HMAC: the right code verifies only under the same secret', async () => {
    h = await startServer();
    const input = { email: 'a@example.com', purpose: 'reset' as const, code: '123456', now: T0, outbox: null };
    await issueCode(h.db, { ...input, secret: 'key-one' });
    const stored = await h.db.selectFrom('mail_codes').select('code_hash').executeTakeFirstOrThrow();
    expect(stored.code_hash).toBe(hashCode('key-one', 'a@example.com', 'reset', '123456'));
    expect(stored.code_hash).not.toBe(hashCode('key-two', 'a@example.com', 'reset', '123456'));
    expect(await consumeCode(h.db, 'key-two', 'a@example.com', 'reset', '123456', T0 + 1)).toBe(false);
    expect(await consumeCode(h.db, 'key-one', 'a@example.com', 'reset', '123456', T0 + 2)).toBe(true);
  });

  it('a production start purges the dev outbox and dead codes, and keeps live codes', async () => {
    h = await startServer();
    await issueCode(h.db, { email: 'a@example.com', purpose: 'login', code: '111111', now: T0, secret: 's', outbox: { subject: 'x', body: 'x 111111' } });
    await issueCode(h.db, { email: 'b@example.com', purpose: 'login', code: '222222', now: T0 + 20 * 60_000, secret: 's', outbox: null });
    expect(await rows(h)).toEqual({ codes: 2, outbox: 1 });
    await purgeMailSecrets(h.db, T0 + 21 * 60_000); // the first code has expired by then
    expect(await rows(h)).toEqual({ codes: 1, outbox: 0 });
    expect(await consumeCode(h.db, 's', 'b@example.com', 'login', '222222', T0 + 21 * 60_000)).toBe(true);
  });
});

describe('sending', () => {
  it('production without SMTP says the mail could not be sent and keeps nothing', async () => {
    h = await startServer({ config: { production: true } });
    const r = await call(h, '/user/sendMailCode', { body: { email: 'new@example.com', type: 'register' } });
    expect([r.code, r.msg]).toEqual([500, SERVER_MSG.mailFailed]);
    expect(await rows(h)).toEqual({ codes: 0, outbox: 0 });
  });

  it('development keeps the mail and its code in the outbox (production: productionMail.test.ts)', async () => {
    h = await startServer({ config: { production: false } });
    await call(h, '/user/sendMailCode', { body: { email: 'dev@example.com', type: 'register' } });
    expect(await rows(h)).toEqual({ codes: 1, outbox: 1 });
  });

  it('an SMTP server that refuses: 500 envelope, the code is withdrawn, and asking again is allowed at once', async () => {
    const port = await closedPort();
    h = await startServer({ config: { mail: { from: 'x <x@localhost>', smtp: { host: '127.0.0.1', port, secure: false, rejectUnauthorized: true } } } });
    const first = await call(h, '/user/sendMailCode', { body: { email: 'down@example.com', type: 'register' } });
    expect([first.code, first.msg]).toEqual([500, SERVER_MSG.mailFailed]);
    expect((await rows(h)).codes).toBe(0);
    const again = await call(h, '/user/sendMailCode', { body: { email: 'down@example.com', type: 'register' } });
    expect(again.msg).not.toBe(USER_MSG.resendWait);
    expect(again.code).toBe(500);
  });

  it('an unknown email still answers "sent" and mails nothing, even in production without SMTP (no enumeration)', async () => {
    h = await startServer({ config: { production: true } });
    const r = await call(h, '/user/sendMailCode', { body: { email: 'nobody@example.com', type: 'reset' } });
    expect([r.code, r.msg]).toEqual([200, USER_MSG.codeSent]);
    expect(await rows(h)).toEqual({ codes: 0, outbox: 0 });
  });
});

describe('mail configuration (environment)', () => {
  it('reads the SMTP settings; no SMTP_HOST means no transport', () => {
    expect(loadConfig({}).mail).toEqual({ from: 'RiskFree <no-reply@localhost>', smtp: null });
    const c = loadConfig({ SMTP_HOST: 'smtp.example.com', SMTP_USER: 'u', SMTP_PASS: 'p', MAIL_FROM: 'X <x@example.com>' });
    expect(c.mail).toEqual({ from: 'X <x@example.com>', smtp: { host: 'smtp.example.com', port: 587, secure: false, user: 'u', pass: 'p', rejectUnauthorized: true } });
    expect(loadConfig({ SMTP_HOST: 'h', SMTP_SECURE: '1' }).mail.smtp?.port).toBe(465);
    expect(loadConfig({ SMTP_HOST: 'h', SMTP_PORT: '2525', SMTP_TLS_REJECT_UNAUTHORIZED: '0' }).mail.smtp).toMatchObject({ port: 2525, rejectUnauthorized: false });
    expect(() => loadConfig({ SMTP_HOST: 'h', SMTP_PORT: 'x' })).toThrow('Invalid SMTP_PORT');
  });

  it('production ignores MAIL_CODE_ECHO; MAIL_CODE_SECRET is used as given, else random per start', () => {
    expect(loadConfig({ NODE_ENV: 'production', MAIL_CODE_ECHO: '1' })).toMatchObject({ production: true, mailCodeEcho: false });
    expect(loadConfig({ MAIL_CODE_ECHO: '1' })).toMatchObject({ production: false, mailCodeEcho: true });
    expect(loadConfig({ MAIL_CODE_SECRET: 'k' }).mailCodeSecret).toBe('k');
    expect(loadConfig({}).mailCodeSecret).not.toBe(loadConfig({}).mailCodeSecret);
  });
});
