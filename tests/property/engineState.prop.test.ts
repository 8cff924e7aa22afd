import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { apply } from '../../server/engine/apply.ts';
import type { Command } from '../../server/engine/apply.ts';
import { copyState, emptyState, stateHash } from '../../server/engine/state.ts';
import type { EngineState } from '../../server/engine/state.ts';
import { balanceKey, SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ESCROW_ACCOUNT_ID } from '../../server/wallet/wallet.ts';
import type { PlaceOrderParsed } from '../../src/protocol/trading.ts';

/**
 * The in-memory engine alone (server/engine/apply.ts, state.ts), many runs (no database: its
 * equality with the SQL engine is tests/server/engineState.prop.test.ts):
 *  - a refused command changes nothing (the undo log puts every write back): same stateHash;
 *  - after every command: no balance but the system's negative, each asset's total unchanged
 *    (money moves, never appears or disappears), the escrow = Σ frozen per wallet, frozen =
 *    the margins of the pending orders and open positions, the pending index = the pending orders;
 *  - copy trading: a user's copy wallet = the cash of their follows, the copy escrow = the margins of the open copied positions;
 *  - an accepted convert fills the caller's own unused, unexpired quote at exactly its amounts;
 *  - stateHash does not depend on insertion order; a copy shares nothing with the state.
 */

const RULES = INSTRUMENTS.filter((i) => i.info.symbol === 'BTCUSDT' || i.info.symbol === 'ETHUSDT').map((i) => i.info);
const USERS = [101, 102, 103];
const base: PlaceOrderParsed = {
  clientOrderId: '', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.001, leverage: 20, price: null, tp: null, sl: null,
  reduceOnly: false, postOnly: false, timeInForce: 'GTC', triggerPrice: null, triggerBy: 'last',
};

function seeded(): EngineState {
  const s = emptyState(RULES);
  for (const u of USERS) {
    s.balances.set(balanceKey(u, 'perp', 'USDT'), 2_000_000_000n);
    s.balances.set(balanceKey(u, 'fund', 'USDT'), 1_000_000_000n);
  }
  s.balances.set(balanceKey(SYSTEM_ACCOUNT_ID, 'perp', 'USDT'), -6_000_000_000n);
  s.balances.set(balanceKey(SYSTEM_ACCOUNT_ID, 'fund', 'USDT'), -3_000_000_000n);
  s.inviters.set(102, 101);
  // 101 is a lead trader: their fills are mirrored into the follows of 102 and 103 (one each to start with).
  s.traders.add(101);
  for (const [n, u, mode] of [[-2, 102, 'ratio'], [-1, 103, 'fixed']] as const) {
    const out = apply(s, { type: 'follow', userId: u, body: { traderId: 101, amount: '800', from: 'perp', mode, ratio: mode === 'ratio' ? '1' : null, fixedAmount: mode === 'fixed' ? '150' : null, maxPerOrder: null, stopLoss: null } }, n, Date.UTC(2026, 0, 1));
    if (!out.ok) throw new Error(out.msg);
  }
  s.market.set('BTCUSDT', { last: 60_000, mark: 60_000, book: { bids: [[60_000, 1000]], asks: [[60_000, 1000]] } });
  s.market.set('ETHUSDT', { last: 3_000, mark: 3_000, book: { bids: [[3_000, 1000]], asks: [[3_000, 1000]] } });
  return s;
}

const symbolArb = fc.constantFrom('BTCUSDT', 'ETHUSDT');
const tick = (symbol: string, price: number) => (symbol === 'BTCUSDT' ? Math.round(price * 10) / 10 : Math.round(price * 100) / 100);
const step = (symbol: string, n: number) => (symbol === 'BTCUSDT' ? Number((n * 0.001).toFixed(3)) : Number((n * 0.01).toFixed(2)));

