import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyPayouts, boostSchedule, claimAmount, compensationAmount, DAY_MS, dailyReturnOf, daysLeft, payoutOf,
} from '../../server/compensation/rules.ts';
import type { Schedule } from '../../server/compensation/rules.ts';
import { boostCompensation, claimCompensation, listCompensation, runCompensationJobs, withdrawCompensation } from '../../server/compensation/service.ts';
import { lossCoveredBy } from '../../server/compensation/store.ts';
import { openDb } from '../../server/db/connection.ts';
import type { Db } from '../../server/db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import { postLedger } from '../../server/ledger/post.ts';
import { migrateToLatest } from '../../server/db/migrations.ts';
import { createAccount } from '../../server/services/accounts.ts';

/** The pure money rules (server/compensation/rules.ts) and the service's money invariants on a real database. */

const amountArb = fc.bigInt({ min: 500_000n, max: 10n ** 13n });
const scheduleArb = amountArb.chain((amount) =>
  fc.integer({ min: 1, max: 60 }).map((days): Schedule => ({ amount, paid: 0n, daily: dailyReturnOf(amount, days) })),
);

describe('compensation rules (pure)', () => {
  it('a schedule of n days pays out in exactly n days and the payouts sum to the amount', () => {
    fc.assert(
      fc.property(amountArb, fc.integer({ min: 1, max: 60 }), (amount, n) => {
        const s = { amount, paid: 0n, daily: dailyReturnOf(amount, n) };
        expect(daysLeft(amount, s.daily)).toBe(n);
        const { schedule, payouts } = applyPayouts(s, 1000);
        expect(payouts).toHaveLength(n);
        expect(payouts.reduce((a, b) => a + b, 0n)).toBe(amount);
        expect(schedule.paid).toBe(amount);
        // every day but the last pays the daily return; the last pays the remainder (≥ daily)
        for (const p of payouts.slice(0, -1)) expect(p).toBe(s.daily);
        expect((payouts.at(-1) ?? 0n) >= s.daily).toBe(true);
      }),
    );
  });

  it('paid never exceeds the amount, whatever the catch-up and boosts', () => {
    fc.assert(
      fc.property(scheduleArb, fc.array(fc.oneof(fc.record({ pay: fc.integer({ min: 0, max: 90 }) }), fc.record({ boost: fc.integer({ min: 1, max: 99 }) })), { maxLength: 12 }), (start, steps) => {
        let s = start;
        let total = 0n;
        for (const step of steps) {
          if ('pay' in step) {
            const r = applyPayouts(s, step.pay);
            total += r.payouts.reduce((a, b) => a + b, 0n);
            expect(r.payouts.every((p) => p > 0n)).toBe(true);
            s = r.schedule;
          } else {
            const before = daysLeft(s.amount - s.paid, s.daily);
            const b = boostSchedule(s, step.boost);
            // boosts never lengthen, never change what is owed
            expect(b.days).toBeLessThanOrEqual(before);
            expect(b.before).toBe(before);
            s = { ...s, daily: b.daily };
          }
          expect(s.paid <= s.amount).toBe(true);
          expect(total).toBe(s.paid);
        }
        const rest = applyPayouts(s, 10_000);
        expect(rest.schedule.paid).toBe(s.amount);
      }),
    );
  });

  it('a boost of p % leaves max(1, ceil(n × (1 − p/100))) days for real amounts', () => {
    fc.assert(
      fc.property(scheduleArb, fc.integer({ min: 0, max: 29 }), fc.integer({ min: 1, max: 99 }), (s0, paidDays, p) => {
        const s = applyPayouts(s0, paidDays).schedule;
        const n = daysLeft(s.amount - s.paid, s.daily);
        fc.pre(n > 0);
        const m = Math.max(1, Math.ceil((n * (100 - p)) / 100 - 1e-9));
        fc.pre(s.amount - s.paid >= BigInt(m * m));
        expect(boostSchedule(s, p).days).toBe(m);
      }),
    );
  });

  it('amount is half the loss; a loss-protection voucher never lifts it above the loss', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 14n }), fc.bigInt({ min: 0n, max: 10n ** 14n }), (loss, v) => {
        const base = compensationAmount(loss);
        expect(base * 2n === loss || base * 2n + 1n === loss).toBe(true);
        const raised = claimAmount(base, loss, v);
        expect(raised >= base).toBe(true);
        expect(raised <= loss).toBe(true);
        expect(raised - base <= v).toBe(true);
      }),
    );
  });

  it('a payout is positive while something is owed and never more than what is owed', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 10n ** 10n }), (remaining, daily) => {
        const p = payoutOf(remaining, daily);
        expect(p <= remaining).toBe(true);
        expect(p > 0n).toBe(remaining > 0n);
      }),
    );
  });
});

