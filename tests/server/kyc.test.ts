import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { kycPlugin } from '../../server/kyc/routes.ts';
import { reviewKyc } from '../../server/kyc/service.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import type { UserEventBus, UserFrame } from '../../server/ws/userBus.ts';
import { makePng } from '../e2e/authHelpers.ts';
import { Code } from '../../src/protocol/envelope.ts';
import { KYC_MSG, KYC_PATHS } from '../../src/protocol/kyc.ts';
import type { KycStatusDto } from '../../src/protocol/kyc.ts';
import { KYC_IMAGE_MAX_BYTES } from '../../src/protocol/user.ts';
import { call, login, register, startServer, T0 } from './harness.ts';
import type { Harness } from './harness.ts';

/**
 * KYC over real HTTP on 127.0.0.1: multipart submit with validation, the review decisions
 * (service and dev endpoint), resubmission after a rejection, and the `kyc` frames on the bus.
 */

interface Ctx {
  h: Harness;
  bus: UserEventBus;
  token: string;
  userId: number;
  frames: UserFrame[];
}

let ctx: Ctx | null = null;
afterEach(async () => {
  await ctx?.h.close();
  ctx = null;
});

async function start(exposeOutbox = true): Promise<Ctx> {
  const bus = createUserEventBus();
  const h = await startServer({
    config: { exposeOutbox },
    plugins: [async (app) => app.register(kycPlugin({ db: app.deps.db, clock: app.deps.clock, bus }))],
  });
  await register(h, 'kyc@example.com');
  const token = await login(h, 'kyc@example.com');
  const info = await call<{ id: number }>(h, '/user/info', { token });
  const frames: UserFrame[] = [];
  bus.subscribe(info.data.id, (f) => frames.push(f));
  ctx = { h, bus, token, userId: info.data.id, frames };
  return ctx;
}

const PNG = makePng(16);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);

const FIELDS = { country: 'de', docType: 'passport', firstName: 'Ada', lastName: 'Lovelace', docNumber: 'C01X00T47' };

function form(fields: Record<string, string> = FIELDS, files: Record<string, [Buffer, string, string]> = { cover: [PNG, 'cover.png', 'image/png'], info: [JPEG, 'info.jpg', 'image/jpeg'] }): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const [k, [bytes, name, type]] of Object.entries(files)) f.append(k, new Blob([new Uint8Array(bytes)], { type }), name);
  return f;
}

const submit = (c: Ctx, body: FormData) => call<KycStatusDto>(c.h, KYC_PATHS.submit, { token: c.token, multipart: body, method: 'POST' });
const status = (c: Ctx) => call<KycStatusDto>(c.h, KYC_PATHS.status, { token: c.token });
const storedFiles = (c: Ctx): string[] => (existsSync(join(c.h.dataDir, 'kyc')) ? readdirSync(join(c.h.dataDir, 'kyc')) : []);

