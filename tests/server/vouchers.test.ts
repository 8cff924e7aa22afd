import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from '../../src/protocol/envelope.ts';
import { VOUCHER_MSG } from '../../src/protocol/vouchers.ts';
import type { Voucher } from '../../src/protocol/vouchers.ts';
import { seedDemo } from '../../server/db/seed.ts';
import { DEMO_ACCOUNT } from '../../server/services/accounts.ts';
import { vouchersPlugin } from '../../server/vouchers/routes.ts';
import { dashboardPlugin } from '../../server/dashboard/routes.ts';
import type { DashboardSummary } from '../../src/protocol/help.ts';
import { seedVoucherDemo } from '../../server/vouchers/seed.ts';
import { consumeVoucher, DAY_MS, ensureWelcomeVouchers } from '../../server/vouchers/service.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import type { UserFrame } from '../../server/ws/userBus.ts';
import { call, login, register, startServer, T0 } from './harness.ts';
import type { Harness } from './harness.ts';

/** Vouchers over real HTTP (GET /api/vouchers, POST /api/vouchers/merge) and the service's consumeVoucher on the real database. */

interface Ctx {
  h: Harness;
  token: string;
  userId: number;
  frames: UserFrame[];
}

let ctx: Ctx | null = null;
afterEach(async () => {
  await ctx?.h.close();
  ctx = null;
});

async function start(email = 'saver@example.com'): Promise<Ctx> {
  const bus = createUserEventBus();
  const h = await startServer({
    plugins: [
      async (app) => app.register(vouchersPlugin({ db: app.deps.db, clock: app.deps.clock, bus })),
      async (app) => app.register(dashboardPlugin({ db: app.deps.db, clock: app.deps.clock, bus })),
    ],
  });
  await register(h, email);
  const token = await login(h, email);
  const info = await call<{ id: number }>(h, '/user/info', { token });
  const frames: UserFrame[] = [];
  bus.subscribe(info.data.id, (f) => frames.push(f));
  ctx = { h, token, userId: info.data.id, frames };
  return ctx;
}

async function list(c: Ctx, query = ''): Promise<Page<Voucher>> {
  const r = await call<Page<Voucher>>(c.h, `/vouchers${query}`, { token: c.token });
  expect(r.code).toBe(200);
  return r.data;
}

