import fc from 'fast-check';
import { apply } from '../../server/engine/apply.ts';
import type { Command } from '../../server/engine/apply.ts';
import { emptyState } from '../../server/engine/state.ts';
import type { EngineState, MarketQuote } from '../../server/engine/state.ts';
import { balanceKey, SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import type { PlaceOrderParsed } from '../../src/protocol/trading.ts';

/** The in-memory engine's seeded state and generated commands, shared by its property tests (tests/property, tests/server). */

export const ENGINE_RULES = INSTRUMENTS.filter((i) => i.info.symbol === 'BTCUSDT' || i.info.symbol === 'ETHUSDT').map((i) => i.info);
export const ENGINE_USERS = [101, 102, 103];
const base: PlaceOrderParsed = {
  clientOrderId: '', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.001, leverage: 20, price: null, tp: null, sl: null,
  reduceOnly: false, postOnly: false, timeInForce: 'GTC', triggerPrice: null, triggerBy: 'last',
};

/** Three users with perp and fund USDT (102 invited by 101), prices, 101 a lead trader followed by 102 (ratio) and 103 (fixed). */
export function seededEngineState(): EngineState {
  const s = emptyState(ENGINE_RULES);
  for (const u of ENGINE_USERS) {
    s.balances.set(balanceKey(u, 'perp', 'USDT'), 2_000_000_000n);
    s.balances.set(balanceKey(u, 'fund', 'USDT'), 1_000_000_000n);
  }
  s.balances.set(balanceKey(SYSTEM_ACCOUNT_ID, 'perp', 'USDT'), -6_000_000_000n);
  s.balances.set(balanceKey(SYSTEM_ACCOUNT_ID, 'fund', 'USDT'), -3_000_000_000n);
  s.inviters.set(102, 101);
  // 101 is a lead trader: their fills are mirrored into the follows of 102 and 103 (one each to start with).
  s.traders.add(101);
  for (const [i, cmd] of SEED_FOLLOWS.entries()) {
    const out = apply(s, cmd, i - SEED_FOLLOWS.length, Date.UTC(2026, 0, 1));
    if (!out.ok) throw new Error(out.msg);
  }
  for (const [symbol, q] of SEED_MARKET) s.market.set(symbol, structuredClone(q));
  return s;
}

/** The seeded follows of the lead trader 101: 102 by ratio, 103 by a fixed amount (800 USDT from perp each). */
export const SEED_FOLLOWS: Command[] = ([[102, 'ratio'], [103, 'fixed']] as const).map(([u, mode]) => ({
  type: 'follow', userId: u, body: { traderId: 101, amount: '800', from: 'perp', mode, ratio: mode === 'ratio' ? '1' : null, fixedAmount: mode === 'fixed' ? '150' : null, maxPerOrder: null, stopLoss: null },
}));

/** The seeded prices: one level of 1 000 at the last price each side. */
export const SEED_MARKET = new Map<string, MarketQuote>([
  ['BTCUSDT', { last: 60_000, mark: 60_000, book: { bids: [[60_000, 1000]], asks: [[60_000, 1000]] } }],
  ['ETHUSDT', { last: 3_000, mark: 3_000, book: { bids: [[3_000, 1000]], asks: [[3_000, 1000]] } }],
]);

const symbolArb = fc.constantFrom('BTCUSDT', 'ETHUSDT');
const tick = (symbol: string, price: number) => (symbol === 'BTCUSDT' ? Math.round(price * 10) / 10 : Math.round(price * 100) / 100);
const step = (symbol: string, n: number) => (symbol === 'BTCUSDT' ? Number((n * 0.001).toFixed(3)) : Number((n * 0.01).toFixed(2)));

/** Commands with ids resolved against the state when they run (cancel / close pick what exists). */
export type EngineGen = (s: EngineState, n: number) => Command;
/** Commands with ids resolved against the state when they run: every command kind apply() takes. */
export const engineCommandArb: fc.Arbitrary<EngineGen> = fc.oneof(
  fc.record({ u: fc.constantFrom(...ENGINE_USERS), symbol: symbolArb, kind: fc.constantFrom('limitOpen', 'marketOpen', 'stopMarket', 'limitClose', 'marketClose'), buy: fc.boolean(), pct: fc.integer({ min: -5, max: 5 }), n: fc.integer({ min: 1, max: 600 }), lev: fc.constantFrom(5, 20, 100), tif: fc.constantFrom('GTC', 'IOC', 'FOK') }).map(
    (g): EngineGen => (s, n) => {
      const last = s.market.get(g.symbol)?.last ?? 1;
      const price = tick(g.symbol, last * (1 + g.pct / 100));
      return {
        type: 'place', userId: g.u,
        body: { ...base, clientOrderId: `c${n}`, symbol: g.symbol, kind: g.kind as PlaceOrderParsed['kind'], side: g.buy ? 'buy' : 'sell', qty: step(g.symbol, g.n), leverage: g.lev,
          price: g.kind === 'limitOpen' || g.kind === 'limitClose' ? price : null, triggerPrice: g.kind === 'stopMarket' ? price : null, timeInForce: g.tif as PlaceOrderParsed['timeInForce'] },
      };
    },
  ),
  fc.record({ u: fc.constantFrom(...ENGINE_USERS), pick: fc.nat() }).map((g): EngineGen => (s) => {
    const mine = [...s.orders.values()].filter((o) => o.user_id === g.u && o.status === 'pending');
    return { type: 'cancel', userId: g.u, by: { orderId: mine[g.pick % Math.max(1, mine.length)]?.id ?? 'none' } };
  }),
  fc.record({ u: fc.constantFrom(...ENGINE_USERS), pick: fc.nat(), half: fc.boolean() }).map((g): EngineGen => (s) => {
    const mine = [...s.positions.values()].filter((p) => p.user_id === g.u);
    return { type: 'close', userId: g.u, body: { positionId: mine[g.pick % Math.max(1, mine.length)]?.id ?? 'none' } };
  }),
  fc.record({ u: fc.constantFrom(...ENGINE_USERS), out: fc.boolean(), amount: fc.integer({ min: 1, max: 3000 }) }).map(
    (g): EngineGen => () => ({ type: 'transfer', userId: g.u, from: g.out ? 'perp' : 'fund', to: g.out ? 'fund' : 'perp', coin: 'USDT', amount: String(g.amount) }),
  ),
  fc.record({ symbol: symbolArb, pct: fc.integer({ min: -8, max: 8 }) }).map((g): EngineGen => (s) => {
    const last = tick(g.symbol, (s.market.get(g.symbol)?.last ?? 1) * (1 + g.pct / 100));
    return { type: 'market', symbol: g.symbol, last, mark: last };
  }),
  fc.constant((): Command => ({ type: 'periodic' })),
  // Instant convert: a quote (any two coins, fund or the empty spot wallet), then converting one of the newest quotes (sometimes another user's, used or expired).
  fc.record({ u: fc.constantFrom(...ENGINE_USERS), from: fc.constantFrom('USDT', 'USDT', 'BTC', 'ETH'), to: fc.constantFrom('USDT', 'BTC', 'ETH'), cents: fc.integer({ min: 0, max: 200_000 }), spot: fc.boolean() }).map(
    (g): EngineGen => () => ({ type: 'quote', userId: g.u, body: { from: g.from, to: g.to === g.from ? (g.from === 'USDT' ? 'BTC' : 'USDT') : g.to, amount: g.from === 'USDT' ? (g.cents / 100).toFixed(2) : (g.cents / 1e7).toFixed(7), account: g.spot ? 'spot' : 'fund' } }),
  ),
  // Copy trading: follows of the lead trader 101 (ratio or fixed, with a cap and a stop at times), unfollows (closing or keeping), closes of a copied position, the copy job's check.
  fc.record({ u: fc.constantFrom(...ENGINE_USERS), fixed: fc.boolean(), ratio: fc.constantFrom('0.5', '1', '3'), amount: fc.integer({ min: 50, max: 1500 }), perp: fc.boolean(), cap: fc.boolean(), stop: fc.constantFrom(null, '30', '200') }).map(
    (g): EngineGen => () => ({
      type: 'follow', userId: g.u,
      body: { traderId: 101, amount: String(g.amount), from: g.perp ? 'perp' : 'fund', mode: g.fixed ? 'fixed' : 'ratio', ratio: g.fixed ? null : g.ratio, fixedAmount: g.fixed ? '200' : null, maxPerOrder: g.cap ? '900' : null, stopLoss: g.stop },
    }),
  ),
  fc.record({ u: fc.constantFrom(...ENGINE_USERS), pick: fc.nat(), close: fc.boolean() }).map((g): EngineGen => (s) => {
    const mine = [...s.follows.values()].filter((f) => f.user_id === g.u);
    return { type: 'unfollow', userId: g.u, followId: mine[g.pick % Math.max(1, mine.length)]?.id ?? 0, closePositions: g.close };
  }),
  fc.record({ u: fc.constantFrom(...ENGINE_USERS), pick: fc.nat() }).map((g): EngineGen => (s) => {
    const mine = [...s.copyPositions.values()].filter((p) => p.user_id === g.u);
    return { type: 'copyClose', userId: g.u, positionId: mine[g.pick % Math.max(1, mine.length)]?.id ?? 'none' };
  }),
  fc.constant((): Command => ({ type: 'copyCheck' })),
  fc.record({ u: fc.constantFrom(...ENGINE_USERS), pick: fc.nat(3), own: fc.boolean() }).map((g): EngineGen => (s) => {
    const newest = [...s.quotes.values()].reverse();
    const q = newest[g.pick % Math.max(1, newest.length)];
    return { type: 'convert', userId: g.own && q ? q.user_id : g.u, quoteId: q?.quote_id ?? 'none' };
  }),
);
