import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { formatMinor, parseMinor } from '../../server/db/money.ts';
import { Rejection } from '../../server/http/errors.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { listInvitees, referralSummary } from '../../server/referral/service.ts';
import { createAccount } from '../../server/services/accounts.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { TradingEngine } from '../../server/trading/engine.ts';
import { placeOrderBody } from '../../src/protocol/trading.ts';
import { ManualClock, T0 } from './harness.ts';
import { openTestDb } from './testDb.ts';
import type { TestDb } from './testDb.ts';

/**
 * Referral invariants on a real SQLite file, through the trading engine the routes call: random
 * opens, closes and price moves (high leverage, so some positions are liquidated) by invitees of
 * two inviters (one of whom was invited herself), and by an uninvited trader. After every run:
 *  - each inviter's TRADE_COMMISSION credits equal Σ floor(fee × 20 %) over the fee postings
 *    (CONTRACT_OPEN_FEE, CONTRACT_CLOSE_FEE) of the accounts she invited, and nothing else: one
 *    level only, nothing for uninvited traders, the remainder stays with the platform;
 *  - the summary's total earnings and the invitee list's fees and rebates agree with the ledger;
 *  - every balance equals its ledger sum, every asset sums to zero over all accounts, and no
 *    account but the system account is negative.
 */
let dir: string;
let db: Db;
let testDb: TestDb;
let clock: ManualClock;
let engine: TradingEngine;
let source: ControlledMarketSource;
const BASE = 61_234.5;
let run = 0;
let orderSeq = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rf-referral-'));
  testDb = await openTestDb(dir);
  db = testDb.db;
  clock = new ManualClock(T0);
  source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
  source.setPrice('BTCUSDT', BASE);
  engine = new TradingEngine({ db, clock, source, onError: (e) => { throw e; } });
  await engine.start({ periodicMs: 0 });
});
afterAll(async () => {
  await engine.stop();
  await testDb.close();
  rmSync(dir, { recursive: true, force: true });
});

const FEE_TYPES = ['CONTRACT_OPEN_FEE', 'CONTRACT_CLOSE_FEE'] as const;

async function checkInvariants(): Promise<void> {
  const users = await db.selectFrom('users').select(['id', 'invited_by', 'invite_code']).where('role', '=', 'user').execute();
  const inviterOf = new Map(users.map((u) => [u.id, u.invited_by]));
  // the fees each user paid (the user's leg of each fee posting) and the rebates each earned
  const fees = await db.selectFrom('ledger_entries').select(['user_id', 'amount']).where('type', 'in', FEE_TYPES).where('user_id', '!=', SYSTEM_ACCOUNT_ID).execute();
  const expected = new Map<number, bigint>();
  const feesBy = new Map<number, bigint>();
  const rebateBy = new Map<number, bigint>();
  for (const f of fees) {
    const paid = -parseMinor(f.amount);
    expect(paid > 0n).toBe(true);
    feesBy.set(f.user_id, (feesBy.get(f.user_id) ?? 0n) + paid);
    const inviter = inviterOf.get(f.user_id) ?? null;
    if (inviter === null) continue;
    const rebate = (paid * 20n) / 100n; // floor(fee × 20 %)
    expected.set(inviter, (expected.get(inviter) ?? 0n) + rebate);
    rebateBy.set(f.user_id, (rebateBy.get(f.user_id) ?? 0n) + rebate);
  }
  const credits = await db.selectFrom('ledger_entries').select(['user_id', 'wallet', 'amount']).where('type', '=', 'TRADE_COMMISSION').execute();
  const paidTo = new Map<number, bigint>();
  let fromSystem = 0n;
  for (const c of credits) {
    if (c.user_id === SYSTEM_ACCOUNT_ID) {
      fromSystem -= parseMinor(c.amount);
      continue;
    }
    expect(c.wallet).toBe('fund');
    paidTo.set(c.user_id, (paidTo.get(c.user_id) ?? 0n) + parseMinor(c.amount));
  }
  const sumPaid = [...paidTo.values()].reduce((a, b) => a + b, 0n);
  expect(fromSystem).toBe(sumPaid);
  for (const u of users) {
    expect(paidTo.get(u.id) ?? 0n).toBe(expected.get(u.id) ?? 0n);
    const s = await referralSummary(db, { id: u.id, invite_code: u.invite_code }, clock.now());
    expect(s.totalEarnings).toBe(formatMinor(expected.get(u.id) ?? 0n, 'USDT'));
    expect(s.totalInvited).toBe(users.filter((x) => x.invited_by === u.id).length);
  }
  // the invitee list of every inviter agrees with the ledger
  for (const inviter of new Set(users.map((u) => u.invited_by).filter((x): x is number => x !== null))) {
    const page = await listInvitees(db, inviter, { page: 1, pageSize: 100 });
    const invitees = users.filter((u) => u.invited_by === inviter);
    expect(page.total).toBe(invitees.length);
    const got = page.list.map((i) => `${i.fees}/${i.rebate}`).sort();
    const want = invitees.map((u) => `${formatMinor(feesBy.get(u.id) ?? 0n, 'USDT')}/${formatMinor(rebateBy.get(u.id) ?? 0n, 'USDT')}`).sort();
    expect(got).toEqual(want);
  }
  // ledger sums to balances; no negative balance but the system's; every asset sums to zero
  const balances = await db.selectFrom('balances').selectAll().execute();
  const sums = await db.selectFrom('ledger_entries').select(['user_id', 'wallet', 'asset', 'amount']).execute();
  const byKey = new Map<string, bigint>();
  for (const e of sums) byKey.set(`${e.user_id}|${e.wallet}|${e.asset}`, (byKey.get(`${e.user_id}|${e.wallet}|${e.asset}`) ?? 0n) + parseMinor(e.amount));
  const perAsset = new Map<string, bigint>();
  for (const b of balances) {
    const amount = parseMinor(b.amount);
    expect(byKey.get(`${b.user_id}|${b.wallet}|${b.asset}`) ?? 0n).toBe(amount);
    if (b.user_id !== SYSTEM_ACCOUNT_ID) expect(amount >= 0n).toBe(true);
    perAsset.set(b.asset, (perAsset.get(b.asset) ?? 0n) + amount);
  }
  for (const total of perAsset.values()) expect(total).toBe(0n);
}

