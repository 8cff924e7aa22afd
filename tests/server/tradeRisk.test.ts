import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Page } from '../../src/protocol/envelope.ts';
import type { Fill, LedgerEntry, Order, Position } from '../../src/protocol/trading.ts';
import { call } from './harness.ts';
import { startTrading } from './tradeHarness.ts';
import type { TradeHarness } from './tradeHarness.ts';

/** TP/SL, liquidation, funding and overnight fees (injected clock), wallet transfer, ledger filters, socket pushes. */

let t: TradeHarness | null = null;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await t?.close();
  t = null;
});

async function ledger(th: TradeHarness, query = ''): Promise<LedgerEntry[]> {
  return (await call<Page<LedgerEntry>>(th.h, `/wallet/ledger${query}`, { token: th.token })).data.list;
}

const HOUR = 3_600_000;

describe('TP/SL', () => {
  it('a take-profit set on the position triggers from the mark and closes at its price', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({});
    const [pos] = await t.positions();
    const bad = await call(t.h, '/trade/position/tpsl', { token: t.token, body: { positionId: pos?.id, tp: 59_000 } });
    expect(bad.msg).toBe('Invalid take-profit price');
    const r = await call<Position>(t.h, '/trade/position/tpsl', { token: t.token, body: { positionId: pos?.id, tp: 63_000, sl: 58_000 } });
    expect(r.data).toMatchObject({ tp: 63_000, sl: 58_000 });
    expect((await call<Page<Order>>(t.h, '/trade/orders/open', { token: t.token })).data.list.map((o) => o.kind).sort()).toEqual(['limitStopLoss', 'limitTakeProfit']);

    await t.move('BTCUSDT', 62_900, 62_990); // below the TP: nothing
    expect(await t.positions()).toHaveLength(1);
    await t.move('BTCUSDT', 62_950, 63_000); // the mark reaches 63 000
    expect(await t.positions()).toEqual([]);
    const fills = (await call<Page<Fill>>(t.h, '/trade/fills?type=limitTakeProfit', { token: t.token })).data.list;
    // +300 realized, fee 6300 × 0.0005 = 3.15
    expect(fills.map((f) => [f.price, f.qty, f.realizedPnl, f.fee])).toEqual([[63_000, 0.1, '300.000000', '3.150000']]);
    // the stop-loss was canceled with the position
    const hist = (await call<Page<Order>>(t.h, '/trade/orders/history?type=limitStopLoss', { token: t.token })).data.list;
    expect(hist.map((o) => o.status)).toEqual(['canceled']);
    expect((await t.balance('perp')).available).toBe((10_000 - 3 + 300 - 3.15).toFixed(6));
  });

  it('a stop-loss placed as an order with a quantity closes that part only', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({ side: 'sell', qty: 0.2 });
    const sl = await t.place({ kind: 'limitStopLoss', side: 'buy', price: 61_000, qty: 0.05 });
    expect(sl.data).toMatchObject({ status: 'pending', kind: 'limitStopLoss' });
    await t.move('BTCUSDT', 61_000);
    expect((await t.positions())[0]).toMatchObject({ qty: 0.15, side: 'short' });
    const o = (await call<Page<Order>>(t.h, '/trade/orders/history', { token: t.token })).data.list.find((x) => x.id === sl.data.id);
    expect(o).toMatchObject({ status: 'filled', executedQty: 0.05, realizedPnl: '-50.000000' });
  });

  it('TP/SL orders follow the position down when it shrinks (issue 26, Minor 10); a part-size one keeps its size', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({ qty: 0.05 });
    const [pos] = await t.positions();
    expect((await call<Position>(t.h, '/trade/position/tpsl', { token: t.token, body: { positionId: pos?.id, tp: 63_000, sl: 58_000 } })).code).toBe(200);
    const part = await t.place({ kind: 'limitTakeProfit', side: 'sell', price: 64_000, qty: 0.01 });
    expect(part.code).toBe(200);
    const open = async () =>
      (await call<Page<Order>>(t!.h, '/trade/orders/open', { token: t!.token })).data.list.map((o) => `${o.kind} ${o.price} ${o.qty}`).sort();
    expect(await open()).toEqual(['limitStopLoss 58000 0.05', 'limitTakeProfit 63000 0.05', 'limitTakeProfit 64000 0.01']);

    // a partial market close to 0.03
    expect((await call(t.h, '/trade/position/close', { token: t.token, body: { positionId: pos?.id, qty: 0.02 } })).code).toBe(200);
    expect((await t.positions())[0]).toMatchObject({ qty: 0.03 });
    expect(await open()).toEqual(['limitStopLoss 58000 0.03', 'limitTakeProfit 63000 0.03', 'limitTakeProfit 64000 0.01']);

    // an opposite order netting it down to 0.005 (a sell of 0.025)
    await t.place({ side: 'sell', qty: 0.025 });
    expect((await t.positions())[0]).toMatchObject({ qty: 0.005 });
    expect(await open()).toEqual(['limitStopLoss 58000 0.005', 'limitTakeProfit 63000 0.005', 'limitTakeProfit 64000 0.005']);

    // the TP then closes exactly what is left, at its price
    await t.move('BTCUSDT', 62_950, 63_000);
    expect(await t.positions()).toEqual([]);
    const fills = (await call<Page<Fill>>(t.h, '/trade/fills?type=limitTakeProfit', { token: t.token })).data.list;
    expect(fills.map((f) => [f.price, f.qty])).toEqual([[63_000, 0.005]]);
    expect(await open()).toEqual([]);
  });
});

