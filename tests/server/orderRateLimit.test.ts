import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { createRateLimits } from '../../server/http/rateLimit.ts';
import { createUserEventBus } from '../../server/ws/userBus.ts';
import { orderRateLimitMsg, ORDER_RATE_RULES } from '../../src/protocol/orderRateLimit.ts';
import type { Order } from '../../src/protocol/trading.ts';
import { call, login, register, relaxedLimits, T0 } from './harness.ts';
import type { Harness } from './harness.ts';
import { startEngineServer } from './tradeHarness.ts';

/**
 * Per-account order rate limits over real HTTP (production rules scaled by RATE_LIMIT_SCALE 0.05:
 * 15 orders per 10 s, 60 per minute), on the injected clock.
 */
const SCALE = 0.05;
const PER_10S = Math.round(ORDER_RATE_RULES.ordersPer10s.limit * SCALE);
const PER_MIN = Math.round(ORDER_RATE_RULES.ordersPerMinute.limit * SCALE);

describe('order rate limits per account (RATE_LIMIT_SCALE 0.05)', () => {
  let h: Harness;
  let alice: string;
  let bob: string;
  let seq = 0;
  beforeAll(async () => {
    const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), T0);
    source.setPrice('BTCUSDT', 60_000);
    const scaled = createRateLimits(SCALE);
    ({ h } = await startEngineServer({ source, bus: createUserEventBus(), limits: { ...relaxedLimits(), ordersPer10s: scaled.ordersPer10s, ordersPerMinute: scaled.ordersPerMinute } }));
    await register(h, 'alice@example.com');
    await register(h, 'bob@example.com');
    alice = await login(h, 'alice@example.com');
    bob = await login(h, 'bob@example.com');
  });
  afterAll(async () => h.close());

  /** A buy limit far under the price: it rests (a real order, margin locked). */
  const place = (token: string, headers: Record<string, string> = {}) => {
    seq += 1;
    return call<Order>(h, '/trade/order', {
      token,
      headers,
      body: { clientOrderId: `rl${seq}`, symbol: 'BTCUSDT', contract: 'perp', kind: 'limitOpen', side: 'buy', price: 50_000, qty: 0.001, leverage: 10 },
    });
  };
  const placeMany = async (token: string, n: number): Promise<number[]> => {
    const codes: number[] = [];
    for (let i = 0; i < n; i++) codes.push((await place(token)).code);
    return codes;
  };

  it(`refuses the ${PER_10S + 1}th order of 10 s with 429 in the five languages; cancels still go; other accounts are not limited`, async () => {
    expect(PER_10S).toBe(15);
    const first = await place(alice);
    expect(first.code, first.msg).toBe(200);
    expect(await placeMany(alice, PER_10S - 1)).toEqual(Array(PER_10S - 1).fill(200));

    const over = await place(alice);
    expect([over.code, over.msg, over.data]).toEqual([429, orderRateLimitMsg('en', PER_10S, 10_000), null]);
    expect(over.msg).toBe(`Too many orders: at most ${PER_10S} per 10 seconds, please try again shortly`);
    const texts: Record<string, string> = {
      zh: `下单过于频繁：每 10 秒最多 ${PER_10S} 笔订单，请稍后再试`,
      hk: `落單過於頻繁：每 10 秒最多 ${PER_10S} 張訂單，請稍後再試`,
      jp: `注文が多すぎます：10 秒あたり最大 ${PER_10S} 件です。しばらくしてから再度お試しください`,
      ko: `주문이 너무 많습니다: 10초당 최대 ${PER_10S}건입니다. 잠시 후 다시 시도해 주세요`,
    };
    for (const [lang, text] of Object.entries(texts)) {
      const r = await place(alice, { 'Web-Lang': lang });
      expect([lang, r.code, r.msg]).toEqual([lang, 429, text]);
    }
    // Edits and closes count too; refused before the engine sees them.
    const edit = await call(h, '/trade/order/edit', { token: alice, body: { orderId: first.data.id, price: 49_000 } });
    expect(edit.code).toBe(429);
    const close = await call(h, '/trade/position/close-all', { token: alice, body: {} });
    expect(close.code).toBe(429);
    // A cancel is not counted: an account at its limit can still take its orders off the book.
    const cancel = await call<Order>(h, '/trade/order/cancel', { token: alice, body: { orderId: first.data.id } });
    expect([cancel.code, cancel.data.status]).toEqual([200, 'canceled']);
    // Another account has its own budget.
    expect((await place(bob)).code).toBe(200);
    // Nothing refused reached the engine: alice has exactly her accepted orders.
    const open = await call<{ list: Order[]; total: number }>(h, '/trade/orders/open', { token: alice, method: 'GET' });
    expect(open.data.total).toBe(PER_10S - 1);
  });

  it(`a new 10 s window allows again, until ${PER_MIN} in the minute (refused refusals cost nothing)`, async () => {
    // t = 10 s, 20 s, 30 s: three more full windows; with the first one that is the minute's budget.
    for (let w = 1; w <= 3; w++) {
      h.clock.advance(10_000);
      expect(await placeMany(alice, PER_10S), `window ${w}`).toEqual(Array(PER_10S).fill(200));
      expect((await place(alice)).code).toBe(429);
    }
    h.clock.advance(10_000); // t = 40 s: the 10 s window is empty, the minute's is full
    const over = await place(alice, { 'Web-Lang': 'en' });
    expect([over.code, over.msg]).toEqual([429, `Too many orders: at most ${PER_MIN} per minute, please try again shortly`]);
    expect((await place(alice, { 'Web-Lang': 'zh' })).msg).toBe(`下单过于频繁：每分钟最多 ${PER_MIN} 笔订单，请稍后再试`);
    h.clock.advance(20_001); // t = 60.001 s: the first window's orders left the minute
    expect(await placeMany(alice, PER_10S)).toEqual(Array(PER_10S).fill(200));
    expect((await place(alice)).code).toBe(429);
  });
});
