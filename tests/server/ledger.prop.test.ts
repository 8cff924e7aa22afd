import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connection.ts';
import { applyPosting, balanceKey, SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import type { BalanceKey, Leg } from '../../server/db/ledgerRule.ts';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import { adminCredit, postLedger } from '../../server/ledger/post.ts';
import { createUser } from '../../server/db/repos/users.ts';
import type { Wallet } from '../../server/db/schema.ts';
import { openTestDb, TEST_DIALECT } from './testDb.ts';
import type { TestDb } from './testDb.ts';

const USERS = [10_000_001, 10_000_002, 10_000_003];
const WALLETS: Wallet[] = ['fund', 'perp', 'spot'];
const ASSETS = ['USDT', 'BTC'];

const amount = fc.bigInt({ min: 1n, max: 10n ** 12n });
/** A two-leg movement between accounts (system included), possibly overdrawing. */
const transfer = fc.record({
  from: fc.constantFrom(SYSTEM_ACCOUNT_ID, ...USERS),
  to: fc.constantFrom(SYSTEM_ACCOUNT_ID, ...USERS),
  fromWallet: fc.constantFrom(...WALLETS),
  toWallet: fc.constantFrom(...WALLETS),
  asset: fc.constantFrom(...ASSETS),
  amount,
});
type Transfer = typeof transfer extends fc.Arbitrary<infer T> ? T : never;

function legsOf(t: Transfer): Leg[] {
  return [
    { userId: t.from, wallet: t.fromWallet, asset: t.asset, amount: -t.amount },
    { userId: t.to, wallet: t.toWallet, asset: t.asset, amount: t.amount },
  ];
}

describe('ledger rule (pure)', () => {
  it('user balances never go negative and every asset sums to zero across accounts', () => {
    fc.assert(
      fc.property(fc.array(transfer, { maxLength: 60 }), (ts) => {
        let balances = new Map<BalanceKey, bigint>();
        for (const t of ts) {
          const r = applyPosting(balances, legsOf(t));
          if (!r.ok) {
            expect(r.reason).toBe('insufficient');
            continue;
          }
          balances = r.balances;
        }
        const perAsset = new Map<string, bigint>();
        for (const [k, v] of balances) {
          const [user, , asset = ''] = k.split('|');
          if (Number(user) !== SYSTEM_ACCOUNT_ID) expect(v >= 0n).toBe(true);
          perAsset.set(asset, (perAsset.get(asset) ?? 0n) + v);
        }
        for (const s of perAsset.values()) expect(s).toBe(0n);
      }),
    );
  });

  it('rejects unbalanced, empty and zero-leg postings without touching the balances', () => {
    fc.assert(
      fc.property(transfer, amount, (t, extra) => {
        const start = new Map<BalanceKey, bigint>([[balanceKey(t.from, t.fromWallet, t.asset), 5n]]);
        const legs = legsOf(t);
        const skewed = [legs[0] as Leg, { ...(legs[1] as Leg), amount: t.amount + extra }];
        expect(applyPosting(start, skewed)).toEqual({ ok: false, reason: 'unbalanced' });
        expect(applyPosting(start, [])).toEqual({ ok: false, reason: 'empty' });
        expect(applyPosting(start, [{ ...(legs[0] as Leg), amount: 0n }])).toEqual({ ok: false, reason: 'zeroLeg' });
        expect(start.get(balanceKey(t.from, t.fromWallet, t.asset))).toBe(5n);
      }),
    );
  });
});

describe(`ledger repository (${TEST_DIALECT})`, () => {
  let db: Db;
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDb();
    db = testDb.db;
    for (const id of USERS) {
      await db.insertInto('users').values({
        id, email: `u${id}@example.com`, password_hash: '!', nickname: 'n', invite_code: `INV${id}`, invited_by: null, avatar: null,
        kyc_status: 'unverified', google_secret: null, google_pending_secret: null, withdraw_lock_until: 0, google_last_step: 0, role: 'user', created_at: 0,
      }).execute();
    }
  });
  afterAll(async () => testDb.close());

  it('stored balances equal the ledger sums, never negative for users, zero-sum per asset', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(transfer, { maxLength: 25 }), async (ts) => {
        await db.deleteFrom('ledger_entries').execute();
        await db.deleteFrom('balances').execute();
        let model = new Map<BalanceKey, bigint>();
        for (const t of ts) {
          const r = await postLedger(db, { type: 'WALLET_TRANSFER_OUT', entries: legsOf(t), now: 1 });
          const expected = applyPosting(model, legsOf(t));
          // The repository agrees with the pure rule on every posting.
          expect(r.ok).toBe(expected.ok);
          if (expected.ok) model = expected.balances;
        }
        const perAsset = new Map<string, bigint>();
        for (const id of [SYSTEM_ACCOUNT_ID, ...USERS]) {
          for (const b of await balancesOf(db, id)) {
            expect(await ledgerSum(db, id, b.wallet, b.asset)).toBe(b.amount);
            expect(model.get(balanceKey(id, b.wallet, b.asset))).toBe(b.amount);
            if (id !== SYSTEM_ACCOUNT_ID) expect(b.amount >= 0n).toBe(true);
            perAsset.set(b.asset, (perAsset.get(b.asset) ?? 0n) + b.amount);
          }
        }
        for (const s of perAsset.values()) expect(s).toBe(0n);
      }),
      { numRuns: 40 },
    );
  });

  it('adminCredit funds a user from the system account; an overdraft is refused and writes nothing', async () => {
    await db.deleteFrom('ledger_entries').execute();
    await db.deleteFrom('balances').execute();
    const [u] = USERS as [number];
    expect((await adminCredit(db, u, 'fund', 'USDT', 100n, 1)).ok).toBe(true);
    const over = await postLedger(db, { type: 'WALLET_TRANSFER_OUT', now: 2, entries: [
      { userId: u, wallet: 'fund', asset: 'USDT', amount: -101n },
      { userId: u, wallet: 'perp', asset: 'USDT', amount: 101n },
    ] });
    expect(over).toEqual({ ok: false, reason: 'insufficient' });
    expect(await balancesOf(db, u)).toEqual([{ wallet: 'fund', asset: 'USDT', amount: 100n }]);
    const rows = await db.selectFrom('ledger_entries').selectAll().orderBy('id').execute();
    expect(rows.map((r) => [r.user_id, r.amount, r.balance_after, r.type])).toEqual([
      [u, '100', '100', 'ADMIN_ADJUST'],
      [SYSTEM_ACCOUNT_ID, '-100', '-100', 'ADMIN_ADJUST'],
    ]);
  });

  it('createUser hands out increasing UIDs from 10000001', async () => {
    const t = await openTestDb();
    const fresh = t.db;
    const a = await createUser(fresh, { email: 'a@example.com', passwordHash: '!', invitedBy: null, now: 0 });
    const b = await createUser(fresh, { email: 'b@example.com', passwordHash: '!', invitedBy: a.id, now: 0 });
    expect([a.id, b.id]).toEqual([10_000_001, 10_000_002]);
    expect(a.invite_code).not.toBe(b.invite_code);
    await t.close();
  });
});
