import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from '../../src/protocol/envelope.ts';
import type { ContractRules } from '../../src/protocol/contractRules.ts';
import type { Fill, LedgerEntry, Order } from '../../src/protocol/trading.ts';
import { call } from './harness.ts';
import { checkBooks, startTrading } from './tradeHarness.ts';
import type { TradeHarness } from './tradeHarness.ts';

/**
 * One-way netting, closing and the contract details over real HTTP, checked to the minor unit against
 * hand-computed numbers (docs/TRADING.md). BTCUSDT: taker 0.05 %, maker 0.02 %, first bracket 0.4 %.
 */

let t: TradeHarness | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const ledger = async (th: TradeHarness, n: number): Promise<string[]> =>
  (await call<Page<LedgerEntry>>(th.h, '/wallet/ledger?wallet=perp', { token: th.token })).data.list.slice(0, n).map((e) => `${e.type} ${e.amount}`);
const fillsOf = async (th: TradeHarness, orderId: string): Promise<Fill[]> =>
  (await call<Page<Fill>>(th.h, '/trade/fills', { token: th.token })).data.list.filter((f) => f.orderId === orderId);
const post = <T>(th: TradeHarness, path: string, body: unknown) => call<T>(th.h, path, { token: th.token, body });

describe('one-way netting: an order against the position reduces, closes or flips it', () => {
  it('reduces a long 0.5 → 0.2, then closes it exactly, with pro-rata margin, PnL and taker fees', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({ side: 'buy', qty: 0.5, leverage: 10 }); // notional 30 000, margin 3 000, fee 15
    expect((await t.balance('perp')).available).toBe('6985.000000');
    await t.move('BTCUSDT', 62_000);

    const r = await t.place({ side: 'sell', qty: '0.3' });
    // closes 0.3: cost part 18 000, value 18 600 → +600; margin part 1 800; fee 18 600 × 0.05 % = 9.3
    expect(r.data).toMatchObject({ status: 'filled', executedQty: 0.3, avgPrice: 62_000, realizedPnl: '600.000000', fee: '9.300000', reduceOnly: false });
    expect(await ledger(t, 3)).toEqual(['CONTRACT_CLOSE_FEE -9.300000', 'CONTRACT_CLOSE 600.000000', 'CONTRACT_MARGIN_UNLOCK 1800.000000']);
    expect(await t.balance('perp')).toMatchObject({ available: '9375.700000', frozen: '1200.000000' });
    expect((await t.positions())[0]).toMatchObject({ side: 'long', qty: 0.2, entryPrice: 60_000, margin: '1200.000000' });
    expect((await fillsOf(t, r.data.id)).map((f) => [f.qty, f.price, f.fee, f.realizedPnl, f.liquidity])).toEqual([[0.3, 62_000, '9.300000', '600.000000', 'taker']]);

    const c = await t.place({ side: 'sell', qty: 0.2 });
    // the rest: cost 12 000 → +400, margin 1 200, fee 6.2
    expect(c.data).toMatchObject({ status: 'filled', realizedPnl: '400.000000', fee: '6.200000' });
    expect(await t.positions()).toEqual([]);
    expect(await t.balance('perp')).toMatchObject({ available: '10969.500000', frozen: '0.000000' });
    await checkBooks(t);
  });

  it('flips a long 0.1 to a short 0.2: close part and open part each with its margin, fee, PnL, fill and ledger rows', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({ side: 'buy', qty: 0.1, leverage: 10 }); // margin 600, fee 3 → 9 397
    const [long] = await t.positions();
    await t.move('BTCUSDT', 61_000);
    const r = await t.place({ side: 'sell', qty: 0.3, leverage: 20 });
    // close 0.1: +100, unlock 600, fee 6 100 × 0.05 % = 3.05; open 0.2 short: notional 12 200, margin 610, fee 6.1
    expect(r.data).toMatchObject({ status: 'filled', executedQty: 0.3, avgPrice: 61_000, realizedPnl: '100.000000', fee: '9.150000' });
    expect(await ledger(t, 5)).toEqual([
      'CONTRACT_OPEN_FEE -6.100000',
      'CONTRACT_OPEN -610.000000',
      'CONTRACT_CLOSE_FEE -3.050000',
      'CONTRACT_CLOSE 100.000000',
      'CONTRACT_MARGIN_UNLOCK 600.000000',
    ]);
    const [short] = await t.positions();
    expect(short).toMatchObject({ side: 'short', qty: 0.2, entryPrice: 61_000, margin: '610.000000', leverage: 20 });
    expect(short?.id).not.toBe(long?.id);
    expect(r.data.positionId).toBe(short?.id);
    expect(await t.balance('perp')).toMatchObject({ available: '9477.850000', frozen: '610.000000' });
    const fills = await fillsOf(t, r.data.id);
    expect(fills.map((f) => [f.positionId, f.qty, f.fee, f.realizedPnl]).sort()).toEqual(
      [[long?.id, 0.1, '3.050000', '100.000000'], [short?.id, 0.2, '6.100000', '0.000000']].sort(),
    );
    await checkBooks(t);
  });

  it('a flip the wallet cannot carry is refused whole: nothing is closed', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({ side: 'buy', qty: 0.1, leverage: 10 });
    await post(t, '/wallet/transfer', { from: 'perp', to: 'fund', amount: '9390' });
    // after the close part the wallet would hold 7 + 600 − 3 = 604 < 12 000 margin of a 1× short 0.2
    const r = await t.place({ side: 'sell', qty: 0.3, leverage: 1 });
    expect(r).toMatchObject({ code: 400, msg: 'Insufficient Balance' });
    expect((await t.positions())[0]).toMatchObject({ side: 'long', qty: 0.1 });
    expect(await t.balance('perp')).toMatchObject({ available: '7.000000', frozen: '600.000000' });
    await checkBooks(t);
  });

  it('a resting limit that flips fills as maker: 0.02 % on both parts, its locked margin split between the new position and the wallet', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({ side: 'buy', qty: 0.1, leverage: 10 }); // 9 397
    const lim = await t.place({ kind: 'limitOpen', side: 'sell', price: 61_000, qty: 0.3, leverage: 10 });
    // rests, locking 0.3 × 61 000 / 10 = 1 830
    expect(lim.data).toMatchObject({ status: 'pending', margin: '1830.000000' });
    expect((await t.balance('perp')).available).toBe('7567.000000');
    await t.move('BTCUSDT', 61_000);
    const [short] = await t.positions();
    expect(short).toMatchObject({ side: 'short', qty: 0.2, margin: '1220.000000', entryPrice: 61_000 });
    // close 0.1: +100, maker fee 1.22, unlock 600; open 0.2: 1 220 of the lock, 610 back, maker fee 2.44
    expect(await ledger(t, 6)).toEqual([
      'CONTRACT_OPEN_FEE -2.440000',
      'CONTRACT_CANCEL 610.000000',
      'CONTRACT_CLOSE_FEE -1.220000',
      'CONTRACT_CLOSE 100.000000',
      'CONTRACT_MARGIN_UNLOCK 600.000000',
      'CONTRACT_OPEN -1830.000000',
    ]);
    expect(await t.balance('perp')).toMatchObject({ available: '8873.340000', frozen: '1220.000000' });
    expect((await fillsOf(t, lim.data.id)).map((f) => f.liquidity)).toEqual(['maker', 'maker']);
    await checkBooks(t);
  });
});

