import { randomInt } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Code, ok } from '../../src/protocol/envelope.ts';
import {
  authTypeBody, loginBody, MODIFY_WITHDRAW_LOCK_HOURS, MSG, registerBody, RESET_WITHDRAW_LOCK_HOURS, resetPasswordBody,
  sendMailCodeBody, USER_MSG,
} from '../../src/protocol/user.ts';
import type { AuthTypeResult, LoginResult } from '../../src/protocol/user.ts';
import { recordLogin } from '../db/repos/loginHistory.ts';
import { consumeCode, issueCode, lastIssuedAt, MAIL_CODE_RESEND_MS, withdrawCode } from '../db/repos/mailCodes.ts';
import { createSession } from '../db/repos/sessions.ts';
import { claimTotpStep, findUserByEmail, findUserByInviteCode, updateUser } from '../db/repos/users.ts';
import type { UserRow } from '../db/schema.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject, SERVER_MSG } from '../http/errors.ts';
import { createAccount } from '../services/accounts.ts';
import { maskEmail, summariseUserAgent } from '../services/format.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../services/passwords.ts';
import { hashToken, newToken } from '../services/tokens.ts';
import { matchTotpStep } from '../services/totp.ts';
import { passwordChanged } from '../http/deps.ts';
import { revokeAndNotify } from '../ws/revocations.ts';

const HOUR_MS = 3_600_000;
/** Re-exported so the lock constants of both screens stay next to the routes that apply them. */
export const WITHDRAW_LOCK_MS = { reset: RESET_WITHDRAW_LOCK_HOURS * HOUR_MS, modify: MODIFY_WITHDRAW_LOCK_HOURS * HOUR_MS } as const;

/** A unique-constraint failure in SQLite (better-sqlite3) or PostgreSQL (SQLSTATE 23505). */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

const SUBJECTS = {
  register: 'Your registration code',
  login: 'Your login code',
  reset: 'Your password reset code',
  security: 'Your security verification code',
} as const;

/**
 * The failure counter's key: the account AND the source address together, so an attacker who
 * fails 5 times locks only their own address out of that account, never the owner elsewhere.
 */
const failureKey = (req: FastifyRequest, email: string): string => `${email}\n${req.ip}`;

/**
 * Rate limits shared by authType and login: 10 calls per minute per IP, and an (account, IP) pair
 * with 5 failures in 15 minutes is refused before the password is even checked.
 */
async function limitLogin(req: FastifyRequest, email: string): Promise<void> {
  const { limits, clock } = req.server.deps;
  const now = clock.now();
  if (!(await limits.loginPerIp.hit(req.ip, now)) || !(await limits.loginFailuresPerAccount.allows(failureKey(req, email), now))) {
    reject(Code.tooManyRequests, USER_MSG.tooManyRequests);
  }
}

/**
 * The user if email and password match; otherwise counts a failure and answers 'Incorrect email or
 * password'. A good password under a hash weaker than config.passwordHashLogN (e.g. a legacy
 * N=2^14 one) is re-hashed at the configured cost now: the transparent upgrade.
 */
async function checkCredentials(req: FastifyRequest, email: string, password: string): Promise<UserRow> {
  const { db, limits, clock, config } = req.server.deps;
  const user = await findUserByEmail(db, email);
  // NOTE: hash even for unknown emails so timing does not reveal which accounts exist.
  const good = await verifyPassword(password, user?.password_hash ?? dummyHash(config.passwordHashLogN));
  if (!user || !good) {
    await limits.loginFailuresPerAccount.record(failureKey(req, email), clock.now());
    return reject(Code.badRequest, USER_MSG.credentialsInvalid);
  }
  if (needsRehash(user.password_hash, config.passwordHashLogN)) {
    const password_hash = await hashPassword(password, config.passwordHashLogN);
    await updateUser(db, user.id, { password_hash });
    return { ...user, password_hash };
  }
  return user;
}

