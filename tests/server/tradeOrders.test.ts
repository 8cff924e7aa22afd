import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from '../../src/protocol/envelope.ts';
import type { LedgerEntry, Order } from '../../src/protocol/trading.ts';
import { call } from './harness.ts';
import { startTrading } from './tradeHarness.ts';
import type { TradeHarness } from './tradeHarness.ts';

/**
 * Order options over real HTTP: stop-market / stop-limit triggering on the last or the mark price,
 * reduce-only, post-only, time in force (IOC / FOK partial fills against a thin book), order edits.
 * BTCUSDT: taker 0.05 %, maker 0.02 %.
 */

let t: TradeHarness | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const post = <T>(th: TradeHarness, path: string, body: unknown) => call<T>(th.h, path, { token: th.token, body });
const order = async (th: TradeHarness, id: string): Promise<Order | undefined> => {
  for (const path of ['/trade/orders/open', '/trade/orders/history']) {
    const hit = (await call<Page<Order>>(th.h, path, { token: th.token })).data.list.find((o) => o.id === id);
    if (hit) return hit;
  }
  return undefined;
};
const ledger = async (th: TradeHarness, n: number): Promise<string[]> =>
  (await call<Page<LedgerEntry>>(th.h, '/wallet/ledger?wallet=perp', { token: th.token })).data.list.slice(0, n).map((e) => `${e.type} ${e.amount}`);

describe('stop orders', () => {
  it('a stop-market on the last price triggers when the last trade reaches it and fills as taker', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    expect((await t.place({ kind: 'stopMarket', side: 'buy' })).msg).toBe('Please enter the trigger price');
    expect((await t.place({ kind: 'stopMarket', side: 'buy', triggerPrice: 59_000 })).msg).toBe('Order would trigger immediately');
    const s = await t.place({ kind: 'stopMarket', side: 'buy', qty: 0.1, triggerPrice: '61000', triggerBy: 'last' });
    expect(s.data).toMatchObject({ status: 'pending', triggerPrice: 61_000, triggerBy: 'last', triggered: false, margin: '0.000000' });
    await t.move('BTCUSDT', 60_500, 61_500); // the mark is past the trigger, the last is not
    expect((await order(t, s.data.id))?.status).toBe('pending');
    await t.move('BTCUSDT', 61_000);
    expect(await order(t, s.data.id)).toMatchObject({ status: 'filled', triggered: true, avgPrice: 61_000, executedQty: 0.1, fee: '3.050000' });
    expect((await t.positions())[0]).toMatchObject({ side: 'long', qty: 0.1, entryPrice: 61_000 });
    expect((await t.balance('perp')).available).toBe((10_000 - 610 - 3.05).toFixed(6));
  });

  it('a stop-limit on the mark price triggers from the mark alone; a reduce-only stop on the last does not, and ends with the position', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 61_000);
    await t.place({ side: 'buy', qty: 0.1 }); // long 0.1 at 61 000, fee 3.05
    const byMark = await t.place({ kind: 'stopLimit', side: 'sell', qty: 0.1, triggerPrice: 59_000, triggerBy: 'mark', price: 58_900, reduceOnly: true });
    const byLast = await t.place({ kind: 'stopMarket', side: 'sell', qty: 0.1, triggerPrice: 59_000, triggerBy: 'last', reduceOnly: true });
    expect(byMark.data).toMatchObject({ status: 'pending', reduceOnly: true, price: 58_900 });
    await t.move('BTCUSDT', 59_500, 59_000);
    // triggered by the mark; as a limit sell at 58 900 it takes the bid at 59 500: −150, fee 2.975
    expect(await order(t, byMark.data.id)).toMatchObject({ status: 'filled', triggered: true, avgPrice: 59_500, realizedPnl: '-150.000000', fee: '2.975000' });
    expect(await t.positions()).toEqual([]);
    expect(await order(t, byLast.data.id)).toMatchObject({ status: 'canceled', triggered: false, cancelReason: 'positionClosed' });
    expect(await t.balance('perp')).toMatchObject({ available: (10_000 - 3.05 - 150 - 2.975).toFixed(6), frozen: '0.000000' });
  });

  it('a stop-limit that triggers without crossing rests as maker with its margin locked, then fills at its price', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    const s = await t.place({ kind: 'stopLimit', side: 'buy', qty: 0.1, triggerPrice: 61_000, price: 60_800 });
    await t.move('BTCUSDT', 61_000);
    expect(await order(t, s.data.id)).toMatchObject({ status: 'pending', triggered: true, margin: '608.000000' });
    await t.move('BTCUSDT', 60_800);
    // maker fee 6 080 × 0.02 % = 1.216
    expect(await order(t, s.data.id)).toMatchObject({ status: 'filled', avgPrice: 60_800, fee: '1.216000' });
    expect(await t.balance('perp')).toMatchObject({ available: (10_000 - 608 - 1.216).toFixed(6), frozen: '608.000000' });
  });

  it('TP/SL attached to a new limit order are set on the position when it fills', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    expect((await t.place({ kind: 'limitOpen', side: 'buy', price: 59_000, tp: 58_000 })).msg).toBe('Invalid take-profit price');
    await t.place({ kind: 'limitOpen', side: 'buy', price: 59_000, qty: 0.1, tp: 62_000, sl: 57_000 });
    await t.move('BTCUSDT', 59_000);
    expect((await t.positions())[0]).toMatchObject({ tp: 62_000, sl: 57_000, qty: 0.1 });
  });
});

