import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import { USER_MSG } from '../../src/protocol/user.ts';
import type { LedgerEntry, Order } from '../../src/protocol/trading.ts';
import { call, sendCode, T0 } from './harness.ts';
import { startReferral } from './referralHarness.ts';
import type { ReferralHarness } from './referralHarness.ts';

/**
 * Referral rebates over real HTTP (issue 15, docs/REFERRAL.md): the invitation code, linking at
 * sign-up (once and for ever), the unknown-code error, 20 % of each fee an invitee pays credited
 * to the inviter's fund wallet through the ledger (rounded down to the minor unit), and
 * yesterday's earnings by UTC day on the server clock.
 */

let r: ReferralHarness | null = null;
afterEach(async () => {
  await r?.close();
  r = null;
});

const DAY = 86_400_000;

async function fundLedger(th: ReferralHarness, token: string): Promise<string[]> {
  const page = (await call<Page<LedgerEntry>>(th.h, '/wallet/ledger?wallet=fund&pageSize=50', { token })).data;
  return page.list.map((e) => `${e.type} ${e.amount}`);
}

describe('invitation code', () => {
  it('every user has a stable unique 8-character code, a register link and the 20 % rate', async () => {
    r = await startReferral();
    const a = await r.signUp('alice@example.com');
    const b = await r.signUp('bob@example.com');
    const sa = await r.summary(a.token);
    const sb = await r.summary(b.token);
    expect(sa.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(sa.code).not.toBe(sb.code);
    expect((await r.summary(a.token)).code).toBe(sa.code);
    const info = await call<{ inviteCode: string }>(r.h, '/user/info', { token: a.token });
    expect(info.data.inviteCode).toBe(sa.code);
    expect(sa).toEqual({
      code: sa.code,
      link: `/register?code=${sa.code}`,
      ratePercent: '20',
      coin: 'USDT',
      totalEarnings: '0.000000',
      yesterdayEarnings: '0.000000',
      todayEarnings: '0.000000',
      totalInvited: 0,
    });
    expect(await r.invitees(a.token)).toEqual({ list: [], total: 0, page: 1, pageSize: 20 });
  });

  it('needs a session', async () => {
    r = await startReferral();
    const s = await call(r.h, '/referral/summary');
    expect(s.code).toBe(401);
    const l = await call(r.h, '/referral/invitees');
    expect(l.code).toBe(401);
  });
});

describe('linking at sign-up', () => {
  it('registering with a code (any letter case) links the new account to the inviter', async () => {
    r = await startReferral();
    const a = await r.signUp('alice@example.com');
    const { code } = await r.summary(a.token);
    const t1 = r.h.clock.now();
    await r.signUp('carol.invited@example.com', code);
    await r.signUp('dave@example.com', code.toLowerCase());
    await r.signUp('erin.alone@example.com');
    const s = await r.summary(a.token);
    expect(s.totalInvited).toBe(2);
    const list = await r.invitees(a.token);
    expect(list.total).toBe(2);
    // newest sign-up first, masked emails, sign-up time on the server clock
    expect(list.list.map((i) => i.email)).toEqual(['da***@example.com', 'ca***@example.com']);
    expect(list.list[1]?.registeredAt).toBe(t1); // signed up before its login moved the clock
    expect(list.list[0]).toMatchObject({ volume: '0.000000', fees: '0.000000', rebate: '0.000000' });
    // paging
    const p2 = await r.invitees(a.token, 2, 1);
    expect(p2).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(p2.list.map((i) => i.email)).toEqual(['ca***@example.com']);
  });

  it('an unknown code is a validation error with a clear msg, creates nothing and leaves the mailed code usable', async () => {
    r = await startReferral();
    const code = await sendCode(r.h, 'frank@example.com', 'register');
    const body = { email: 'frank@example.com', password: 'secret12', confirmPassword: 'secret12', code, agree: true };
    const bad = await call(r.h, '/user/register', { body: { ...body, inviteCode: 'NOSUCH99' } });
    expect(bad.code).toBe(400);
    expect(bad.msg).toBe(USER_MSG.inviteInvalid);
    expect(bad.msg).toBe('Invalid referral code');
    expect(bad.data).toBeNull();
    expect(await r.h.db.selectFrom('users').select('id').where('email', '=', 'frank@example.com').executeTakeFirst()).toBeUndefined();
    // corrected form: the same mailed code still works, without a code
    const good = await call(r.h, '/user/register', { body });
    expect(good.code).toBe(200);
  });

  it('links once and for ever: the same email cannot sign up again with another code', async () => {
    r = await startReferral();
    const a = await r.signUp('alice@example.com');
    const b = await r.signUp('bob@example.com');
    const codeA = (await r.summary(a.token)).code;
    const codeB = (await r.summary(b.token)).code;
    const inv = await r.signUp('ivy@example.com', codeA);
    r.h.clock.advance(61_000);
    const again = await sendCode(r.h, 'ivy@example.com', 'register').catch((e: unknown) => String(e));
    expect(again).toContain(USER_MSG.emailTaken);
    // even with a valid code in hand the register call itself refuses
    const direct = await call(r.h, '/user/register', { body: { email: 'ivy@example.com', password: 'secret12', confirmPassword: 'secret12', code: '123456', agree: true, inviteCode: codeB } });
    expect(direct.code).toBe(409);
    expect((await r.summary(a.token)).totalInvited).toBe(1);
    expect((await r.summary(b.token)).totalInvited).toBe(0);
    const row = await r.h.db.selectFrom('users').select('invited_by').where('id', '=', inv.id).executeTakeFirst();
    expect(row?.invited_by).toBe(a.id);
    // the database itself refuses to move or drop the link, or to add one later
    await expect(r.h.db.updateTable('users').set({ invited_by: b.id }).where('id', '=', inv.id).execute()).rejects.toThrow(/set once at sign-up/);
    await expect(r.h.db.updateTable('users').set({ invited_by: null }).where('id', '=', inv.id).execute()).rejects.toThrow(/set once at sign-up/);
    await expect(r.h.db.updateTable('users').set({ invited_by: a.id }).where('id', '=', b.id).execute()).rejects.toThrow(/set once at sign-up/);
    // other columns still update
    await r.h.db.updateTable('users').set({ nickname: 'Ivy' }).where('id', '=', inv.id).execute();
    // the invitee's fee pays A only
    await r.move('BTCUSDT', 60_000);
    expect((await r.place(inv.token, { qty: 0.1 })).code).toBe(200);
    expect((await r.summary(a.token)).totalEarnings).toBe('0.600000');
    expect((await r.summary(b.token)).totalEarnings).toBe('0.000000');
  });
});

describe('rebates', () => {
  it("credits 20 % of each fee an invitee pays, rounded down to the minor unit, through the ledger", async () => {
    r = await startReferral();
    const a = await r.signUp('alice@example.com');
    const { code } = await r.summary(a.token);
    const inv = await r.signUp('ivy@example.com', code);
    const loner = await r.signUp('lone@example.com');

    // notional 60.0001 → fee ceil(0.03000005) = 0.030001 → rebate floor(0.0060002) = 0.006000
    await r.move('BTCUSDT', 60_000.1);
    const open = await r.place(inv.token, { qty: 0.001 });
    expect(open.code).toBe(200);
    expect(open.data.fee).toBe('0.030001');
    let s = await r.summary(a.token);
    expect(s.totalEarnings).toBe('0.006000');
    expect(s.todayEarnings).toBe('0.006000');
    expect(await fundLedger(r, a.token)).toEqual(['TRADE_COMMISSION 0.006000', 'ADMIN_ADJUST 10000.000000']);

    // close at 70 000.7: notional 70.0007 → fee 0.035001 → rebate 0.007000
    await r.move('BTCUSDT', 70_000.7);
    const [pos] = (await call<{ id: string }[]>(r.h, '/trade/positions', { token: inv.token })).data;
    const closed = await call<Order>(r.h, '/trade/position/close', { token: inv.token, body: { positionId: pos?.id } });
    expect(closed.code).toBe(200);
    expect(closed.data.fee).toBe('0.035001');
    s = await r.summary(a.token);
    expect(s.totalEarnings).toBe('0.013000');
    expect(await fundLedger(r, a.token)).toEqual(['TRADE_COMMISSION 0.007000', 'TRADE_COMMISSION 0.006000', 'ADMIN_ADJUST 10000.000000']);
    const [row] = (await r.invitees(a.token)).list;
    expect(row).toMatchObject({ email: 'iv***@example.com', volume: '130.000800', fees: '0.065002', rebate: '0.013000' });

    // an uninvited trader's fee pays nobody
    expect((await r.place(loner.token, { qty: 0.1 })).code).toBe(200);
    expect((await r.summary(a.token)).totalEarnings).toBe('0.013000');
    expect(await r.h.db.selectFrom('referral_rebates').select('id').where('invitee_id', '=', loner.id).execute()).toEqual([]);

    // the money: A's fund wallet up by exactly the rebates, paid by the system account; every balance equals its ledger sum
    const fund = (await balancesOf(r.h.db, a.id)).find((b) => b.wallet === 'fund' && b.asset === 'USDT');
    expect(fund?.amount).toBe(10_000_013_000n);
    for (const id of [a.id, inv.id, loner.id]) {
      for (const b of await balancesOf(r.h.db, id)) {
        expect(await ledgerSum(r.h.db, id, b.wallet, b.asset)).toBe(b.amount);
        expect(b.amount >= 0n).toBe(true);
      }
    }
    const sys = await r.h.db.selectFrom('ledger_entries').select('amount').where('user_id', '=', SYSTEM_ACCOUNT_ID).where('type', '=', 'TRADE_COMMISSION').execute();
    expect(sys.map((x) => x.amount).sort()).toEqual(['-6000', '-7000']);
  });

  it('the rebate commits with its fee: a refused order pays no rebate', async () => {
    r = await startReferral();
    const a = await r.signUp('alice@example.com');
    const inv = await r.signUp('ivy@example.com', (await r.summary(a.token)).code);
    await r.move('BTCUSDT', 60_000);
    // 10 BTC at 10x needs 60 000 margin: Insufficient Balance, nothing written
    const big = await r.place(inv.token, { qty: 10, leverage: 10 });
    expect(big.code).not.toBe(200);
    expect((await r.summary(a.token)).totalEarnings).toBe('0.000000');
    expect(await r.h.db.selectFrom('referral_rebates').select('id').execute()).toEqual([]);
  });
});

describe("yesterday's earnings (UTC day on the server clock)", () => {
  it('moves across midnight UTC', async () => {
    r = await startReferral();
    const a = await r.signUp('alice@example.com');
    const inv = await r.signUp('ivy@example.com', (await r.summary(a.token)).code);
    expect(r.h.clock.now()).toBeLessThan(T0 + DAY);
    await r.move('BTCUSDT', 60_000);
    expect((await r.place(inv.token, { qty: 0.1 })).code).toBe(200); // fee 3 → rebate 0.6
    let s = await r.summary(a.token);
    expect([s.todayEarnings, s.yesterdayEarnings, s.totalEarnings]).toEqual(['0.600000', '0.000000', '0.600000']);

    r.h.clock.t = T0 + DAY - 1; // 23:59:59.999 on day 1
    s = await r.summary(a.token);
    expect([s.todayEarnings, s.yesterdayEarnings]).toEqual(['0.600000', '0.000000']);

    r.h.clock.t = T0 + DAY; // midnight: day 1 is yesterday now
    s = await r.summary(a.token);
    expect([s.todayEarnings, s.yesterdayEarnings, s.totalEarnings]).toEqual(['0.000000', '0.600000', '0.600000']);

    // 1 BTC-worth trade on day 2: fee 0.05 % of 12 000 = 6 → rebate 1.2
    await r.move('BTCUSDT', 60_000);
    expect((await r.place(inv.token, { qty: 0.2 })).code).toBe(200);
    s = await r.summary(a.token);
    expect([s.todayEarnings, s.yesterdayEarnings, s.totalEarnings]).toEqual(['1.200000', '0.600000', '1.800000']);

    r.h.clock.t = T0 + 2 * DAY + 5_000;
    s = await r.summary(a.token);
    expect([s.todayEarnings, s.yesterdayEarnings, s.totalEarnings]).toEqual(['0.000000', '1.200000', '1.800000']);

    r.h.clock.t = T0 + 3 * DAY;
    s = await r.summary(a.token);
    expect([s.todayEarnings, s.yesterdayEarnings, s.totalEarnings]).toEqual(['0.000000', '0.000000', '1.800000']);
  });
});
