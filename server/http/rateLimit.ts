/**
 * A sliding-window counter driven by the caller's clock (no timers, no dependency), so tests
 * move time with the injected clock.
 *
 * Invariant: for every key and every instant t, the number of *recorded* events with
 * time in (t - windowMs, t] is at most `limit`. `hit` records only allowed events, so a caller
 * hammering a blocked key does not extend its own block.
 */
export class SlidingWindowLimiter {
  private readonly events = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    /** Above this many keys, a call sweeps out keys with no live events (bounds memory). */
    private readonly sweepAbove = 10_000,
  ) {}

  private live(key: string, now: number): number[] {
    const list = this.events.get(key);
    if (!list) return [];
    const from = now - this.windowMs;
    let i = 0;
    while (i < list.length && (list[i] ?? 0) <= from) i++;
    if (i > 0) list.splice(0, i);
    if (list.length === 0) this.events.delete(key);
    return list;
  }

  /** Events counted for `key` at `now`. */
  count(key: string, now: number): number {
    return this.live(key, now).length;
  }

  /** Whether one more event would be allowed at `now` (does not record). */
  allows(key: string, now: number): boolean {
    return this.count(key, now) < this.limit;
  }

  /** Records an event unconditionally (e.g. a failed login counted against an account). */
  record(key: string, now: number): void {
    if (this.events.size > this.sweepAbove) this.sweep(now);
    const list = this.live(key, now);
    if (list.length === 0) this.events.set(key, list);
    list.push(now);
  }

  /** Allows and records the event if under the limit; returns false (recording nothing) otherwise. */
  hit(key: string, now: number): boolean {
    if (!this.allows(key, now)) return false;
    this.record(key, now);
    return true;
  }

  reset(key: string): void {
    this.events.delete(key);
  }

  /** Number of keys held; for tests of the memory bound. */
  get size(): number {
    return this.events.size;
  }

  private sweep(now: number): void {
    for (const key of [...this.events.keys()]) this.live(key, now);
  }
}

/** The limits of docs/API.md, one limiter per rule. */
export interface RateLimits {
  /** login + authType: 10 per minute per IP. */
  loginPerIp: SlidingWindowLimiter;
  /**
   * Failed password or code checks: 5 per 15 minutes per (account email, source IP) pair, keyed
   * `email + '\n' + ip` by the login routes. Per pair, not per account: otherwise anyone could lock
   * any account out for everyone (docs/SECURITY.md).
   */
  loginFailuresPerAccount: SlidingWindowLimiter;
  /** sendMailCode: 5 per 10 minutes per IP. */
  mailPerIp: SlidingWindowLimiter;
}

export function createRateLimits(scale = 1): RateLimits {
  const n = (base: number) => Math.max(1, Math.round(base * scale));
  return {
    loginPerIp: new SlidingWindowLimiter(n(10), 60_000),
    loginFailuresPerAccount: new SlidingWindowLimiter(n(5), 15 * 60_000),
    mailPerIp: new SlidingWindowLimiter(n(5), 10 * 60_000),
  };
}