describe('reduce-only and post-only', () => {
  it('reduce-only is refused when it would increase, and capped at the position when larger: it never flips', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    expect((await t.place({ side: 'sell', reduceOnly: true })).msg).toBe('Reduce-only order would increase the position');
    await t.place({ side: 'buy', qty: 0.1 });
    expect((await t.place({ side: 'buy', reduceOnly: true })).msg).toBe('Reduce-only order would increase the position');
    const r = await t.place({ kind: 'limitOpen', side: 'sell', price: 61_000, qty: 0.3, reduceOnly: true });
    expect(r.data).toMatchObject({ status: 'pending', margin: '0.000000', reduceOnly: true });
    await t.move('BTCUSDT', 61_000);
    expect(await order(t, r.data.id)).toMatchObject({ status: 'canceled', executedQty: 0.1, realizedPnl: '100.000000', cancelReason: 'reduceOnly' });
    expect(await t.positions()).toEqual([]);
  });

  it('post-only is refused when it would take, rests when it would not, and is for limit orders only', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    expect((await t.place({ kind: 'limitOpen', side: 'buy', price: 60_000, postOnly: true })).msg).toBe('Post-only order would take liquidity');
    expect((await t.place({ kind: 'limitOpen', side: 'sell', price: 59_000, postOnly: true })).msg).toBe('Post-only order would take liquidity');
    expect((await t.place({ postOnly: true })).msg).toBe('Post-only applies to limit orders only');
    expect((await t.place({ kind: 'limitOpen', side: 'buy', price: 59_000, postOnly: true, timeInForce: 'IOC' })).msg).toBe('Post-only applies to limit orders only');
    expect(await t.balance('perp')).toMatchObject({ available: '10000.000000', frozen: '0.000000' });
    const ok = await t.place({ kind: 'limitOpen', side: 'buy', price: 59_900, postOnly: true });
    expect(ok.data).toMatchObject({ status: 'pending', postOnly: true, margin: '599.000000' });
  });
});

describe('decimal strings', () => {
  it('quantities and prices sent as decimal strings are read exactly: a digit below the step is refused, not rounded', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    expect((await t.place({ qty: '0.0010000001' })).msg).toBe('Order quantity must be a multiple of 0.001');
    expect((await t.place({ qty: 0.0010000001 })).msg).toBe('Order quantity must be a multiple of 0.001');
    expect((await t.place({ kind: 'limitOpen', price: '59000.00000001' })).msg).toBe('Price must be a multiple of 0.1');
    expect((await t.place({ kind: 'limitOpen', price: '59000.10', qty: '0.100' })).data).toMatchObject({ price: 59_000.1, qty: 0.1, margin: '590.001000' });
  });
});

