import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import { parseMinor, toMinor } from '../../server/db/money.ts';
import type { Wallet } from '../../server/db/schema.ts';
import type { FeatureDeps } from '../../server/features.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { HOLD_ACCOUNT_ID } from '../../server/money/accounts.ts';
import { convertQuote, createQuote } from '../../server/money/convert.ts';
import { advanceDeposits, sendDeposit } from '../../server/money/deposits.ts';
import { advanceWithdrawals, holdWithdrawal, transition } from '../../server/money/withdrawals.ts';
import { createAccount } from '../../server/services/accounts.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { TradingEngine } from '../../server/trading/engine.ts';
import { Rejection } from '../../server/http/errors.ts';
import { ESCROW_ACCOUNT_ID } from '../../server/wallet/wallet.ts';
import { placeOrderBody } from '../../src/protocol/trading.ts';
import { transfer } from '../../server/wallet/wallet.ts';
import { CONVERT_COINS } from '../../src/protocol/convert.ts';
import { CHAIN_RULES } from '../../src/protocol/wallet.ts';
import { ManualClock, T0 } from './harness.ts';
import { openTestDb } from './testDb.ts';
import type { TestDb } from './testDb.ts';

/**
 * Money invariants on a real SQLite file, through the services the routes call: random
 * interleavings of deposits (credited or below minimum), withdrawals (held, then approved and
 * completed, rejected or cancelled), wallet transfers, converts and futures trades (open, close,
 * price moves that liquidate) never make a balance negative,
 * never create or destroy value (every asset sums to zero over all accounts, every balance equals
 * its ledger sum), the hold account holds exactly the open withdrawals' amount + fee, and each
 * convert's two legs are exactly its quote's amounts.
 */
let dir: string;
let db: Db;
let testDb: TestDb;
let deps: FeatureDeps;
let clock: ManualClock;
let engine: TradingEngine;
let source: ControlledMarketSource;
const users: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rf-money-'));
  testDb = await openTestDb(dir);
  db = testDb.db;
  clock = new ManualClock(T0);
  source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
  source.setPrice('BTCUSDT', 61_234.5);
  source.setPrice('ETHUSDT', 3_012.37);
  deps = { db, clock, source, periodicMs: 0 };
  engine = new TradingEngine({ db, clock, source, onError: (e) => { throw e; } });
  await engine.start({ periodicMs: 0 });
  for (const e of ['p', 'q']) users.push((await createAccount(db, { email: `${e}@example.com`, passwordHash: '!', invitedBy: null, now: T0 })).id);
});
afterAll(async () => {
  await engine.stop();
  await testDb.close();
  rmSync(dir, { recursive: true, force: true });
});

const user = fc.constantFrom(0, 1);
const rule = fc.constantFrom(...CHAIN_RULES);
const decimal = fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 999_999 })).map(([w, f]) => `${w}.${String(f).padStart(6, '0')}`);
const op = fc.oneof(
  fc.record({ k: fc.constant('deposit' as const), u: user, rule, amount: decimal }),
  fc.record({ k: fc.constant('withdraw' as const), u: user, rule, amount: decimal }),
  fc.record({ k: fc.constant('review' as const), pick: fc.nat(), t: fc.constantFrom('approve' as const, 'reject' as const, 'cancel' as const) }),
  fc.record({ k: fc.constant('transfer' as const), u: user, from: fc.constantFrom<Wallet>('fund', 'spot', 'perp'), to: fc.constantFrom<Wallet>('fund', 'spot', 'perp'), coin: fc.constantFrom(...CONVERT_COINS), amount: decimal }),
  fc.record({ k: fc.constant('convert' as const), u: user, from: fc.constantFrom(...CONVERT_COINS), to: fc.constantFrom(...CONVERT_COINS), amount: decimal, account: fc.constantFrom('fund' as const, 'spot' as const) }),
  fc.record({ k: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 60_000 }) }),
  fc.record({ k: fc.constant('trade' as const), u: user, side: fc.constantFrom('buy' as const, 'sell' as const), steps: fc.integer({ min: 1, max: 50 }), leverage: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ k: fc.constant('close' as const), u: user }),
  fc.record({ k: fc.constant('move' as const), pct: fc.integer({ min: -30, max: 30 }) }),
);
let orderSeq = 0;

