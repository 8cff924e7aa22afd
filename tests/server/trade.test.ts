import { afterEach, describe, expect, it } from 'vitest';
import type { Fill, LedgerEntry, Order } from '../../src/protocol/trading.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import { call } from './harness.ts';
import { checkBooks, startTrading } from './tradeHarness.ts';
import type { TradeHarness } from './tradeHarness.ts';

/**
 * Order flows over real HTTP, checked against hand-computed numbers (docs/TRADING.md):
 * BTCUSDT: tick 0.1, step 0.001, fee 0.05 % open and close, mMarginRatio 0.4 %, funding 0.01 %.
 */

let t: TradeHarness | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

async function ledger(th: TradeHarness, query = ''): Promise<Page<LedgerEntry>> {
  return (await call<Page<LedgerEntry>>(th.h, `/wallet/ledger${query}`, { token: th.token })).data;
}

describe('market open and close (hand-computed)', () => {
  it('opens 0.1 BTC long at 60 000 ×10, values it at the mark, and closes it at 66 000', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    const r = await t.place({ kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10 });
    expect(r.code).toBe(200);
    expect(r.data).toMatchObject({ status: 'filled', executedQty: 0.1, avgPrice: 60_000, fee: '3.000000', kind: 'marketOpen' });
    // notional 6000, margin 600, fee 3
    expect(await t.balance('perp')).toEqual({ wallet: 'perp', coin: 'USDT', available: '9397.000000', frozen: '600.000000', total: '9997.000000' });
    let [pos] = await t.positions();
    expect(pos).toMatchObject({ side: 'long', qty: 0.1, entryPrice: 60_000, margin: '600.000000', leverage: 10, unrealizedPnl: '0.000000' });
    // long liq = (6000 - 600) / (0.1 × 0.996) = 54216.867… → first tick at or below: 54216.8
    expect(pos?.liquidationPrice).toBe(54_216.8);

    await t.move('BTCUSDT', 66_000);
    [pos] = await t.positions();
    expect(pos).toMatchObject({ markPrice: 66_000, unrealizedPnl: '600.000000', returnPct: 100 });
    // maintenance margin 6600 × 0.4 % = 26.4 over the margin balance 600 + 600 (issue 26: 100 % is liquidation)
    expect(pos?.marginRatio).toBe(0.022);

    const closed = await call<Order>(t.h, '/trade/position/close', { token: t.token, body: { positionId: pos?.id } });
    expect(closed.code).toBe(200);
    // realized +600, close fee 6600 × 0.0005 = 3.3
    expect(closed.data).toMatchObject({ kind: 'marketClose', side: 'sell', status: 'filled', executedQty: 0.1, avgPrice: 66_000, fee: '3.300000', realizedPnl: '600.000000' });
    expect(await t.positions()).toEqual([]);
    expect(await t.balance('perp')).toMatchObject({ available: '10593.700000', frozen: '0.000000', total: '10593.700000' });

    const types = (await ledger(t, '?wallet=perp')).list.map((e) => `${e.type} ${e.amount}`);
    expect(types).toEqual([
      'CONTRACT_CLOSE_FEE -3.300000',
      'CONTRACT_CLOSE 600.000000',
      'CONTRACT_MARGIN_UNLOCK 600.000000',
      'CONTRACT_OPEN_FEE -3.000000',
      'CONTRACT_OPEN -600.000000',
      'ADMIN_ADJUST 10000.000000',
    ]);
    const fills = (await call<Page<Fill>>(t.h, '/trade/fills', { token: t.token })).data;
    expect(fills.list.map((f) => [f.kind, f.side, f.qty, f.price, f.fee, f.realizedPnl])).toEqual([
      ['marketClose', 'sell', 0.1, 66_000, '3.300000', '600.000000'],
      ['marketOpen', 'buy', 0.1, 60_000, '3.000000', '0.000000'],
    ]);
    await checkBooks(t);
  });

  it('a short loses when the price rises; partial close books pro-rata', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 50_000);
    expect((await t.place({ side: 'sell', qty: 0.2, leverage: 20 })).code).toBe(200);
    // notional 10 000, margin 500, fee 5 → 9495
    expect((await t.balance('perp')).available).toBe('9495.000000');
    await t.move('BTCUSDT', 51_000);
    const [pos] = await t.positions();
    expect(pos).toMatchObject({ side: 'short', unrealizedPnl: '-200.000000' });
    // short liq = (10000 + 500) / (0.2 × 1.004) = 52290.836… → first tick at or above: 52290.9
    expect(pos?.liquidationPrice).toBe(52_290.9);
    const r = await t.place({ kind: 'marketClose', side: 'buy', qty: 0.05 });
    // quarter: margin 125 back, loss 50, fee 51000×0.05×0.0005 = 1.275
    expect(r.data).toMatchObject({ status: 'filled', realizedPnl: '-50.000000', fee: '1.275000' });
    expect((await t.balance('perp')).available).toBe(`${(9495 + 125 - 50 - 1.275).toFixed(6)}`);
    expect((await t.positions())[0]).toMatchObject({ qty: 0.15, margin: '375.000000' });
    await checkBooks(t);
  });
});

