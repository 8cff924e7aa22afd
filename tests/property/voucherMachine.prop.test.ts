import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { MERGE_MAX, MERGE_MIN, VOUCHER_STATUSES } from '../../src/protocol/vouchers.ts';
import type { Voucher, VoucherKind, VoucherStatus } from '../../src/protocol/vouchers.ts';
import { mergeable, toggleSelection, voucherMachine } from '../../src/machines/voucherMachine.ts';
import type { MergeRequest } from '../../src/machines/voucherMachine.ts';
import { settle } from '../unit/settle.ts';

/**
 * Invariants of the coupon merge flow over random user, server and socket interleavings:
 * - the selection holds distinct usable vouchers of the merge kind, at most MERGE_MAX;
 * - a request leaves only from confirming/failed on a submit, one per submit, at most one in
 *   flight, carrying exactly the selected ids (MERGE_MIN..MERGE_MAX of them);
 * - a rejection keeps the server msg; success keeps the server's voucher and clears the selection.
 */

function voucher(id: number, kind: VoucherKind, status: VoucherStatus): Voucher {
  return {
    id, kind, status, value: kind === 'speed' ? '20' : '10.000000', expiresAt: null, source: 'seed', usedRef: null, mergedInto: null, createdAt: 0, usedAt: null,
  };
}

type Cmd =
  | { k: 'start'; kind: VoucherKind }
  | { k: 'toggle'; id: number; kind: VoucherKind; status: VoucherStatus }
  | { k: 'confirm' }
  | { k: 'back' }
  | { k: 'submit' }
  | { k: 'cancel' }
  | { k: 'close' }
  | { k: 'frame'; id: number; kind: VoucherKind; status: VoucherStatus }
  | { k: 'answer'; ok: boolean };

const kind = fc.constantFrom<VoucherKind>('lossProtection', 'speed');
const status = fc.constantFrom<VoucherStatus>('use', 'use', 'use', 'use', ...VOUCHER_STATUSES);
const id = fc.integer({ min: 1, max: 12 });
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  fc.record({ k: fc.constant('start' as const), kind }),
  { arbitrary: fc.record({ k: fc.constant('toggle' as const), id, kind, status }), weight: 6 },
  { arbitrary: fc.constant({ k: 'confirm' as const }), weight: 3 },
  fc.constant({ k: 'back' as const }),
  { arbitrary: fc.constant({ k: 'submit' as const }), weight: 3 },
  fc.constant({ k: 'cancel' as const }),
  fc.constant({ k: 'close' as const }),
  fc.record({ k: fc.constant('frame' as const), id, kind, status }),
  { arbitrary: fc.record({ k: fc.constant('answer' as const), ok: fc.boolean() }), weight: 2 },
);

/** A whole merge as a user does it (start, two usable vouchers of the kind, confirm, submit), so every run has merges to check. */
const happyArb: fc.Arbitrary<Cmd[]> = fc.tuple(kind, fc.uniqueArray(id, { minLength: 2, maxLength: 2 })).map(([k, ids]) => [
  { k: 'start', kind: k },
  ...ids.map((i): Cmd => ({ k: 'toggle', id: i, kind: k, status: 'use' })),
  { k: 'confirm' },
  { k: 'submit' },
]);
const cmdsArb: fc.Arbitrary<Cmd[]> = fc
  .array(fc.oneof({ arbitrary: cmdArb.map((c) => [c]), weight: 8 }, { arbitrary: happyArb, weight: 1 }), { minLength: 3, maxLength: 40 })
  .map((groups) => groups.flat());


describe('voucherMachine properties', () => {
  it('selection stays valid; one request per submit with exactly the selected ids', async () => {
    let total = 0;
    await fc.assert(
      fc.asyncProperty(cmdsArb, async (cmds) => {
        const sent: MergeRequest[] = [];
        const open: { resolve: (v: Voucher) => void; reject: (e: Error) => void }[] = [];
        const merge = fromPromise<Voucher, MergeRequest>(({ input }) => {
          sent.push(input);
          return new Promise((resolve, reject) => open.push({ resolve, reject }));
        });
        const actor = createActor(voucherMachine.provide({ actors: { merge } }));
        actor.start();
        for (const c of cmds) {
          const before = actor.getSnapshot();
          const sentBefore = sent.length;
          switch (c.k) {
            case 'start':
              actor.send({ type: 'merge.start', kind: c.kind });
              break;
            case 'toggle':
              actor.send({ type: 'merge.toggle', voucher: voucher(c.id, c.kind, c.status) });
              break;
            case 'frame':
              actor.send({ type: 'voucher.frame', voucher: voucher(c.id, c.kind, c.status) });
              break;
            case 'answer': {
              const p = open.shift();
              if (p) {
                const beforeAnswer = actor.getSnapshot();
                if (c.ok) p.resolve(voucher(100, beforeAnswer.context.kind ?? 'speed', 'use'));
                else p.reject(new Error('This voucher can no longer be used'));
                await settle();
                const s = actor.getSnapshot();
                if (c.ok) {
                  expect(s.value).toBe('done');
                  expect(s.context.result?.id).toBe(100);
                  expect(s.context.selected).toEqual([]);
                } else {
                  expect(s.context.error).toBe('This voucher can no longer be used');
                }
              }
              break;
            }
            default:
              actor.send({ type: `merge.${c.k}` });
          }
          await settle();
          const after = actor.getSnapshot();
          const sel = after.context.selected;
          expect(new Set(sel.map((v) => v.id)).size).toBe(sel.length);
          expect(sel.length).toBeLessThanOrEqual(MERGE_MAX);
          for (const v of sel) {
            expect(v.status).toBe('use');
            expect(v.kind).toBe(after.context.kind);
          }
          if (after.value === 'confirming') expect(mergeable(sel)).toBe(true);
          if (after.value === 'browsing') expect(sel).toEqual([]);
          if (sent.length > sentBefore) {
            expect(sent.length).toBe(sentBefore + 1);
            expect(c.k).toBe('submit');
            expect(['confirming', 'failed']).toContain(before.value);
            const req = sent.at(-1);
            expect(req?.ids).toEqual(before.context.selected.map((v) => v.id));
            expect(req?.ids.length).toBeGreaterThanOrEqual(MERGE_MIN);
          }
          expect(open.length).toBeLessThanOrEqual(1);
        }
        total += sent.length;
        actor.stop();
      }),
      { numRuns: 200 },
    );
    expect(total).toBeGreaterThan(0);
  });

  it('toggleSelection: toggling twice restores the selection; unusable or other-kind vouchers never enter', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(id, kind, status), { maxLength: 30 }), kind, (vs, k) => {
        let sel: Voucher[] = [];
        for (const [i, vk, st] of vs) {
          const v = voucher(i, vk, st);
          const next = toggleSelection(k, sel, v);
          if (next.length > sel.length) {
            expect(v.status === 'use' && v.kind === k).toBe(true);
            expect(toggleSelection(k, next, v)).toEqual(sel);
          }
          sel = next;
        }
        expect(sel.every((v) => v.status === 'use' && v.kind === k)).toBe(true);
      }),
    );
  });
});
