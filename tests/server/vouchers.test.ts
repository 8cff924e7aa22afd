import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from '../../src/protocol/envelope.ts';
import { VOUCHER_MSG } from '../../src/protocol/vouchers.ts';
import type { Voucher } from '../../src/protocol/vouchers.ts';
import { vouchersPlugin } from '../../server/vouchers/routes.ts';
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
    plugins: [async (app) => app.register(vouchersPlugin({ db: app.deps.db, clock: app.deps.clock, bus }))],
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
  it('lists the two welcome vouchers once, however often it is asked', async () => {
    const c = await start();
    const now = c.h.clock.now();
    const first = await list(c);
    expect(first.total).toBe(2);
    const lp = first.list.find((v) => v.kind === 'lossProtection');
    const sp = first.list.find((v) => v.kind === 'speed');
    expect(lp).toMatchObject({ value: '20.000000', status: 'use', source: 'welcome', expiresAt: now + 30 * DAY_MS, usedRef: null, mergedInto: null });
    expect(sp).toMatchObject({ value: '50', status: 'use', source: 'welcome', expiresAt: null });
    expect(c.frames.filter((f) => f.type === 'voucher')).toHaveLength(2);
    await list(c);
    await Promise.all([list(c), list(c), list(c)]);
    expect((await list(c)).total).toBe(2);
    expect(await ensureWelcomeVouchers(c.h.db, c.userId, now)).toEqual([]);
    expect(c.frames.filter((f) => f.type === 'voucher')).toHaveLength(2);
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
