import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Page } from '../../src/protocol/envelope.ts';
import { API_ROUTES } from '../../src/protocol/api.ts';
import { depositAddressQuery, MONEY_PATHS, withdrawInfoQuery } from '../../src/protocol/wallet.ts';
import type { Deposit, HistoryRow, Withdrawal } from '../../src/protocol/wallet.ts';
import { call, sendCode } from './harness.ts';
import { api, TRON, startMoney } from './moneyHarness.ts';
import type { MoneyHarness } from './moneyHarness.ts';


let m: MoneyHarness;
beforeAll(async () => {
  m = await startMoney();
});
afterAll(async () => m.close());

describe('wallet history', () => {
  it('deposits, withdrawals and transfers with type, coin, status and date filters, paged newest first', async () => {
    const email = 'hist@example.com';
    const u = await m.user(email);
    const t0 = m.h.clock.now();
    const dep = async (coin: string, network: string, amount: string) => {
      m.h.clock.advance(1000);
      return (await call<Deposit>(m.h, api(MONEY_PATHS.devDeposit), { body: { email, coin, network, amount } })).data;
    };
    const d1 = await dep('USDT', 'TRC20', '50');
    const d2 = await dep('BTC', 'Bitcoin', '0.0001');
    m.h.clock.advance(1000);
    const tr = await call(m.h, '/wallet/transfer', { token: u.token, body: { from: 'fund', to: 'spot', coin: 'USDT', amount: '25' } });
    expect(tr.code).toBe(200);
    const t1 = m.h.clock.now();
    m.h.clock.advance(61_000);
    const code = await sendCode(m.h, email, 'security', u.token);
    const w = (await call<Withdrawal>(m.h, api(MONEY_PATHS.withdraw), { token: u.token, body: { coin: 'USDT', network: 'TRC20', address: TRON, amount: '10', code } })).data;

    const get = async (q: string) => (await call<Page<HistoryRow>>(m.h, `${api(MONEY_PATHS.history)}${q}`, { token: u.token })).data;
    const all = await get('');
    expect(all.total).toBe(4);
    expect(all.list.map((r) => [r.type, r.coin, r.amount, r.status])).toEqual([
      ['withdrawal', 'USDT', '10.000000', 'pending'],
      ['transfer', 'USDT', '25.000000', 'completed'],
      ['deposit', 'BTC', '0.00010000', 'belowMinimum'],
      ['deposit', 'USDT', '50.000000', 'confirming'],
    ]);
    expect(all.list[0]).toMatchObject({ id: w.id, fee: '1.000000', address: TRON, network: 'TRC20' });
    expect(all.list[1]).toMatchObject({ from: 'fund', to: 'spot', network: '' });
    expect(all.list[3]).toMatchObject({ id: d1.id, txid: d1.txid });
    expect((await get('?type=deposit')).list.map((r) => r.id)).toEqual([d2.id, d1.id]);
    expect((await get('?coin=BTC')).list.map((r) => r.type)).toEqual(['deposit']);
    expect((await get('?status=pending')).list.map((r) => r.type)).toEqual(['withdrawal']);
    expect((await get(`?from=${t0 + 1500}&to=${t1}`)).list.map((r) => r.type)).toEqual(['transfer', 'deposit']);
    const p2 = await get('?page=2&pageSize=3');
    expect([p2.total, p2.list.map((r) => r.id)]).toEqual([4, [d1.id]]);
    expect((await call(m.h, api(MONEY_PATHS.history))).code).toBe(401);
  });

  it('pushes deposit steps live on the real user socket', async () => {
    const email = 'hist-ws@example.com';
    const u = await m.user(email);
    const ws = new WebSocket(`${m.h.base.replace('http', 'ws')}/api/ws/user`);
    const frames: { type: string; data?: Deposit }[] = [];
    const waitFor = (pred: () => boolean): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (pred()) {
            ws.off('message', check);
            resolve();
          }
        };
        ws.on('message', check);
        check();
      });
    ws.on('message', (d: Buffer) => frames.push(JSON.parse(d.toString()) as { type: string; data?: Deposit }));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ action: 'auth', token: u.token }));
    await waitFor(() => frames.some((f) => f.type === 'authed'));
    await call(m.h, api(MONEY_PATHS.devDeposit), { body: { email, coin: 'BTC', network: 'Bitcoin', amount: '0.01' } });
    m.h.clock.advance(10_000);
    await m.jobs();
    m.h.clock.advance(10_000);
    await m.jobs();
    await waitFor(() => frames.some((f) => f.type === 'balance'));
    expect(frames.filter((f) => f.type === 'deposit').map((f) => [f.data?.status, f.data?.confirmations])).toEqual([
      ['confirming', 0],
      ['confirming', 1],
      ['credited', 2],
    ]);
    ws.close();
  });
});

describe('responses follow the protocol schemas (src/protocol/api.ts)', () => {
  it('every money and convert route with a response schema answers data that parses', async () => {
    const email = 'schema@example.com';
    const u = await m.user(email);
    await call(m.h, api(MONEY_PATHS.devDeposit), { body: { email, coin: 'USDT', network: 'ERC20', amount: '30' } });
    m.h.clock.advance(61_000);
    const code = await sendCode(m.h, email, 'security', u.token);
    await call(m.h, api(MONEY_PATHS.withdraw), { token: u.token, body: { coin: 'USDT', network: 'TRC20', address: TRON, amount: '10', code } });
    const q = await call<{ quoteId: string }>(m.h, '/convert/quote', { token: u.token, body: { from: 'USDT', to: 'ETH', amount: '25' } });
    await call(m.h, '/convert', { token: u.token, body: { quoteId: q.data.quoteId } });
    const checked: string[] = [];
    for (const route of API_ROUTES) {
      if (!route.response || route.method !== 'get') continue;
      const query = route.query === depositAddressQuery || route.query === withdrawInfoQuery ? '?coin=USDT&network=TRC20' : '';
      const r = await call(m.h, `${route.path.replace(/^\/api/, '')}${query}`, { token: u.token });
      expect(r.code, route.path).toBe(200);
      const parsed = route.response.safeParse(r.data);
      expect(parsed.success, `${route.path}: ${parsed.error?.message ?? ''}`).toBe(true);
      const list = (r.data as { list?: unknown[] }).list;
      if (list) expect(list.length, route.path).toBeGreaterThan(0);
      checked.push(route.path);
    }
    expect(checked.length).toBeGreaterThanOrEqual(7);
  });
});
