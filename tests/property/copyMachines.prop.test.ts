import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { applyErrors, applyMachine, followErrors, followMachine, followRequest, unfollowMachine } from '../../src/machines/copyMachines.ts';
import type { ApplyForm, FollowField, FollowRequest, UnfollowRequest } from '../../src/machines/copyMachines.ts';
import type { CopyApplication, CopyFollow } from '../../src/protocol/copy.ts';
import { settle } from '../unit/settle.ts';

/**
 * Invariants of the copy-trading lifecycles over random user and server interleavings:
 * - a request leaves only on a submit (confirm) from the form with no validation error, one per
 *   submit, never two in flight, carrying exactly the form shown when it was sent;
 * - a failure goes back to the form with every field kept and the server message;
 * - the trader application is approved only by the server (its answer or a `copy` frame).
 */


const follow = (id: number): CopyFollow => ({
  id, traderId: 7, traderNickname: 'Lead', status: 'active', endReason: null, mode: 'ratio', ratio: '1', fixedAmount: null, maxPerOrder: null, stopLoss: null, from: 'fund',
  invested: '100', cash: '100', margin: '0', unrealizedPnl: '0', realizedPnl: '0', fees: '0', openPositions: 0, createdAt: 0, endedAt: null,
});

const application = (status: CopyApplication['status']): CopyApplication => ({ id: 1, nickname: 'Lead', experience: 'x'.repeat(30), status, reason: null, createdAt: 0, reviewedAt: null });

const fields: FollowField[] = ['amount', 'from', 'mode', 'ratio', 'fixedAmount', 'maxPerOrder', 'stopLoss'];
const values = fc.constantFrom('', '0', '5', '10', '100', '1000', '0.5', '2', '11', 'abc', '-3', 'fund', 'perp', 'ratio', 'fixed', ' 20 ');

type FCmd = { k: 'open' } | { k: 'edit'; field: FollowField; value: string } | { k: 'submit' } | { k: 'close' } | { k: 'answer'; ok: boolean };
const fcmd: fc.Arbitrary<FCmd> = fc.oneof(
  fc.constant({ k: 'open' as const }),
  { weight: 6, arbitrary: fc.record({ k: fc.constant('edit' as const), field: fc.constantFrom(...fields), value: values }) },
  { weight: 3, arbitrary: fc.constant({ k: 'submit' as const }) },
  fc.constant({ k: 'close' as const }),
  { weight: 2, arbitrary: fc.record({ k: fc.constant('answer' as const), ok: fc.boolean() }) },
);
const happy: fc.Arbitrary<FCmd[]> = fc.constantFrom<FCmd[]>([{ k: 'open' }, { k: 'edit', field: 'amount', value: '100' }, { k: 'submit' }]);