type Op =
  | { kind: 'open'; u: number; side: 'buy' | 'sell'; steps: number; leverage: number; symbol: 'BTCUSDT' }
  | { kind: 'close'; u: number }
  | { kind: 'move'; pct: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('open' as const), u: fc.integer({ min: 0, max: 5 }), side: fc.constantFrom('buy' as const, 'sell' as const), steps: fc.integer({ min: 1, max: 400 }), leverage: fc.constantFrom(2, 10, 50, 100), symbol: fc.constant('BTCUSDT' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close' as const), u: fc.integer({ min: 0, max: 5 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('move' as const), pct: fc.integer({ min: -300, max: 300 }).map((x) => x / 100) }) },
);

describe('referral rebates (property, real database)', () => {
  it('rebates paid equal floor(20 % × fee) of the invitees’ fees; the ledger sums to the balances; no negative balance', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        run += 1;
        const mk = async (name: string, invitedBy: number | null) =>
          (await createAccount(db, { email: `${name}.${run}@example.com`, passwordHash: '!', invitedBy, now: clock.now() })).id;
        // B invites A; A invites a1, a2; B invites b1; u is uninvited. Traders: A, a1, a2, b1, u, B.
        const B = await mk('b', null);
        const A = await mk('a', B);
        const traders = [A, await mk('a1', A), await mk('a2', A), await mk('b1', B), await mk('u', null), B];
        source.setPrice('BTCUSDT', BASE);
        await engine.idle();
        for (const o of ops) {
          clock.advance(1_000);
          if (o.kind === 'move') {
            source.setPrice('BTCUSDT', Number((BASE * (1 + o.pct / 100)).toFixed(1)));
            await engine.idle();
            continue;
          }
          const uid = traders[o.u] as number;
          try {
            if (o.kind === 'open') {
              orderSeq += 1;
              await engine.placeOrder(uid, placeOrderBody.parse({ clientOrderId: `p${orderSeq}`, symbol: o.symbol, contract: 'perp', kind: 'marketOpen', side: o.side, qty: Number((0.001 * o.steps).toFixed(3)), leverage: o.leverage }));
            } else {
              const [p] = await engine.positions(uid);
              if (p) await engine.closePosition(uid, { positionId: p.id });
            }
          } catch (err) {
            if (!(err instanceof Rejection)) throw err;
          }
        }
        await checkInvariants();
      }),
      { numRuns: 25 },
    );
    // the runs did exercise what they claim: rebates on opening and closing fees, and liquidations
    const liquidated = await db.selectFrom('trade_positions').select('id').where('status', '=', 'liquidated').execute();
    expect(liquidated.length).toBeGreaterThan(0);
    const credited = await db.selectFrom('ledger_entries').select('id').where('type', '=', 'TRADE_COMMISSION').execute();
    expect(credited.length).toBeGreaterThan(0);
    const closeFeesOfInvitees = await db
      .selectFrom('ledger_entries')
      .innerJoin('users', 'users.id', 'ledger_entries.user_id')
      .select('ledger_entries.id')
      .where('ledger_entries.type', '=', 'CONTRACT_CLOSE_FEE')
      .where('users.invited_by', 'is not', null)
      .execute();
    expect(closeFeesOfInvitees.length).toBeGreaterThan(0);
  }, 240_000);
});