describe('limit orders', () => {
  it('locks margin while pending, fills when the market crosses, and cancel releases the margin', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    const a = await t.place({ kind: 'limitOpen', side: 'buy', price: 59_000, qty: 0.1, leverage: 10 });
    expect(a.data).toMatchObject({ status: 'pending', price: 59_000, margin: '590.000000' });
    expect(await t.balance('perp')).toMatchObject({ available: '9410.000000', frozen: '590.000000' });
    const b = await t.place({ kind: 'limitOpen', side: 'buy', price: 58_000, qty: 0.1, leverage: 10 });
    const open = (await call<Page<Order>>(t.h, '/trade/orders/open', { token: t.token })).data;
    expect(open.total).toBe(2);

    await t.move('BTCUSDT', 59_500); // not crossed
    expect((await call<Page<Order>>(t.h, '/trade/orders/open', { token: t.token })).data.total).toBe(2);
    await t.move('BTCUSDT', 58_900); // crosses 59 000 only
    const openNow = (await call<Page<Order>>(t.h, '/trade/orders/open', { token: t.token })).data;
    expect(openNow.list.map((o) => o.id)).toEqual([b.data.id]);
    const [pos] = await t.positions();
    expect(pos).toMatchObject({ entryPrice: 59_000, qty: 0.1, margin: '590.000000' });

    const c = await call<Order>(t.h, '/trade/order/cancel', { token: t.token, body: { orderId: b.data.id } });
    expect(c.data).toMatchObject({ status: 'canceled', margin: '0.000000' });
    // 10000 - 590 - maker fee 5900 × 0.02 % = 1.18 (the order rested, so it pays the maker rate)
    expect(await t.balance('perp')).toMatchObject({ available: '9408.820000', frozen: '590.000000' });
    expect((await ledger(t, '?type=CONTRACT_CANCEL')).list.map((e) => e.amount)).toEqual(['580.000000']);
    const again = await call(t.h, '/trade/order/cancel', { token: t.token, body: { orderId: b.data.id } });
    expect(again.msg).toBe('Only pending orders can be canceled');

    const hist = (await call<Page<Order>>(t.h, '/trade/orders/history?status=canceled', { token: t.token })).data;
    expect(hist.list.map((o) => o.id)).toEqual([b.data.id]);
    const filled = (await call<Page<Order>>(t.h, '/trade/orders/history?type=limitOpen&status=filled&symbol=BTCUSDT', { token: t.token })).data;
    expect(filled.list.map((o) => o.id)).toEqual([a.data.id]);
    expect((await call<Page<Order>>(t.h, '/trade/orders/history?symbol=ETHUSDT', { token: t.token })).data.total).toBe(0);
    await checkBooks(t);
  });

  it('placement is idempotent by clientOrderId: a retry answers the same order and opens once', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    const body = { clientOrderId: 'retry-1', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.1, leverage: 10 };
    const [x, y] = await Promise.all([call<Order>(t.h, '/trade/order', { token: t.token, body }), call<Order>(t.h, '/trade/order', { token: t.token, body })]);
    const z = await call<Order>(t.h, '/trade/order', { token: t.token, body });
    expect(x.data.id).toBe(y.data.id);
    expect(z.data.id).toBe(x.data.id);
    expect((await t.positions())[0]?.qty).toBe(0.1);
    expect((await t.balance('perp')).available).toBe('9397.000000');
    const conflict = await call(t.h, '/trade/order', { token: t.token, body: { ...body, qty: 0.2 } });
    expect(conflict.msg).toBe('clientOrderId already used for a different order');
  });
});

describe('validation messages', () => {
  it('answers every SPEC §5 / rule message', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    const msg = async (b: Record<string, unknown>) => (await t!.place(b)).msg;
    expect(await msg({ kind: 'limitOpen', price: '' })).toBe('Please enter the limit order price!');
    expect(await msg({ kind: 'limitOpen' })).toBe('Please enter the limit order price!');
    expect(await msg({ kind: 'limitOpen', price: 60_000.05 })).toBe('Price must be a multiple of 0.1');
    expect(await msg({ qty: 0.0001 })).toBe('Min order quantity:0.001');
    expect(await msg({ qty: 501 })).toBe('Max order quantity:500');
    expect(await msg({ qty: 0.0015 })).toBe('Order quantity must be a multiple of 0.001');
    expect(await msg({ leverage: 126 })).toBe('Leverage must be between 1-125');
    expect(await msg({ leverage: 0 })).toMatch(/./);
    expect(await msg({ qty: 2, leverage: 10 })).toBe('Insufficient Balance');
    expect(await msg({ symbol: 'NOPEUSDT' })).toBe('Unknown symbol');
    expect(await msg({ symbol: 'TRXUSDT', contract: 'std' })).toBe('This contract is not available for the symbol');
    expect(await msg({ kind: 'marketClose', side: 'sell' })).toBe('No open position');
    expect(await msg({ tp: 59_000 })).toBe('Invalid take-profit price');
    expect(await msg({ sl: 61_000 })).toBe('Invalid stop-loss price');
    expect((await t.place({})).code).toBe(200);
    expect(await msg({ kind: 'marketClose', side: 'buy' })).toBe('The order side must close the position');
    expect(await msg({ kind: 'marketClose', side: 'sell', qty: 0.2 })).toBe('Close quantity exceeds the position size');
    expect(await msg({ side: 'buy', reduceOnly: true })).toBe('Reduce-only order would increase the position');
    // One-way netting: an order on the other side is no longer refused; it closes the long exactly.
    expect(await msg({ side: 'sell' })).toBe('success');
    expect(await t.positions()).toEqual([]);
    expect(await msg({ side: 'sell', reduceOnly: true })).toBe('Reduce-only order would increase the position');
    const noAuth = await call(t.h, '/trade/order', { body: { clientOrderId: 'x' } });
    expect(noAuth.code).toBe(401);
  });
});
