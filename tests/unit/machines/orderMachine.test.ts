import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import {
  EMPTY_DRAFT,
  estimateCost,
  isOnStep,
  orderMachine,
  parseDecimal,
  previewOrder,
  buildRequest,
  applyDraftPatch,
  RESULT_HOLD_MS,
  validateOrder,
  type OrderAck,
  type OrderDraft,
  type OrderRules,
  type PlaceFailure,
  type PlaceOrderRequest,
} from '../../../src/machines/orderMachine.ts';
import { settle } from '../settle.ts';

const RULES: OrderRules = { minOrderQuantity: 0.001, maxOrderQuantity: 100, qtyStep: 0.001, minLever: 1, maxLever: 125, openingFeeRatio: 0.0005, tickSize: 0.1, pricePrecision: 1, qtyPrecision: 3 };
const MARKET = { available: '10000', lastPrice: 50_000 };
const DRAFT: OrderDraft = { ...EMPTY_DRAFT, side: 'buy', type: 'limit', price: '50000', qty: '0.01', leverage: 5, tp: '', sl: '' };

/** A scripted server: answers each POST from a queue of outcomes and records every request. */
function server(outcomes: Array<OrderAck | PlaceFailure | 'hang'>) {
  const posts: PlaceOrderRequest[] = [];
  const resolvers: Array<(a: OrderAck) => void> = [];
  const logic = fromPromise<OrderAck, PlaceOrderRequest>(async ({ input }) => {
    posts.push(input);
    const next = outcomes.shift() ?? { orderId: `o${posts.length}`, status: 'pending' };
    if (next === 'hang') return new Promise<OrderAck>((r) => resolvers.push(r));
    if ('kind' in next) throw next;
    return next;
  });
  return { posts, resolvers, logic };
}

function start(outcomes: Array<OrderAck | PlaceFailure | 'hang'> = []) {
  const srv = server(outcomes);
  let n = 0;
  const clock = new SimulatedClock();
  const actor = createActor(orderMachine.provide({ actors: { placeOrder: srv.logic } }), {
    clock,
    input: { symbol: 'BTCUSDT', rules: RULES, newId: () => `cid-${++n}` },
  });
  actor.start();
  const state = () => actor.getSnapshot().value as string;
    return { actor, clock, srv, state, settle };
}

