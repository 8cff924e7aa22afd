/**
 * The broker port: what the processes of one deployment share besides the database
 * (docs/SCALING.md). Three things:
 * - publish/subscribe of channels (market frames, user frames per user id, session revocations,
 *   the engine's request/reply);
 * - a small key-value store with expiry (sliding-window counters for rate limits);
 * - a lock with a lease (the single trading engine).
 *
 * Two implementations: {@link createMemoryBroker} (one process, no dependency: the default) and
 * the Redis one in ./redis.ts (BROKER_URL=redis://...). Delivery on one channel keeps publish
 * order; a throwing handler is isolated.
 */
export interface Broker {
  readonly kind: 'memory' | 'redis';
  /** Fire and forget; messages of one publisher on one channel arrive in order. */
  publish(channel: string, message: string): void;
  /** Returns the unsubscribe function. Messages published after `ready()` resolves are delivered. */
  subscribe(channel: string, handler: (message: string) => void): () => void;
  /** Resolves once every subscription made so far is live (Redis confirms SUBSCRIBE asynchronously). */
  ready(): Promise<void>;
  store: BrokerStore;
  /**
   * Takes the lock `name` for `owner` for `ttlMs`, or renews it when `owner` already holds it.
   * False when another owner holds an unexpired lease.
   */
  acquire(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock if `owner` holds it. */
  release(name: string, owner: string): Promise<void>;
  /** The current holder of a lock, if any. */
  holder(name: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/**
 * Sliding-window counters, with the semantics of SlidingWindowLimiter (server/http/rateLimit.ts):
 * events with time in (now - windowMs, now] are live; `hit` records only when under the limit.
 */
export interface BrokerStore {
  /** Live events of `key` at `now`. */
  count(key: string, now: number, windowMs: number): Promise<number>;
  /** Records an event unconditionally. */
  record(key: string, now: number, windowMs: number): Promise<void>;
  /** Atomically: records and returns true when fewer than `limit` events are live, else false (nothing recorded). */
  hit(key: string, now: number, windowMs: number, limit: number): Promise<boolean>;
  /** Forgets `key`. */
  reset(key: string): Promise<void>;
}

type Handler = (message: string) => void;

/** Calls every handler; one that throws is reported and the rest still run. */
export function deliver(handlers: Iterable<Handler>, message: string, onError: (err: unknown) => void): void {
  for (const h of [...handlers]) {
    try {
      h(message);
    } catch (err) {
      onError(err);
    }
  }
}

/** Channel-keyed handler sets (both implementations keep their local subscribers here). */
export class Channels {
  private readonly map = new Map<string, Set<Handler>>();

  /** Adds a handler; returns whether it is the channel's first. */
  add(channel: string, h: Handler): boolean {
    let set = this.map.get(channel);
    const first = set === undefined;
    if (set === undefined) {
      set = new Set();
      this.map.set(channel, set);
    }
    set.add(h);
    return first;
  }

  /** Removes a handler; returns whether the channel has none left. */
  remove(channel: string, h: Handler): boolean {
    const set = this.map.get(channel);
    if (set === undefined) return false;
    set.delete(h);
    if (set.size > 0) return false;
    this.map.delete(channel);
    return true;
  }

  of(channel: string): Set<Handler> | undefined {
    return this.map.get(channel);
  }

  names(): string[] {
    return [...this.map.keys()];
  }
}

/** In-memory sliding windows (the memory broker's store). */
export class MemoryStore implements BrokerStore {
  private readonly events = new Map<string, number[]>();

  private live(key: string, now: number, windowMs: number): number[] {
    const list = this.events.get(key);
    if (!list) return [];
    const from = now - windowMs;
    let i = 0;
    while (i < list.length && (list[i] ?? 0) <= from) i++;
    if (i > 0) list.splice(0, i);
    if (list.length === 0) this.events.delete(key);
    return list;
  }

  private add(key: string, now: number, windowMs: number): void {
    const list = this.live(key, now, windowMs);
    if (list.length === 0) this.events.set(key, list);
    list.push(now);
  }

  count(key: string, now: number, windowMs: number): Promise<number> {
    return Promise.resolve(this.live(key, now, windowMs).length);
  }

  record(key: string, now: number, windowMs: number): Promise<void> {
    this.add(key, now, windowMs);
    return Promise.resolve();
  }

  hit(key: string, now: number, windowMs: number, limit: number): Promise<boolean> {
    if (this.live(key, now, windowMs).length >= limit) return Promise.resolve(false);
    this.add(key, now, windowMs);
    return Promise.resolve(true);
  }

  reset(key: string): Promise<void> {
    this.events.delete(key);
    return Promise.resolve();
  }
}

/**
 * One process's broker: synchronous delivery in publish order, locks and counters in memory.
 * `now` is the lease clock (tests may inject one).
 */
export function createMemoryBroker(opts: { onError?: (err: unknown) => void; now?: () => number } = {}): Broker {
  const onError = opts.onError ?? ((err: unknown) => console.error('broker handler failed', err));
  const now = opts.now ?? Date.now;
  const channels = new Channels();
  const locks = new Map<string, { owner: string; until: number }>();
  const held = (name: string): { owner: string; until: number } | undefined => {
    const l = locks.get(name);
    if (l && l.until <= now()) {
      locks.delete(name);
      return undefined;
    }
    return l;
  };
  return {
    kind: 'memory',
    publish(channel, message) {
      const set = channels.of(channel);
      if (set) deliver(set, message, onError);
    },
    subscribe(channel, handler) {
      channels.add(channel, handler);
      return () => void channels.remove(channel, handler);
    },
    ready: () => Promise.resolve(),
    store: new MemoryStore(),
    acquire(name, owner, ttlMs) {
      const l = held(name);
      if (l && l.owner !== owner) return Promise.resolve(false);
      locks.set(name, { owner, until: now() + ttlMs });
      return Promise.resolve(true);
    },
    release(name, owner) {
      if (held(name)?.owner === owner) locks.delete(name);
      return Promise.resolve();
    },
    holder: (name) => Promise.resolve(held(name)?.owner),
    close: () => Promise.resolve(),
  };
}