/** Inserts a voucher directly (what a promotion or the seed does). */
async function give(c: Ctx, kind: Voucher['kind'], value: string, expiresAt: number | null, userId = c.userId): Promise<number> {
  const row = await c.h.db
    .insertInto('vouchers')
    .values({ user_id: userId, kind, value, status: 'use', expires_at: expiresAt, source: 'promo', used_ref: null, merged_into: null, created_at: c.h.clock.now(), used_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('welcome vouchers', () => {
  it('are granted at sign-up: the dashboard counts them before the coupons page was ever opened (issue 26, Minor 11)', async () => {
    const c = await start();
    const summary = await call<DashboardSummary>(c.h, '/dashboard/summary', { token: c.token });
    expect(summary.code).toBe(200);
    expect(summary.data.usableVouchers).toBe(2);
    const rows = await c.h.db.selectFrom('vouchers').select(['source', 'created_at']).where('user_id', '=', c.userId).execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.source === 'welcome')).toBe(true);
  });

  it('lists the two welcome vouchers once, however often it is asked', async () => {
    const c = await start();
    const first = await list(c);
    const now = Math.min(...first.list.map((v) => v.createdAt)); // granted at sign-up
    expect(first.total).toBe(2);
    const lp = first.list.find((v) => v.kind === 'lossProtection');
    const sp = first.list.find((v) => v.kind === 'speed');
    expect(lp).toMatchObject({ value: '20.000000', status: 'use', source: 'welcome', expiresAt: now + 30 * DAY_MS, usedRef: null, mergedInto: null });
    expect(sp).toMatchObject({ value: '50', status: 'use', source: 'welcome', expiresAt: null });
    // Granted at sign-up, so the first list creates (and pushes) nothing.
    expect(c.frames.filter((f) => f.type === 'voucher')).toHaveLength(0);
    await list(c);
    await Promise.all([list(c), list(c), list(c)]);
    expect((await list(c)).total).toBe(2);
    expect(await ensureWelcomeVouchers(c.h.db, c.userId, now)).toEqual([]);
    expect(c.frames.filter((f) => f.type === 'voucher')).toHaveLength(0);
  });

  it('needs a login', async () => {
    const c = await start();
    const r = await call(c.h, '/vouchers');
    expect(r.code).toBe(401);
  });
});

describe('consumeVoucher', () => {
  it('uses a usable voucher exactly once, with ref and time', async () => {
    const c = await start();
    const id = await give(c, 'lossProtection', '35000000', null);
    c.h.clock.advance(1000);
    const now = c.h.clock.now();
    const r = await consumeVoucher(c.h.db, { userId: c.userId, voucherId: id, kind: 'lossProtection', ref: 'compensation:7', now });
    expect(r).toEqual({ ok: true, voucher: expect.objectContaining({ id, status: 'used', usedRef: 'compensation:7', usedAt: now, value: '35.000000' }) });
    const again = await consumeVoucher(c.h.db, { userId: c.userId, voucherId: id, kind: 'lossProtection', ref: 'compensation:8', now });
    expect(again).toEqual({ ok: false, msg: VOUCHER_MSG.notUsable });
    const row = await c.h.db.selectFrom('vouchers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'used', used_ref: 'compensation:7' });
    expect(Number(row.used_at)).toBe(now);
  });

  it('of concurrent uses exactly one wins', async () => {
    const c = await start();
    const id = await give(c, 'speed', '30', null);
    const now = c.h.clock.now();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => consumeVoucher(c.h.db, { userId: c.userId, voucherId: id, kind: 'speed', ref: `compensation:${i}`, now })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.msg === VOUCHER_MSG.notUsable)).toBe(true);
  });

  it('rejects a foreign, missing, wrong-kind or expired voucher and changes nothing', async () => {
    const c = await start();
    const other = await c.h.db.selectFrom('users').select('id').where('id', '!=', c.userId).executeTakeFirst();
    const now = c.h.clock.now();
    const lp = await give(c, 'lossProtection', '10000000', now + DAY_MS);
    const base = { userId: c.userId, ref: 'compensation:1', now };
    expect(await consumeVoucher(c.h.db, { ...base, voucherId: 99_999, kind: 'lossProtection' })).toEqual({ ok: false, msg: VOUCHER_MSG.notFound });
    expect(await consumeVoucher(c.h.db, { ...base, voucherId: lp, kind: 'speed' })).toEqual({ ok: false, msg: VOUCHER_MSG.wrongKind });
    if (other) {
      expect(await consumeVoucher(c.h.db, { ...base, userId: other.id, voucherId: lp, kind: 'lossProtection' })).toEqual({ ok: false, msg: VOUCHER_MSG.notFound });
    }
    // exactly at expires_at it is expired
    expect(await consumeVoucher(c.h.db, { ...base, now: now + DAY_MS, voucherId: lp, kind: 'lossProtection' })).toEqual({ ok: false, msg: VOUCHER_MSG.notUsable });
    const row = await c.h.db.selectFrom('vouchers').selectAll().where('id', '=', lp).executeTakeFirstOrThrow();
    expect(row.status).toBe('use');
    // one millisecond before, it is usable
    const r = await consumeVoucher(c.h.db, { ...base, now: now + DAY_MS - 1, voucherId: lp, kind: 'lossProtection' });
    expect(r.ok).toBe(true);
  });

  it('rolls back with the caller transaction', async () => {
    const c = await start();
    const id = await give(c, 'lossProtection', '5000000', null);
    await expect(
      c.h.db.transaction().execute(async (trx) => {
        const r = await consumeVoucher(trx, { userId: c.userId, voucherId: id, kind: 'lossProtection', ref: 'compensation:3', now: T0 });
        expect(r.ok).toBe(true);
        throw new Error('claim failed later');
      }),
    ).rejects.toThrow('claim failed later');
    const row = await c.h.db.selectFrom('vouchers').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('use');
  });
});

