import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import {
  orderMachine,
  RESULT_HOLD_MS,
  RISK_LEVERAGE,
  validateOrder,
  type OrderAck,
  type OrderDraft,
  type OrderMarket,
  type OrderRules,
  type PlaceFailure,
  type PlaceOrderRequest,
} from '../../src/machines/orderMachine.ts';
import { settle } from '../unit/settle.ts';

/**
 * Invariants of the order ticket over random user, server and socket interleavings:
 * - at most one POST is in flight at any time (no double submit);
 * - every POST of one clientOrderId carries the identical request (a retry keeps the id and body),
 *   and different tickets never share an id;
 * - a ticket with leverage above 10x was in `confirming` before its first POST;
 * - every POST satisfies the instrument's rules (validation ran first).
 */

const RULES: OrderRules = { minOrderQuantity: 0.01, maxOrderQuantity: 50, qtyStep: 0.01, minLever: 1, maxLever: 100, openingFeeRatio: 0.0004, tickSize: 0.1, pricePrecision: 1, qtyPrecision: 2 };

/**
 * An independent reading of a decimal string as [integer, scale] → units at `dp` decimals (no
 * float, no code shared with the machine); null when it is not a plain decimal or has more digits.
 */
function unitsAt(text: string, dp: number): bigint | null {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text.trim().split(',').join(''));
  if (!m || (m[1] === '' && (m[2] ?? '') === '')) return null;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > dp) return null;
  return BigInt(m[1] || '0') * 10n ** BigInt(dp) + BigInt(frac.padEnd(dp, '0') || '0');
}

type Cmd =
  | { k: 'edit'; patch: { side?: 'buy' | 'sell'; type?: 'limit' | 'market'; price?: string; qty?: string; leverage?: number } }
  | { k: 'submit'; available: number }
  | { k: 'confirm' }
  | { k: 'back' }
  | { k: 'retry' }
  | { k: 'answer'; how: 'pending' | 'filled' | 'network' | 'rejected' }
  | { k: 'frame'; mine: boolean; status: 'pending' | 'filled' | 'canceled' }
  | { k: 'tick' };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({
    k: fc.constant('edit' as const),
    patch: fc.record(
      {
        side: fc.constantFrom('buy' as const, 'sell' as const),
        type: fc.constantFrom('limit' as const, 'market' as const),
        price: fc.constantFrom('100', '99.5', '100', '', 'x'),
        qty: fc.constantFrom('0.01', '0.5', '0.01', '', '0.001', '1.005', '60'),
        leverage: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 11, max: 100 }), fc.integer({ min: 0, max: 120 })),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({ k: fc.constant('submit' as const), available: fc.constantFrom(1_000_000, 1_000_000, 0, 10) }),
  fc.constant({ k: 'confirm' as const }),
  fc.constant({ k: 'back' as const }),
  fc.constant({ k: 'retry' as const }),
  fc.record({ k: fc.constant('answer' as const), how: fc.constantFrom('pending' as const, 'filled' as const, 'network' as const, 'rejected' as const) }),
  fc.record({ k: fc.constant('frame' as const), mine: fc.boolean(), status: fc.constantFrom('pending' as const, 'filled' as const, 'canceled' as const) }),
  fc.constant({ k: 'tick' as const }),
);


