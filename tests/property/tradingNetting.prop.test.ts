import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../server/db/connection.ts';
import type { Db } from '../../server/db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { migrateToLatest } from '../../server/db/migrations.ts';
import { ledgerSum } from '../../server/db/repos/ledger.ts';
import { parseMinor } from '../../server/db/money.ts';
import { Rejection } from '../../server/http/errors.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { createAccount } from '../../server/services/accounts.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { TradingEngine } from '../../server/trading/engine.ts';
import { notional, scaled } from '../../server/trading/formulas.ts';
import { takeFromBook } from '../../server/trading/matching.ts';
import { ESCROW_ACCOUNT_ID, frozenOf } from '../../server/wallet/wallet.ts';
import { describeNetting, fromUnits, netUnits, previewNetting, toUnits } from '../../src/protocol/netting.ts';
import { editOrderBody, placeOrderBody } from '../../src/protocol/trading.ts';

/**
 * One-way netting, pure and through the real engine.
 * Pure: the netting arithmetic conserves the signed position, never lets a reduce-only increase or
 * flip, and the form's preview says exactly what the server computes.
 * Engine: random sequences of every order kind and option (reduce-only, post-only, GTC/IOC/FOK,
 * stops on last / mark, TP/SL, edits, closes, close-all) on one symbol, with the last and mark moving
 * apart and thin books, on an in-memory database. After every sequence: no balance negative; every
 * balance is its ledger sum; money only moves; escrow = frozen margins; each position's quantity is
 * the sum of its fills (its side adds, the other subtracts); a reduce-only fill always reduces.
 */

const side = fc.constantFrom('long' as const, 'short' as const);
const oside = fc.constantFrom('buy' as const, 'sell' as const);

describe('netUnits (pure)', () => {
  it('conserves the signed position; reduce-only never increases or flips; preview = units', () => {
    fc.assert(
      fc.property(fc.option(fc.record({ side, qty: fc.bigInt({ min: 1n, max: 10n ** 9n }) })), oside, fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.boolean(), (pos, os, q, ro) => {
        const n = netUnits(pos, os, q, ro);
        const signedBefore = pos ? (pos.side === 'long' ? pos.qty : -pos.qty) : 0n;
        const signedOrder = os === 'buy' ? q : -q;
        if (n.kind === 'refused') {
          expect(ro).toBe(true);
          expect(pos === null || pos.side === (os === 'buy' ? 'long' : 'short')).toBe(true);
          return;
        }
        const toSide = n.kind === 'flip' ? n.toSide : n.kind === 'open' || n.kind === 'increase' ? n.side : pos?.side;
        const signedAfter = toSide === 'short' ? -n.to : n.to;
        if (!ro) expect(signedAfter).toBe(signedBefore + signedOrder);
        else {
          expect(n.openQty).toBe(0n);
          expect(n.to <= n.from).toBe(true);
          expect(n.closeQty).toBe(q < (pos?.qty ?? 0n) ? q : pos?.qty);
        }
        expect(n.closeQty <= (pos?.qty ?? 0n)).toBe(true);
        const p = previewNetting(pos ? { side: pos.side, qty: fromUnits(pos.qty, 3) } : null, { side: os, qty: fromUnits(q, 3), reduceOnly: ro }, 3);
        expect(p).toMatchObject({ kind: n.kind, from: fromUnits(n.from, 3), to: fromUnits(n.to, 3) });
      }),
    );
  });

  it('previews the examples of issue 14 in the words the form shows', () => {
    const long = { side: 'long' as const, qty: '0.5' };
    expect(previewNetting(long, { side: 'sell', qty: '0.3' }, 3)).toEqual({ kind: 'reduce', side: 'long', from: '0.5', to: '0.2' });
    expect(describeNetting(previewNetting(long, { side: 'sell', qty: '0.3' }, 3))).toBe('Reduces long 0.5 → 0.2');
    expect(describeNetting(previewNetting(long, { side: 'sell', qty: 0.8 }, 3))).toBe('Flips to short 0.3');
    expect(describeNetting(previewNetting(long, { side: 'sell', qty: '0.5' }, 3))).toBe('Closes long 0.5');
    expect(describeNetting(previewNetting(long, { side: 'buy', qty: '0.1' }, 3))).toBe('Increases long 0.5 → 0.6');
    expect(describeNetting(previewNetting(null, { side: 'sell', qty: '0.1' }, 3))).toBe('Opens short 0.1');
    expect(previewNetting(long, { side: 'sell', qty: '0.8', reduceOnly: true }, 3)).toEqual({ kind: 'close', side: 'long', from: '0.5', to: '0' });
    expect(previewNetting(long, { side: 'buy', qty: '0.1', reduceOnly: true }, 3)).toEqual({ kind: 'refused', reason: 'reduceOnly' });
    expect(previewNetting(long, { side: 'sell', qty: '0.0005' }, 3)).toEqual({ kind: 'none' });
    expect(previewNetting(long, { side: 'sell', qty: '' }, 3)).toEqual({ kind: 'none' });
  });

  it('decimal strings and numbers read back exactly; off-grid is rejected', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 8 }), (u, dp) => {
        expect(toUnits(fromUnits(u, dp), dp)).toBe(u);
        if (dp > 0 && u < 10n ** 12n) expect(toUnits(Number(fromUnits(u, dp)), dp)).toBe(u);
        expect(toUnits(fromUnits(u * 10n + 1n, dp + 1), dp)).toBe(null);
      }),
    );
  });
});

