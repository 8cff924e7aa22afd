import { afterEach, describe, expect, it } from 'vitest';
import { compensationPlugin } from '../../server/compensation/routes.ts';
import { DAY_MS } from '../../server/compensation/rules.ts';
import { runCompensationJobs } from '../../server/compensation/service.ts';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import type { TradingEngine } from '../../server/trading/engine.ts';
import { createTrading } from '../../server/trading/wiring.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import type { UserFrame } from '../../server/ws/userBus.ts';
import type { CompensationList, CompensationOrder } from '../../src/protocol/compensation.ts';
import { COMPENSATION_MSG, COMPENSATION_PATHS } from '../../src/protocol/compensation.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import type { Balance, LedgerEntry, Order, Position } from '../../src/protocol/trading.ts';
import { KYC_REQUIRED_MSG } from '../../src/protocol/user.ts';
import { call, login, register, startServer, T0, testEngineMode } from './harness.ts';
import type { Harness } from './harness.ts';

/**
 * The compensation programme over real HTTP (127.0.0.1) with the trading engine on a controlled
 * market and a ManualClock; the payout job is run by hand (periodicMs 0). Numbers by hand:
 * BTCUSDT fees 0.05 % open and close.
 */

interface Ctx {
  h: Harness;
  source: ControlledMarketSource;
  engine: TradingEngine;
  token: string;
  userId: number;
  frames: UserFrame[];
}

let ctx: Ctx | null = null;
afterEach(async () => {
  await ctx?.h.close();
  ctx = null;
});

async function start(): Promise<Ctx> {
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
  const bus = createUserEventBus();
  let engine: TradingEngine | null = null;
  const h = await startServer({
    config: { exposeOutbox: true },
    plugins: [
      async (app) => {
        const t = createTrading({ db: app.deps.db, clock: app.deps.clock, source, bus, periodicMs: 0, mode: testEngineMode() });
        engine = t.engine;
        await app.register(t.plugin);
      },
      async (app) => {
        await app.register(compensationPlugin({ db: app.deps.db, clock: app.deps.clock, bus, periodicMs: 0 }));
      },
    ],
  });
  await register(h, 'loser@example.com');
  const token = await login(h, 'loser@example.com');
  const info = await call<{ id: number }>(h, '/user/info', { token });
  const frames: UserFrame[] = [];
  bus.subscribe(info.data.id, (f) => frames.push(f));
  const eng = engine as TradingEngine | null;
  if (!eng) throw new Error('engine not created');
  return { h, source, engine: eng, token, userId: info.data.id, frames };
}