describe('validateOrder (SPEC §5)', () => {
  it('says what is wrong with a typed price (issue 26): missing, not a plain number, not above 0, off the tick', () => {
    const v = (price: string, type: 'limit' | 'stopMarket' = 'limit') =>
      validateOrder(type === 'limit' ? { ...DRAFT, price } : { ...DRAFT, type, triggerPrice: price }, MARKET, RULES)?.key;
    expect(['', '-100', '−100', '0', '1e5', 'abc', '50000.05', '50000.5'].map((p) => v(p))).toEqual([
      'limitPriceRequired', 'pricePositive', 'pricePositive', 'pricePositive', 'priceNotNumber', 'priceNotNumber', 'priceStep', undefined,
    ]);
    expect(['', '-100', '1e5'].map((p) => v(p, 'stopMarket'))).toEqual(['triggerPriceRequired', 'pricePositive', 'priceNotNumber']);
  });
  it('asks for the limit price first', () => {
    expect(validateOrder({ ...DRAFT, price: '' }, MARKET, RULES)).toEqual({ key: 'limitPriceRequired' });
    // text that is not a price now says so (issue 26) instead of asking for a price again
    expect(validateOrder({ ...DRAFT, price: 'abc' }, MARKET, RULES)).toEqual({ key: 'priceNotNumber' });
  });
  it('does not need a price for a market order', () => {
    expect(validateOrder({ ...DRAFT, type: 'market', price: '' }, MARKET, RULES)).toBeNull();
  });
  it('enforces min, max and the quantity step', () => {
    expect(validateOrder({ ...DRAFT, qty: '' }, MARKET, RULES)).toEqual({ key: 'qtyRequired' });
    expect(validateOrder({ ...DRAFT, qty: '0.0001' }, MARKET, RULES)).toEqual({ key: 'minOrderQuantity', value: '0.001' });
    expect(validateOrder({ ...DRAFT, qty: '101' }, MARKET, RULES)).toEqual({ key: 'maxOrderQuantity', value: '100' });
    expect(validateOrder({ ...DRAFT, qty: '0.0015' }, MARKET, RULES)).toEqual({ key: 'qtyStep', value: '0.001' });
  });
  it('enforces the leverage bounds', () => {
    expect(validateOrder({ ...DRAFT, leverage: 0 }, MARKET, RULES)?.key).toBe('leverageRange');
    expect(validateOrder({ ...DRAFT, leverage: 126 }, MARKET, RULES)?.key).toBe('leverageRange');
    expect(validateOrder({ ...DRAFT, leverage: 2.5 }, MARKET, RULES)?.key).toBe('leverageRange');
  });
  it('checks margin plus opening fee against the balance', () => {
    // 1 BTC at 50 000 with 5x: margin 10 000 + fee 25 > 10 000 available
    expect(validateOrder({ ...DRAFT, qty: '1' }, MARKET, RULES)).toEqual({ key: 'insufficientBalance' });
    expect(validateOrder({ ...DRAFT, qty: '0.99' }, MARKET, RULES)).toBeNull();
  });
  it('puts TP above and SL below the price for a long (reversed for a short)', () => {
    expect(validateOrder({ ...DRAFT, tp: '49000' }, MARKET, RULES)?.key).toBe('tpInvalid');
    expect(validateOrder({ ...DRAFT, sl: '51000' }, MARKET, RULES)?.key).toBe('slInvalid');
    expect(validateOrder({ ...DRAFT, side: 'sell', tp: '49000', sl: '51000' }, MARKET, RULES)).toBeNull();
  });
  it('parses decimals strictly and checks steps without float noise', () => {
    expect(parseDecimal('1,234.5')).toBe(1234.5);
    expect(parseDecimal('1e3')).toBeNull();
    expect(parseDecimal('-1')).toBeNull();
    expect(isOnStep(0.3, 0.1)).toBe(true);
    expect(isOnStep('0.35', 0.1)).toBe(false);
    expect(estimateCost(DRAFT, MARKET, RULES)).toMatchObject({ notional: '500.000000', margin: '100.000000', fee: '0.250000' });
  });
  it('checks prices on the tick and the stop trigger', () => {
    expect(validateOrder({ ...DRAFT, price: '50000.05' }, MARKET, RULES)).toEqual({ key: 'priceStep', value: '0.1' });
    const stop = { ...DRAFT, type: 'stopMarket' as const, price: '' };
    expect(validateOrder(stop, MARKET, RULES)).toEqual({ key: 'triggerPriceRequired' });
    expect(validateOrder({ ...stop, triggerPrice: '50000' }, MARKET, RULES)).toEqual({ key: 'wouldTriggerImmediately' });
    expect(validateOrder({ ...stop, triggerPrice: '50000.1' }, MARKET, RULES)).toBeNull();
    expect(validateOrder({ ...stop, side: 'sell', triggerPrice: '50000.1' }, MARKET, RULES)).toEqual({ key: 'wouldTriggerImmediately' });
    // on the mark: unknown mark → the server decides
    expect(validateOrder({ ...stop, triggerBy: 'mark', triggerPrice: '40000' }, MARKET, RULES)).toBeNull();
    expect(validateOrder({ ...stop, triggerBy: 'mark', triggerPrice: '40000' }, { ...MARKET, markPrice: 45_000 }, RULES)).toEqual({ key: 'wouldTriggerImmediately' });
    expect(validateOrder({ ...DRAFT, type: 'stopLimit', triggerPrice: '50100' }, MARKET, RULES)).toBeNull();
    expect(validateOrder({ ...DRAFT, type: 'stopLimit', price: '', triggerPrice: '50100' }, MARKET, RULES)).toEqual({ key: 'limitPriceRequired' });
  });
  it('refuses a reduce-only that would increase, and a post-only that is not a GTC limit', () => {
    const long = { ...MARKET, position: { side: 'long' as const, qty: 0.5 } };
    expect(validateOrder({ ...DRAFT, reduceOnly: true }, MARKET, RULES)).toEqual({ key: 'reduceOnlyWouldIncrease' });
    expect(validateOrder({ ...DRAFT, reduceOnly: true }, long, RULES)).toEqual({ key: 'reduceOnlyWouldIncrease' });
    expect(validateOrder({ ...DRAFT, side: 'sell', reduceOnly: true, qty: '0.8' }, long, RULES)).toBeNull();
    expect(validateOrder({ ...DRAFT, postOnly: true, timeInForce: 'IOC' }, MARKET, RULES)).toEqual({ key: 'postOnlyLimitOnly' });
    expect(validateOrder({ ...DRAFT, postOnly: true, type: 'market' }, MARKET, RULES)).toEqual({ key: 'postOnlyLimitOnly' });
    expect(validateOrder({ ...DRAFT, postOnly: true }, MARKET, RULES)).toBeNull();
  });
  it('needs margin only for the opening part of an order that nets against the position', () => {
    const poor = { available: '30', lastPrice: 50_000, position: { side: 'long' as const, qty: '0.5' } };
    // selling 0.3 of a long 0.5 reduces it: only the fee (7.5) is needed
    expect(estimateCost({ ...DRAFT, side: 'sell', qty: '0.3' }, poor, RULES)).toMatchObject({ margin: '0.000000', fee: '7.500000' });
    expect(validateOrder({ ...DRAFT, side: 'sell', qty: '0.3' }, poor, RULES)).toBeNull();
    // selling 0.8 flips: margin of the 0.3 opened (3 000) is needed
    expect(estimateCost({ ...DRAFT, side: 'sell', qty: '0.8' }, poor, RULES)).toMatchObject({ margin: '3000.000000', fee: '20.000000' });
    expect(validateOrder({ ...DRAFT, side: 'sell', qty: '0.8' }, poor, RULES)).toEqual({ key: 'insufficientBalance' });
  });
  it('previews what the order does to the position', () => {
    const pos = { side: 'long' as const, qty: 0.5 };
    expect(previewOrder({ ...DRAFT, side: 'sell', qty: '0.3' }, pos, RULES)).toEqual({ kind: 'reduce', side: 'long', from: '0.5', to: '0.2' });
    expect(previewOrder({ ...DRAFT, side: 'sell', qty: '0.8' }, pos, RULES)).toEqual({ kind: 'flip', side: 'long', toSide: 'short', from: '0.5', to: '0.3' });
    expect(previewOrder({ ...DRAFT, side: 'sell', qty: '0.5' }, pos, RULES)).toEqual({ kind: 'close', side: 'long', from: '0.5', to: '0' });
    expect(previewOrder({ ...DRAFT, qty: '0.5' }, null, RULES)).toEqual({ kind: 'open', side: 'long', from: '0', to: '0.5' });
    expect(previewOrder({ ...DRAFT, qty: '' }, null, RULES)).toEqual({ kind: 'none' });
  });
  it('builds requests from the typed decimals, options only where they apply', () => {
    expect(buildRequest('BTCUSDT', { ...DRAFT, price: '50,000.50', qty: '.010', tp: '60000', postOnly: true }, 'c')).toEqual({
      clientOrderId: 'c', symbol: 'BTCUSDT', side: 'buy', type: 'limit', price: '50000.5', qty: '0.01', leverage: 5, tp: '60000', postOnly: true,
    });
    expect(buildRequest('BTCUSDT', { ...DRAFT, type: 'stopMarket', triggerPrice: '51000', triggerBy: 'mark', reduceOnly: true, tp: '1', timeInForce: 'FOK' }, 'c')).toEqual({
      clientOrderId: 'c', symbol: 'BTCUSDT', side: 'buy', type: 'stopMarket', triggerPrice: '51000', triggerBy: 'mark', qty: '0.01', leverage: 5, reduceOnly: true,
    });
    expect(applyDraftPatch({ ...DRAFT, timeInForce: 'IOC' }, { postOnly: true })).toMatchObject({ postOnly: true, timeInForce: 'GTC' });
    expect(applyDraftPatch({ ...DRAFT, postOnly: true }, { timeInForce: 'FOK' })).toMatchObject({ postOnly: false, timeInForce: 'FOK' });
    expect(applyDraftPatch({ ...DRAFT, postOnly: true }, { type: 'stopLimit' })).toMatchObject({ postOnly: false });
  });
  it('clamps the leverage to the instrument\'s range as it is typed (issue 26): never 0, negative or above the max', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: false })), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 20, max: 125 }), (typed, minLever, maxLever) => {
        const next = applyDraftPatch(DRAFT, { leverage: typed }, { minLever, maxLever });
        expect(Number.isInteger(next.leverage)).toBe(true);
        expect(next.leverage >= minLever && next.leverage <= maxLever).toBe(true);
        if (Number.isFinite(typed) && Math.round(typed) >= minLever && Math.round(typed) <= maxLever) expect(next.leverage).toBe(Math.round(typed));
      }),
    );
    expect([0, -5, 500].map((lev) => applyDraftPatch(DRAFT, { leverage: lev }, RULES).leverage)).toEqual([1, 1, 125]);
    // through the machine: a typed 500x previews the margin at the maximum, never at 500x
    const actor = createActor(orderMachine, { input: { symbol: 'BTCUSDT', rules: RULES, newId: () => 'x' } }).start();
    actor.send({ type: 'order.edit', patch: { leverage: 500 } });
    expect(actor.getSnapshot().context.draft.leverage).toBe(125);
    actor.send({ type: 'order.edit', patch: { leverage: 0 } });
    expect(actor.getSnapshot().context.draft.leverage).toBe(1);
    actor.stop();
  });
});

