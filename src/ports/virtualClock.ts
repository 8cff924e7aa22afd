import type { Clock, TimerId } from './types.ts';

/**
 * A virtual clock for tests and replay that fires timers the way real time would.
 *
 * Why not only XState's SimulatedClock: its `increment(ms)` moves `now` to the end first and then
 * flushes, so a timer re-armed inside a callback starts from the END of the jump. A 70 s jump over
 * a 35 s ping therefore sends one ping instead of two. `advance(ms)` here walks through the due
 * timers in (due time, creation order), setting `now` to each due time before firing it, so
 * recurring timers keep their cadence however large the step. Same interface as SimulatedClock
 * (`now`, `setTimeout`, `clearTimeout`, `increment`, `set`), so it can be passed to
 * `createActor(..., { clock })` and used by the ports at the same time.
 */
export class VirtualClock implements Clock {
  private t: number;
  private nextId = 1;
  private readonly timers = new Map<number, { due: number; fn: (...args: unknown[]) => void }>();

  constructor(start = 0) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: (...args: unknown[]) => void, ms: number): TimerId {
    const id = this.nextId++;
    this.timers.set(id, { due: this.t + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(id: TimerId): void {
    if (typeof id === 'number') this.timers.delete(id);
  }

  /** Number of armed timers (a stuck machine has none where it should have one). */
  pending(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, in order. */
  advance(ms: number): void {
    if (ms < 0) throw new Error('VirtualClock: cannot go back in time');
    const target = this.t + ms;
    for (;;) {
      let nextId = -1;
      let nextDue = Infinity;
      for (const [id, tm] of this.timers) {
        if (tm.due < nextDue || (tm.due === nextDue && id < nextId)) {
          nextId = id;
          nextDue = tm.due;
        }
      }
      if (nextId < 0 || nextDue > target) break;
      const tm = this.timers.get(nextId);
      this.timers.delete(nextId);
      this.t = Math.max(this.t, nextDue);
      tm?.fn();
    }
    this.t = target;
  }

  /** SimulatedClock-compatible alias of {@link advance}. */
  increment(ms: number): void {
    this.advance(ms);
  }

  /** SimulatedClock-compatible: advance to an absolute time. */
  set(time: number): void {
    this.advance(time - this.t);
  }
}