describe('takeFromBook (pure)', () => {
  const rules = INSTRUMENTS[0]?.info;
  const level = fc.tuple(fc.integer({ min: 59_000 * 10, max: 61_000 * 10 }), fc.integer({ min: 1, max: 500 })).map(([p, q]) => [p / 10, q / 1000] as [number, number]);
  it('never takes more than asked, never at a price beyond the limit, and a market order with a book always fills', () => {
    if (!rules) throw new Error('no instrument');
    fc.assert(
      fc.property(fc.array(level, { maxLength: 8 }), oside, fc.integer({ min: 1, max: 3000 }), fc.option(fc.integer({ min: 59_000 * 10, max: 61_000 * 10 })), (raw, s, want, lim) => {
        const sorted = [...raw].sort((a, b) => (s === 'buy' ? a[0] - b[0] : b[0] - a[0]));
        const book = { symbol: 'BTCUSDT', seq: 1, ts: 0, bids: s === 'sell' ? sorted : [], asks: s === 'buy' ? sorted : [] };
        const limitU = lim === null ? null : BigInt(lim);
        const e = takeFromBook(rules, s, BigInt(want), limitU, book, 60_000);
        expect(e.qtyU <= BigInt(want)).toBe(true);
        if (limitU !== null && e.qtyU > 0n) {
          const atLimit = notional(rules, limitU, e.qtyU);
          // a buy pays at most the limit, a sell gets at least it (one minor unit per level of rounding)
          if (s === 'buy') expect(e.notional <= atLimit).toBe(true);
          else expect(e.notional + BigInt(sorted.length) >= atLimit).toBe(true);
        }
        if (limitU === null && sorted.length > 0) expect(e.qtyU).toBe(BigInt(want));
      }),
    );
  });
});

const T0 = Date.UTC(2026, 0, 1);
const SYM = 'BTCUSDT';
const KINDS = ['marketOpen', 'limitOpen', 'marketClose', 'limitClose', 'limitTakeProfit', 'limitStopLoss', 'stopMarket', 'stopLimit'] as const;