describe('KYC submit', () => {
  it('needs a login', async () => {
    const c = await start();
    const r = await call(c.h, KYC_PATHS.status);
    expect(r.code).toBe(Code.unauthorized);
  });

  it('a fresh user is unverified with no submission', async () => {
    const c = await start();
    const r = await status(c);
    expect(r.code).toBe(200);
    expect(r.data).toEqual({ status: 'unverified', latest: null });
  });

  it('accepts a valid submission: review, masked number, files stored under DATA_DIR/kyc, a frame pushed', async () => {
    const c = await start();
    const r = await submit(c, form());
    expect(r.code).toBe(200);
    expect(r.msg).toBe(KYC_MSG.submitted);
    expect(r.data.status).toBe('review');
    expect(r.data.latest).toMatchObject({ status: 'review', country: 'DE', docType: 'passport', firstName: 'Ada', lastName: 'Lovelace', reason: null, submittedAt: c.h.clock.now(), reviewedAt: null });
    expect(r.data.latest?.docNumberMasked).toBe('*****0T47');
    expect(JSON.stringify(r.data)).not.toContain('C01X00T47');
    const files = storedFiles(c);
    expect(files).toHaveLength(2);
    expect(files.every((f) => /^[0-9a-f]{32}\.(png|jpg)$/.test(f))).toBe(true);
    expect(c.frames).toEqual([{ type: 'kyc', data: r.data }]);
    const info = await call<{ kycStatus: string }>(c.h, '/user/info', { token: c.token });
    expect(info.data.kycStatus).toBe('review');
    expect((await status(c)).data).toEqual(r.data);
  });

  it.each([
    [{ ...FIELDS, country: '' }, KYC_MSG.countryRequired],
    [{ ...FIELDS, country: 'XX' }, KYC_MSG.countryRequired],
    [{ ...FIELDS, docType: 'visa' }, KYC_MSG.docTypeRequired],
    [{ ...FIELDS, firstName: '  ' }, KYC_MSG.firstNameRequired],
    [{ ...FIELDS, lastName: '' }, KYC_MSG.lastNameRequired],
    [{ ...FIELDS, lastName: 'x'.repeat(51) }, KYC_MSG.nameTooLong],
    [{ ...FIELDS, docNumber: '' }, KYC_MSG.docNumberRequired],
    [{ ...FIELDS, docNumber: 'AB 12' }, KYC_MSG.docNumberInvalid],
  ])('refuses bad text fields %#', async (fields, msg) => {
    const c = await start();
    const r = await submit(c, form(fields));
    expect(r.code).toBe(Code.badRequest);
    expect(r.msg).toBe(msg);
    expect(storedFiles(c)).toEqual([]);
    expect((await status(c)).data.status).toBe('unverified');
  });

  it('refuses a missing field entirely', async () => {
    const c = await start();
    const { docNumber: _omit, ...rest } = FIELDS;
    void _omit;
    const r = await submit(c, form(rest));
    expect(r.msg).toBe(KYC_MSG.docNumberRequired);
  });

  it('refuses missing photos, each with its own message', async () => {
    const c = await start();
    expect((await submit(c, form(FIELDS, { info: [JPEG, 'info.jpg', 'image/jpeg'] }))).msg).toBe(KYC_MSG.coverRequired);
    expect((await submit(c, form(FIELDS, { cover: [PNG, 'c.png', 'image/png'] }))).msg).toBe(KYC_MSG.infoRequired);
    const json = await call(c.h, KYC_PATHS.submit, { token: c.token, body: FIELDS });
    expect(json.msg).toBe(KYC_MSG.coverRequired);
    expect(c.frames).toEqual([]);
  });

  it('refuses non-images by content and by name: "Only image files are allowed!"', async () => {
    const c = await start();
    const text = Buffer.from('hello, not an image at all');
    const asPng = await submit(c, form(FIELDS, { cover: [text, 'fake.png', 'image/png'], info: [JPEG, 'i.jpg', 'image/jpeg'] }));
    expect([asPng.code, asPng.msg]).toEqual([Code.badRequest, 'Only image files are allowed!']);
    const gif = await submit(c, form(FIELDS, { cover: [PNG, 'c.gif', 'image/gif'], info: [JPEG, 'i.jpg', 'image/jpeg'] }));
    expect(gif.msg).toBe('Only image files are allowed!');
    expect(storedFiles(c)).toEqual([]);
  });

  it('accepts 8 MB exactly and refuses one byte more', async () => {
    const c = await start();
    const big = (n: number) => Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(n - 8, 0)]);
    const over = await submit(c, form(FIELDS, { cover: [big(KYC_IMAGE_MAX_BYTES + 1), 'c.png', 'image/png'], info: [JPEG, 'i.jpg', 'image/jpeg'] }));
    expect([over.code, over.msg]).toEqual([Code.tooLarge, KYC_MSG.imageTooLarge]);
    expect((await status(c)).data.status).toBe('unverified');
    const exact = await submit(c, form(FIELDS, { cover: [big(KYC_IMAGE_MAX_BYTES), 'c.png', 'image/png'], info: [JPEG, 'i.jpg', 'image/jpeg'] }));
    expect(exact.code).toBe(200);
  });

  it('refuses a third file', async () => {
    const c = await start();
    const body = form();
    body.append('extra', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'x.png');
    const r = await submit(c, body);
    expect(r.code).toBe(Code.tooLarge);
    expect((await status(c)).data.status).toBe('unverified');
  });

  it('refuses a submit while under review and once verified', async () => {
    const c = await start();
    expect((await submit(c, form())).code).toBe(200);
    const again = await submit(c, form());
    expect([again.code, again.msg]).toEqual([Code.conflict, KYC_MSG.alreadyInReview]);
    expect(storedFiles(c)).toHaveLength(2);
    expect((await reviewKyc(c.h.db, { userId: c.userId, decision: 'approve' }, T0 + 1000, c.bus)).ok).toBe(true);
    const verified = await submit(c, form());
    expect([verified.code, verified.msg]).toEqual([Code.conflict, KYC_MSG.alreadyVerified]);
  });
});

