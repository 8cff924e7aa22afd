import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';

function ticker(clock: { now(): number; setTimeout(fn: () => void, ms: number): unknown }) {
  const fired: number[] = [];
  const arm = () => clock.setTimeout(() => (fired.push(clock.now()), arm()), 35_000);
  arm();
  return fired;
}

describe('VirtualClock', () => {
  it('keeps a recurring timer on cadence across one large step (SimulatedClock does not)', () => {
    const v = new VirtualClock(1_000);
    const firedV = ticker(v);
    v.advance(105_000);
    expect(firedV).toEqual([36_000, 71_000, 106_000]);

    const s = new SimulatedClock();
    const firedS = ticker(s);
    s.increment(105_000);
    expect(firedS.length).toBeLessThan(3); // documents why VirtualClock exists
  });

  it('fires in due order, then creation order; cleared timers never fire', () => {
    const v = new VirtualClock();
    const out: string[] = [];
    v.setTimeout(() => out.push('b'), 20);
    v.setTimeout(() => out.push('a'), 10);
    v.setTimeout(() => out.push('c'), 20);
    const id = v.setTimeout(() => out.push('x'), 5);
    v.clearTimeout(id);
    v.set(20);
    expect(out).toEqual(['a', 'b', 'c']);
    expect(v.pending()).toBe(0);
    expect(() => v.advance(-1)).toThrow();
  });
});
