import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import {
  orderMachine,
  RESULT_HOLD_MS,
  RISK_LEVERAGE,
  type OrderAck,
  type OrderRules,
  type PlaceFailure,
  type PlaceOrderRequest,
} from '../../src/machines/orderMachine.ts';

/**
 * Invariants of the order ticket over random user, server and socket interleavings:
 * - at most one POST is in flight at any time (no double submit);
 * - every POST of one clientOrderId carries the identical request (a retry keeps the id and body),
 *   and different tickets never share an id;
 * - a ticket with leverage above 10x was in `confirming` before its first POST;
 * - every POST satisfies the instrument's rules (validation ran first).
 */

const RULES: OrderRules = { minOrderQuantity: 0.01, maxOrderQuantity: 50, qtyStep: 0.01, minLever: 1, maxLever: 100, openingFeeRatio: 0.0004 };

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

const settle = () => new Promise((r) => setTimeout(r, 0));

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
              actor.send({ type: 'order.submit', market: { available: c.available, lastPrice: 100 } });
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
          expect(p.qty).toBeGreaterThanOrEqual(RULES.minOrderQuantity);
          expect(p.qty).toBeLessThanOrEqual(RULES.maxOrderQuantity);
          expect(p.leverage).toBeGreaterThanOrEqual(RULES.minLever);
          expect(p.leverage).toBeLessThanOrEqual(RULES.maxLever);
          if (p.type === 'limit') expect(p.price).toBeGreaterThan(0);
          if (p.leverage > RISK_LEVERAGE) expect(confirmedIds.has(p.clientOrderId)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
    // The generators must actually reach the server, or the invariants above say nothing.
    expect(totalPosts).toBeGreaterThan(30);
  });
});