describe('KYC review', () => {
  it('approve: submission and user verified, a frame pushed', async () => {
    const c = await start();
    await submit(c, form());
    c.h.clock.advance(60_000);
    const r = await reviewKyc(c.h.db, { userId: c.userId, decision: 'approve' }, c.h.clock.now(), c.bus);
    expect(r.ok && r.status).toMatchObject({ status: 'verified', latest: { status: 'verified', reason: null, reviewedAt: c.h.clock.now() } });
    expect(c.frames.at(-1)).toEqual({ type: 'kyc', data: r.ok ? r.status : null });
    const info = await call<{ kycStatus: string }>(c.h, '/user/info', { token: c.token });
    expect(info.data.kycStatus).toBe('verified');
  });

  it('reject needs a reason, then sends the user back to unverified with it; resubmission works and keeps history', async () => {
    const c = await start();
    await submit(c, form());
    const noReason = await reviewKyc(c.h.db, { userId: c.userId, decision: 'reject', reason: '  ' }, T0, c.bus);
    expect(noReason).toEqual({ ok: false, code: Code.badRequest, msg: KYC_MSG.reasonRequired });
    const r = await reviewKyc(c.h.db, { userId: c.userId, decision: 'reject', reason: 'The photo is blurry' }, T0 + 5, c.bus);
    expect(r.ok && r.status).toMatchObject({ status: 'unverified', latest: { status: 'rejected', reason: 'The photo is blurry', reviewedAt: T0 + 5 } });
    expect(c.frames.map((f) => (f.data as KycStatusDto).status)).toEqual(['review', 'unverified']);
    expect((await status(c)).data.latest?.reason).toBe('The photo is blurry');

    const again = await submit(c, form({ ...FIELDS, docNumber: 'C01X00T48' }));
    expect(again.code).toBe(200);
    expect(again.data.latest).toMatchObject({ status: 'review', reason: null });
    const rows = await c.h.db.selectFrom('kyc_submissions').select(['status', 'reason']).where('user_id', '=', c.userId).orderBy('id').execute();
    expect(rows).toEqual([
      { status: 'rejected', reason: 'The photo is blurry' },
      { status: 'review', reason: null },
    ]);
    expect(storedFiles(c)).toHaveLength(4);
  });

  it('a decision needs a submission under review', async () => {
    const c = await start();
    const r = await reviewKyc(c.h.db, { userId: c.userId, decision: 'approve' }, T0, c.bus);
    expect(r).toEqual({ ok: false, code: Code.conflict, msg: KYC_MSG.notInReview });
    expect(c.frames).toEqual([]);
  });

  it('the dev endpoint reviews by email and pushes the frame', async () => {
    const c = await start();
    await submit(c, form());
    const bad = await call(c.h, KYC_PATHS.devReview, { body: { email: 'kyc@example.com', decision: 'reject' } });
    expect([bad.code, bad.msg]).toEqual([Code.badRequest, KYC_MSG.reasonRequired]);
    const missing = await call(c.h, KYC_PATHS.devReview, { body: { email: 'nobody@example.com', decision: 'approve' } });
    expect([missing.code, missing.msg]).toEqual([Code.notFound, KYC_MSG.userNotFound]);
    const r = await call<KycStatusDto>(c.h, KYC_PATHS.devReview, { body: { email: 'KYC@example.com', decision: 'reject', reason: 'Name mismatch' } });
    expect([r.code, r.msg]).toEqual([200, KYC_MSG.rejected]);
    expect(r.data).toMatchObject({ status: 'unverified', latest: { status: 'rejected', reason: 'Name mismatch' } });
    expect(c.frames.at(-1)).toEqual({ type: 'kyc', data: r.data });
  });

  it('the dev endpoint does not exist without exposeOutbox', async () => {
    const c = await start(false);
    const r = await call(c.h, KYC_PATHS.devReview, { body: { email: 'kyc@example.com', decision: 'approve' } });
    expect(r.code).toBe(Code.notFound);
  });
});

describe('KYC demo seed', () => {
  it('the demo account is verified with one approved submission, and reseeding adds nothing', async () => {
    const h = await startServer({ seed: true });
    try {
      const { seedDemo } = await import('../../server/db/seed.ts');
      expect(await seedDemo(h.db, h.clock.now())).toBe(false);
      const demo = await h.db.selectFrom('users').select(['id', 'kyc_status']).where('email', '=', 'demo@example.com').executeTakeFirstOrThrow();
      expect(demo.kyc_status).toBe('verified');
      const rows = await h.db.selectFrom('kyc_submissions').select(['status', 'reviewed_at', 'created_at']).where('user_id', '=', demo.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.status).toBe('verified');
      expect(Number(rows[0]?.created_at)).toBeLessThan(Number(rows[0]?.reviewed_at));
    } finally {
      await h.close();
    }
  });
});