type Op = { kind: 'loss'; usdt: number } | { kind: 'claim' } | { kind: 'days'; n: number } | { kind: 'boost'; p: number } | { kind: 'withdraw'; twice: boolean };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('loss' as const), usdt: fc.integer({ min: -300, max: 800 }) }),
  fc.record({ kind: fc.constant('claim' as const) }),
  fc.record({ kind: fc.constant('days' as const), n: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('boost' as const), p: fc.integer({ min: 10, max: 90 }) }),
  fc.record({ kind: fc.constant('withdraw' as const), twice: fc.boolean() }),
);

describe('compensation service (real database)', () => {
  let db: Db;
  beforeAll(async () => {
    db = openDb({ filename: ':memory:' });
    await migrateToLatest(db);
  });
  afterAll(async () => db.destroy());

  it('withdraw pays exactly paid once, money is conserved and no loss is covered twice', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        n += 1;
        let now = Date.UTC(2026, 0, 1);
        const user = await createAccount(db, { email: `p${n}@example.com`, passwordHash: '!', invitedBy: null, now });
        await db.updateTable('users').set({ kyc_status: 'verified' }).where('id', '=', user.id).execute();
        const fund0 = await ledgerSum(db, user.id, 'fund', 'USDT');
        let grossLoss = 0n;
        for (const op of ops) {
          now += 1000;
          const orders = (await listCompensation(db, user.id, { page: 1, pageSize: 100 }, now)).list;
          const pick = (st: string) => orders.find((o) => o.status === st);
          if (op.kind === 'loss') {
            const amt = BigInt(op.usdt) * 1_000_000n;
            if (amt === 0n) continue;
            const r = await postLedger(db, { type: 'CONTRACT_CLOSE', now, entries: [{ userId: user.id, wallet: 'perp', asset: 'USDT', amount: amt }, { userId: SYSTEM_ACCOUNT_ID, wallet: 'perp', asset: 'USDT', amount: -amt }] });
            if (r.ok && amt < 0n) grossLoss -= amt;
          } else if (op.kind === 'claim') {
            const o = pick('notActive');
            if (o) expect((await claimCompensation(db, { userId: user.id, id: o.id, now })).ok).toBe(true);
          } else if (op.kind === 'days') {
            now += op.n * DAY_MS;
            await runCompensationJobs(db, now);
          } else if (op.kind === 'boost') {
            const o = orders.find((x) => x.status === 'active' || x.status === 'inCompensation');
            if (o) {
              const v = await db.insertInto('vouchers').values({ user_id: user.id, kind: 'speed', value: String(op.p), status: 'use', expires_at: null, source: 'test', used_ref: null, merged_into: null, created_at: now, used_at: null }).returning('id').executeTakeFirstOrThrow();
              const r = await boostCompensation(db, { userId: user.id, id: o.id, voucherId: v.id, now });
              expect(r.ok).toBe(true);
              if (r.ok) expect(r.order.daysLeft).toBeLessThanOrEqual(o.daysLeft);
            }
          } else {
            const o = pick('pending');
            if (o) {
              expect((await withdrawCompensation(db, { userId: user.id, id: o.id, now })).ok).toBe(true);
              if (op.twice) expect((await withdrawCompensation(db, { userId: user.id, id: o.id, now })).ok).toBe(false);
            }
          }
        }
        const rows = await db.selectFrom('compensation_orders').selectAll().where('user_id', '=', user.id).execute();
        let covered = 0n;
        let withdrawn = 0n;
        for (const r of rows) {
          expect(BigInt(r.paid) <= BigInt(r.amount)).toBe(true);
          covered += BigInt(r.amount);
          // each order is half of the net loss of its own ledger segment (no loss-protection vouchers here)
          expect(BigInt(r.amount)).toBe(compensationAmount(await lossCoveredBy(db, r)));
          if (r.status === 'completed') {
            expect(r.paid).toBe(r.amount);
            withdrawn += BigInt(r.paid);
          }
        }
        // segments are disjoint: never more than half of all the losses (no loss covered twice)
        expect(covered * 2n <= grossLoss).toBe(true);
        // the fund wallet grew by exactly what was withdrawn, through COMPENSATION_PAYOUT only
        expect((await ledgerSum(db, user.id, 'fund', 'USDT')) - fund0).toBe(withdrawn);
        const payouts = await db.selectFrom('ledger_entries').select('amount').where('user_id', '=', user.id).where('type', '=', 'COMPENSATION_PAYOUT').execute();
        expect(payouts.reduce((s, p) => s + BigInt(p.amount), 0n)).toBe(withdrawn);
        for (const b of await balancesOf(db, user.id)) expect(b.amount >= 0n).toBe(true);
        const all = await db.selectFrom('balances').select('amount').where('asset', '=', 'USDT').execute();
        expect(all.reduce((s, r) => s + BigInt(r.amount), 0n)).toBe(0n);
      }),
      { numRuns: 25 },
    );
  });
});
