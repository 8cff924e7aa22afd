import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERT_MSG, CONVERT_PATHS, QUOTE_TTL_MS } from '../../src/protocol/convert.ts';
import type { Conversion, Quote } from '../../src/protocol/convert.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import type { LedgerEntry } from '../../src/protocol/trading.ts';
import { call } from './harness.ts';
import { api, startMoney } from './moneyHarness.ts';
import type { MoneyHarness } from './moneyHarness.ts';


let m: MoneyHarness;
beforeAll(async () => {
  m = await startMoney();
});
afterAll(async () => m.close());

function quote(token: string, body: Record<string, unknown>) {
  return call<Quote>(m.h, api(CONVERT_PATHS.quote), { token, body: { from: 'USDT', to: 'BTC', amount: '1000', ...body } });
}
function convert(token: string, quoteId: string) {
  return call<Conversion>(m.h, api(CONVERT_PATHS.convert), { token, body: { quoteId } });
}

describe('instant convert', () => {
  it('quotes from the market engine price, locks it for 8 s, fills at exactly the quoted rate, fee 0, once', async () => {
    const u = await m.user('cv-a@example.com');
    const q = await quote(u.token, {});
    expect(q.code).toBe(200);
    expect(q.data).toMatchObject({ from: 'USDT', to: 'BTC', rate: '0.0000200000000000', fromAmount: '1000.000000', toAmount: '0.02000000', fee: '0', account: 'fund' });
    expect(q.data.expiresAt - q.data.createdAt).toBe(QUOTE_TTL_MS);
    // The market moves after the quote; the fill keeps the quoted rate.
    m.source.setPrice('BTCUSDT', 40_000);
    m.h.clock.advance(QUOTE_TTL_MS - 1);
    const c = await convert(u.token, q.data.quoteId);
    expect([c.code, c.msg]).toEqual([200, CONVERT_MSG.converted]);
    expect(c.data).toMatchObject({ rate: '0.0000200000000000', fromAmount: '1000.000000', toAmount: '0.02000000', fee: '0' });
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe('9000.000000');
    expect(await m.balance(u.token, 'fund', 'BTC')).toBe('0.02000000');
    const again = await convert(u.token, q.data.quoteId);
    expect([again.code, again.msg]).toEqual([409, CONVERT_MSG.quoteUsed]);
    expect(await m.balance(u.token, 'fund', 'BTC')).toBe('0.02000000');
    const ledger = await call<Page<LedgerEntry>>(m.h, '/wallet/ledger', { token: u.token });
    expect(ledger.data.list.slice(0, 2).map((e) => [e.type, e.coin, e.amount]).sort()).toEqual([
      ['EXCHANGE_DEDUCTION', 'USDT', '-1000.000000'],
      ['EXCHANGE_RECEIVED', 'BTC', '0.02000000'],
    ]);
    expect(u.frames.map((f) => f.type)).toEqual(['convert', 'balance', 'balance']);
    m.source.setPrice('BTCUSDT', 50_000);
  });

  it('a quote expires at exactly expiresAt on the server clock, with a clear message', async () => {
    const u = await m.user('cv-exp@example.com');
    const q = await quote(u.token, { from: 'USDT', to: 'ETH', amount: '250' });
    expect(q.data.toAmount).toBe('0.10000000');
    m.h.clock.t = q.data.expiresAt;
    const late = await convert(u.token, q.data.quoteId);
    expect([late.code, late.msg]).toEqual([400, CONVERT_MSG.quoteExpired]);
    expect(await m.balance(u.token, 'fund', 'ETH')).toBe('0');
    // A fresh quote converts.
    const fresh = await quote(u.token, { from: 'USDT', to: 'ETH', amount: '250' });
    expect((await convert(u.token, fresh.data.quoteId)).code).toBe(200);
  });

  it('a double click (two concurrent converts of one quote) converts once', async () => {
    const u = await m.user('cv-dbl@example.com');
    const q = await quote(u.token, { amount: '500' });
    const [a, b] = await Promise.all([convert(u.token, q.data.quoteId), convert(u.token, q.data.quoteId)]);
    expect([a.code, b.code].sort()).toEqual([200, 409]);
    expect(await m.balance(u.token, 'fund', 'USDT')).toBe('9500.000000');
  });

  it('refuses insufficient balance, unknown coins, the same coin, a foreign quote; spot as payment account', async () => {
    const u = await m.user('cv-bad@example.com');
    expect((await quote(u.token, { amount: '10000.000001' })).msg).toBe(CONVERT_MSG.insufficientBalance);
    expect((await quote(u.token, { account: 'spot', amount: '1' })).msg).toBe(CONVERT_MSG.insufficientBalance);
    expect((await quote(u.token, { from: 'DOGE' })).msg).toBe(CONVERT_MSG.unknownCoin);
    expect((await quote(u.token, { to: 'USDT' })).msg).toBe(CONVERT_MSG.sameCoin);
    expect((await quote(u.token, { amount: '' })).msg).toBe(CONVERT_MSG.amountRequired);
    expect((await quote(u.token, { amount: '0.000001', to: 'BTC' })).msg).toBe(CONVERT_MSG.amountTooSmall);
    const other = await m.user('cv-other@example.com');
    const q = await quote(other.token, {});
    expect((await convert(u.token, q.data.quoteId)).msg).toBe(CONVERT_MSG.quoteNotFound);
    // The balance moves away between quote and convert: the fill is refused, nothing moves.
    const q2 = await quote(u.token, { amount: '9000' });
    expect((await call(m.h, '/wallet/transfer', { token: u.token, body: { from: 'fund', to: 'spot', coin: 'USDT', amount: '5000' } })).code).toBe(200);
    expect((await convert(u.token, q2.data.quoteId)).msg).toBe(CONVERT_MSG.insufficientBalance);
    const q3 = await quote(u.token, { account: 'spot', from: 'USDT', to: 'ETH', amount: '2500' });
    expect((await convert(u.token, q3.data.quoteId)).code).toBe(200);
    expect(await m.balance(u.token, 'spot', 'ETH')).toBe('1.00000000');
    expect(await m.balance(u.token, 'spot', 'USDT')).toBe('2500.000000');
  });

  it('history: filters and paging, newest first; pairs with live rates', async () => {
    const u = await m.user('cv-hist@example.com');
    for (const [to, amount] of [['BTC', '100'], ['ETH', '100'], ['BTC', '200']] as const) {
      m.h.clock.advance(1000);
      const q = await quote(u.token, { to, amount });
      expect((await convert(u.token, q.data.quoteId)).code).toBe(200);
    }
    const all = await call<Page<Conversion>>(m.h, `${api(CONVERT_PATHS.history)}?pageSize=2`, { token: u.token });
    expect([all.data.total, all.data.list.map((c) => c.fromAmount)]).toEqual([3, ['200.000000', '100.000000']]);
    const btc = await call<Page<Conversion>>(m.h, `${api(CONVERT_PATHS.history)}?to=BTC`, { token: u.token });
    expect(btc.data.list.map((c) => c.fromAmount)).toEqual(['200.000000', '100.000000']);
    const none = await call<Page<Conversion>>(m.h, `${api(CONVERT_PATHS.history)}?account=spot`, { token: u.token });
    expect(none.data.total).toBe(0);
    const pairs = await call<{ from: string; to: string; rate: string }[]>(m.h, api(CONVERT_PATHS.pairs));
    expect(pairs.data).toContainEqual({ from: 'BTC', to: 'ETH', rate: '20.0000000000000000' });
    expect(pairs.data).toHaveLength(6);
  });
});