/** Commands with ids resolved against the state when they run (cancel / close pick what exists). */
type Gen = (s: EngineState, n: number) => Command;
const genArb: fc.Arbitrary<Gen> = fc.oneof(
  fc.record({ u: fc.constantFrom(...USERS), symbol: symbolArb, kind: fc.constantFrom('limitOpen', 'marketOpen', 'stopMarket', 'limitClose', 'marketClose'), buy: fc.boolean(), pct: fc.integer({ min: -5, max: 5 }), n: fc.integer({ min: 1, max: 600 }), lev: fc.constantFrom(5, 20, 100), tif: fc.constantFrom('GTC', 'IOC', 'FOK') }).map(
    (g): Gen => (s, n) => {
      const last = s.market.get(g.symbol)?.last ?? 1;
      const price = tick(g.symbol, last * (1 + g.pct / 100));
      return {
        type: 'place', userId: g.u,
        body: { ...base, clientOrderId: `c${n}`, symbol: g.symbol, kind: g.kind as PlaceOrderParsed['kind'], side: g.buy ? 'buy' : 'sell', qty: step(g.symbol, g.n), leverage: g.lev,
          price: g.kind === 'limitOpen' || g.kind === 'limitClose' ? price : null, triggerPrice: g.kind === 'stopMarket' ? price : null, timeInForce: g.tif as PlaceOrderParsed['timeInForce'] },
      };
    },
  ),
  fc.record({ u: fc.constantFrom(...USERS), pick: fc.nat() }).map((g): Gen => (s) => {
    const mine = [...s.orders.values()].filter((o) => o.user_id === g.u && o.status === 'pending');
    return { type: 'cancel', userId: g.u, by: { orderId: mine[g.pick % Math.max(1, mine.length)]?.id ?? 'none' } };
  }),
  fc.record({ u: fc.constantFrom(...USERS), pick: fc.nat(), half: fc.boolean() }).map((g): Gen => (s) => {
    const mine = [...s.positions.values()].filter((p) => p.user_id === g.u);
    return { type: 'close', userId: g.u, body: { positionId: mine[g.pick % Math.max(1, mine.length)]?.id ?? 'none' } };
  }),
  fc.record({ u: fc.constantFrom(...USERS), out: fc.boolean(), amount: fc.integer({ min: 1, max: 3000 }) }).map(
    (g): Gen => () => ({ type: 'transfer', userId: g.u, from: g.out ? 'perp' : 'fund', to: g.out ? 'fund' : 'perp', coin: 'USDT', amount: String(g.amount) }),
  ),
  fc.record({ symbol: symbolArb, pct: fc.integer({ min: -8, max: 8 }) }).map((g): Gen => (s) => {
    const last = tick(g.symbol, (s.market.get(g.symbol)?.last ?? 1) * (1 + g.pct / 100));
    return { type: 'market', symbol: g.symbol, last, mark: last };
  }),
  fc.constant((): Command => ({ type: 'periodic' })),
  // Instant convert: a quote (any two coins, fund or the empty spot wallet), then converting one of the newest quotes (sometimes another user's, used or expired).
  fc.record({ u: fc.constantFrom(...USERS), from: fc.constantFrom('USDT', 'USDT', 'BTC', 'ETH'), to: fc.constantFrom('USDT', 'BTC', 'ETH'), cents: fc.integer({ min: 0, max: 200_000 }), spot: fc.boolean() }).map(
    (g): Gen => () => ({ type: 'quote', userId: g.u, body: { from: g.from, to: g.to === g.from ? (g.from === 'USDT' ? 'BTC' : 'USDT') : g.to, amount: g.from === 'USDT' ? (g.cents / 100).toFixed(2) : (g.cents / 1e7).toFixed(7), account: g.spot ? 'spot' : 'fund' } }),
  ),
  // Copy trading: follows of the lead trader 101 (ratio or fixed, with a cap and a stop at times), unfollows (closing or keeping), closes of a copied position, the copy job's check.
  fc.record({ u: fc.constantFrom(...USERS), fixed: fc.boolean(), ratio: fc.constantFrom('0.5', '1', '3'), amount: fc.integer({ min: 50, max: 1500 }), perp: fc.boolean(), cap: fc.boolean(), stop: fc.constantFrom(null, '30', '200') }).map(
    (g): Gen => () => ({
      type: 'follow', userId: g.u,
      body: { traderId: 101, amount: String(g.amount), from: g.perp ? 'perp' : 'fund', mode: g.fixed ? 'fixed' : 'ratio', ratio: g.fixed ? null : g.ratio, fixedAmount: g.fixed ? '200' : null, maxPerOrder: g.cap ? '900' : null, stopLoss: g.stop },
    }),
  ),
  fc.record({ u: fc.constantFrom(...USERS), pick: fc.nat(), close: fc.boolean() }).map((g): Gen => (s) => {
    const mine = [...s.follows.values()].filter((f) => f.user_id === g.u);
    return { type: 'unfollow', userId: g.u, followId: mine[g.pick % Math.max(1, mine.length)]?.id ?? 0, closePositions: g.close };
  }),
  fc.record({ u: fc.constantFrom(...USERS), pick: fc.nat() }).map((g): Gen => (s) => {
    const mine = [...s.copyPositions.values()].filter((p) => p.user_id === g.u);
    return { type: 'copyClose', userId: g.u, positionId: mine[g.pick % Math.max(1, mine.length)]?.id ?? 'none' };
  }),
  fc.constant((): Command => ({ type: 'copyCheck' })),
  fc.record({ u: fc.constantFrom(...USERS), pick: fc.nat(3), own: fc.boolean() }).map((g): Gen => (s) => {
    const newest = [...s.quotes.values()].reverse();
    const q = newest[g.pick % Math.max(1, newest.length)];
    return { type: 'convert', userId: g.own && q ? q.user_id : g.u, quoteId: q?.quote_id ?? 'none' };
  }),
);