describe('time in force against a thin book', () => {
  const thinBook = (th: TradeHarness) => th.source.setBook('BTCUSDT', [[59_990, 1]], [[60_000, 0.05], [60_010, 0.05], [60_100, 1]]);

  it('IOC takes what the book has up to its price and cancels the rest', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    thinBook(t);
    const r = await t.place({ kind: 'limitOpen', side: 'buy', price: 60_010, qty: 0.2, timeInForce: 'IOC' });
    // 0.05 @ 60 000 + 0.05 @ 60 010 = 6 000.5; fee ceil(6 000.5 × 0.05 %) = 3.00025; margin 600.05
    expect(r.data).toMatchObject({ status: 'canceled', cancelReason: 'ioc', executedQty: 0.1, avgPrice: 60_005, fee: '3.000250', margin: '0.000000' });
    expect((await t.positions())[0]).toMatchObject({ qty: 0.1, entryPrice: 60_005, margin: '600.050000' });
    expect(await t.balance('perp')).toMatchObject({ available: '9396.949750', frozen: '600.050000' });
  });

  it('FOK takes all or nothing; GTC takes what crosses and rests the rest with its margin', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    thinBook(t);
    const fok = await t.place({ kind: 'limitOpen', side: 'buy', price: 60_010, qty: 0.2, timeInForce: 'FOK' });
    expect(fok.data).toMatchObject({ status: 'canceled', cancelReason: 'fok', executedQty: 0 });
    expect(await t.balance('perp')).toMatchObject({ available: '10000.000000', frozen: '0.000000' });
    const fok2 = await t.place({ kind: 'limitOpen', side: 'buy', price: 60_010, qty: 0.1, timeInForce: 'FOK' });
    expect(fok2.data).toMatchObject({ status: 'filled', executedQty: 0.1, avgPrice: 60_005 });
    const gtc = await t.place({ kind: 'limitOpen', side: 'buy', price: 60_010, qty: 0.2 });
    // takes 0.1 (6 000.5), rests 0.1 at 60 010 locking 600.1
    expect(gtc.data).toMatchObject({ status: 'pending', executedQty: 0.1, margin: '600.100000' });
    expect((await t.positions())[0]?.qty).toBe(0.2);
  });
});

describe('order edits', () => {
  it('moves a resting limit in place (margin released and locked again), takes at once when the new price crosses', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    const o = await t.place({ kind: 'limitOpen', side: 'buy', price: 59_000, qty: 0.1 });
    const e = await post<Order>(t, '/trade/order/edit', { orderId: o.data.id, price: '58000', qty: '0.2' });
    expect(e.data).toMatchObject({ id: o.data.id, status: 'pending', price: 58_000, qty: 0.2, margin: '1160.000000' });
    expect(await ledger(t, 2)).toEqual(['CONTRACT_OPEN -1160.000000', 'CONTRACT_CANCEL 590.000000']);
    expect(await t.balance('perp')).toMatchObject({ available: '8840.000000', frozen: '1160.000000' });
    expect((await post(t, '/trade/order/edit', { orderId: o.data.id })).msg).toBe('Enter a new price or quantity');
    expect((await post(t, '/trade/order/edit', { orderId: o.data.id, price: 58_000.05 })).msg).toBe('Price must be a multiple of 0.1');

    const x = await post<Order>(t, '/trade/order/edit', { orderId: o.data.id, price: 61_000 });
    // crosses the ask at 60 000: takes 0.2 there as taker (fee 6), the lock is gone
    expect(x.data).toMatchObject({ id: o.data.id, status: 'filled', avgPrice: 60_000, fee: '6.000000', margin: '0.000000' });
    expect(await t.balance('perp')).toMatchObject({ available: (10_000 - 1200 - 6).toFixed(6), frozen: '1200.000000' });
    expect((await post(t, '/trade/order/edit', { orderId: o.data.id, price: 59_000 })).msg).toBe('Only pending limit and stop orders can be edited');
  });

  it('a post-only edit that would take is refused and leaves the order as it was; a stop trigger can be moved', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    const o = await t.place({ kind: 'limitOpen', side: 'buy', price: 59_000, postOnly: true });
    expect((await post(t, '/trade/order/edit', { orderId: o.data.id, price: 60_000 })).msg).toBe('Post-only order would take liquidity');
    expect(await order(t, o.data.id)).toMatchObject({ status: 'pending', price: 59_000, margin: '590.000000' });
    const s = await t.place({ kind: 'stopMarket', side: 'sell', qty: 0.1, triggerPrice: 59_000 });
    expect((await post(t, '/trade/order/edit', { orderId: s.data.id, triggerPrice: 60_500 })).msg).toBe('Order would trigger immediately');
    const m = await post<Order>(t, '/trade/order/edit', { clientOrderId: s.data.clientOrderId, triggerPrice: 58_500, qty: 0.2 });
    expect(m.data).toMatchObject({ triggerPrice: 58_500, qty: 0.2, status: 'pending' });
  });
});
