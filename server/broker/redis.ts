import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { Channels, deliver } from './broker.ts';
import type { Broker, BrokerStore } from './broker.ts';

// Sliding window in a sorted set: score = event time; members are unique per event.
const HIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
const RECORD = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
const COUNT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
return redis.call('ZCARD', KEYS[1])`;
// Acquire or renew: free, or already ours.
const ACQUIRE = `
local cur = redis.call('GET', KEYS[1])
if cur == false or cur == ARGV[1] then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

let eventSeq = 0;
const eventId = (now: number): string => `${now}:${process.pid}:${++eventSeq}:${randomBytes(3).toString('hex')}`;

/**
 * The broker on Redis (BROKER_URL=redis://host:port/db): one connection for commands and the
 * store, one for subscriptions (a subscribed Redis connection can run nothing else). Keys are
 * prefixed with `prefix` (default `rf:`) so deployments can share a server. ioredis reconnects
 * and re-subscribes by itself; a message published while a process is disconnected is lost to it
 * (pub/sub has no history): sockets resync from snapshots, as after any reconnect.
 */
export async function createRedisBroker(url: string, opts: { prefix?: string; onError?: (err: unknown) => void } = {}): Promise<Broker> {
  const prefix = opts.prefix ?? 'rf:';
  const onError = opts.onError ?? ((err: unknown) => console.error('broker handler failed', err));
  const cmd = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: true });
  const sub = new Redis(url, { lazyConnect: true });
  cmd.on('error', (err: unknown) => onError(err));
  sub.on('error', (err: unknown) => onError(err));
  await cmd.connect();
  await sub.connect();
  const channels = new Channels();
  let pending: Promise<unknown> = Promise.resolve();
  sub.on('message', (channel: string, message: string) => {
    const set = channels.of(channel.slice(prefix.length));
    if (set) deliver(set, message, onError);
  });
  const k = (key: string): string => prefix + key;
  const store: BrokerStore = {
    async count(key, now, windowMs) {
      return Number(await cmd.eval(COUNT, 1, k(`w:${key}`), now, windowMs));
    },
    async record(key, now, windowMs) {
      await cmd.eval(RECORD, 1, k(`w:${key}`), now, windowMs, eventId(now));
    },
    async hit(key, now, windowMs, limit) {
      return Number(await cmd.eval(HIT, 1, k(`w:${key}`), now, windowMs, limit, eventId(now))) === 1;
    },
    async reset(key) {
      await cmd.del(k(`w:${key}`));
    },
  };
  return {
    kind: 'redis',
    publish(channel, message) {
      cmd.publish(k(channel), message).catch(onError);
    },
    subscribe(channel, handler) {
      if (channels.add(channel, handler)) pending = Promise.all([pending, sub.subscribe(k(channel)).catch(onError)]);
      return () => {
        if (channels.remove(channel, handler)) pending = Promise.all([pending, sub.unsubscribe(k(channel)).catch(onError)]);
      };
    },
    async ready() {
      let last: Promise<unknown> | undefined;
      while (last !== pending) {
        last = pending;
        await last;
      }
    },
    store,
    async acquire(name, owner, ttlMs) {
      return Number(await cmd.eval(ACQUIRE, 1, k(`lock:${name}`), owner, ttlMs)) === 1;
    },
    async release(name, owner) {
      await cmd.eval(RELEASE, 1, k(`lock:${name}`), owner);
    },
    async holder(name) {
      return (await cmd.get(k(`lock:${name}`))) ?? undefined;
    },
    async close() {
      sub.disconnect();
      await cmd.quit().catch(() => cmd.disconnect());
    },
  };
}