function totals(s: EngineState): Map<string, bigint> {
  const out = new Map<string, bigint>();
  for (const [k, v] of s.balances) {
    const asset = k.split('|')[2] ?? '';
    out.set(asset, (out.get(asset) ?? 0n) + v);
  }
  // An asset first moved by a convert (BTC, ETH) sums to zero like the others.
  return new Map([...out].filter(([, v]) => v !== 0n));
}

function checkInvariants(s: EngineState, total: Map<string, bigint>): void {
  for (const [k, v] of s.balances) if (!k.startsWith(`${SYSTEM_ACCOUNT_ID}|`)) expect(v >= 0n, k).toBe(true);
  expect(totals(s)).toEqual(total);
  const frozen = new Map<string, bigint>();
  const add = (k: string, v: bigint) => v !== 0n && frozen.set(k, (frozen.get(k) ?? 0n) + v);
  const pending = new Set<string>();
  for (const o of s.orders.values()) {
    if (o.status !== 'pending') continue;
    pending.add(o.id);
    add(balanceKey(o.user_id, o.contract, 'USDT'), BigInt(o.margin));
  }
  for (const p of s.positions.values()) add(balanceKey(p.user_id, p.contract, 'USDT'), BigInt(p.margin));
  expect(new Map([...s.frozen].sort()), 'frozen').toEqual(new Map([...frozen].filter(([, v]) => v !== 0n).sort()));
  for (const w of ['perp', 'std'] as const) {
    const sum = [...s.frozen].filter(([k]) => k.split('|')[1] === w).reduce((a, [, v]) => a + v, 0n);
    expect(s.balances.get(balanceKey(ESCROW_ACCOUNT_ID, w, 'USDT')) ?? 0n, `escrow ${w}`).toBe(sum);
  }
  // Copy trading: each user's copy wallet holds exactly the cash of their follows; the escrow's copy wallet the margins of the open copied positions.
  const cash = new Map<number, bigint>();
  for (const f of s.follows.values()) cash.set(f.user_id, (cash.get(f.user_id) ?? 0n) + BigInt(f.cash));
  for (const u of USERS) expect(s.balances.get(balanceKey(u, 'copy', 'USDT')) ?? 0n, `copy wallet of ${u}`).toBe(cash.get(u) ?? 0n);
  const copyMargins = [...s.copyPositions.values()].reduce((a, p) => a + BigInt(p.margin), 0n);
  expect(s.balances.get(balanceKey(ESCROW_ACCOUNT_ID, 'copy', 'USDT')) ?? 0n, 'copy escrow').toBe(copyMargins);
  for (const p of s.copyPositions.values()) expect(p.status).toBe('open');
  const indexed = new Set<string>();
  for (const bySide of s.pending.values()) for (const side of [bySide.buy, bySide.sell]) for (const id of side.keys()) indexed.add(id);
  expect([...indexed].sort()).toEqual([...pending].sort());
}