describe('orderMachine properties', () => {
  it('never double-submits, retries keep the clientOrderId, >10x always confirms', async () => {
    let totalPosts = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 5, maxLength: 40 }), async (cmds) => {
        const posts: PlaceOrderRequest[] = [];
        const open: Array<{ resolve: (a: OrderAck) => void; reject: (e: PlaceFailure) => void }> = [];
        let inFlightMax = 0;
        const logic = fromPromise<OrderAck, PlaceOrderRequest>(({ input }) => {
          posts.push(input);
          return new Promise<OrderAck>((resolve, reject) => {
            open.push({ resolve, reject });
            inFlightMax = Math.max(inFlightMax, open.length);
          });
        });
        let n = 0;
        const clock = new SimulatedClock();
        const actor = createActor(orderMachine.provide({ actors: { placeOrder: logic } }), {
          clock,
          input: { symbol: 'T', rules: RULES, newId: () => `id${++n}`, draft: { price: '100', qty: '0.5', leverage: 5 } },
        });
        const confirmedIds = new Set<string>();
        actor.subscribe((s) => {
          if (s.value === 'confirming' && s.context.clientOrderId) confirmedIds.add(s.context.clientOrderId);
        });
        actor.start();

        for (const c of cmds) {
          switch (c.k) {
            case 'edit':
              actor.send({ type: 'order.edit', patch: c.patch });
              break;
            case 'submit':
              actor.send({ type: 'order.submit', market: { available: String(c.available), lastPrice: 100 } });
              break;
            case 'confirm':
              actor.send({ type: 'order.confirm' });
              break;
            case 'back':
              actor.send({ type: 'order.back' });
              break;
            case 'retry':
              actor.send({ type: 'order.retry' });
              break;
            case 'answer': {
              const p = open.shift();
              if (p) {
                if (c.how === 'pending' || c.how === 'filled') p.resolve({ orderId: `o${posts.length}`, status: c.how });
                else p.reject({ kind: c.how, msg: c.how });
              }
              break;
            }
            case 'frame': {
              const id = actor.getSnapshot().context.clientOrderId;
              actor.send({ type: 'order.frame', clientOrderId: c.mine && id ? id : 'foreign', orderId: 'o', status: c.status });
              break;
            }
            case 'tick':
              clock.increment(RESULT_HOLD_MS);
              break;
          }
          await settle();
        }
        actor.stop();
        totalPosts += posts.length;

        expect(inFlightMax).toBeLessThanOrEqual(1);
        const byId = new Map<string, PlaceOrderRequest>();
        for (const p of posts) {
          const first = byId.get(p.clientOrderId);
          if (first) expect(p).toEqual(first);
          else byId.set(p.clientOrderId, p);
          const q = unitsAt(p.qty, 2);
          expect(q).not.toBeNull();
          expect(q as bigint).toBeGreaterThanOrEqual(1n);
          expect(q as bigint).toBeLessThanOrEqual(5000n);
          expect(p.leverage).toBeGreaterThanOrEqual(RULES.minLever);
          expect(p.leverage).toBeLessThanOrEqual(RULES.maxLever);
          if (p.type === 'limit') expect(unitsAt(p.price ?? '', 1) ?? 0n).toBeGreaterThan(0n);
          if (p.leverage > RISK_LEVERAGE) expect(confirmedIds.has(p.clientOrderId)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
    // The generators must actually reach the server, or the invariants above say nothing.
    expect(totalPosts).toBeGreaterThan(30);
  });
});

/**
 * The form's contract (issue 14) over any sequence of edits and submits with every order type and
 * option: a submit of a valid form sends exactly one request (after the > 10x confirmation), an
 * invalid one shows a reason (`context.error`) and sends nothing, and every price and quantity in
 * a request is a decimal string equal to what was typed, on the instrument's grid.
 */
const dec = (k: number, dp: number): string => (dp === 0 ? String(k) : `${Math.floor(k / 10 ** dp)}.${String(k % 10 ** dp).padStart(dp, '0')}`);
const qtyArb = fc.oneof(
  fc.integer({ min: 1, max: 6000 }).map((k) => dec(k, 2)),
  fc.integer({ min: 1, max: 60000 }).map((k) => dec(k, 3)),
  fc.constantFrom('', 'x', '0', '.5', '0.50', '1,000', '00.2', '1e3', '-1', ' 0.3 '),
);
const priceArb = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 900, max: 1100 }).map((k) => dec(k, 1)) },
  { weight: 1, arbitrary: fc.integer({ min: 9000, max: 11000 }).map((k) => dec(k, 2)) },
  { weight: 1, arbitrary: fc.constantFrom('', 'abc', '100', '100.0', '0') },
);
type FormCmd = { k: 'edit'; patch: Partial<OrderDraft> } | { k: 'submit'; market: OrderMarket } | { k: 'answer'; how: 'pending' | 'filled' | 'rejected' };
const formCmdArb: fc.Arbitrary<FormCmd> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('edit' as const),
      patch: fc.record(
        {
          side: fc.constantFrom('buy' as const, 'sell' as const),
          type: fc.constantFrom('limit' as const, 'market' as const, 'stopMarket' as const, 'stopLimit' as const),
          price: priceArb,
          qty: qtyArb,
          triggerPrice: priceArb,
          triggerBy: fc.constantFrom('last' as const, 'mark' as const),
          tp: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: priceArb }),
          sl: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: priceArb }),
          reduceOnly: fc.boolean(),
          postOnly: fc.boolean(),
          timeInForce: fc.constantFrom('GTC' as const, 'IOC' as const, 'FOK' as const),
          leverage: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 120 })),
        },
        { requiredKeys: [] },
      ),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('submit' as const),
      market: fc.record({
        available: fc.constantFrom<OrderMarket['available']>('1000000', '1000000', 1_000_000, '0', '10.5'),
        lastPrice: fc.constantFrom<OrderMarket['lastPrice']>(100, '100', 0),
        markPrice: fc.constantFrom<OrderMarket['markPrice']>(null, 99.5, '100.5'),
        position: fc.constantFrom<OrderMarket['position']>(null, { side: 'long', qty: '0.5' }, { side: 'short', qty: 0.3 }),
      }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('answer' as const), how: fc.constantFrom('pending' as const, 'filled' as const, 'rejected' as const) }) },
);