const cmd = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('order' as const),
      kind: fc.constantFrom(...KINDS),
      side: oside,
      steps: fc.integer({ min: 1, max: 200 }),
      leverage: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 5, max: 50 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 125 }) }),
      offset: fc.integer({ min: -40, max: 40 }),
      trig: fc.integer({ min: 1, max: 40 }),
      reduceOnly: fc.nat(4).map((x) => x === 0),
      postOnly: fc.nat(4).map((x) => x === 0),
      tif: fc.constantFrom('GTC' as const, 'IOC' as const, 'FOK' as const),
      byMark: fc.boolean(),
    }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('move' as const), last: fc.integer({ min: -60, max: 60 }), markGap: fc.integer({ min: -10, max: 10 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('thin' as const), a: fc.integer({ min: 1, max: 100 }), b: fc.integer({ min: 1, max: 100 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('edit' as const), pick: fc.nat(), offset: fc.integer({ min: -40, max: 40 }), steps: fc.option(fc.integer({ min: 1, max: 400 })) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('close' as const), steps: fc.option(fc.integer({ min: 1, max: 400 })), limit: fc.option(fc.integer({ min: -20, max: 20 })) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('closeAll' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('rest' as const), side: oside, steps: fc.integer({ min: 1, max: 100 }), away: fc.integer({ min: 1, max: 30 }), reduceOnly: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('flip' as const), steps: fc.integer({ min: 1, max: 100 }), limit: fc.boolean() }) },
);
type Cmd = typeof cmd extends fc.Arbitrary<infer C> ? C : never;

interface Env {
  db: Db;
  engine: TradingEngine;
  source: ControlledMarketSource;
  user: number;
}

async function setup(): Promise<Env> {
  const db = openDb({ filename: ':memory:' });
  await migrateToLatest(db);
  const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
  source.setPrice(SYM, 60_000);
  const engine = new TradingEngine({ db, clock: { now: () => T0 }, source, onError: (e) => { throw e; } });
  await engine.start({ periodicMs: 0 });
  const u = await createAccount(db, { email: 'n@example.com', passwordHash: '!', invitedBy: null, now: T0 });
  return { db, engine, source, user: u.id };
}

/** 60 000 moved by `tenths` of a percent (60 each), on the tick. */
const px = (tenths: number): number => 60_000 + 60 * tenths;
const qty = (steps: number): string => fromUnits(BigInt(steps), 3);

async function apply(env: Env, c: Cmd, n: number): Promise<void> {
  const { db, engine, source, user } = env;
  const last = source.ticker(SYM)?.last ?? 60_000;
  const rel = (tenths: number) => Number((Math.round((last * (1 + tenths / 1000)) * 10) / 10).toFixed(1));
  try {
    switch (c.t) {
      case 'order': {
        const pos = (await engine.positions(user))[0];
        const closing = pos ? (pos.side === 'long' ? 'sell' : 'buy') : c.side;
        const reduceKind = c.kind === 'marketClose' || c.kind === 'limitClose' || c.kind === 'limitTakeProfit' || c.kind === 'limitStopLoss';
        const s = reduceKind ? closing : c.side;
        const trigger = s === 'buy' ? rel(c.trig) : rel(-c.trig);
        const body = placeOrderBody.parse({
          clientOrderId: `n${n}`, symbol: SYM, contract: 'perp', kind: c.kind, side: s, qty: qty(c.steps), leverage: c.leverage,
          price: String(rel(c.offset)), reduceOnly: c.reduceOnly, postOnly: c.postOnly, timeInForce: c.tif,
          triggerPrice: String(trigger), triggerBy: c.byMark ? 'mark' : 'last',
        });
        await engine.placeOrder(user, body);
        break;
      }
      case 'move': {
        const l = px(c.last);
        source.setPrice(SYM, l, Number((l + c.markGap * 10).toFixed(1)));
        await engine.idle();
        break;
      }
      case 'thin':
        source.setBook(SYM, [[last, c.b / 1000]], [[last, c.a / 1000], [Number((last + 10).toFixed(1)), c.b / 1000]]);
        break;
      case 'edit': {
        const open = await db.selectFrom('trade_orders').select(['id']).where('user_id', '=', user).where('status', '=', 'pending').orderBy('id').execute();
        const o = open[c.pick % Math.max(1, open.length)];
        if (o) await engine.editOrder(user, editOrderBody.parse({ orderId: o.id, price: String(rel(c.offset)), ...(c.steps === null ? {} : { qty: qty(c.steps) }) }));
        break;
      }
      case 'cancel': {
        const open = await db.selectFrom('trade_orders').select('id').where('user_id', '=', user).where('status', '=', 'pending').orderBy('id').execute();
        const o = open[c.pick % Math.max(1, open.length)];
        if (o) await engine.cancelOrder(user, { orderId: o.id });
        break;
      }
      case 'close': {
        const p = (await engine.positions(user))[0];
        if (p) await engine.closePosition(user, { positionId: p.id, ...(c.steps === null ? {} : { qty: Number(qty(c.steps)) }), ...(c.limit === null ? {} : { price: rel(c.limit) }) });
        break;
      }
      case 'rest': {
        // A limit that rests, then the market comes to it: a maker fill (netting like any other).
        const price = rel(c.side === 'buy' ? -c.away : c.away);
        await engine.placeOrder(user, placeOrderBody.parse({
          clientOrderId: `n${n}`, symbol: SYM, contract: 'perp', kind: 'limitOpen', side: c.side, qty: qty(c.steps), leverage: 20, price: String(price), reduceOnly: c.reduceOnly,
        }));
        source.setPrice(SYM, price);
        await engine.idle();
        break;
      }
      case 'flip': {
        // An order against the position larger than it (a market or a crossing limit): closes and opens the other side.
        const p = (await engine.positions(user))[0];
        if (!p) break;
        const s = p.side === 'long' ? 'sell' : 'buy';
        const q = fromUnits(scaled(p.qty, 3) + BigInt(c.steps), 3);
        await engine.placeOrder(user, placeOrderBody.parse({
          clientOrderId: `n${n}`, symbol: SYM, contract: 'perp', kind: c.limit ? 'limitOpen' : 'marketOpen', side: s, qty: q, leverage: 20,
          price: String(rel(s === 'buy' ? 5 : -5)),
        }));
        break;
      }
      case 'closeAll':
        await engine.closeAll(user, {});
        break;
    }
  } catch (err) {
    if (!(err instanceof Rejection)) throw err;
  }
}

async function checkInvariants(env: Env, seen: Map<string, number>): Promise<void> {
  const { db, user } = env;
  const rows = await db.selectFrom('balances').selectAll().execute();
  let sum = 0n;
  for (const r of rows) {
    const v = parseMinor(r.amount);
    if (r.user_id !== SYSTEM_ACCOUNT_ID) expect(v >= 0n, `balance ${r.user_id}/${r.wallet}`).toBe(true);
    expect(await ledgerSum(db, r.user_id, r.wallet, r.asset)).toBe(v);
    sum += v;
  }
  expect(sum).toBe(0n);
  const escrow = rows.find((r) => r.user_id === ESCROW_ACCOUNT_ID && r.wallet === 'perp');
  expect(escrow ? parseMinor(escrow.amount) : 0n).toBe((await frozenOf(db, user)).get('perp') ?? 0n);
  const open = await db.selectFrom('trade_positions').selectAll().where('status', '=', 'open').execute();
  expect(open.length <= 1).toBe(true); // one-way: one position per symbol and contract
  const positions = await db.selectFrom('trade_positions').selectAll().execute();
  const orders = new Map((await db.selectFrom('trade_orders').select(['id', 'reduce_only', 'kind']).execute()).map((o) => [o.id, o]));
  for (const p of positions) {
    const fills = await db.selectFrom('trade_fills').selectAll().where('position_id', '=', p.id).execute();
    let q = 0n;
    for (const f of fills) {
      const u = scaled(f.qty, 3);
      const adds = (f.side === 'buy') === (p.side === 'long') && f.kind !== 'liquidation';
      q += adds ? u : -u;
      expect(q >= 0n, 'a position never goes below zero').toBe(true);
      const o = orders.get(f.order_id);
      if (o && (o.reduce_only === 1 || ['marketClose', 'limitClose', 'limitTakeProfit', 'limitStopLoss'].includes(o.kind))) {
        expect(adds, `reduce-only fill of ${o.kind} increased ${p.side}`).toBe(false);
        seen.set('reduceOnlyFill', (seen.get('reduceOnlyFill') ?? 0) + 1);
      }
      for (const k of [`${f.kind}/${f.liquidity}`, f.liquidity]) seen.set(k, (seen.get(k) ?? 0) + 1);
    }
    expect(q).toBe(parseMinor(p.qty));
    expect(parseMinor(p.margin) >= 0n).toBe(true);
  }
  const perOrder = new Map<string, number>();
  for (const f of await db.selectFrom('trade_fills').select('order_id').execute()) perOrder.set(f.order_id, (perOrder.get(f.order_id) ?? 0) + 1);
  seen.set('multiFillOrder', (seen.get('multiFillOrder') ?? 0) + [...perOrder.values()].filter((k) => k > 1).length);
  for (const r of await db.selectFrom('trade_orders').select('cancel_reason').where('cancel_reason', 'is not', null).execute()) {
    seen.set(`cancel/${r.cancel_reason}`, (seen.get(`cancel/${r.cancel_reason}`) ?? 0) + 1);
  }
}

describe('netting through the engine (fast-check, real engine)', () => {
  it('balances, ledger, escrow and positions stay consistent; reduce-only never increases', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 5, maxLength: 35 }), async (cmds) => {
        const env = await setup();
        try {
          for (const [i, c] of cmds.entries()) await apply(env, c, i);
          await env.engine.idle();
          await checkInvariants(env, seen);
        } finally {
          await env.engine.stop();
          await env.db.destroy();
        }
      }),
      { numRuns: 200 },
    );
    // Not vacuous: the runs reach flips, maker and taker fills, stops, reduce-only fills and every time in force.
    for (const k of ['multiFillOrder', 'reduceOnlyFill', 'maker', 'marketOpen/taker', 'stopMarket/taker', 'marketClose/taker', 'cancel/ioc', 'cancel/fok', 'cancel/user']) {
      expect(seen.get(k) ?? 0, k).toBeGreaterThan(0);
    }
  }, 240_000);
});
