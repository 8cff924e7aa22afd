import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHeldOutputs } from '../../../src/core/heldOutputs.ts';

/**
 * The core's outputs before and between subscribers (src/core/heldOutputs.ts): every output reaches
 * exactly one performer, in order, whatever the interleaving of outputs, subscribes and unsubscribes
 * (the shell mounts late, StrictMode mounts twice), as long as at most `limit` wait at once.
 */
type Step = { kind: 'out' } | { kind: 'subscribe' } | { kind: 'unsubscribe' };

describe('held outputs', () => {
  it('an output reaches every present subscriber, or else the next one, in order; none is lost', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant<Step>({ kind: 'out' }), fc.constant<Step>({ kind: 'subscribe' }), fc.constant<Step>({ kind: 'unsubscribe' })), { maxLength: 60 }),
        (steps) => {
          const outputs = createHeldOutputs<number>(1000);
          // The model: an output goes to every present subscriber, or waits for the next one.
          const live: { id: number; sub: { unsubscribe(): void } }[] = [];
          const seen = new Map<number, number[]>();
          const expected = new Map<number, number[]>();
          let waiting: number[] = [];
          let n = 0;
          let ids = 0;
          const subscribe = (): void => {
            const id = ids++;
            const mine: number[] = [];
            seen.set(id, mine);
            expected.set(id, waiting);
            waiting = [];
            live.push({ id, sub: outputs.observable.subscribe((v) => mine.push(v)) });
          };
          for (const step of steps) {
            if (step.kind === 'out') {
              const v = n++;
              outputs.next(v);
              if (live.length === 0) waiting.push(v);
              else for (const l of live) expected.get(l.id)?.push(v);
            } else if (step.kind === 'subscribe') subscribe();
            else live.shift()?.sub.unsubscribe();
          }
          subscribe();
          expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(expected));
          // Nothing lost: every output reached someone.
          expect(new Set([...seen.values()].flat()).size).toBe(n);
        },
      ),
    );
  });

  it('keeps the latest `limit` while nobody listens', () => {
    const outputs = createHeldOutputs<number>(3);
    for (let i = 0; i < 5; i++) outputs.next(i);
    const got: number[] = [];
    outputs.observable.subscribe((v) => got.push(v));
    expect(got).toEqual([2, 3, 4]);
  });

  it('an output caused while the held ones are delivered comes after them', () => {
    const outputs = createHeldOutputs<string>();
    outputs.next('a');
    outputs.next('b');
    const got: string[] = [];
    outputs.observable.subscribe((v) => {
      got.push(v);
      if (v === 'a') outputs.next('a2');
    });
    expect(got).toEqual(['a', 'b', 'a2']);
  });
});