describe('order form properties (issue 14)', () => {
  it('valid → exactly one request per submit with the typed decimals; invalid → a reason and nothing sent', async () => {
    const seen = { sent: 0, refused: 0, kinds: new Set<string>() };
    await fc.assert(
      fc.asyncProperty(fc.array(formCmdArb, { minLength: 3, maxLength: 30 }), async (cmds) => {
        const posts: PlaceOrderRequest[] = [];
        const open: Array<{ resolve: (a: OrderAck) => void; reject: (e: PlaceFailure) => void }> = [];
        const logic = fromPromise<OrderAck, PlaceOrderRequest>(({ input }) => {
          posts.push(input);
          return new Promise<OrderAck>((resolve, reject) => open.push({ resolve, reject }));
        });
        let n = 0;
        const actor = createActor(orderMachine.provide({ actors: { placeOrder: logic } }), {
          clock: new SimulatedClock(),
          input: { symbol: 'T', rules: RULES, newId: () => `id${++n}`, draft: { price: '100', qty: '0.5', leverage: 5 } },
        });
        actor.start();
        for (const c of cmds) {
          if (c.k === 'edit') actor.send({ type: 'order.edit', patch: c.patch });
          else if (c.k === 'answer') {
            const p = open.shift();
            if (p) {
              if (c.how === 'rejected') p.reject({ kind: 'rejected', msg: 'no' });
              else p.resolve({ orderId: `o${posts.length}`, status: c.how });
            }
          } else {
            const before = actor.getSnapshot();
            const state = before.value as string;
            const draft = before.context.draft;
            const sentBefore = posts.length;
            actor.send({ type: 'order.submit', market: c.market });
            await settle();
            if (state === 'submitting' || state === 'confirming') {
              // busy: the click is ignored (the button is disabled / the dialog is open), nothing sent
              expect(posts.length).toBe(sentBefore);
              continue;
            }
            const after = actor.getSnapshot();
            const reason = validateOrder(draft, c.market, RULES);
            if (reason) {
              expect(after.value).toBe('editing');
              expect(after.context.error).toEqual(reason);
              expect(posts.length).toBe(sentBefore);
              seen.refused++;
              continue;
            }
            if (draft.leverage > RISK_LEVERAGE) {
              expect(after.value).toBe('confirming');
              expect(posts.length).toBe(sentBefore);
              actor.send({ type: 'order.confirm' });
              await settle();
            }
            expect(posts.length).toBe(sentBefore + 1);
            const req = posts[posts.length - 1] as PlaceOrderRequest;
            seen.sent++;
            seen.kinds.add(req.type);
            // the request is the draft, with every decimal exactly as typed and on the grid
            expect(req.type).toBe(draft.type);
            expect(req.side).toBe(draft.side);
            expect(req.leverage).toBe(draft.leverage);
            expect(typeof req.qty).toBe('string');
            expect(unitsAt(req.qty, 2)).toBe(unitsAt(draft.qty, 2));
            expect(req.qty).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
            const q = unitsAt(req.qty, 2) as bigint;
            expect(q >= 1n && q <= 5000n).toBe(true);
            const priced = draft.type === 'limit' || draft.type === 'stopLimit';
            expect(req.price === undefined).toBe(!priced);
            if (priced) expect(unitsAt(req.price as string, 1)).toBe(unitsAt(draft.price, 1));
            const stop = draft.type === 'stopMarket' || draft.type === 'stopLimit';
            expect(req.triggerPrice === undefined).toBe(!stop);
            if (stop) {
              expect(unitsAt(req.triggerPrice as string, 1)).toBe(unitsAt(draft.triggerPrice, 1));
              expect(req.triggerBy).toBe(draft.triggerBy);
            }
            for (const f of ['tp', 'sl'] as const) {
              if (draft.reduceOnly || draft[f].trim() === '') expect(req[f]).toBeUndefined();
              else expect(unitsAt(req[f] as string, 1)).toBe(unitsAt(draft[f], 1));
            }
            expect(req.reduceOnly === true).toBe(draft.reduceOnly);
            expect(req.postOnly === true).toBe(draft.postOnly);
            if (req.postOnly) expect(req.type === 'limit' && req.timeInForce === undefined).toBe(true);
            expect(req.timeInForce).toBe(priced && draft.timeInForce !== 'GTC' ? draft.timeInForce : undefined);
            for (const v of [req.qty, req.price, req.triggerPrice, req.tp, req.sl]) if (v !== undefined) expect(typeof v).toBe('string');
          }
          await settle();
        }
        actor.stop();
      }),
      { numRuns: 300 },
    );
    // The generators must reach both outcomes and every order type.
    expect(seen.sent).toBeGreaterThan(50);
    expect(seen.refused).toBeGreaterThan(50);
    expect([...seen.kinds].sort()).toEqual(['limit', 'market', 'stopLimit', 'stopMarket']);
  });
});

