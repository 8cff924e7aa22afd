import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBroker } from '../../server/broker/broker.ts';
import type { Broker } from '../../server/broker/broker.ts';
import { createBrokerRevocationHub, createBrokerUserBus } from '../../server/broker/channels.ts';
import { BrokerLimiter } from '../../server/broker/limits.ts';
import { createRedisBroker } from '../../server/broker/redis.ts';
import { startRedis } from '../../server/cli/cluster.ts';
import { SlidingWindowLimiter } from '../../server/http/rateLimit.ts';
import type { Revocation } from '../../server/ws/revocations.ts';
import type { UserFrame } from '../../server/ws/userBus.ts';

/** The broker port's contract, on both implementations (Redis: a real redis-server in a temp dir). */

let dir: string;
let redis: { url: string; stop(): Promise<void> };
let prefixSeq = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rf-broker-'));
  redis = await startRedis(dir);
}, 30_000);

afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Errors handlers threw (reported, never thrown at the publisher). */
const reported: unknown[] = [];
const onError = (err: unknown): void => void reported.push(err);

const impls: [string, () => Promise<Broker[]>][] = [
  ['memory', () => {
    const b = createMemoryBroker({ onError });
    return Promise.resolve([b, b]);
  }],
  ['redis', async () => {
    // Two connections pairs, as two processes would have; a fresh key prefix per test.
    const prefix = `t${process.pid}-${++prefixSeq}:`;
    return [await createRedisBroker(redis.url, { prefix, onError }), await createRedisBroker(redis.url, { prefix, onError })];
  }],
];

const until = async (pred: () => boolean, ms = 3000): Promise<void> => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe.each(impls)('%s broker', (_name, make) => {
  it('delivers every message of a channel in publish order, only to its subscribers, and stops after unsubscribe', async () => {
    const [a, b] = await make();
    const got: string[] = [];
    const other: string[] = [];
    const off = b!.subscribe('c1', (m) => got.push(m));
    b!.subscribe('c2', (m) => other.push(m));
    b!.subscribe('c1', () => {
      throw new Error('a bad handler is isolated');
    });
    await b!.ready();
    reported.length = 0;
    for (let i = 0; i < 200; i++) a!.publish('c1', String(i));
    await until(() => got.length === 200);
    expect(reported).toHaveLength(200);
    expect(got).toEqual(Array.from({ length: 200 }, (_, i) => String(i)));
    expect(other).toEqual([]);
    off();
    await b!.ready();
    a!.publish('c1', 'late');
    a!.publish('c2', 'x');
    await until(() => other.length === 1);
    expect(got).toHaveLength(200);
    await a!.close();
    if (b !== a) await b!.close();
  });

  it('the sliding-window store answers like SlidingWindowLimiter for any sequence (shared by two clients)', async () => {
    const [a, b] = await make();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ op: fc.constantFrom('hit', 'record', 'allows', 'reset'), key: fc.constantFrom('k1', 'k2'), dt: fc.integer({ min: 0, max: 400 }), via: fc.boolean() }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        async (ops, limit) => {
          const name = `p${++prefixSeq}`;
          const ref = new SlidingWindowLimiter(limit, 1000);
          const la = new BrokerLimiter(a!.store, name, limit, 1000);
          const lb = new BrokerLimiter(b!.store, name, limit, 1000);
          let now = 1_000_000;
          for (const o of ops) {
            now += o.dt;
            const l = o.via ? la : lb;
            if (o.op === 'hit') expect(await l.hit(o.key, now)).toBe(ref.hit(o.key, now));
            else if (o.op === 'allows') expect(await l.allows(o.key, now)).toBe(ref.allows(o.key, now));
            else if (o.op === 'record') {
              await l.record(o.key, now);
              ref.record(o.key, now);
            } else {
              await l.reset(o.key);
              ref.reset(o.key);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
    await a!.close();
    if (b !== a) await b!.close();
  }, 60_000);

  it('a lock has one holder; the holder renews; another takes it only after the lease expires or a release', async () => {
    const [a, b] = await make();
    expect(await a!.acquire('L', 'one', 300)).toBe(true);
    expect(await b!.acquire('L', 'two', 300)).toBe(false);
    expect(await b!.holder('L')).toBe('one');
    expect(await a!.acquire('L', 'one', 300)).toBe(true); // renewal
    await b!.release('L', 'two'); // not the holder: nothing happens
    expect(await b!.holder('L')).toBe('one');
    await new Promise((r) => setTimeout(r, 400));
    expect(await b!.acquire('L', 'two', 300)).toBe(true);
    await b!.release('L', 'two');
    expect(await a!.acquire('L', 'one', 300)).toBe(true);
    await a!.close();
    if (b !== a) await b!.close();
  });

  it('user frames and revocations cross the broker', async () => {
    const [a, b] = await make();
    const sender = createBrokerUserBus(a!, { publishAlways: true });
    const receiver = createBrokerUserBus(b!);
    const got: UserFrame[] = [];
    const off = receiver.subscribe(7, (f) => got.push(f));
    expect(receiver.listenerCount(7)).toBe(1);
    expect(sender.listenerCount(7)).toBe(1);
    const hubA = createBrokerRevocationHub(a!);
    const hubB = createBrokerRevocationHub(b!);
    const revs: Revocation[] = [];
    hubB.subscribe((r) => revs.push(r));
    await b!.ready();
    sender.publish(8, { type: 'order', data: 'not yours' });
    sender.publish(7, { type: 'order', data: { id: 'O1' } });
    hubA.publish({ kind: 'session', sessionId: 3 });
    await until(() => got.length === 1 && revs.length === 1);
    expect(got).toEqual([{ type: 'order', data: { id: 'O1' } }]);
    expect(revs).toEqual([{ kind: 'session', sessionId: 3 }]);
    off();
    expect(receiver.listenerCount(7)).toBe(0);
    await a!.close();
    if (b !== a) await b!.close();
  });

  it('a user channel fans out to every local listener, past one that throws, and is left when the last one goes', async () => {
    const [a, b] = await make();
    const errors: unknown[] = [];
    const sender = createBrokerUserBus(a!, { publishAlways: true });
    const receiver = createBrokerUserBus(b!, { onError: (e) => errors.push(e) });
    const first: unknown[] = [];
    const second: unknown[] = [];
    const offThrowing = receiver.subscribe(7, () => {
      throw new Error('listener bug');
    });
    const offFirst = receiver.subscribe(7, (f) => first.push(f.data));
    const offSecond = receiver.subscribe(7, (f) => second.push(f.data));
    expect(receiver.listenerCount(7)).toBe(3);
    await b!.ready();
    sender.publish(7, { type: 'order', data: 1 });
    await until(() => first.length === 1 && second.length === 1);
    expect(errors).toHaveLength(1);
    offThrowing();
    offFirst();
    offFirst(); // a second call changes nothing
    expect(receiver.listenerCount(7)).toBe(1);
    sender.publish(7, { type: 'order', data: 2 });
    await until(() => second.length === 2);
    expect(first).toEqual([1]);
    offSecond();
    expect(receiver.listenerCount(7)).toBe(0);
    // Left (the count is 0); a new listener subscribes the channel again and gets the next frame.
    const again: unknown[] = [];
    const offAgain = receiver.subscribe(7, (f) => again.push(f.data));
    await b!.ready();
    sender.publish(7, { type: 'order', data: 4 });
    await until(() => again.includes(4));
    expect(second).toEqual([1, 2]);
    expect(again).toEqual([4]);
    offAgain();
    await a!.close();
    if (b !== a) await b!.close();
  });
});