async function reset(): Promise<void> {
  await engine.idle();
  for (const t of ['ledger_refs', 'convert_quotes', 'withdrawals', 'deposits', 'trade_fills', 'trade_orders', 'trade_positions'] as const) await db.deleteFrom(t).execute();
  source.setPrice('BTCUSDT', 61_234.5);
  await engine.idle();
  // Back to the accounts' opening balances: keep only their first postings (the starting credits).
  const keep = await db.selectFrom('ledger_entries').select('ref').where('type', '=', 'ADMIN_ADJUST').execute();
  await db.deleteFrom('ledger_entries').where('ref', 'not in', keep.map((r) => r.ref)).execute();
  await db.deleteFrom('balances').execute();
  const sums = await db.selectFrom('ledger_entries').select(['user_id', 'wallet', 'asset', 'amount']).execute();
  const acc = new Map<string, bigint>();
  for (const s of sums) acc.set(`${s.user_id}|${s.wallet}|${s.asset}`, (acc.get(`${s.user_id}|${s.wallet}|${s.asset}`) ?? 0n) + BigInt(s.amount));
  for (const [k, v] of acc) {
    const [u, w, a] = k.split('|') as [string, Wallet, string];
    await db.insertInto('balances').values({ user_id: Number(u), wallet: w, asset: a, amount: v.toString(), updated_at: T0 }).execute();
  }
}

async function checkInvariants(): Promise<void> {
  const perAsset = new Map<string, bigint>();
  for (const id of [SYSTEM_ACCOUNT_ID, ESCROW_ACCOUNT_ID, HOLD_ACCOUNT_ID, ...users]) {
    for (const b of await balancesOf(db, id)) {
      expect(await ledgerSum(db, id, b.wallet, b.asset)).toBe(b.amount);
      if (id !== SYSTEM_ACCOUNT_ID) expect(b.amount >= 0n).toBe(true);
      perAsset.set(b.asset, (perAsset.get(b.asset) ?? 0n) + b.amount);
    }
  }
  for (const s of perAsset.values()) expect(s).toBe(0n);
  const open = await db.selectFrom('withdrawals').select(['coin', 'amount', 'fee']).where('status', 'in', ['pending', 'processing']).execute();
  const held = new Map<string, bigint>();
  for (const w of open) held.set(w.coin, (held.get(w.coin) ?? 0n) + parseMinor(w.amount) + parseMinor(w.fee));
  for (const b of await balancesOf(db, HOLD_ACCOUNT_ID)) expect(b.amount).toBe(held.get(b.asset) ?? 0n);
  for (const q of await db.selectFrom('convert_quotes').selectAll().where('filled_at', 'is not', null).execute()) {
    const legs = await db.selectFrom('ledger_entries').select(['asset', 'amount', 'type']).where('ref', '=', `convert:${q.quote_id}`).where('user_id', '=', q.user_id).execute();
    expect(legs.map((l) => [l.type, l.asset, l.amount]).sort()).toEqual([
      ['EXCHANGE_DEDUCTION', q.from_coin, `-${q.from_amount}`],
      ['EXCHANGE_RECEIVED', q.to_coin, q.to_amount],
    ].sort());
  }
}