let seq = 0;
/** Opens 0.1 BTC long ×10 at `open` and closes it at `close` (market orders). */
async function roundTrip(c: Ctx, open: number, close: number): Promise<void> {
  c.source.setPrice('BTCUSDT', open);
  await c.engine.idle();
  seq += 1;
  const r = await call<Order>(c.h, '/trade/order', {
    token: c.token,
    body: { clientOrderId: `cmp${seq}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10 },
  });
  expect(r.code).toBe(200);
  c.source.setPrice('BTCUSDT', close);
  await c.engine.idle();
  const [pos] = (await call<Position[]>(c.h, '/trade/positions', { token: c.token })).data;
  if (pos) expect((await call(c.h, '/trade/position/close', { token: c.token, body: { positionId: pos.id } })).code).toBe(200);
}

async function list(c: Ctx, query = ''): Promise<CompensationList> {
  const r = await call<CompensationList>(c.h, `${COMPENSATION_PATHS.orders}${query}`, { token: c.token });
  expect(r.code).toBe(200);
  return r.data;
}

async function act(c: Ctx, path: string, body: Record<string, unknown>) {
  return call<CompensationOrder>(c.h, path, { token: c.token, body });
}

async function verify(c: Ctx): Promise<void> {
  await c.h.db.updateTable('users').set({ kyc_status: 'verified' }).where('id', '=', c.userId).execute();
}

async function voucher(c: Ctx, kind: 'lossProtection' | 'speed', value: string): Promise<number> {
  const r = await c.h.db
    .insertInto('vouchers')
    .values({ user_id: c.userId, kind, value, status: 'use', expires_at: null, source: 'test', used_ref: null, merged_into: null, created_at: c.h.clock.now(), used_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

async function fund(c: Ctx): Promise<string> {
  const r = await call<Balance[]>(c.h, '/wallet/balances', { token: c.token });
  return r.data.find((b) => b.wallet === 'fund' && b.coin === 'USDT')?.available ?? 'none';
}

async function books(c: Ctx): Promise<void> {
  for (const b of await balancesOf(c.h.db, c.userId)) {
    expect(await ledgerSum(c.h.db, c.userId, b.wallet, b.asset)).toBe(b.amount);
    expect(b.amount >= 0n).toBe(true);
  }
  const all = await c.h.db.selectFrom('balances').select(['asset', 'amount']).where('asset', '=', 'USDT').execute();
  expect(all.reduce((s, r) => s + BigInt(r.amount), 0n)).toBe(0n);
}

describe('creation from a realised loss', () => {
  it('covers 50 % of the net loss once; later losses get their own order, profits create none', async () => {
    ctx = await start();
    expect((await list(ctx)).list).toEqual([]);
    // long 0.1 at 60 000, close at 57 000: PnL -300, fees 3 + 2.85 → net -305.85
    await roundTrip(ctx, 60_000, 57_000);
    const first = await list(ctx);
    expect(first.total).toBe(1);
    expect(first.list[0]).toMatchObject({
      status: 'notActive',
      amount: '152.925000',
      paid: '0.000000',
      durationDays: 30,
      daysLeft: 30,
      dailyReturn: '5.097500',
      totalUserPnl: '-305.850000',
      totalUserCompensation: '152.925000',
      createdAt: ctx.h.clock.now(),
    });
    expect(first.summary).toEqual({ totalUserPnl: '-305.850000', totalUserCompensation: '152.925000', totalPaid: '0.000000', pendingWithdrawal: '0.000000' });
    // read again and run the job: still one order (no double cover)
    await runCompensationJobs(ctx.h.db, ctx.h.clock.now());
    expect((await list(ctx)).total).toBe(1);

    // a profit (+600 - 6.3 fees) creates nothing
    await roundTrip(ctx, 60_000, 66_000);
    expect((await list(ctx)).total).toBe(1);
    // a loss smaller than that profit nets to a profit: still nothing
    await roundTrip(ctx, 60_000, 59_000);
    expect((await list(ctx)).total).toBe(1);
    // net since the first order: +593.7 - 105.95 = +487.75; a -1000-ish loss turns it into a net loss
    await roundTrip(ctx, 60_000, 50_000 + 5_400);
    const after = await list(ctx);
    // latest close: PnL -460, fees 3 + 2.77 → -465.77; net since cover = 487.75 - 465.77 > 0 → still nothing
    expect(after.total).toBe(1);
    await roundTrip(ctx, 60_000, 55_000);
    // PnL -500, fees 3 + 2.75: net since cover = 21.98 - 505.75 = -483.77 → amount 241.885
    const third = await list(ctx);
    expect(third.total).toBe(2);
    expect(third.list[0]).toMatchObject({ status: 'notActive', amount: '241.885000', totalUserCompensation: `${(152.925 + 241.885).toFixed(6)}` });
    expect(third.summary.totalUserPnl).toBe(third.list[0]?.totalUserPnl);
    expect(ctx.frames.filter((f) => f.type === 'compensation')).toHaveLength(2);
    await books(ctx);
  });

  it('counts a liquidation (margin lost) as a realised loss', async () => {
    ctx = await start();
    ctx.source.setPrice('BTCUSDT', 60_000);
    await ctx.engine.idle();
    const r = await call<Order>(ctx.h, '/trade/order', {
      token: ctx.token,
      body: { clientOrderId: 'liq1', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10 },
    });
    expect(r.code).toBe(200);
    ctx.source.setPrice('BTCUSDT', 50_000);
    await ctx.engine.idle();
    expect((await call<Position[]>(ctx.h, '/trade/positions', { token: ctx.token })).data).toEqual([]);
    const ledger = (await call<Page<LedgerEntry>>(ctx.h, '/wallet/ledger?wallet=perp&pageSize=100', { token: ctx.token })).data.list;
    const net = ledger
      .filter((e) => ['CONTRACT_CLOSE', 'CONTRACT_OPEN_FEE', 'CONTRACT_CLOSE_FEE', 'CONTRACT_TRADE'].includes(e.type))
      .reduce((s, e) => s + Math.round(Number(e.amount) * 1e6), 0);
    expect(net).toBe(-603_000_000); // the whole 600 margin plus the 3 USDT opening fee
    const [o] = (await list(ctx)).list;
    expect(o).toMatchObject({ status: 'notActive', amount: '301.500000', totalUserPnl: '-603.000000' });
  });
});

describe('claim, payouts, boost and withdraw', () => {
  it('runs the whole programme and pays exactly the amount into the fund wallet once', async () => {
    ctx = await start();
    await roundTrip(ctx, 60_000, 57_000);
    const [o] = (await list(ctx)).list;
    if (!o) throw new Error('no order');
    const fundBefore = await fund(ctx);
    expect(fundBefore).toBe('10000.000000');

    // wrong states first
    expect(await act(ctx, COMPENSATION_PATHS.withdraw, { id: o.id })).toMatchObject({ code: 409, msg: COMPENSATION_MSG.notWithdrawable });
    const speed = await voucher(ctx, 'speed', '50');
    expect(await act(ctx, COMPENSATION_PATHS.boost, { id: o.id, voucherId: speed })).toMatchObject({ code: 409, msg: COMPENSATION_MSG.notBoostable });
    expect(await act(ctx, COMPENSATION_PATHS.boost, { id: o.id })).toMatchObject({ code: 400, msg: COMPENSATION_MSG.voucherRequired });
    expect(await act(ctx, COMPENSATION_PATHS.claim, { id: 9999 })).toMatchObject({ code: 404, msg: COMPENSATION_MSG.notFound });

    // claim without identity verification is refused
    expect(await act(ctx, COMPENSATION_PATHS.claim, { id: o.id })).toMatchObject({ code: 403, msg: KYC_REQUIRED_MSG });
    await verify(ctx);
    const claimed = await act(ctx, COMPENSATION_PATHS.claim, { id: o.id });
    expect(claimed.code).toBe(200);
    expect(claimed.data).toMatchObject({ status: 'active', activatedAt: ctx.h.clock.now(), nextPayoutAt: ctx.h.clock.now() + DAY_MS, paid: '0.000000' });
    expect(await act(ctx, COMPENSATION_PATHS.claim, { id: o.id })).toMatchObject({ code: 409, msg: COMPENSATION_MSG.notClaimable });

    // not due yet
    ctx.h.clock.advance(DAY_MS - 1);
    expect(await runCompensationJobs(ctx.h.db, ctx.h.clock.now())).toEqual([]);
    // first payout: active → inCompensation
    ctx.h.clock.advance(1);
    const [p1] = await runCompensationJobs(ctx.h.db, ctx.h.clock.now());
    expect(p1).toMatchObject({ status: 'inCompensation', paid: '5.097500', daysLeft: 29 });
    // five days of downtime: the next run catches up five payouts at once
    ctx.h.clock.advance(5 * DAY_MS);
    const [p6] = await runCompensationJobs(ctx.h.db, ctx.h.clock.now());
    expect(p6).toMatchObject({ paid: (5.0975 * 6).toFixed(6), daysLeft: 24 });
    expect(await fund(ctx)).toBe(fundBefore); // paid is a claim on the fund, not yet the user's money

    // boost 50 %: 24 days left → 12, daily = 122.34 / 12
    const boosted = await act(ctx, COMPENSATION_PATHS.boost, { id: o.id, voucherId: speed });
    expect(boosted.code).toBe(200);
    expect(boosted.data).toMatchObject({ status: 'inCompensation', daysLeft: 12, dailyReturn: '10.195000', durationDays: 18, boosts: 1, amount: '152.925000' });
    const used = await ctx.h.db.selectFrom('vouchers').selectAll().where('id', '=', speed).executeTakeFirstOrThrow();
    expect(used).toMatchObject({ status: 'used', used_ref: `compensation:${o.id}` });
    // the same voucher cannot boost twice
    expect((await act(ctx, COMPENSATION_PATHS.boost, { id: o.id, voucherId: speed })).code).toBe(400);

    // a long outage: never pays more than the amount
    ctx.h.clock.advance(40 * DAY_MS);
    const [done] = await runCompensationJobs(ctx.h.db, ctx.h.clock.now());
    expect(done).toMatchObject({ status: 'pending', paid: '152.925000', daysLeft: 0, nextPayoutAt: null });
    ctx.token = await login(ctx.h, 'loser@example.com'); // the session expired during the outage
    expect((await list(ctx)).summary).toMatchObject({ totalPaid: '152.925000', pendingWithdrawal: '152.925000' });

    const w = await act(ctx, COMPENSATION_PATHS.withdraw, { id: o.id });
    expect(w.code).toBe(200);
    expect(w.data).toMatchObject({ status: 'completed', completedAt: ctx.h.clock.now() });
    expect(await fund(ctx)).toBe('10152.925000');
    // twice: refused, nothing paid again
    expect(await act(ctx, COMPENSATION_PATHS.withdraw, { id: o.id })).toMatchObject({ code: 409, msg: COMPENSATION_MSG.notWithdrawable });
    expect(await fund(ctx)).toBe('10152.925000');
    const payouts = await ctx.h.db.selectFrom('ledger_entries').selectAll().where('type', '=', 'COMPENSATION_PAYOUT').execute();
    expect(payouts.map((p) => [p.user_id, p.wallet, p.amount])).toEqual([
      [ctx.userId, 'fund', '152925000'],
      [SYSTEM_ACCOUNT_ID, 'fund', '-152925000'],
    ]);
    expect((await list(ctx)).summary).toMatchObject({ totalPaid: '152.925000', pendingWithdrawal: '0.000000' });
    const types = ctx.frames.map((f) => f.type);
    expect(types).toContain('balance');
    expect(types.filter((t) => t === 'compensation').length).toBeGreaterThanOrEqual(4);
    await books(ctx);
  });

  it('a loss-protection voucher raises the amount, capped at the loss', async () => {
    ctx = await start();
    await verify(ctx);
    await roundTrip(ctx, 60_000, 57_000);
    const [o] = (await list(ctx)).list;
    const big = await voucher(ctx, 'lossProtection', '500000000'); // 500 USDT > loss - amount
    const r = await act(ctx, COMPENSATION_PATHS.claim, { id: o?.id, voucherId: big });
    expect(r.code).toBe(200);
    // amount 152.925 + min(500, 305.85 - 152.925) = 305.85; daily = 305.85 / 30
    expect(r.data).toMatchObject({ status: 'active', amount: '305.850000', dailyReturn: '10.195000', totalUserCompensation: '305.850000' });
    // a wrong-kind voucher is refused and the claim rolls back
    await roundTrip(ctx, 60_000, 57_000);
    const [o2] = (await list(ctx)).list;
    const speed = await voucher(ctx, 'speed', '50');
    const bad = await act(ctx, COMPENSATION_PATHS.claim, { id: o2?.id, voucherId: speed });
    expect(bad.code).toBe(400);
    expect((await list(ctx, '?status=notActive')).list.map((x) => x.id)).toEqual([o2?.id]);
  });

  it('the dev fast-forward pays the days due for that user', async () => {
    ctx = await start();
    await verify(ctx);
    await roundTrip(ctx, 60_000, 57_000);
    const [o] = (await list(ctx)).list;
    await act(ctx, COMPENSATION_PATHS.claim, { id: o?.id });
    const ff = await call<CompensationOrder[]>(ctx.h, COMPENSATION_PATHS.fastForward, { body: { email: 'loser@example.com', days: 3 } });
    expect(ff.code).toBe(200);
    expect(ff.data[0]).toMatchObject({ id: o?.id, status: 'inCompensation', paid: (5.0975 * 3).toFixed(6) });
    const all = await call<CompensationOrder[]>(ctx.h, COMPENSATION_PATHS.fastForward, { body: { email: 'loser@example.com', days: 30 } });
    expect(all.data[0]).toMatchObject({ status: 'pending', paid: '152.925000' });
    expect((await call(ctx.h, COMPENSATION_PATHS.fastForward, { body: { email: 'nobody@example.com', days: 1 } })).code).toBe(404);
  });
});

describe('demo seed', () => {
  it('gives the demo a completed, a partly paid and an unclaimed order, once', async () => {
    const h = await startServer({
      seed: true,
      plugins: [async (app) => app.register(compensationPlugin({ db: app.deps.db, clock: app.deps.clock, periodicMs: 0 }))],
    });
    try {
      const token = await login(h, 'demo@example.com', 'demo1234');
      const r = await call<CompensationList>(h, COMPENSATION_PATHS.orders, { token });
      expect(r.data.list.map((o) => o.status)).toEqual(['notActive', 'inCompensation', 'completed']);
      const [fresh, running, done] = r.data.list;
      expect(fresh).toMatchObject({ amount: '79.200000', paid: '0.000000' });
      expect(running).toMatchObject({ amount: '118.400000', daysLeft: 19 });
      expect(Number(running?.paid)).toBeGreaterThan(0);
      expect(done).toMatchObject({ amount: '206.250000', paid: '206.250000' });
      expect(r.data.summary).toMatchObject({ totalUserPnl: '-807.700000', totalUserCompensation: '403.850000', pendingWithdrawal: '0.000000' });
      const info = await call<{ id: number }>(h, '/user/info', { token });
      const payouts = await h.db.selectFrom('ledger_entries').select('amount').where('user_id', '=', info.data.id).where('type', '=', 'COMPENSATION_PAYOUT').execute();
      expect(payouts.map((p) => p.amount)).toEqual(['206250000']);
      const { seedCompensationDemo } = await import('../../server/compensation/seed.ts');
      expect(await seedCompensationDemo(h.db, h.clock.now())).toBe(false);
      expect((await call<CompensationList>(h, COMPENSATION_PATHS.orders, { token })).data.total).toBe(3);
      const all = await h.db.selectFrom('balances').select('amount').where('asset', '=', 'USDT').execute();
      expect(all.reduce((s, b) => s + BigInt(b.amount), 0n)).toBe(0n);
    } finally {
      await h.close();
    }
  });
});
