import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { balancesOf, ledgerSum, LEDGER_TYPES } from '../../server/db/repos/ledger.ts';
import { createUser } from '../../server/db/repos/users.ts';
import type { Wallet } from '../../server/db/schema.ts';
import { postLedger } from '../../server/ledger/post.ts';
import type { LedgerEntryInput } from '../../server/ledger/post.ts';
import { openTestDb } from './testDb.ts';
import type { TestDb } from './testDb.ts';

/**
 * postLedger, the one ledger write, on a real SQLite file: postings of 1 to 5 entries with mixed
 * per-entry types, balanced or not. Accepted iff every entry is non-zero, each asset sums to zero
 * and no non-system balance ends negative; a refused posting writes nothing; afterwards every
 * stored balance equals its ledger sum and every asset sums to zero across accounts.
 */
const WALLETS: Wallet[] = ['fund', 'spot', 'perp'];
const ASSETS = ['USDT', 'BTC', 'ETH'];

let dir: string;
let db: Db;
let testDb: TestDb;
const users: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rf-ledger-'));
  testDb = await openTestDb(dir);
  db = testDb.db;
  for (const e of ['a', 'b', 'c']) users.push((await createUser(db, { email: `${e}@example.com`, passwordHash: '!', invitedBy: null, now: 0 })).id);
});
afterAll(async () => {
  await testDb.close();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (accounts: number[]) =>
  fc.record({
    userId: fc.constantFrom(...accounts),
    wallet: fc.constantFrom(...WALLETS),
    asset: fc.constantFrom(...ASSETS),
    amount: fc.bigInt({ min: -1000n, max: 1000n }),
    type: fc.option(fc.constantFrom(...LEDGER_TYPES), { nil: undefined }),
  });

/** Half the time a balanced posting: the last entry takes the negated sum of its asset. */
function balance(es: LedgerEntryInput[]): LedgerEntryInput[] {
  const out = es.map((e) => ({ ...e }));
  const sums = new Map<string, bigint>();
  for (const e of out.slice(0, -1)) sums.set(e.asset, (sums.get(e.asset) ?? 0n) + e.amount);
  const last = out[out.length - 1];
  if (last) last.amount = -(sums.get(last.asset) ?? 0n);
  // Other assets: close each with its own balancing entry.
  for (const [asset, s] of sums) if (asset !== last?.asset && s !== 0n) out.push({ userId: SYSTEM_ACCOUNT_ID, wallet: 'fund', asset, amount: -s });
  return out;
}

function stripUndefined(e: LedgerEntryInput & { type?: LedgerEntryInput['type'] | undefined }): LedgerEntryInput {
  const { type, ...rest } = e;
  return type === undefined ? rest : { ...rest, type };
}

describe('postLedger (real SQLite file)', () => {
  it('accepts exactly the balanced, non-overdrawing postings; balances equal ledger sums; assets sum to zero', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.array(entry([SYSTEM_ACCOUNT_ID, ...users]), { minLength: 1, maxLength: 4 }), fc.boolean()), { maxLength: 20 }),
        async (postings) => {
          await db.deleteFrom('ledger_refs').execute();
          await db.deleteFrom('ledger_entries').execute();
          await db.deleteFrom('balances').execute();
          const model = new Map<string, bigint>();
          for (const [raw, balanced] of postings) {
            const es = balanced ? balance(raw.map(stripUndefined)) : raw.map(stripUndefined);
            const rowsBefore = (await db.selectFrom('ledger_entries').select('id').execute()).length;
            const r = await postLedger(db, { type: 'ADMIN_ADJUST', entries: es, now: 1, symbol: 'BTCUSDT' });
            // The model: the same rule, written out independently.
            const sums = new Map<string, bigint>();
            for (const e of es) sums.set(e.asset, (sums.get(e.asset) ?? 0n) + e.amount);
            const next = new Map(model);
            for (const e of es) next.set(`${e.userId}|${e.wallet}|${e.asset}`, (next.get(`${e.userId}|${e.wallet}|${e.asset}`) ?? 0n) + e.amount);
            const expectOk =
              es.every((e) => e.amount !== 0n) &&
              [...sums.values()].every((s) => s === 0n) &&
              es.every((e) => e.userId === SYSTEM_ACCOUNT_ID || (next.get(`${e.userId}|${e.wallet}|${e.asset}`) ?? 0n) >= 0n);
            expect(r.ok).toBe(expectOk);
            const rows = await db.selectFrom('ledger_entries').select(['type', 'ref']).orderBy('id').execute();
            if (r.ok) {
              for (const [k, v] of next) model.set(k, v);
              const mine = rows.slice(rowsBefore);
              expect(mine.map((x) => x.type)).toEqual(es.map((e) => e.type ?? 'ADMIN_ADJUST'));
              expect(new Set(mine.map((x) => x.ref))).toEqual(new Set([r.ref]));
            } else {
              expect(rows.length).toBe(rowsBefore);
            }
          }
          const perAsset = new Map<string, bigint>();
          for (const id of [SYSTEM_ACCOUNT_ID, ...users]) {
            for (const b of await balancesOf(db, id)) {
              expect(await ledgerSum(db, id, b.wallet, b.asset)).toBe(b.amount);
              expect(b.amount).toBe(model.get(`${id}|${b.wallet}|${b.asset}`) ?? 0n);
              if (id !== SYSTEM_ACCOUNT_ID) expect(b.amount >= 0n).toBe(true);
              perAsset.set(b.asset, (perAsset.get(b.asset) ?? 0n) + b.amount);
            }
          }
          for (const s of perAsset.values()) expect(s).toBe(0n);
        },
      ),
      { numRuns: 40 },
    );
  });
});