describe('closing: partial by amount, limit close at a price, close all', () => {
  it('closes 0.1 of 0.4 at the market, 0.2 with a limit close at 62 000 (maker), and the rest with close-all', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({ side: 'buy', qty: 0.4, leverage: 10 }); // margin 2 400, fee 12 → 7 588
    const [pos] = await t.positions();
    const part = await post<Order>(t, '/trade/position/close', { positionId: pos?.id, qty: '0.1' });
    expect(part.data).toMatchObject({ kind: 'marketClose', status: 'filled', executedQty: 0.1, realizedPnl: '0.000000', fee: '3.000000', reduceOnly: true });
    expect((await t.balance('perp')).available).toBe('8185.000000');
    expect((await t.positions())[0]).toMatchObject({ qty: 0.3, margin: '1800.000000' });

    const lim = await post<Order>(t, '/trade/position/close', { positionId: pos?.id, qty: 0.2, price: '62000' });
    expect(lim.data).toMatchObject({ kind: 'limitClose', side: 'sell', status: 'pending', price: 62_000, margin: '0.000000', reduceOnly: true });
    await t.move('BTCUSDT', 61_900);
    expect((await t.positions())[0]?.qty).toBe(0.3);
    await t.move('BTCUSDT', 62_000);
    // 0.2 of 0.3: cost 12 000 → +400, margin 1 200, maker fee 12 400 × 0.02 % = 2.48
    const filled = (await call<Page<Order>>(t.h, '/trade/orders/history?type=limitClose', { token: t.token })).data.list[0];
    expect(filled).toMatchObject({ status: 'filled', executedQty: 0.2, realizedPnl: '400.000000', fee: '2.480000' });
    expect((await t.balance('perp')).available).toBe('9782.520000');

    const all = await post<Order[]>(t, '/trade/position/close-all', {});
    // the last 0.1: +200, fee 3.1, margin 600
    expect(all.data.map((o) => [o.kind, o.executedQty, o.realizedPnl, o.fee])).toEqual([['marketClose', 0.1, '200.000000', '3.100000']]);
    expect(await t.positions()).toEqual([]);
    expect(await t.balance('perp')).toMatchObject({ available: '10579.420000', frozen: '0.000000' });
    expect((await post(t, '/trade/position/close-all', {})).msg).toBe('No open positions to close');
    await checkBooks(t);
  });

  it('close-all closes every position of the user in one go', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.move('ETHUSDT', 3_000);
    await t.place({ side: 'buy', qty: 0.1 });
    await t.place({ symbol: 'ETHUSDT', side: 'sell', qty: 1 });
    expect(await t.positions()).toHaveLength(2);
    const all = await post<Order[]>(t, '/trade/position/close-all', {});
    expect(all.data.map((o) => o.symbol).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(await t.positions()).toEqual([]);
    await checkBooks(t);
  });
});