/**
 * Stores a fresh code (HMAC only; the dev outbox also keeps it in clear outside production) and
 * mails it. If the transport refuses (or production has none), the code is withdrawn and the caller
 * gets a 500 envelope. In production nothing that holds the code reaches the log.
 */
async function mailCode(req: FastifyRequest, email: string, purpose: keyof typeof SUBJECTS, now: number): Promise<void> {
  const { db, config, mailer } = req.server.deps;
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const subject = SUBJECTS[purpose];
  const text = `${subject}: ${code}. It expires in 10 minutes.`;
  const outbox = config.production ? null : { subject, body: text };
  const id = await issueCode(db, { email, purpose, code, now, secret: config.mailCodeSecret, outbox });
  try {
    // NOTE: production without SMTP cannot deliver a code: say so rather than "sent".
    if (config.production && mailer.kind === 'none') throw new Error('no SMTP transport (SMTP_HOST)');
    await mailer.send({ to: email, subject, text });
  } catch (err) {
    await withdrawCode(db, id);
    req.log.error({ err: err instanceof Error ? err.message : 'mail failed' }, `mail to ${maskEmail(email)} failed`);
    reject(Code.serverError, SERVER_MSG.mailFailed);
  }
  if (config.production) {
    req.log.info(`mail to ${maskEmail(email)}: ${purpose} code sent`);
    return;
  }
  req.log.info(`mail to ${email}: code ${code}`);
  if (config.mailCodeEcho) console.log(`mail to ${email}: code ${code}`);
}

