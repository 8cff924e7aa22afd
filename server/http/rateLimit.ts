import { ORDER_RATE_RULES } from '../../src/protocol/orderRateLimit.ts';

/**
 * A sliding-window counter driven by the caller's clock (no timers, no dependency), so tests
 * move time with the injected clock.
 *
 * Invariant: for every key and every instant t, the number of *recorded* events with
 * time in (t - windowMs, t] is at most `limit`. `hit` records only allowed events, so a caller
 * hammering a blocked key does not extend its own block.
 */
export class SlidingWindowLimiter implements Limiter {
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

/**
 * What the routes call on a limit (always with `await`): SlidingWindowLimiter answers at once
 * (one process), the broker's limiter (server/broker/limits.ts) asks the shared store so a limit
 * holds across gateway processes.
 */
export interface Limiter {
  readonly limit: number;
  readonly windowMs: number;
  allows(key: string, now: number): boolean | Promise<boolean>;
  record(key: string, now: number): void | Promise<void>;
  hit(key: string, now: number): boolean | Promise<boolean>;
  reset(key: string): void | Promise<void>;
}

/** The limits of docs/API.md, one limiter per rule. */
export interface RateLimits {
  /** login + authType: 10 per minute per IP. */
  loginPerIp: Limiter;
  /**
   * Failed password or code checks: 5 per 15 minutes per (account email, source IP) pair, keyed
   * `email + '\n' + ip` by the login routes. Per pair, not per account: otherwise anyone could lock
   * any account out for everyone (docs/SECURITY.md).
   */
  loginFailuresPerAccount: Limiter;
  /** sendMailCode: 5 per 10 minutes per IP. */
  mailPerIp: Limiter;
  /** Order commands: 300 per 10 s per account (src/protocol/orderRateLimit.ts). */
  ordersPer10s: Limiter;
  /** Order commands: 1 200 per minute per account. */
  ordersPerMinute: Limiter;
}

/** The rules of docs/API.md: budget per window (before RATE_LIMIT_SCALE). */
export const RATE_RULES = {
  loginPerIp: { limit: 10, windowMs: 60_000 },
  loginFailuresPerAccount: { limit: 5, windowMs: 15 * 60_000 },
  mailPerIp: { limit: 5, windowMs: 10 * 60_000 },
  ...ORDER_RATE_RULES,
} as const;

/** Builds every rule's limiter with `make` (default: in-process sliding windows). */
export function createRateLimits(scale = 1, make: (name: keyof RateLimits, limit: number, windowMs: number) => Limiter = (_n, limit, windowMs) => new SlidingWindowLimiter(limit, windowMs)): RateLimits {
  const n = (base: number) => Math.max(1, Math.round(base * scale));
  const of = (name: keyof RateLimits): Limiter => make(name, n(RATE_RULES[name].limit), RATE_RULES[name].windowMs);
  return {
    loginPerIp: of('loginPerIp'), loginFailuresPerAccount: of('loginFailuresPerAccount'), mailPerIp: of('mailPerIp'),
    ordersPer10s: of('ordersPer10s'), ordersPerMinute: of('ordersPerMinute'),
  };
}

/**
 * Counts one order command of `userId` against both order windows. Both are checked before either
 * records, so a refused command costs no budget. Returns the window that refused (its limit and
 * length, for the message), or null when the command may go on.
 */
export async function hitOrderLimits(limits: Pick<RateLimits, 'ordersPer10s' | 'ordersPerMinute'>, userId: number, now: number): Promise<Limiter | null> {
  const key = String(userId);
  for (const l of [limits.ordersPer10s, limits.ordersPerMinute]) if (!(await l.allows(key, now))) return l;
  await limits.ordersPer10s.record(key, now);
  await limits.ordersPerMinute.record(key, now);
  return null;
}
