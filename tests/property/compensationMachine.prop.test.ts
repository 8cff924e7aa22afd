import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { canSubmit, COMPENSATION_RESULT_HOLD_MS, compensationMachine } from '../../src/machines/compensationMachine.ts';
import type { CompensationRequest } from '../../src/machines/compensationMachine.ts';
import { ACTION_STATUSES, COMPENSATION_ACTIONS, COMPENSATION_STATUSES } from '../../src/protocol/compensation.ts';
import type { CompensationAction, CompensationOrder, CompensationStatus } from '../../src/protocol/compensation.ts';
import { KYC_REQUIRED_MSG } from '../../src/protocol/user.ts';
import { settle } from '../unit/settle.ts';

/**
 * Invariants of the compensation action dialog over random user, server and socket interleavings:
 * - at most one request in flight, and one request per confirm (no double submit);
 * - every request is allowed for the order's latest known status, and a boost carries a voucher,
 *   a withdraw never does;
 * - the dialog's order is always the latest frame for its id;
 * - a KYC rejection sets kycRequired; any other rejection does not.
 */

function order(id: number, status: CompensationStatus): CompensationOrder {
  return {
    id, status, totalUserPnl: '-10.000000', totalUserCompensation: '5.000000', amount: '5.000000', paid: '0.000000', durationDays: 30, daysLeft: 30,
    dailyReturn: '0.166666', boosts: 0, createdAt: 0, activatedAt: null, nextPayoutAt: null, completedAt: null,
  };
}

type Cmd =
  | { k: 'open'; id: number; status: CompensationStatus; action: CompensationAction; voucher: number | null }
  | { k: 'voucher'; voucher: number | null }
  | { k: 'confirm' }
  | { k: 'cancel' }
  | { k: 'frame'; id: number; status: CompensationStatus }
  | { k: 'answer'; how: 'ok' | 'kyc' | 'other' }
  | { k: 'tick' };

const status = fc.constantFrom(...COMPENSATION_STATUSES);
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('open' as const), id: fc.integer({ min: 1, max: 3 }), status, action: fc.constantFrom(...COMPENSATION_ACTIONS), voucher: fc.option(fc.integer({ min: 1, max: 5 })) }),
  fc.record({ k: fc.constant('voucher' as const), voucher: fc.option(fc.integer({ min: 1, max: 5 })) }),
  fc.constant({ k: 'confirm' as const }),
  fc.constant({ k: 'confirm' as const }),
  fc.constant({ k: 'cancel' as const }),
  fc.record({ k: fc.constant('frame' as const), id: fc.integer({ min: 1, max: 3 }), status }),
  fc.record({ k: fc.constant('answer' as const), how: fc.constantFrom('ok' as const, 'kyc' as const, 'other' as const) }),
  fc.constant({ k: 'tick' as const }),
);


describe('compensationMachine properties', () => {
  it('one request per confirm, only for an allowed action, with the latest order state', async () => {
    let total = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 3, maxLength: 40 }), async (cmds) => {
        const sent: CompensationRequest[] = [];
        const open: { resolve: (o: CompensationOrder) => void; reject: (e: Error) => void; req: CompensationRequest }[] = [];
        let maxInFlight = 0;
        const latest = new Map<number, CompensationOrder>();
        const submit = fromPromise<CompensationOrder, CompensationRequest>(({ input }) => {
          sent.push(input);
          return new Promise((resolve, reject) => {
            open.push({ resolve, reject, req: input });
            maxInFlight = Math.max(maxInFlight, open.length);
          });
        });
        const clock = new SimulatedClock();
        const actor = createActor(compensationMachine.provide({ actors: { submit } }), { clock });
        actor.start();
        for (const c of cmds) {
          const before = actor.getSnapshot();
          const sentBefore = sent.length;
          switch (c.k) {
            case 'open': {
              const o = latest.get(c.id) ?? order(c.id, c.status);
              actor.send({ type: 'comp.open', order: o, action: c.action, voucherId: c.voucher });
              break;
            }
            case 'voucher':
              actor.send({ type: 'comp.voucher', voucherId: c.voucher });
              break;
            case 'confirm':
              actor.send({ type: 'comp.confirm' });
              break;
            case 'cancel':
              actor.send({ type: 'comp.cancel' });
              break;
            case 'frame': {
              const o = order(c.id, c.status);
              latest.set(c.id, o);
              actor.send({ type: 'comp.frame', order: o });
              break;
            }
            case 'answer': {
              const p = open.shift();
              if (p) {
                if (c.how === 'ok') p.resolve({ ...order(p.req.id, 'active') });
                else p.reject(new Error(c.how === 'kyc' ? KYC_REQUIRED_MSG : 'nope'));
                await settle();
                const s = actor.getSnapshot();
                if (s.value === 'failed') expect(s.context.kycRequired).toBe(c.how === 'kyc');
              }
              break;
            }
            case 'tick':
              clock.increment(COMPENSATION_RESULT_HOLD_MS);
              break;
          }
          await settle();
          const after = actor.getSnapshot();
          // a request is sent only by a confirm from confirming/failed with a valid choice
          if (sent.length > sentBefore) {
            expect(sent.length).toBe(sentBefore + 1);
            expect(c.k).toBe('confirm');
            expect(['confirming', 'failed']).toContain(before.value);
            expect(canSubmit(before.context.order, before.context.action, before.context.voucherId)).toBe(true);
            const req = sent.at(-1);
            const o = before.context.order;
            if (!req || !o) throw new Error('unreachable');
            expect(req.id).toBe(o.id);
            expect(ACTION_STATUSES[req.action]).toContain(o.status);
            if (req.action === 'boost') expect(req.voucherId).toBeDefined();
            if (req.action === 'withdraw') expect(req.voucherId).toBeUndefined();
          }
          expect(open.length).toBeLessThanOrEqual(1);
          const mine = after.context.order;
          if (mine && latest.has(mine.id) && after.value !== 'done') expect(mine).toEqual(latest.get(mine.id));
        }
        total += sent.length;
        expect(maxInFlight).toBeLessThanOrEqual(1);
        actor.stop();
      }),
      { numRuns: 150 },
    );
    expect(total).toBeGreaterThan(0);
  });
});
