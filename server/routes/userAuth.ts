import { randomInt } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Code, ok } from '../../src/protocol/envelope.ts';
import {
  authTypeBody, loginBody, MODIFY_WITHDRAW_LOCK_HOURS, registerBody, RESET_WITHDRAW_LOCK_HOURS, resetPasswordBody,
  sendMailCodeBody, USER_MSG,
} from '../../src/protocol/user.ts';
import type { AuthTypeResult, LoginResult } from '../../src/protocol/user.ts';
import { recordLogin } from '../db/repos/loginHistory.ts';
import { consumeCode, issueCode, lastIssuedAt, MAIL_CODE_RESEND_MS } from '../db/repos/mailCodes.ts';
import { createSession, revokeSession, revokeUserSessions } from '../db/repos/sessions.ts';
import { claimTotpStep, findUserByEmail, findUserByInviteCode, updateUser } from '../db/repos/users.ts';
import type { UserRow } from '../db/schema.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { createAccount } from '../services/accounts.ts';
import { maskEmail, summariseUserAgent } from '../services/format.ts';
import { DUMMY_HASH, hashPassword, verifyPassword } from '../services/passwords.ts';
import { hashToken, newToken } from '../services/tokens.ts';
import { matchTotpStep } from '../services/totp.ts';

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
 * Rate limits shared by authType and login: 10 calls per minute per IP, and an account with 5
 * failures in 15 minutes is refused before its password is even checked.
 */
function limitLogin(req: FastifyRequest, email: string): void {
  const { limits, clock } = req.server.deps;
  const now = clock.now();
  if (!limits.loginPerIp.hit(req.ip, now) || !limits.loginFailuresPerAccount.allows(email, now)) {
    reject(Code.tooManyRequests, USER_MSG.tooManyRequests);
  }
}

/** The user if email and password match; otherwise counts a failure and answers 'Incorrect email or password'. */
async function checkCredentials(req: FastifyRequest, email: string, password: string): Promise<UserRow> {
  const { db, limits, clock } = req.server.deps;
  const user = await findUserByEmail(db, email);
  // NOTE: hash even for unknown emails so timing does not reveal which accounts exist.
  const good = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !good) {
    limits.loginFailuresPerAccount.record(email, clock.now());
    return reject(Code.badRequest, USER_MSG.credentialsInvalid);
  }
  return user;
}

/** POST sendMailCode, register, authType, login, resetPassword; GET logout. */
export const userAuthRoutes: FastifyPluginAsync = async (app) => {
  app.post('/sendMailCode', async (req) => {
    const body = parseInput(sendMailCodeBody, req.body);
    const { db, clock, limits } = app.deps;
    const now = clock.now();
    if (!limits.mailPerIp.hit(req.ip, now)) reject(Code.tooManyRequests, USER_MSG.tooManyRequests);
    const last = await lastIssuedAt(db, body.email, body.type);
    if (last !== undefined && now - last < MAIL_CODE_RESEND_MS) reject(Code.tooManyRequests, USER_MSG.resendWait);
    const user = await findUserByEmail(db, body.email);
    if (body.type === 'register' && user) reject(Code.conflict, USER_MSG.emailTaken);
    // NOTE: login/reset/security for an unknown email answer success but send nothing (no account enumeration).
    if (body.type !== 'register' && !user) return ok(null, USER_MSG.codeSent);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const subject = SUBJECTS[body.type];
    await issueCode(db, { email: body.email, purpose: body.type, code, now, subject, body: `${subject}: ${code}. It expires in 10 minutes.` });
    req.log.info(`mail to ${body.email}: code ${code}`);
    if (app.deps.config.mailCodeEcho) console.log(`mail to ${body.email}: code ${code}`);
    return ok(null, USER_MSG.codeSent);
  });

  app.post('/register', async (req) => {
    const body = parseInput(registerBody, req.body);
    const { db, clock } = app.deps;
    const now = clock.now();
    if (await findUserByEmail(db, body.email)) reject(Code.conflict, USER_MSG.emailTaken);
    let invitedBy: number | null = null;
    if (body.inviteCode !== '') {
      const inviter = await findUserByInviteCode(db, body.inviteCode.toUpperCase());
      if (!inviter) reject(Code.badRequest, USER_MSG.inviteInvalid);
      invitedBy = inviter.id;
    }
    if (!(await consumeCode(db, body.email, 'register', body.code, now))) reject(Code.badRequest, USER_MSG.codeInvalid);
    try {
      await createAccount(db, { email: body.email, passwordHash: await hashPassword(body.password), invitedBy, now });
    } catch (err) {
      // Two concurrent registrations of one email: the unique index decides, the loser gets the normal answer.
      if (isUniqueViolation(err)) reject(Code.conflict, USER_MSG.emailTaken);
      throw err;
    }
    return ok(null, USER_MSG.registered);
  });

  app.post('/authType', async (req) => {
    const body = parseInput(authTypeBody, req.body);
    limitLogin(req, body.email);
    const user = await checkCredentials(req, body.email, body.password);
    const result: AuthTypeResult = { authType: user.google_secret ? 'google' : 'email' };
    return ok(result);
  });

  app.post('/login', async (req) => {
    const body = parseInput(loginBody, req.body);
    limitLogin(req, body.email);
    const user = await checkCredentials(req, body.email, body.password);
    const { db, clock, limits } = app.deps;
    const now = clock.now();
    let codeOk: boolean;
    if (user.google_secret) {
      const step = matchTotpStep(user.google_secret, body.code, now);
      codeOk = step !== undefined && (await claimTotpStep(db, user.id, step));
    } else {
      codeOk = await consumeCode(db, body.email, 'login', body.code, now);
    }
    if (!codeOk) {
      limits.loginFailuresPerAccount.record(body.email, now);
      reject(Code.badRequest, USER_MSG.codeInvalid);
    }
    limits.loginFailuresPerAccount.reset(body.email);
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
    await revokeSession(app.deps.db, auth.sessionId, app.deps.clock.now());
    return ok(null, USER_MSG.loggedOut);
  });

  app.post('/resetPassword', async (req) => {
    const body = parseInput(resetPasswordBody, req.body);
    const { db, clock } = app.deps;
    const now = clock.now();
    const user = await findUserByEmail(db, body.email);
    // Unknown email and wrong code look the same (no account enumeration).
    if (!user || !(await consumeCode(db, body.email, 'reset', body.code, now))) reject(Code.badRequest, USER_MSG.codeInvalid);
    await updateUser(db, user.id, { password_hash: await hashPassword(body.password), withdraw_lock_until: now + WITHDRAW_LOCK_MS.reset });
    await revokeUserSessions(db, user.id, now);
    return ok(null, USER_MSG.passwordReset);
  });
};