/** POST sendMailCode, register, authType, login, resetPassword; GET logout. */
export const userAuthRoutes: FastifyPluginAsync = async (app) => {
  app.post('/sendMailCode', async (req) => {
    const body = parseInput(sendMailCodeBody, req.body);
    const { db, clock, limits } = app.deps;
    const now = clock.now();
    if (!(await limits.mailPerIp.hit(req.ip, now))) reject(Code.tooManyRequests, USER_MSG.tooManyRequests);
    if (body.type === 'security') {
      // A security code is for a logged-in action: it goes to the session's own email and nowhere
      // else (issue 26, Minor 16), so a typed address can neither receive it nor be probed.
      const { user } = await requireUser(req);
      if (body.email !== undefined && body.email !== user.email.toLowerCase()) reject(Code.badRequest, USER_MSG.securityEmailOnly);
      const lastSecurity = await lastIssuedAt(db, user.email, 'security');
      if (lastSecurity !== undefined && now - lastSecurity < MAIL_CODE_RESEND_MS) reject(Code.tooManyRequests, USER_MSG.resendWait);
      await mailCode(req, user.email, 'security', now);
      return ok(null, USER_MSG.codeSent);
    }
    // The schema requires the email for every other purpose.
    const email = body.email ?? reject(Code.badRequest, MSG.emailRequired);
    const last = await lastIssuedAt(db, email, body.type);
    if (last !== undefined && now - last < MAIL_CODE_RESEND_MS) reject(Code.tooManyRequests, USER_MSG.resendWait);
    const user = await findUserByEmail(db, email);
    if (body.type === 'register' && user) reject(Code.conflict, USER_MSG.emailTaken);
    // NOTE: login/reset for an unknown email answer success but send nothing (no account enumeration).
    if (body.type !== 'register' && !user) return ok(null, USER_MSG.codeSent);
    await mailCode(req, email, body.type, now);
    return ok(null, USER_MSG.codeSent);
  });

  app.post('/register', async (req) => {
    const body = parseInput(registerBody, req.body);
    const { db, clock, config } = app.deps;
    const now = clock.now();
    if (await findUserByEmail(db, body.email)) reject(Code.conflict, USER_MSG.emailTaken);
    let invitedBy: number | null = null;
    if (body.inviteCode !== '') {
      const inviter = await findUserByInviteCode(db, body.inviteCode.toUpperCase());
      if (!inviter) reject(Code.badRequest, USER_MSG.inviteInvalid);
      invitedBy = inviter.id;
    }
    if (!(await consumeCode(db, config.mailCodeSecret, body.email, 'register', body.code, now))) reject(Code.badRequest, USER_MSG.codeInvalid);
    try {
      await createAccount(db, { email: body.email, passwordHash: await hashPassword(body.password, config.passwordHashLogN), invitedBy, now, demoCredit: config.demoCredit !== false, welcomeVouchers: true });
    } catch (err) {
      // Two concurrent registrations of one email: the unique index decides, the loser gets the normal answer.
      if (isUniqueViolation(err)) reject(Code.conflict, USER_MSG.emailTaken);
      throw err;
    }
    return ok(null, USER_MSG.registered);
  });

  app.post('/authType', async (req) => {
    const body = parseInput(authTypeBody, req.body);
    await limitLogin(req, body.email);
    const user = await checkCredentials(req, body.email, body.password);
    const result: AuthTypeResult = { authType: user.google_secret ? 'google' : 'email' };
    return ok(result);
  });

  app.post('/login', async (req) => {
    const body = parseInput(loginBody, req.body);
    await limitLogin(req, body.email);
    const user = await checkCredentials(req, body.email, body.password);
    const { db, clock, limits, config } = app.deps;
    const now = clock.now();
    let codeOk: boolean;
    if (user.google_secret) {
      const step = matchTotpStep(user.google_secret, body.code, now);
      codeOk = step !== undefined && (await claimTotpStep(db, user.id, step));
    } else {
      codeOk = await consumeCode(db, config.mailCodeSecret, body.email, 'login', body.code, now);
    }
    if (!codeOk) {
      await limits.loginFailuresPerAccount.record(failureKey(req, body.email), now);
      reject(Code.badRequest, USER_MSG.codeInvalid);
    }
    await limits.loginFailuresPerAccount.reset(failureKey(req, body.email));
    const token = newToken();
    const clientHeader = String(req.headers.client ?? '').slice(0, 20) || 'unknown';
    const ua = summariseUserAgent(req.headers['user-agent']);
    const client = ua ? `${clientHeader} (${ua})` : clientHeader;
    await createSession(db, { userId: user.id, tokenHash: hashToken(token), now, ip: req.ip, client });
    await recordLogin(db, { userId: user.id, now, client, ip: req.ip, account: maskEmail(user.email) });
    const result: LoginResult = { token };
    return ok(result, USER_MSG.loggedIn);
  });

  app.get('/logout', async (req) => {
    const auth = await requireUser(req);
    const { db, revocations, clock } = app.deps;
    await revokeAndNotify(db, revocations, { kind: 'session', sessionId: auth.sessionId }, clock.now());
    return ok(null, USER_MSG.loggedOut);
  });

  app.post('/resetPassword', async (req) => {
    const body = parseInput(resetPasswordBody, req.body);
    const { db, clock, config, revocations } = app.deps;
    const now = clock.now();
    const user = await findUserByEmail(db, body.email);
    // Unknown email and wrong code look the same (no account enumeration).
    if (!user || !(await consumeCode(db, config.mailCodeSecret, body.email, 'reset', body.code, now))) reject(Code.badRequest, USER_MSG.codeInvalid);
    const password_hash = await hashPassword(body.password, config.passwordHashLogN);
    await updateUser(db, user.id, { password_hash, withdraw_lock_until: now + WITHDRAW_LOCK_MS.reset });
    await revokeAndNotify(db, revocations, { kind: 'user', userId: user.id }, now);
    // Pending withdrawals asked for before the reset are cancelled and their funds returned (money feature).
    await passwordChanged(app.deps, { userId: user.id, kind: 'reset', now });
    return ok(null, USER_MSG.passwordReset);
  });
};