describe('contract details and maintenance brackets', () => {
  it('serves maker / taker rates and the brackets with their maintenance amounts', async () => {
    t = await startTrading();
    const r = (await call<ContractRules>(t.h, '/trade/rules?symbol=btcusdt')).data;
    expect(r).toMatchObject({ symbol: 'BTCUSDT', makerFeeRatio: 0.0002, takerFeeRatio: 0.0005, mMarginRatio: 0.004 });
    expect(r.brackets.slice(0, 3)).toEqual([
      { bracket: 1, notionalFloor: '0.000000', notionalCap: '50000.000000', maxLeverage: 125, mmr: 0.004, maintAmount: '0.000000' },
      { bracket: 2, notionalFloor: '50000.000000', notionalCap: '500000.000000', maxLeverage: 100, mmr: 0.005, maintAmount: '50.000000' },
      { bracket: 3, notionalFloor: '500000.000000', notionalCap: '8000000.000000', maxLeverage: 50, mmr: 0.01, maintAmount: '2550.000000' },
    ]);
    expect(r.brackets.at(-1)).toMatchObject({ notionalCap: null, maxLeverage: 1, mmr: 0.5 });
    expect((await call(t.h, '/trade/rules?symbol=NOPE')).msg).toBe('Unknown symbol');
  });

  it('a position in the second bracket liquidates at (cost − margin − 50) / (q × 0.995); leverage above the bracket is refused', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    expect((await t.place({ qty: 1, leverage: 125 })).msg).toBe('Leverage too high for this position size, max 100x');
    expect((await t.place({ qty: 1, leverage: 20 })).code).toBe(200); // notional 60 000, margin 3 000
    const [pos] = await t.positions();
    // (60 000 − 3 000 − 50) / 0.995 = 57 236.18… → the tick at or below: 57 236.1
    expect(pos?.liquidationPrice).toBe(57_236.1);
    await t.move('BTCUSDT', 57_236.2);
    expect(await t.positions()).toHaveLength(1);
    await t.move('BTCUSDT', 57_236.1);
    expect(await t.positions()).toEqual([]);
    await checkBooks(t);
  });
});