describe('orderMachine', () => {
  it('stays in editing with the SPEC message when a limit order has no price', () => {
    const { actor, state, srv } = start();
    actor.send({ type: 'order.edit', patch: { price: '' } });
    actor.send({ type: 'order.submit', market: MARKET });
    expect(state()).toBe('editing');
    expect(actor.getSnapshot().context.error).toEqual({ key: 'limitPriceRequired' });
    expect(srv.posts).toHaveLength(0);
  });

  it('submits a valid order with a client order id from the Random port and follows the socket to filled', async () => {
    const { actor, state, srv, settle } = start();
    actor.send({ type: 'order.edit', patch: { ...DRAFT } });
    actor.send({ type: 'order.submit', market: MARKET });
    expect(state()).toBe('submitting');
    await settle();
    expect(state()).toBe('pending');
    expect(srv.posts).toEqual([{ clientOrderId: 'cid-1', symbol: 'BTCUSDT', side: 'buy', type: 'limit', price: '50000', qty: '0.01', leverage: 5 }]);
    actor.send({ type: 'order.frame', clientOrderId: 'other', orderId: 'x', status: 'filled' });
    expect(state()).toBe('pending');
    actor.send({ type: 'order.frame', clientOrderId: 'cid-1', orderId: 'o1', status: 'filled' });
    expect(state()).toBe('filled');
  });

  it('returns to editing after the result hold (simulated clock) and draws a new id next time', async () => {
    const { actor, state, srv, settle, clock } = start([{ orderId: 'o1', status: 'filled' }]);
    actor.send({ type: 'order.edit', patch: { ...DRAFT, type: 'market' } });
    actor.send({ type: 'order.submit', market: MARKET });
    await settle();
    expect(state()).toBe('filled');
    clock.increment(RESULT_HOLD_MS - 1);
    expect(state()).toBe('filled');
    clock.increment(1);
    expect(state()).toBe('editing');
    actor.send({ type: 'order.submit', market: MARKET });
    await settle();
    expect(srv.posts.map((p) => p.clientOrderId)).toEqual(['cid-1', 'cid-2']);
  });

  it('asks for confirmation above 10x; back returns to editing without posting', async () => {
    const { actor, state, srv, settle } = start();
    actor.send({ type: 'order.edit', patch: { ...DRAFT, leverage: 20 } });
    actor.send({ type: 'order.submit', market: MARKET });
    expect(state()).toBe('confirming');
    actor.send({ type: 'order.submit', market: MARKET });
    expect(state()).toBe('confirming');
    actor.send({ type: 'order.back' });
    expect(state()).toBe('editing');
    expect(srv.posts).toHaveLength(0);
    actor.send({ type: 'order.submit', market: MARKET });
    actor.send({ type: 'order.confirm' });
    await settle();
    expect(state()).toBe('pending');
    expect(srv.posts).toHaveLength(1);
  });

  it('does not accept 10x exactly as risky', () => {
    const { actor, state } = start(['hang']);
    actor.send({ type: 'order.edit', patch: { ...DRAFT, leverage: 10 } });
    actor.send({ type: 'order.submit', market: MARKET });
    expect(state()).toBe('submitting');
  });

  it('ignores repeated submits while the POST is in flight', async () => {
    const { actor, state, srv, settle } = start(['hang']);
    actor.send({ type: 'order.edit', patch: { ...DRAFT } });
    actor.send({ type: 'order.submit', market: MARKET });
    actor.send({ type: 'order.submit', market: MARKET });
    actor.send({ type: 'order.submit', market: MARKET });
    await settle();
    expect(srv.posts).toHaveLength(1);
    expect(state()).toBe('submitting');
    srv.resolvers[0]?.({ orderId: 'o1', status: 'pending' });
    await settle();
    expect(state()).toBe('pending');
  });

  it('retries a network failure with the same clientOrderId', async () => {
    const { actor, state, srv, settle } = start([{ kind: 'network', msg: 'Network Error' }]);
    actor.send({ type: 'order.edit', patch: { ...DRAFT } });
    actor.send({ type: 'order.submit', market: MARKET });
    await settle();
    expect(state()).toBe('failed');
    expect(actor.getSnapshot().context.failure).toEqual({ kind: 'network', msg: 'Network Error' });
    actor.send({ type: 'order.retry' });
    await settle();
    expect(state()).toBe('pending');
    expect(srv.posts.map((p) => p.clientOrderId)).toEqual(['cid-1', 'cid-1']);
    expect(srv.posts[0]).toEqual(srv.posts[1]);
    expect(actor.getSnapshot().context.attempts).toBe(2);
  });

  it('a socket frame after a network error settles the ticket without a retry', async () => {
    const { actor, state, srv, settle } = start([{ kind: 'network', msg: 'timeout' }]);
    actor.send({ type: 'order.edit', patch: { ...DRAFT } });
    actor.send({ type: 'order.submit', market: MARKET });
    await settle();
    actor.send({ type: 'order.frame', clientOrderId: 'cid-1', orderId: 'o9', status: 'pending' });
    expect(state()).toBe('pending');
    expect(actor.getSnapshot().context.orderId).toBe('o9');
    expect(srv.posts).toHaveLength(1);
  });

  it('a server rejection is final: rejected, and the next submit is a new ticket', async () => {
    const { actor, state, srv, settle } = start([{ kind: 'rejected', msg: 'Insufficient Balance' }]);
    actor.send({ type: 'order.edit', patch: { ...DRAFT } });
    actor.send({ type: 'order.submit', market: MARKET });
    await settle();
    expect(state()).toBe('rejected');
    actor.send({ type: 'order.retry' });
    expect(state()).toBe('rejected');
    actor.send({ type: 'order.submit', market: MARKET });
    await settle();
    expect(srv.posts.map((p) => p.clientOrderId)).toEqual(['cid-1', 'cid-2']);
  });

  it('a fill frame that beats the POST answer wins', async () => {
    const { actor, state, srv, settle } = start(['hang']);
    actor.send({ type: 'order.edit', patch: { ...DRAFT, type: 'market' } });
    actor.send({ type: 'order.submit', market: MARKET });
    actor.send({ type: 'order.frame', clientOrderId: 'cid-1', orderId: 'o1', status: 'filled' });
    srv.resolvers[0]?.({ orderId: 'o1', status: 'pending' });
    await settle();
    expect(state()).toBe('filled');
  });

  it('a pending order canceled on the socket ends canceled', async () => {
    const { actor, state, settle } = start();
    actor.send({ type: 'order.edit', patch: { ...DRAFT } });
    actor.send({ type: 'order.submit', market: MARKET });
    await settle();
    actor.send({ type: 'order.frame', clientOrderId: 'cid-1', orderId: 'o1', status: 'canceled' });
    expect(state()).toBe('canceled');
  });

  it('clamps the leverage when the instrument changes', () => {
    const { actor } = start();
    actor.send({ type: 'order.edit', patch: { leverage: 100 } });
    actor.send({ type: 'order.rules', symbol: 'XAUUSDT', rules: { ...RULES, maxLever: 50 } });
    expect(actor.getSnapshot().context.draft.leverage).toBe(50);
    expect(actor.getSnapshot().context.symbol).toBe('XAUUSDT');
  });
});
