import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Code, ok } from '../../src/protocol/envelope.ts';
import { loginHistoryBody, modifyInfoFields, modifyPasswordBody, MSG, USER_MSG } from '../../src/protocol/user.ts';
import { saveAvatar } from '../db/repos/avatars.ts';
import { loginPage } from '../db/repos/loginHistory.ts';
import { findUserById, updateUser } from '../db/repos/users.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { readMultipartSafely } from '../http/multipart.ts';
import { toUserInfo } from '../services/accounts.ts';
import { sniffImage } from '../services/images.ts';
import type { ImageKind } from '../services/images.ts';
import { hashPassword, verifyPassword } from '../services/passwords.ts';
import { passwordChanged } from '../http/deps.ts';
import { revokeAndNotify } from '../ws/revocations.ts';
import { WITHDRAW_LOCK_MS } from './userAuth.ts';

interface UploadedAvatar {
  bytes: Buffer;
  kind: ImageKind;
}

/** Reads modify-info's multipart parts: text fields into an object, the avatar file checked by extension AND magic bytes. */
async function readMultipart(req: FastifyRequest): Promise<{ fields: Record<string, string>; avatar?: UploadedAvatar }> {
  const fields: Record<string, string> = {};
  let avatar: UploadedAvatar | undefined;
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      // toBuffer throws FST_REQ_FILE_TOO_LARGE past the 2 MB limit (mapped to 'The image must be at most 2MB').
      const bytes = await part.toBuffer();
      if (part.fieldname !== 'avatar' && part.fieldname !== 'file') continue;
      if (bytes.length === 0 && !part.filename) continue;
      const kind = sniffImage(part.filename, bytes);
      if (!kind) reject(Code.badRequest, MSG.onlyImages);
      avatar = { bytes, kind };
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  return avatar ? { fields, avatar } : { fields };
}

/** GET info; POST modify-password, modify-info, login-history. All need a token. */
export const userProfileRoutes: FastifyPluginAsync = async (app) => {
  app.get('/info', async (req) => {
    const { user } = await requireUser(req);
    return ok(toUserInfo(user));
  });

  app.post('/modify-password', async (req) => {
    const auth = await requireUser(req);
    const body = parseInput(modifyPasswordBody, req.body);
    const { db, clock, config, revocations } = app.deps;
    const now = clock.now();
    if (!(await verifyPassword(body.oldPassword, auth.user.password_hash))) reject(Code.badRequest, USER_MSG.oldPasswordInvalid);
    const password_hash = await hashPassword(body.password, config.passwordHashLogN);
    await updateUser(db, auth.user.id, { password_hash, withdraw_lock_until: now + WITHDRAW_LOCK_MS.modify });
    // Every other session (and its open sockets) ends; the caller's own stays.
    await revokeAndNotify(db, revocations, { kind: 'user', userId: auth.user.id, exceptSessionId: auth.sessionId }, now);
    // Pending withdrawals asked for before the change are cancelled and their funds returned (money feature).
    await passwordChanged(app.deps, { userId: auth.user.id, kind: 'change', now });
    return ok(null, USER_MSG.passwordChanged);
  });

  app.post('/modify-info', async (req) => {
    const auth = await requireUser(req);
    const { db, clock, config } = app.deps;
    // Missing boundary, truncated or garbled multipart: a 400 envelope, not a 500.
    const { fields, avatar } = req.isMultipart() ? await readMultipartSafely(req, () => readMultipart(req)) : { fields: req.body, avatar: undefined };
    const parsed = parseInput(modifyInfoFields, fields);
    if (parsed.nickname !== undefined) await updateUser(db, auth.user.id, { nickname: parsed.nickname });
    if (avatar) {
      const dir = join(config.dataDir, 'avatars');
      const fileName = `${randomBytes(16).toString('hex')}.${avatar.kind === 'png' ? 'png' : 'jpg'}`;
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, fileName), avatar.bytes);
      await saveAvatar(db, {
        userId: auth.user.id,
        fileName,
        mime: avatar.kind === 'png' ? 'image/png' : 'image/jpeg',
        size: avatar.bytes.length,
        now: clock.now(),
      });
    }
    const user = await findUserById(db, auth.user.id);
    return ok(user ? toUserInfo(user) : null, USER_MSG.infoSaved);
  });

  app.post('/login-history', async (req) => {
    const { user } = await requireUser(req);
    const q = parseInput(loginHistoryBody, req.body);
    return ok(await loginPage(app.deps.db, user.id, q.page, q.pageSize));
  });
};