describe('liquidation', () => {
  it('liquidates a long when the mark reaches the liquidation price; the user loses exactly the margin', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({});
    const [pos] = await t.positions();
    expect(pos?.liquidationPrice).toBe(54_216.8);
    await t.move('BTCUSDT', 54_300); // above: still open
    expect(await t.positions()).toHaveLength(1);
    await t.move('BTCUSDT', 54_216.8);
    expect(await t.positions()).toEqual([]);
    // 10000 - 600 margin - 3 open fee
    expect(await t.balance('perp')).toMatchObject({ available: '9397.000000', frozen: '0.000000' });
    const fills = (await call<Page<Fill>>(t.h, '/trade/fills?type=liquidation', { token: t.token })).data.list;
    expect(fills).toHaveLength(1);
    // loss 578.32, fee ceil(5421.68 × 0.0005) = 2.71084, the rest 18.96916 forfeited
    expect(fills[0]).toMatchObject({ price: 54_216.8, fee: '2.710840', realizedPnl: '-597.289160' });
    const types = (await ledger(t, '?symbol=BTCUSDT')).slice(0, 4).map((e) => `${e.type} ${e.amount}`);
    expect(types).toEqual(['CONTRACT_TRADE -18.969160', 'CONTRACT_CLOSE_FEE -2.710840', 'CONTRACT_CLOSE -578.320000', 'CONTRACT_MARGIN_UNLOCK 600.000000']);
  });

  it('a gap far past the liquidation price never makes the balance negative (the house absorbs the shortfall)', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await call(t.h, '/wallet/transfer', { token: t.token, body: { from: 'perp', to: 'fund', amount: '9000' } });
    await t.place({ qty: 1, leverage: 100 }); // margin 600, fee 30
    expect((await t.balance('perp')).available).toBe('370.000000');
    await t.move('BTCUSDT', 30_000);
    expect(await t.positions()).toEqual([]);
    expect(await t.balance('perp')).toMatchObject({ available: '370.000000', frozen: '0.000000' });
  });
});

describe('funding and overnight fees (injected clock)', () => {
  it('charges a perp long 0.01 % of the mark notional every 8 h, and a std position 0.03 % daily', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({}); // perp long 0.1
    expect((await call(t.h, '/wallet/transfer', { token: t.token, body: { from: 'fund', to: 'std', coin: 'USDT', amount: '1000' } })).code).toBe(200);
    expect((await t.place({ contract: 'std', qty: 0.01 })).code).toBe(200); // std: margin 60, fee 0.3

    t.h.clock.advance(7 * HOUR);
    await t.engine.runPeriodic();
    expect(await ledger(t, '?type=FUNDING_FEE')).toEqual([]);
    t.h.clock.advance(HOUR); // 08:00 UTC
    await t.engine.runPeriodic();
    await t.engine.runPeriodic(); // the same boundary is never charged twice
    expect((await ledger(t, '?type=FUNDING_FEE')).map((e) => [e.wallet, e.amount])).toEqual([['perp', '-0.600000']]);
    expect(await ledger(t, '?type=OVERNIGHT_FEE')).toEqual([]);

    await t.move('BTCUSDT', 61_000);
    t.h.clock.advance(16 * HOUR); // next day 00:00: funding (16:00 and 00:00) and overnight
    await t.engine.runPeriodic();
    expect((await ledger(t, '?type=FUNDING_FEE')).map((e) => e.amount)).toEqual(['-0.610000', '-0.610000', '-0.600000']);
    // std 0.01 × 61 000 × 0.0003 = 0.183
    expect((await ledger(t, '?type=OVERNIGHT_FEE')).map((e) => [e.wallet, e.amount])).toEqual([['std', '-0.183000']]);
    expect((await t.balance('std')).available).toBe((1000 - 60 - 0.3 - 0.183).toFixed(6));
  });

  it('a short receives funding when the rate is positive', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    await t.place({ side: 'sell' });
    t.h.clock.advance(8 * HOUR);
    await t.engine.runPeriodic();
    expect((await ledger(t, '?type=FUNDING_FEE')).map((e) => e.amount)).toEqual(['0.600000']);
  });
});