describe('money invariants (real SQLite file)', () => {
  it('random interleavings keep balances ≥ 0, the ledger equal to the balances, holds equal to open withdrawals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        await reset();
        for (const o of ops) {
          switch (o.k) {
            case 'deposit':
              await sendDeposit(deps, users[o.u] as number, o.rule, o.amount.replace(/0+$/, '').replace(/\.$/, '') || '0');
              break;
            case 'withdraw': {
              let amount: bigint;
              try {
                amount = toMinor(o.amount, o.rule.coin);
              } catch {
                break;
              }
              await holdWithdrawal(deps, { userId: users[o.u] as number, rule: o.rule, address: 'x', amount, fee: toMinor(o.rule.withdrawalFee, o.rule.coin) });
              break;
            }
            case 'review': {
              const ws = await db.selectFrom('withdrawals').select('id').orderBy('id').execute();
              const w = ws.length ? ws[o.pick % ws.length] : undefined;
              if (w) await transition(deps, w.id, o.t);
              break;
            }
            case 'transfer':
              if (o.from !== o.to) await transfer(db, users[o.u] as number, o.from, o.to, o.coin, o.amount, clock.now());
              break;
            case 'convert': {
              if (o.from === o.to) break;
              const q = await createQuote(deps, users[o.u] as number, { from: o.from, to: o.to, amount: o.amount, account: o.account });
              if (q.ok) await convertQuote(deps, users[o.u] as number, q.quote.quoteId);
              break;
            }
            case 'trade':
              try {
                orderSeq += 1;
                await engine.placeOrder(users[o.u] as number, placeOrderBody.parse({ clientOrderId: `m${orderSeq}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: o.side, qty: Number((0.001 * o.steps).toFixed(3)), leverage: o.leverage }));
              } catch (err) {
                if (!(err instanceof Rejection)) throw err;
              }
              break;
            case 'close': {
              const [p] = await engine.positions(users[o.u] as number);
              try {
                if (p) await engine.closePosition(users[o.u] as number, { positionId: p.id });
              } catch (err) {
                if (!(err instanceof Rejection)) throw err;
              }
              break;
            }
            case 'move':
              source.setPrice('BTCUSDT', Number((61_234.5 * (1 + o.pct / 100)).toFixed(1)));
              await engine.idle();
              break;
            case 'tick':
              clock.advance(o.ms);
              await advanceDeposits(deps, clock.now());
              await advanceWithdrawals(deps, clock.now());
              break;
          }
        }
        await checkInvariants();
      }),
      { numRuns: 50 },
    );
  });

  it('200 concurrent withdrawals and 200 concurrent converts that together would overdraw leave the balance ≥ 0', async () => {
    await reset();
    const [uid] = users as [number];
    const trc = CHAIN_RULES.find((r) => r.network === 'TRC20');
    if (!trc) throw new Error('no TRC20 rule');
    // 10 000 USDT in fund: 200 × (100 + 1 fee) would need 20 200.
    const ws = await Promise.all(Array.from({ length: 200 }, () => holdWithdrawal(deps, { userId: uid, rule: trc, address: 'x', amount: 100_000_000n, fee: 1_000_000n })));
    expect(ws.filter((w) => w.ok)).toHaveLength(99);
    const after = await balancesOf(db, uid);
    expect(after.find((b) => b.wallet === 'fund' && b.asset === 'USDT')?.amount).toBe(10_000_000_000n - 99n * 101_000_000n);
    // perp: 10 000 USDT moved to spot, then 200 quotes of 100 USDT each, converted at once.
    expect((await transfer(db, uid, 'perp', 'spot', 'USDT', '10000', clock.now())).ok).toBe(true);
    const quotes = [];
    for (let i = 0; i < 200; i += 1) {
      const q = await createQuote(deps, uid, { from: 'USDT', to: 'BTC', amount: '100', account: 'spot' });
      if (!q.ok) throw new Error(q.msg);
      quotes.push(q.quote.quoteId);
    }
    const cs = await Promise.all(quotes.map((id) => convertQuote(deps, uid, id)));
    expect(cs.filter((c) => c.ok)).toHaveLength(100);
    const spot = (await balancesOf(db, uid)).find((b) => b.wallet === 'spot' && b.asset === 'USDT');
    expect(spot?.amount).toBe(0n);
    await checkInvariants();
  });
});
