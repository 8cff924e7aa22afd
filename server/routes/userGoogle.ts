import type { FastifyPluginAsync } from 'fastify';
import { Code, ok } from '../../src/protocol/envelope.ts';
import { bindGoogleBody, checkGoogleCodeBody, USER_MSG } from '../../src/protocol/user.ts';
import type { CheckGoogleCodeResult, GoogleCodeResult } from '../../src/protocol/user.ts';
import { updateUser } from '../db/repos/users.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { matchTotpStep, newTotpSecret, totpUri, verifyTotp } from '../services/totp.ts';

/**
 * Google authenticator: get-google-code hands out a pending secret (the same one until bound),
 * bind-google-authen moves it to `google_secret` once a code proves the app has it. Login then
 * asks for a TOTP instead of an email code.
 */
export const userGoogleRoutes: FastifyPluginAsync = async (app) => {
  app.get('/get-google-code', async (req) => {
    const { user } = await requireUser(req);
    if (user.google_secret) reject(Code.badRequest, USER_MSG.googleAlreadyBound);
    let secret = user.google_pending_secret;
    if (!secret) {
      secret = newTotpSecret();
      await updateUser(app.deps.db, user.id, { google_pending_secret: secret });
    }
    const result: GoogleCodeResult = { secret, uri: totpUri(secret, user.email) };
    return ok(result);
  });

  app.post('/check-google-code', async (req) => {
    const { user } = await requireUser(req);
    const { code } = parseInput(checkGoogleCodeBody, req.body);
    const secret = user.google_pending_secret ?? user.google_secret;
    const result: CheckGoogleCodeResult = { valid: secret !== null && verifyTotp(secret, code, app.deps.clock.now()) };
    return ok(result);
  });

  app.post('/bind-google-authen', async (req) => {
    const { user } = await requireUser(req);
    const { code } = parseInput(bindGoogleBody, req.body);
    if (user.google_secret) reject(Code.badRequest, USER_MSG.googleAlreadyBound);
    const secret = user.google_pending_secret;
    const step = secret ? matchTotpStep(secret, code, app.deps.clock.now()) : undefined;
    if (!secret || step === undefined) reject(Code.badRequest, USER_MSG.googleCodeInvalid);
    // The binding code's step counts as used: it cannot be replayed for a login.
    await updateUser(app.deps.db, user.id, { google_secret: secret, google_pending_secret: null, google_last_step: step });
    return ok(null, USER_MSG.googleBound);
  });
};