describe('in-memory engine state (property, no database)', () => {
  it('a refusal changes nothing; money is conserved and never negative; escrow = frozen; the pending index is exact', () => {
    let refused = 0;
    let accepted = 0;
    let converted = 0;
    let copied = 0;
    fc.assert(
      fc.property(fc.array(genArb, { minLength: 1, maxLength: 80, size: 'medium' }), (gens) => {
        const s = seeded();
        const total = totals(s);
        let t = Date.UTC(2026, 0, 1);
        for (const [i, g] of gens.entries()) {
          const cmd = g(s, i + 1);
          // An hour apart (funding, overnight), a convert 2 s after the command before (a quote holds 8 s).
          t += cmd.type === 'quote' || cmd.type === 'convert' ? 2_000 : 3_600_000;
          const before = stateHash(s);
          const quoteBefore = cmd.type === 'convert' ? s.quotes.get(cmd.quoteId) : undefined;
          const out = apply(s, cmd, i + 1, t);
          if (!out.ok) {
            refused += 1;
            expect(stateHash(s), `${JSON.stringify(cmd)} refused: ${out.msg}`).toBe(before);
          } else accepted += 1;
          if (out.ok) copied += out.copyOrders.filter((c) => c.status === 'filled').length;
          if (cmd.type === 'convert' && out.ok) {
            // Once, the caller's own quote, unexpired, at exactly its amounts (fee 0): paid to and received from the system account.
            converted += 1;
            expect(quoteBefore?.filled_at).toBe(null);
            expect(quoteBefore?.user_id).toBe(cmd.userId);
            expect(t < (quoteBefore?.expires_at ?? 0)).toBe(true);
            expect(s.quotes.get(cmd.quoteId)?.filled_at).toBe(t);
            expect(out.postings.map((p) => [p.type, p.from.userId, p.to.userId, p.coin, p.amount])).toEqual([
              ['EXCHANGE_DEDUCTION', cmd.userId, SYSTEM_ACCOUNT_ID, quoteBefore?.from_coin, BigInt(quoteBefore?.from_amount ?? -1)],
              ['EXCHANGE_RECEIVED', SYSTEM_ACCOUNT_ID, cmd.userId, quoteBefore?.to_coin, BigInt(quoteBefore?.to_amount ?? -1)],
            ]);
          }
          checkInvariants(s, total);
        }
      }),
      { numRuns: 60 },
    );
    expect(refused).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
    expect(converted).toBeGreaterThan(0);
    expect(copied).toBeGreaterThan(0);
  }, 60_000);

  it('stateHash ignores insertion order and sees every value; a copy shares nothing', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.integer({ min: 3, max: 500 }), fc.bigInt({ min: 0n, max: 10n ** 15n })), { selector: ([u]) => u, minLength: 2 }), (rows) => {
        const a = emptyState(RULES);
        const b = emptyState(RULES);
        for (const [u, v] of rows) a.balances.set(balanceKey(u, 'perp', 'USDT'), v);
        for (const [u, v] of [...rows].reverse()) b.balances.set(balanceKey(u, 'perp', 'USDT'), v);
        expect(stateHash(a)).toBe(stateHash(b));
        const copy = copyState(a);
        const [u, v] = rows[0] as [number, bigint];
        copy.balances.set(balanceKey(u, 'perp', 'USDT'), v + 1n);
        expect(stateHash(copy)).not.toBe(stateHash(a));
        expect(stateHash(a)).toBe(stateHash(b));
      }),
    );
  });
});
