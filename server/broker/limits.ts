import { createRateLimits } from '../http/rateLimit.ts';
import type { Limiter, RateLimits } from '../http/rateLimit.ts';
import type { Broker, BrokerStore } from './broker.ts';

/** A sliding-window limit kept in the broker's store: every process that shares the broker shares the count. */
export class BrokerLimiter implements Limiter {
  constructor(
    private readonly store: BrokerStore,
    /** Key namespace of this rule, e.g. `rl:loginPerIp`. */
    private readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  private key(key: string): string {
    return `${this.name}:${key}`;
  }

  async allows(key: string, now: number): Promise<boolean> {
    return (await this.store.count(this.key(key), now, this.windowMs)) < this.limit;
  }

  record(key: string, now: number): Promise<void> {
    return this.store.record(this.key(key), now, this.windowMs);
  }

  hit(key: string, now: number): Promise<boolean> {
    return this.store.hit(this.key(key), now, this.windowMs, this.limit);
  }

  reset(key: string): Promise<void> {
    return this.store.reset(this.key(key));
  }
}

/** The limits of docs/API.md on the broker's store (RATE_LIMIT_SCALE applies as in one process). */
export function brokerRateLimits(broker: Broker, scale = 1): RateLimits {
  return createRateLimits(scale, (name, limit, windowMs) => new BrokerLimiter(broker.store, `rl:${name}`, limit, windowMs));
}