describe('order requests never pass through a binary float', () => {
  // An instrument with 8-decimal prices and quantities: 17+ significant digits, where a double
  // (Number / parseFloat / toFixed) would change the typed decimal.
  const FINE: OrderRules = { minOrderQuantity: 0.00000001, maxOrderQuantity: 1_000_000_000, qtyStep: 0.00000001, minLever: 1, maxLever: 10, openingFeeRatio: 0.0005, tickSize: 0.00000001, pricePrecision: 8, qtyPrecision: 8 };
  const units = (u: bigint) => `${u / 100_000_000n}.${(u % 100_000_000n).toString().padStart(8, '0')}`;
  it('sends the typed quantity and price digit for digit', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: 99_999_999_999_999_999n }),
        fc.bigInt({ min: 1n, max: 9_999_999_999_999n }),
        fc.constantFrom('limit' as const, 'stopLimit' as const),
        async (q, p, type) => {
          const posts: PlaceOrderRequest[] = [];
          const logic = fromPromise<OrderAck, PlaceOrderRequest>(async ({ input }) => {
            posts.push(input);
            return { orderId: 'o', status: 'pending' };
          });
          const actor = createActor(orderMachine.provide({ actors: { placeOrder: logic } }), {
            clock: new SimulatedClock(),
            input: { symbol: 'T', rules: FINE, newId: () => 'id', draft: { leverage: 1 } },
          });
          actor.start();
          const qty = units(q);
          const price = units(p);
          const trigger = units(p + 1n);
          actor.send({ type: 'order.edit', patch: { type, qty, price, triggerPrice: trigger, side: 'buy' } });
          actor.send({ type: 'order.submit', market: { available: '1000000000000000000000', lastPrice: '0.00000001' } });
          await settle();
          actor.stop();
          expect(actor.getSnapshot().context.error).toBeNull();
          expect(posts).toHaveLength(1);
          const canon = (s: string) => s.replace(/^0+(?=\d)/, '').replace(/\.?0+$/, '');
          expect(posts[0]?.qty).toBe(canon(qty));
          expect(posts[0]?.price).toBe(canon(price));
          if (type === 'stopLimit') expect(posts[0]?.triggerPrice).toBe(canon(trigger));
          checked++;
        },
      ),
      { numRuns: 200 },
    );
    expect(checked).toBe(200);
  });
});