describe('wallet', () => {
  it('transfers between wallets with the SPEC §5 messages and filters the ledger', async () => {
    t = await startTrading();
    const tr = (body: unknown) => call(t!.h, '/wallet/transfer', { token: t!.token, body });
    expect((await tr({ from: 'fund', to: 'spot', amount: '' })).msg).toBe('Please fill in the transfer amount');
    expect((await tr({ from: 'fund', to: 'spot' })).msg).toBe('Please fill in the transfer amount');
    expect((await tr({ from: 'fund', to: 'spot', amount: '0' })).msg).toBe('Please fill in the transfer amount');
    expect((await tr({ from: 'fund', to: 'spot', amount: '10000.000001' })).msg).toBe('Insufficient Balance');
    expect((await tr({ from: 'fund', to: 'fund', amount: '1' })).msg).toBe('Please choose two different accounts');
    const ok = await tr({ from: 'fund', to: 'spot', amount: 2500.5 });
    expect(ok.data).toMatchObject({ from: { wallet: 'fund', available: '7499.500000' }, to: { wallet: 'spot', available: '2500.500000' } });
    expect((await ledger(t, '?type=WALLET_TRANSFER_OUT')).map((e) => [e.wallet, e.amount])).toEqual([['fund', '-2500.500000']]);
    expect((await ledger(t, '?type=WALLET_TRANSFER_IN')).map((e) => [e.wallet, e.amount])).toEqual([['spot', '2500.500000']]);
    expect((await ledger(t, '?wallet=spot')).map((e) => e.balanceAfter)).toEqual(['2500.500000']);
    expect(await ledger(t, `?from=${t.h.clock.now() + 1}`)).toEqual([]);
    const page = (await call<Page<LedgerEntry>>(t.h, '/wallet/ledger?pageSize=1&page=2', { token: t.token })).data;
    expect(page.total).toBe(4);
    expect(page.list).toHaveLength(1);
    const all = (await call<{ wallet: string }[]>(t.h, '/wallet/balances', { token: t.token })).data.map((b) => b.wallet);
    expect(all).toEqual(['fund', 'spot', 'std', 'perp', 'copy']);
  });
});

describe('user socket', () => {
  it('pushes order, position and balance events to a real ws client', async () => {
    t = await startTrading();
    await t.move('BTCUSDT', 60_000);
    const url = `${t.h.base.replace('http', 'ws')}/api/ws/user`;
    const frames: { type: string; data?: Record<string, unknown> }[] = [];
    const ws = new WebSocket(url);
    sockets.push(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => ws.send(JSON.stringify({ action: 'auth', token: t!.token })));
      ws.on('message', (d: Buffer) => {
        const f = JSON.parse(d.toString()) as { type: string };
        if (f.type === 'authed') resolve();
        else frames.push(f);
      });
      ws.once('error', reject);
    });
    await t.place({});
    await new Promise((r) => setTimeout(r, 150));
    expect(frames.map((f) => f.type)).toEqual(['order', 'position', 'balance']);
    expect(frames[0]?.data).toMatchObject({ status: 'filled', kind: 'marketOpen' });
    expect(frames[1]?.data).toMatchObject({ side: 'long', closed: false });
    expect(frames[2]?.data).toMatchObject({ wallet: 'perp', available: '9397.000000', frozen: '600.000000' });
    frames.length = 0;
    await t.move('BTCUSDT', 54_000); // liquidation
    await new Promise((r) => setTimeout(r, 150));
    expect(frames.some((f) => f.type === 'position' && f.data?.closed === true)).toBe(true);
  });
});
