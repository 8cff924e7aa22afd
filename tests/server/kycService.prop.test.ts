import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../server/db/connection.ts';
import { migrateToLatest } from '../../server/db/migrations.ts';
import { createUser } from '../../server/db/repos/users.ts';
import { getKycStatus, reviewKyc, submitKyc } from '../../server/kyc/service.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import type { UserFrame } from '../../server/ws/userBus.ts';
import type { KycStatusDto } from '../../src/protocol/kyc.ts';
import type { KycStatus } from '../../src/protocol/user.ts';

/**
 * The KYC rules on a real (in-memory) database against a tiny model, over random sequences of
 * submits and decisions for two users:
 * - an operation succeeds exactly when the model allows it (submit only from unverified; a
 *   decision only in review; a rejection needs a non-blank reason);
 * - users.kyc_status always mirrors the latest submission (review ⇔ latest review, verified ⇔
 *   latest verified, else unverified), and verified is final;
 * - submissions are only ever added (never deleted), each success pushes exactly one frame equal
 *   to the status answered, and a refusal pushes none.
 */

type Op = { k: 'submit'; u: 0 | 1 } | { k: 'approve'; u: 0 | 1 } | { k: 'reject'; u: 0 | 1; reason: string };

const userArb = fc.constantFrom<0 | 1>(0, 1);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('submit' as const), u: userArb }),
  fc.record({ k: fc.constant('approve' as const), u: userArb }),
  fc.record({ k: fc.constant('reject' as const), u: userArb, reason: fc.constantFrom('', '   ', 'Blurry', 'Name mismatch') }),
);

function mirrors(s: KycStatusDto): boolean {
  const latest = s.latest?.status;
  if (s.status === 'review') return latest === 'review';
  if (s.status === 'verified') return latest === 'verified';
  return latest === undefined || latest === 'rejected';
}

describe('KYC service properties', () => {
  it('follows the model, mirrors the latest submission, keeps history, one frame per change', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        const db = openDb({ filename: ':memory:' });
        try {
          await migrateToLatest(db);
          const ids = [
            (await createUser(db, { email: 'a@example.com', passwordHash: '!', invitedBy: null, now: 0 })).id,
            (await createUser(db, { email: 'b@example.com', passwordHash: '!', invitedBy: null, now: 0 })).id,
          ] as const;
          const bus = createUserEventBus();
          const frames: UserFrame[][] = [[], []];
          ids.forEach((id, i) => bus.subscribe(id, (f) => frames[i]?.push(f)));
          const model: KycStatus[] = ['unverified', 'unverified'];
          const rows = [0, 0];
          let now = 1_000;
          for (const op of ops) {
            now += 1_000;
            const userId = ids[op.u];
            const framesBefore = frames[op.u]?.length ?? 0;
            const before = model[op.u] ?? 'unverified';
            const res =
              op.k === 'submit'
                ? await submitKyc(db, { userId, fields: { country: 'FR', docType: 'idCard', firstName: 'A', lastName: 'B', docNumber: 'AB1234' }, coverFile: 'c.png', infoFile: 'i.png', now }, bus)
                : await reviewKyc(db, { userId, decision: op.k, reason: op.k === 'reject' ? op.reason : undefined }, now, bus);
            const allowed =
              op.k === 'submit' ? before === 'unverified' : before === 'review' && (op.k === 'approve' || op.reason.trim() !== '');
            expect(res.ok).toBe(allowed);
            if (allowed) {
              if (op.k === 'submit') rows[op.u] = (rows[op.u] ?? 0) + 1;
              model[op.u] = op.k === 'submit' ? 'review' : op.k === 'approve' ? 'verified' : 'unverified';
              expect(frames[op.u]?.length).toBe(framesBefore + 1);
              expect(frames[op.u]?.at(-1)).toEqual({ type: 'kyc', data: res.ok ? res.status : null });
            } else {
              expect(frames[op.u]?.length).toBe(framesBefore);
            }
            if (before === 'verified') expect(model[op.u]).toBe('verified');
            for (const i of [0, 1] as const) {
              const s = await getKycStatus(db, ids[i]);
              if (!s) throw new Error('user vanished');
              expect(s.status).toBe(model[i]);
              expect(mirrors(s)).toBe(true);
              const count = await db.selectFrom('kyc_submissions').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', ids[i]).executeTakeFirstOrThrow();
              expect(Number(count.n)).toBe(rows[i]);
            }
          }
        } finally {
          await db.destroy();
        }
      }),
      { numRuns: 150 },
    );
  });
});