describe('expiry (derived on read, persisted lazily)', () => {
  it('shows a voucher as expired once its time has come, filters by status and pushes a frame', async () => {
    const c = await start();
    const welcomeAt = Math.min(...(await list(c)).list.map((v) => v.createdAt)); // granted at sign-up
    c.frames.length = 0;
    c.h.clock.t = welcomeAt + 30 * DAY_MS - 62_000;
    c.token = await login(c.h, 'saver@example.com'); // sessions last 7 days; moves the clock 61 s
    c.frames.length = 0;
    expect((await list(c, '?status=use')).total).toBe(2);
    c.h.clock.t = welcomeAt + 30 * DAY_MS;
    const usable = await list(c, '?status=use');
    expect(usable.list.map((v) => v.kind)).toEqual(['speed']);
    const expired = await list(c, '?status=expired&kind=lossProtection');
    expect(expired.list).toHaveLength(1);
    expect(expired.list[0]).toMatchObject({ status: 'expired', source: 'welcome' });
    expect(c.frames).toEqual([{ type: 'voucher', data: expect.objectContaining({ kind: 'lossProtection', status: 'expired' }) }]);
    // permanent never expires
    c.h.clock.advance(3650 * DAY_MS);
    c.token = await login(c.h, 'saver@example.com');
    expect((await list(c, '?kind=speed&status=use')).total).toBe(1);
  });

  it('pages newest first and validates the query', async () => {
    const c = await start();
    await list(c);
    for (let i = 0; i < 5; i += 1) {
      c.h.clock.advance(1000);
      await give(c, 'speed', String(10 + i * 10), null);
    }
    const p1 = await list(c, '?kind=speed&page=1&pageSize=4');
    expect(p1.total).toBe(6);
    expect(p1.list.map((v) => v.value)).toEqual(['50', '40', '30', '20']);
    const p2 = await list(c, '?kind=speed&page=2&pageSize=4');
    expect(p2.list.map((v) => v.value)).toEqual(['10', '50']);
    expect(p2.list[1]?.source).toBe('welcome');
    const bad = await call(c.h, '/vouchers?kind=gold', { token: c.token });
    expect(bad.code).toBe(400);
  });
});

describe('POST /vouchers/merge', () => {
  async function merge(c: Ctx, ids: unknown) {
    return call<Voucher>(c.h, '/vouchers/merge', { token: c.token, body: { ids } });
  }

  it('merges loss protection: value summed, earliest expiry, inputs merged into the new one', async () => {
    const c = await start();
    const now = c.h.clock.now();
    await list(c);
    c.frames.length = 0;
    const a = await give(c, 'lossProtection', '20000000', now + 10 * DAY_MS);
    const b = await give(c, 'lossProtection', '12345678', null);
    const d = await give(c, 'lossProtection', '1', now + 3 * DAY_MS);
    c.h.clock.advance(5);
    const r = await merge(c, [a, b, d]);
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ kind: 'lossProtection', value: '32.345679', status: 'use', source: 'merge', expiresAt: now + 3 * DAY_MS, createdAt: now + 5 });
    const inputs = await c.h.db.selectFrom('vouchers').selectAll().where('id', 'in', [a, b, d]).execute();
    expect(inputs.every((v) => v.status === 'merged' && Number(v.merged_into) === r.data.id)).toBe(true);
    expect(c.frames.map((f) => (f.data as Voucher).id).sort((x, y) => x - y)).toEqual([a, b, d, r.data.id].sort((x, y) => x - y));
    // merged ones can no longer be used or merged again
    const again = await merge(c, [a, r.data.id]);
    expect(again.code).not.toBe(200);
    expect(again.msg).toBe(VOUCHER_MSG.notUsable);
  });

  it('merges speed: 1 − Π(1 − p), floored, capped at 90; permanent only if all are', async () => {
    const c = await start();
    const s1 = await give(c, 'speed', '20', null);
    const s2 = await give(c, 'speed', '30', null);
    const r = await merge(c, [s1, s2]);
    expect(r.data).toMatchObject({ kind: 'speed', value: '44', expiresAt: null });
    const s3 = await give(c, 'speed', '70', null);
    const s4 = await give(c, 'speed', '80', null);
    const capped = await merge(c, [s3, s4]);
    expect(capped.data.value).toBe('90');
  });

  it('rejects the whole merge on a mixed, foreign, used, expired, missing or too short list', async () => {
    const c = await start();
    const now = c.h.clock.now();
    const lp = await give(c, 'lossProtection', '1000000', null);
    const lp2 = await give(c, 'lossProtection', '2000000', now + DAY_MS);
    const sp = await give(c, 'speed', '10', null);
    const used = await give(c, 'lossProtection', '3000000', null);
    await consumeVoucher(c.h.db, { userId: c.userId, voucherId: used, kind: 'lossProtection', ref: 'compensation:1', now });
    await register(c.h, 'other@example.com');
    const otherId = (await c.h.db.selectFrom('users').select('id').where('email', '=', 'other@example.com').executeTakeFirstOrThrow()).id;
    const foreign = await give(c, 'lossProtection', '4000000', null, otherId);

    expect((await merge(c, [lp, sp])).msg).toBe(VOUCHER_MSG.mergeKinds);
    expect((await merge(c, [lp, foreign])).msg).toBe(VOUCHER_MSG.notFound);
    expect((await merge(c, [lp, 424242])).msg).toBe(VOUCHER_MSG.notFound);
    expect((await merge(c, [lp, used])).msg).toBe(VOUCHER_MSG.notUsable);
    expect((await merge(c, [lp, lp])).msg).toBe(VOUCHER_MSG.mergeCount);
    expect((await merge(c, [lp])).code).toBe(400);
    expect((await merge(c, Array.from({ length: 11 }, (_, i) => i + 1))).code).toBe(400);
    expect((await merge(c, 'x')).code).toBe(400);
    c.h.clock.advance(DAY_MS);
    expect((await merge(c, [lp, lp2])).msg).toBe(VOUCHER_MSG.notUsable);
    const rows = await c.h.db.selectFrom('vouchers').select(['id', 'status']).where('id', 'in', [lp, sp, foreign]).execute();
    expect(rows.every((r) => r.status === 'use')).toBe(true);
    expect(await c.h.db.selectFrom('vouchers').select('id').where('source', '=', 'merge').execute()).toEqual([]);
  });

  it('two concurrent merges of the same vouchers: one wins, the other changes nothing', async () => {
    const c = await start();
    const a = await give(c, 'lossProtection', '1000000', null);
    const b = await give(c, 'lossProtection', '2000000', null);
    const d = await give(c, 'lossProtection', '3000000', null);
    const [r1, r2] = await Promise.all([merge(c, [a, b]), merge(c, [b, d])]);
    expect([r1.code, r2.code].filter((x) => x === 200)).toHaveLength(1);
    const made = await c.h.db.selectFrom('vouchers').selectAll().where('source', '=', 'merge').execute();
    expect(made).toHaveLength(1);
    const total = await c.h.db.selectFrom('vouchers').select('value').where('user_id', '=', c.userId).where('kind', '=', 'lossProtection').where('status', '=', 'use').where('source', '!=', 'welcome').execute();
    // the usable loss protection (beside the sign-up gift) still adds up to 6 USDT (a merge conserves value)
    expect(total.reduce((s, v) => s + BigInt(v.value), 0n)).toBe(6_000_000n);
  });
});

