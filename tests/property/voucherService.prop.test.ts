import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../server/db/connection.ts';
import type { Db } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrations.ts';
import { createAccount } from '../../server/services/accounts.ts';
import { canTransition } from '../../server/vouchers/rules.ts';
import { consumeVoucher, DAY_MS, listVouchers, mergeVouchers } from '../../server/vouchers/service.ts';
import type { Voucher, VoucherKind, VoucherStatus } from '../../src/protocol/vouchers.ts';

/**
 * The voucher service on a real (in-memory) SQLite database under random sequences of grants,
 * uses, merges (valid or not) and clock moves. After every step:
 * - each voucher's status only moves forward (use → used | merged | expired, then never again);
 * - the loss-protection value that is not `merged` is exactly what was granted (merges conserve);
 * - a voucher is `use` only while unexpired;
 * - a merged voucher points at a voucher of the same kind created by a merge.
 */

type Op =
  | { k: 'grant'; kind: VoucherKind; value: number; days: number | null }
  | { k: 'use'; pick: number; kind: VoucherKind }
  | { k: 'merge'; picks: number[] }
  | { k: 'mergeKind'; kind: VoucherKind; n: number }
  | { k: 'advance'; hours: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('grant' as const), kind: fc.constantFrom<VoucherKind>('lossProtection', 'speed'), value: fc.integer({ min: 1, max: 90 }), days: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }) }),
  fc.record({ k: fc.constant('use' as const), pick: fc.nat(), kind: fc.constantFrom<VoucherKind>('lossProtection', 'speed') }),
  fc.record({ k: fc.constant('merge' as const), picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }) }),
  fc.record({ k: fc.constant('mergeKind' as const), kind: fc.constantFrom<VoucherKind>('lossProtection', 'speed'), n: fc.integer({ min: 2, max: 4 }) }),
  fc.record({ k: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 72 }) }),
);

async function freshDb(now: number): Promise<{ db: Db; userId: number }> {
  const db = openDb({ filename: ':memory:' });
  await migrateToLatest(db);
  const user = await createAccount(db, { email: 'p@example.com', passwordHash: 'x', invitedBy: null, now });
  return { db, userId: user.id };
}

async function all(db: Db, userId: number, now: number): Promise<Voucher[]> {
  return (await listVouchers(db, userId, { page: 1, pageSize: 100 }, now)).list;
}

describe('voucher service (model-based)', () => {
  it('statuses only move forward and merges conserve loss protection', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 30 }), async (ops) => {
        let now = Date.UTC(2026, 0, 1);
        const { db, userId } = await freshDb(now);
        try {
          const seen = new Map<number, VoucherStatus>();
          let granted = 20_000_000n; // the welcome loss-protection voucher
          const check = async () => {
            const vs = await all(db, userId, now);
            const byId = new Map(vs.map((v) => [v.id, v]));
            for (const v of vs) {
              const before = seen.get(v.id);
              if (before !== undefined && before !== v.status) expect(canTransition(before, v.status)).toBe(true);
              seen.set(v.id, v.status);
              if (v.status === 'use') expect(v.expiresAt === null || v.expiresAt > now).toBe(true);
              if (v.status === 'merged') {
                const into = v.mergedInto === null ? undefined : byId.get(v.mergedInto);
                expect(into?.source).toBe('merge');
                expect(into?.kind).toBe(v.kind);
              }
            }
            const live = vs.filter((v) => v.kind === 'lossProtection' && v.status !== 'merged');
            const sum = live.reduce((s, v) => s + BigInt(v.value.replace('.', '')), 0n);
            expect(sum).toBe(granted);
            return vs;
          };
          let vs = await check();
          for (const o of ops) {
            if (o.k === 'grant') {
              const value = o.kind === 'lossProtection' ? BigInt(o.value) * 1_000_000n : BigInt(Math.max(10, o.value));
              await db
                .insertInto('vouchers')
                .values({ user_id: userId, kind: o.kind, value: value.toString(), status: 'use', expires_at: o.days === null ? null : now + o.days * DAY_MS, source: 'promo', used_ref: null, merged_into: null, created_at: now, used_at: null })
                .execute();
              if (o.kind === 'lossProtection') granted += value;
            } else if (o.k === 'use') {
              const v = vs[o.pick % vs.length];
              if (v) {
                const r = await consumeVoucher(db, { userId, voucherId: v.id, kind: o.kind, ref: 'compensation:1', now });
                expect(r.ok).toBe(v.status === 'use' && v.kind === o.kind);
              }
            } else if (o.k === 'merge' || o.k === 'mergeKind') {
              const ids =
                o.k === 'merge'
                  ? o.picks.map((p) => vs[p % vs.length]?.id).filter((id): id is number => id !== undefined)
                  : vs.filter((v) => v.kind === o.kind && v.status === 'use').slice(0, o.n).map((v) => v.id);
              const picked = vs.filter((v) => ids.includes(v.id));
              const r = await mergeVouchers(db, { userId, ids, now });
              const valid = picked.length >= 2 && picked.every((v) => v.status === 'use') && new Set(picked.map((v) => v.kind)).size === 1;
              expect(r.ok).toBe(valid);
            } else {
              now += o.hours * 3_600_000;
            }
            vs = await check();
          }
        } finally {
          await db.destroy();
        }
      }),
      { numRuns: 40 },
    );
  });
});
