import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Code, ok } from '../../src/protocol/envelope.ts';
import { KYC_IMAGE_SLOTS, KYC_MSG, kycDevReviewBody, kycFieldsSchema } from '../../src/protocol/kyc.ts';
import type { KycImageSlot } from '../../src/protocol/kyc.ts';
import { KYC_IMAGE_MAX_BYTES } from '../../src/protocol/user.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { requireUser } from '../http/auth.ts';
import { parseInput, reject } from '../http/errors.ts';
import { requireOperator } from '../http/operator.ts';
import { readMultipartSafely } from '../http/multipart.ts';
import { sniffImage } from '../services/images.ts';
import type { ImageKind } from '../services/images.ts';
import { getKycStatus, reviewKyc, submitKyc, userIdByEmail } from './service.ts';

interface Photo {
  bytes: Buffer;
  kind: ImageKind;
}

/**
 * Per-request multipart limits of POST /kyc/submit: two files of at most 8 MB (SPEC §5, §9) and a
 * few short text parts. They override the app-wide 2 MB / one-file limits for this route only.
 */
export const KYC_MULTIPART_LIMITS = { fileSize: KYC_IMAGE_MAX_BYTES, files: 2, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 } as const;

function isSlot(name: string): name is KycImageSlot {
  return (KYC_IMAGE_SLOTS as readonly string[]).includes(name);
}

/**
 * Reads the submit form: text parts into an object, the `cover` and `info` files into memory.
 * A file over 8 MB answers 'The image must be at most 8MB'; a file whose name or magic bytes are
 * not jpg/jpeg/png answers 'Only image files are allowed!'. Unknown file parts are drained.
 */
async function readSubmitForm(req: FastifyRequest): Promise<{ fields: Record<string, string>; photos: Partial<Record<KycImageSlot, Photo>> }> {
  // A non-multipart body can only carry text: its fields are checked, then the missing photo is reported.
  if (!req.isMultipart()) return { fields: (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, string>, photos: {} };
  const fields: Record<string, string> = {};
  const photos: Partial<Record<KycImageSlot, Photo>> = {};
  const bad: string[] = [];
  try {
    for await (const part of req.parts({ limits: KYC_MULTIPART_LIMITS })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (!isSlot(part.fieldname)) continue;
        if (bytes.length === 0 && !part.filename) continue;
        const kind = sniffImage(part.filename, bytes);
        if (!kind) bad.push(part.fieldname);
        else photos[part.fieldname] = { bytes, kind };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    // The size error surfaces from the part or from the iterator, depending on timing.
    if ((err as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') reject(Code.tooLarge, KYC_MSG.imageTooLarge);
    throw err;
  }
  // NOTE: the whole body is read before answering, so the client never sees a reset connection.
  if (bad.length > 0) reject(Code.badRequest, KYC_MSG.onlyImages);
  return { fields, photos };
}

/**
 * The KYC feature plugin for `createFeatures`: GET /api/kyc/status, POST /api/kyc/submit
 * (multipart), and the dev review endpoint POST /api/dev/kyc/review (only with
 * config.exposeOutbox, like the dev outbox). Photos are stored as DATA_DIR/kyc/<random>.<ext>.
 */
export function kycPlugin(deps: FeatureDeps): FastifyPluginAsync {
  return async (app) => {
    const { db, clock, bus } = deps;
    const dir = join(app.deps.config.dataDir, 'kyc');

    await app.register(
      async (r) => {
        r.get('/status', async (req) => {
          const { user } = await requireUser(req);
          const status = await getKycStatus(db, user.id);
          return status ? ok(status) : reject(Code.notFound, KYC_MSG.userNotFound);
        });

        r.post('/submit', async (req) => {
          const { user } = await requireUser(req);
          // Missing boundary, truncated or garbled multipart: a 400 envelope, not a 500.
          const { fields, photos } = await readMultipartSafely(req, () => readSubmitForm(req));
          const parsed = parseInput(kycFieldsSchema, fields);
          const cover = photos.cover ?? reject(Code.badRequest, KYC_MSG.coverRequired);
          const info = photos.info ?? reject(Code.badRequest, KYC_MSG.infoRequired);
          if (user.kyc_status === 'review') reject(Code.conflict, KYC_MSG.alreadyInReview);
          if (user.kyc_status === 'verified') reject(Code.conflict, KYC_MSG.alreadyVerified);

          await mkdir(dir, { recursive: true });
          const name = (p: Photo) => `${randomBytes(16).toString('hex')}.${p.kind === 'png' ? 'png' : 'jpg'}`;
          const coverFile = name(cover);
          const infoFile = name(info);
          await writeFile(join(dir, coverFile), cover.bytes, { mode: 0o600 });
          await writeFile(join(dir, infoFile), info.bytes, { mode: 0o600 });
          const res = await submitKyc(db, { userId: user.id, fields: parsed, coverFile, infoFile, now: clock.now() }, bus).catch(async (err: unknown) => {
            await Promise.all([rm(join(dir, coverFile), { force: true }), rm(join(dir, infoFile), { force: true })]);
            throw err;
          });
          if (!res.ok) {
            // Lost a race with another submit: the refused photos are not kept.
            await Promise.all([rm(join(dir, coverFile), { force: true }), rm(join(dir, infoFile), { force: true })]);
            return reject(res.code, res.msg);
          }
          return ok(res.status, KYC_MSG.submitted);
        });
      },
      { prefix: '/api/kyc' },
    );

    if (app.deps.config.exposeOutbox) {
      await app.register(
        async (r) => {
          r.addHook('onRequest', requireOperator);
          r.post('/review', async (req) => {
            const b = parseInput(kycDevReviewBody, req.body);
            const userId = await userIdByEmail(db, b.email);
            if (userId === undefined) return reject(Code.notFound, KYC_MSG.userNotFound);
            const res = await reviewKyc(db, { userId, decision: b.decision, reason: b.reason }, clock.now(), bus);
            return res.ok ? ok(res.status, b.decision === 'approve' ? KYC_MSG.approved : KYC_MSG.rejected) : reject(res.code, res.msg);
          });
        },
        { prefix: '/api/dev/kyc' },
      );
    }
  };
}