describe('demo seed', () => {
  it('gives the demo account a believable set once (welcome, used, expired, merged pair, permanent)', async () => {
    const bus = createUserEventBus();
    const h = await startServer({ seed: true, plugins: [async (app) => app.register(vouchersPlugin({ db: app.deps.db, clock: app.deps.clock, bus }))] });
    ctx = { h, token: await login(h, DEMO_ACCOUNT.email, DEMO_ACCOUNT.password), userId: 0, frames: [] };
    await seedVoucherDemo(h.db, h.clock.now()); // a second run adds nothing
    await seedDemo(h.db, h.clock.now());
    const all = await list(ctx, '?pageSize=100');
    const count = (kind: string, status: string) => all.list.filter((v) => v.kind === kind && v.status === status).length;
    expect(all.list.filter((v) => v.source === 'welcome')).toHaveLength(2);
    expect(count('lossProtection', 'use')).toBeGreaterThanOrEqual(4);
    expect(count('lossProtection', 'used')).toBe(1);
    expect(count('lossProtection', 'expired')).toBe(1);
    expect(count('speed', 'merged')).toBe(2);
    expect(count('speed', 'expired')).toBe(1);
    const merged = all.list.find((v) => v.source === 'merge');
    expect(merged).toMatchObject({ kind: 'speed', value: '44', status: 'use' });
    expect(all.list.filter((v) => v.mergedInto === merged?.id)).toHaveLength(2);
    expect(all.list.some((v) => v.expiresAt === null && v.status === 'use' && v.kind === 'lossProtection')).toBe(true);
    expect(all.list.find((v) => v.status === 'used')?.usedRef).toMatch(/^compensation:\d+$/);
    expect(all.total).toBe(12);
  });
});