describe('copy machines (property)', () => {
  it('followMachine: one request per valid submit, with the form shown; failures keep the form', async () => {
    let total = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof({ weight: 6, arbitrary: fcmd.map((c) => [c]) }, { weight: 1, arbitrary: happy }), { minLength: 2, maxLength: 30 }).map((g) => g.flat()), async (cmds) => {
        const sent: FollowRequest[] = [];
        const open: { resolve: (v: CopyFollow) => void; reject: (e: Error) => void }[] = [];
        const actor = createActor(followMachine.provide({ actors: { follow: fromPromise<CopyFollow, FollowRequest>(({ input }) => (sent.push(input), new Promise((resolve, reject) => open.push({ resolve, reject })))) } }));
        actor.start();
        for (const c of cmds) {
          const before = actor.getSnapshot();
          const n = sent.length;
          if (c.k === 'open') actor.send({ type: 'follow.open', trader: { id: 7, nickname: 'Lead' } });
          else if (c.k === 'edit') actor.send({ type: 'follow.edit', field: c.field, value: c.value });
          else if (c.k === 'submit') actor.send({ type: 'follow.submit' });
          else if (c.k === 'close') actor.send({ type: 'follow.close' });
          else {
            const p = open.shift();
            if (!p) continue;
            const form = actor.getSnapshot().context.form;
            if (c.ok) p.resolve(follow(1));
            else p.reject(new Error('Insufficient Balance'));
            await settle();
            const s = actor.getSnapshot();
            if (s.status === 'active' && before.value === 'submitting') {
              expect(s.value).toBe(c.ok ? 'done' : 'editing');
              if (!c.ok) {
                expect(s.context.error).toBe('Insufficient Balance');
                expect(s.context.form).toEqual(form);
              }
            }
          }
          await settle();
          const after = actor.getSnapshot();
          if (sent.length > n) {
            expect(sent.length).toBe(n + 1);
            expect(c.k).toBe('submit');
            expect(before.value).toBe('editing');
            expect(followErrors(7, before.context.form)).toEqual({});
            expect(sent.at(-1)).toEqual(followRequest(7, before.context.form));
          }
          if (c.k === 'submit' && before.value === 'editing' && Object.keys(followErrors(7, before.context.form)).length > 0) {
            expect(after.value).toBe('editing');
            expect(after.context.touched).toBe(true);
          }
          expect(open.length).toBeLessThanOrEqual(1);
        }
        total += sent.length;
        actor.stop();
      }),
      { numRuns: 150 },
    );
    expect(total).toBeGreaterThan(0);
  });

  it('unfollowMachine: the request carries the choice shown; a failure returns to the choice', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant('open'), fc.constant('close'), fc.constant('keep'), fc.constant('confirm'), fc.constant('cancel'), fc.constant('ok'), fc.constant('fail')), { minLength: 1, maxLength: 25 }),
        async (cmds) => {
          const sent: UnfollowRequest[] = [];
          const open: { resolve: (v: CopyFollow) => void; reject: (e: Error) => void }[] = [];
          const actor = createActor(unfollowMachine.provide({ actors: { unfollow: fromPromise<CopyFollow, UnfollowRequest>(({ input }) => (sent.push(input), new Promise((resolve, reject) => open.push({ resolve, reject })))) } }));
          actor.start();
          for (const c of cmds) {
            const before = actor.getSnapshot();
            const n = sent.length;
            if (c === 'open') actor.send({ type: 'unfollow.open', target: { followId: 3, nickname: 'Lead', openPositions: 1 } });
            else if (c === 'close' || c === 'keep') actor.send({ type: 'unfollow.choose', closePositions: c === 'close' });
            else if (c === 'confirm') actor.send({ type: 'unfollow.confirm' });
            else if (c === 'cancel') actor.send({ type: 'unfollow.close' });
            else {
              const p = open.shift();
              if (c === 'ok') p?.resolve(follow(3));
              else p?.reject(new Error('This copy has already ended'));
            }
            await settle();
            const after = actor.getSnapshot();
            if (sent.length > n) {
              expect(c).toBe('confirm');
              expect(before.value).toBe('choosing');
              expect(sent.at(-1)).toEqual({ followId: 3, closePositions: before.context.closePositions });
            }
            if (c === 'fail' && before.value === 'submitting') {
              expect(after.value).toBe('choosing');
              expect(after.context.error).toBe('This copy has already ended');
            }
            expect(open.length).toBeLessThanOrEqual(1);
          }
          actor.stop();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('applyMachine: valid submits only, approved only from the server', async () => {
    const texts = fc.constantFrom('', 'A', 'Gamma', 'x'.repeat(25), 'I trade BTC swings with strict stops.', 'y'.repeat(600));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<CopyApplication['status'] | null>(null, 'review', 'rejected', 'approved'),
        fc.array(
          fc.oneof(
            fc.record({ k: fc.constant('edit' as const), field: fc.constantFrom('nickname' as const, 'experience' as const), value: texts }),
            fc.constant({ k: 'submit' as const }),
            fc.record({ k: fc.constant('frame' as const), status: fc.constantFrom('review' as const, 'approved' as const, 'rejected' as const) }),
            fc.record({ k: fc.constant('answer' as const), ok: fc.boolean() }),
          ),
          { minLength: 1, maxLength: 25 },
        ),
        async (initial, cmds) => {
          const sent: ApplyForm[] = [];
          const open: { resolve: (v: CopyApplication) => void; reject: (e: Error) => void }[] = [];
          const actor = createActor(
            applyMachine.provide({
              actors: {
                fetchApplication: fromPromise<CopyApplication | null>(async () => (initial ? application(initial) : null)),
                apply: fromPromise<CopyApplication, ApplyForm>(({ input }) => (sent.push(input), new Promise((resolve, reject) => open.push({ resolve, reject })))),
              },
            }),
          );
          actor.start();
          await settle();
          let serverApproved = initial === 'approved';
          for (const c of cmds) {
            const before = actor.getSnapshot();
            const n = sent.length;
            if (c.k === 'edit') actor.send({ type: 'apply.edit', field: c.field, value: c.value });
            else if (c.k === 'submit') actor.send({ type: 'apply.submit' });
            else if (c.k === 'frame') {
              if (c.status === 'approved' && before.value === 'review') serverApproved = true;
              actor.send({ type: 'apply.frame', application: application(c.status) });
            } else {
              const p = open.shift();
              if (c.ok) p?.resolve(application('review'));
              else p?.reject(new Error('Your application is under review'));
            }
            await settle();
            const after = actor.getSnapshot();
            if (sent.length > n) {
              expect(c.k).toBe('submit');
              expect(['none', 'rejected']).toContain(before.value);
              expect(applyErrors(before.context.form)).toEqual({});
            }
            if (after.value === 'approved') expect(serverApproved).toBe(true);
            expect(open.length).toBeLessThanOrEqual(1);
          }
          actor.stop();
        },
      ),
      { numRuns: 150 },
    );
  });
});
