import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/db/connection.ts';
import type { Db } from '../../server/db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { parseMinor } from '../../server/db/money.ts';
import { createUser } from '../../server/db/repos/users.ts';
import type { Wallet } from '../../server/db/schema.ts';
import { transact } from '../../server/db/tx.ts';
import { adminCredit, move } from '../../server/ledger/post.ts';
import type { PostResult } from '../../server/ledger/post.ts';
import { openTestDb } from './testDb.ts';
import type { TestDb } from './testDb.ts';

/**
 * The ledger under real concurrency. On PostgreSQL (TEST_DATABASE=postgres) three separate pools
 * ("three processes") of up to 5 connections each hammer the same database with a batch of transfers
 * at once, single postings and two-posting transactions in opposite orders (which can deadlock and
 * are retried, server/db/tx.ts). On SQLite the same batch runs interleaved on one handle.
 * Afterwards: no user balance is negative, every balance equals the sum of its ledger rows, the asset
 * sums to zero over all accounts, and each balance equals its start plus exactly the accepted moves.
 * A lost update (two postings reading the same balance) breaks the second and third checks.
 */
const WALLETS: Wallet[] = ['fund', 'perp'];
const START = 1_000n;

let t: TestDb;
let handles: Db[] = [];
const users: number[] = [];
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rf-ledger-conc-'));
  t = await openTestDb(dir);
  for (const e of ['a', 'b', 'c', 'd']) users.push((await createUser(t.db, { email: `${e}@example.com`, passwordHash: '!', invitedBy: null, now: 0 })).id);
  handles = t.url ? [0, 1, 2].map(() => openPostgres({ url: t.url as string, max: 5 })) : [t.db];
});
afterAll(async () => {
  for (const h of handles) if (h !== t.db) await h.destroy();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const leg = fc.record({
  from: fc.nat({ max: 3 }),
  fromWallet: fc.constantFrom(...WALLETS),
  to: fc.nat({ max: 3 }),
  toWallet: fc.constantFrom(...WALLETS),
  amount: fc.bigInt({ min: 1n, max: 700n }),
});
/** One transaction: a single move, or two moves in one transaction (the second often the reverse direction). */
const op = fc.array(leg, { minLength: 1, maxLength: 2 });

const key = (u: number, w: Wallet): string => `${u}:${w}`;

describe(`ledger under concurrent transactions (${process.env.TEST_DATABASE === 'postgres' ? 'PostgreSQL, 3 pools' : 'SQLite'})`, () => {
  it('never overdraws, never loses an update, and the ledger always sums to the balances', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 20, maxLength: 60 }), async (ops) => {
        const db = t.db;
        await db.deleteFrom('ledger_entries').execute();
        await db.deleteFrom('balances').execute();
        for (const u of users) for (const w of WALLETS) expect((await adminCredit(db, u, w, 'USDT', START, 1)).ok).toBe(true);

        const results = await Promise.all(
          ops.map((legs, i) => {
            const h = handles[i % handles.length] as Db;
            return transact(h, async (trx) => {
              const out: PostResult[] = [];
              for (const l of legs) {
                const from = { userId: users[l.from] as number, wallet: l.fromWallet };
                const to = { userId: users[l.to] as number, wallet: l.toWallet };
                out.push(await move(trx, 'WALLET_TRANSFER_OUT', from, to, 'USDT', l.amount, 2));
              }
              return out;
            });
          }),
        );

        // The expected balances from the accepted moves alone.
        const expected = new Map<string, bigint>();
        for (const u of users) for (const w of WALLETS) expected.set(key(u, w), START);
        ops.forEach((legs, i) =>
          legs.forEach((l, j) => {
            if (!results[i]?.[j]?.ok) return;
            const f = key(users[l.from] as number, l.fromWallet);
            const to = key(users[l.to] as number, l.toWallet);
            expected.set(f, (expected.get(f) ?? 0n) - l.amount);
            expected.set(to, (expected.get(to) ?? 0n) + l.amount);
          }),
        );

        const balances = await db.selectFrom('balances').selectAll().where('asset', '=', 'USDT').execute();
        const sums = await db.selectFrom('ledger_entries').select(['user_id', 'wallet', 'amount']).where('asset', '=', 'USDT').execute();
        const ledger = new Map<string, bigint>();
        for (const r of sums) ledger.set(key(r.user_id, r.wallet), (ledger.get(key(r.user_id, r.wallet)) ?? 0n) + parseMinor(r.amount));
        let total = 0n;
        for (const b of balances) {
          const amount = parseMinor(b.amount);
          total += amount;
          if (b.user_id !== SYSTEM_ACCOUNT_ID) {
            expect(amount).toBeGreaterThanOrEqual(0n);
            expect(amount).toBe(expected.get(key(b.user_id, b.wallet)));
          }
          expect(amount).toBe(ledger.get(key(b.user_id, b.wallet)) ?? 0n);
        }
        expect(total).toBe(0n);
        // Some transfers were refused for lack of funds, most went through: the batch really contended.
        expect(results.flat().some((r) => r.ok)).toBe(true);
      }),
      { numRuns: 12, endOnFailure: true },
    );
  });
});
