import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balancesOf, ledgerSum } from '../../server/db/repos/ledger.ts';
import { Rejection } from '../../server/http/errors.ts';
import { placeOrderBody } from '../../src/protocol/trading.ts';
import type { Order } from '../../src/protocol/trading.ts';
import { call, login, register } from './harness.ts';
import { startTrading } from './tradeHarness.ts';
import type { TradeHarness } from './tradeHarness.ts';

/**
 * Group commit (server/trading/engine.ts): operations queued together share one transaction with a
 * savepoint each. Whatever mix of accepted and refused orders is queued at once, every caller gets
 * exactly the answer it would get if the orders ran one at a time, and the books end the same:
 * engine A takes each sequence all at once (one batch), engine B awaits each order before the next.
 */

interface Step {
  side: 'buy' | 'sell';
  kind: 'marketOpen' | 'limitOpen';
  qty: number;
  leverage: number;
  reduceOnly: boolean;
  /** Reuses the client order id of an earlier step (idempotent retry) when set. */
  repeatOf: number | null;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  side: fc.constantFrom('buy' as const, 'sell' as const),
  kind: fc.constantFrom('marketOpen' as const, 'marketOpen' as const, 'limitOpen' as const),
  // 40 BTC at 60 000 / 20× needs 120 000 USDT of margin: refused for want of balance.
  qty: fc.constantFrom(0.01, 0.05, 0.1, 0.3, 40),
  leverage: fc.constantFrom(5, 20),
  reduceOnly: fc.boolean(),
  repeatOf: fc.option(fc.nat(10), { nil: null, freq: 4 }),
});

type Outcome = { ok: true; status: string; side: string; executedQty: number; kind: string } | { ok: false; code: number; msg: string };

let a: TradeHarness;
let b: TradeHarness;
let n = 0;

async function newUser(t: TradeHarness): Promise<number> {
  n += 1;
  const email = `gc${n}@example.com`;
  await register(t.h, email);
  const token = await login(t.h, email);
  return (await call<{ id: number }>(t.h, '/user/info', { token })).data.id;
}

function bodies(steps: readonly Step[], run: number) {
  return steps.map((s, i) => {
    const cid = `r${run}-${s.repeatOf !== null && s.repeatOf < i ? s.repeatOf : i}`;
    return placeOrderBody.parse({
      clientOrderId: cid, symbol: 'BTCUSDT', contract: 'perp', kind: s.kind, side: s.side, qty: s.qty, leverage: s.leverage,
      ...(s.kind === 'limitOpen' ? { price: s.side === 'buy' ? 59_000 : 61_000 } : {}),
      ...(s.reduceOnly ? { reduceOnly: true } : {}),
    });
  });
}

function outcome(p: Promise<Order>): Promise<Outcome> {
  return p.then(
    (o) => ({ ok: true as const, status: o.status, side: o.side, executedQty: o.executedQty, kind: o.kind }),
    (err: unknown) => {
      if (!(err instanceof Rejection)) throw err;
      return { ok: false as const, code: err.code, msg: err.message };
    },
  );
}

async function books(t: TradeHarness, userId: number) {
  // The memory engine (TEST_ENGINE=memory) answers once durable and writes the tables behind: read them once written.
  await t.engine.idle();
  const positions = (await t.engine.positions(userId)).map((p) => ({ side: p.side, qty: p.qty, margin: p.margin, entry: p.entryPrice }));
  const balances = (await balancesOf(t.h.db, userId)).map((x) => ({ wallet: x.wallet, asset: x.asset, amount: x.amount }));
  for (const x of balances) {
    expect(await ledgerSum(t.h.db, userId, x.wallet, x.asset)).toBe(x.amount);
    expect(x.amount >= 0n).toBe(true);
  }
  return { positions, balances };
}

describe('engine group commit', () => {
  beforeAll(async () => {
    a = await startTrading('gc-a@example.com');
    b = await startTrading('gc-b@example.com');
    for (const t of [a, b]) t.source.setPrice('BTCUSDT', 60_000);
    await Promise.all([a.engine.idle(), b.engine.idle()]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a batch answers every order as one-at-a-time would, and ends with the same books', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 2, maxLength: 12 }), async (steps) => {
        run += 1;
        const [ua, ub] = [await newUser(a), await newUser(b)];
        // A: every order queued in the same tick, so they share one transaction.
        const batched = await Promise.all(bodies(steps, run).map((body) => outcome(a.engine.placeOrder(ua, body))));
        const serial: Outcome[] = [];
        for (const body of bodies(steps, run)) serial.push(await outcome(b.engine.placeOrder(ub, body)));
        expect(batched).toEqual(serial);
        expect(await books(a, ua)).toEqual(await books(b, ub));
      }),
      { numRuns: 25 },
    );
  });

  it('a flip refused after its closing part posted leaves no trace for the orders after it in the batch', async () => {
    // The sell closes the 0.3 long (margin unlock, PnL, fee postings) and then cannot pay the 39.7 short:
    // its savepoint rolls the postings back, and the batch's balance cache (server/ledger/post.ts) with them.
    const steps: Step[] = [
      { side: 'buy', kind: 'marketOpen', qty: 0.3, leverage: 20, reduceOnly: false, repeatOf: null },
      { side: 'sell', kind: 'marketOpen', qty: 40, leverage: 20, reduceOnly: false, repeatOf: null },
      { side: 'buy', kind: 'marketOpen', qty: 0.1, leverage: 5, reduceOnly: false, repeatOf: null },
      { side: 'sell', kind: 'marketOpen', qty: 0.05, leverage: 5, reduceOnly: false, repeatOf: null },
    ];
    const [ua, ub] = [await newUser(a), await newUser(b)];
    const batched = await Promise.all(bodies(steps, 20_000).map((body) => outcome(a.engine.placeOrder(ua, body))));
    const serial: Outcome[] = [];
    for (const body of bodies(steps, 20_000)) serial.push(await outcome(b.engine.placeOrder(ub, body)));
    expect(batched[1]).toMatchObject({ ok: false });
    expect(batched).toEqual(serial);
    expect(await books(a, ua)).toEqual(await books(b, ub));
  });

  it('a refused order in the middle of a batch leaves the orders around it committed', async () => {
    const user = await newUser(a);
    const [first, refused, last] = await Promise.all(
      bodies(
        [
          { side: 'buy', kind: 'marketOpen', qty: 0.1, leverage: 20, reduceOnly: false, repeatOf: null },
          { side: 'buy', kind: 'marketOpen', qty: 40, leverage: 20, reduceOnly: false, repeatOf: null },
          { side: 'buy', kind: 'marketOpen', qty: 0.2, leverage: 20, reduceOnly: false, repeatOf: null },
        ],
        10_000,
      ).map((body) => outcome(a.engine.placeOrder(user, body))),
    );
    expect(first).toMatchObject({ ok: true, status: 'filled' });
    expect(refused).toMatchObject({ ok: false });
    expect(last).toMatchObject({ ok: true, status: 'filled' });
    const { positions } = await books(a, user);
    expect(positions).toEqual([expect.objectContaining({ side: 'long', qty: 0.3 })]);
  });
});
