import type { Revocation, RevocationHub, RevocationListener } from '../ws/revocations.ts';
import { createTaps } from '../ws/userBus.ts';
import type { UserEventBus, UserFrame, UserFrameListener } from '../ws/userBus.ts';
import type { Broker } from './broker.ts';

/** Channel names on the broker (docs/SCALING.md). */
export const CHANNEL = {
  /** Every market frame the engine's source emits, batched per tick: `MarketFrame[]` as JSON. */
  market: 'market',
  /** Frames for one user: `UserFrame` as JSON. */
  user: (userId: number) => `user:${userId}`,
  /** Session revocations (logout, password change / reset): `Revocation` as JSON. */
  revocations: 'revocations',
  /** Requests to the engine: `EngineRequest` as JSON. */
  engine: 'engine:rpc',
  /** Replies to one gateway: `EngineReply` as JSON. */
  reply: (gatewayId: string) => `engine:reply:${gatewayId}`,
} as const;

/**
 * One broker channel fanned out to this process's listeners: the channel is subscribed while at
 * least one listener is here (the first `add` subscribes, the last removal unsubscribes); each
 * message is parsed once and handed to every listener, a throwing listener reported to `onError`
 * without stopping the others.
 */
function channelFanout<T>(broker: Broker, channel: string, onError: (err: unknown) => void) {
  const listeners = new Set<(value: T) => void>();
  let off: (() => void) | null = null;
  return {
    get size() {
      return listeners.size;
    },
    add(listener: (value: T) => void): () => void {
      listeners.add(listener);
      off ??= broker.subscribe(channel, (msg) => {
        const value = JSON.parse(msg) as T;
        for (const l of [...listeners]) {
          try {
            l(value);
          } catch (err) {
            onError(err);
          }
        }
      });
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0 || !off) return;
        off();
        off = null;
      };
    },
  };
}

/**
 * The user event bus across processes: publish goes to the broker (channel per user id); a
 * process subscribes to a user's channel while one of its sockets listens to that user.
 * `listenerCount` is this process's count, except that `publishAlways` makes it report 1 so the
 * engine (which holds no sockets) still builds balance frames for users listening elsewhere.
 */
export function createBrokerUserBus(broker: Broker, opts: { publishAlways?: boolean; onError?: (err: unknown) => void } = {}): UserEventBus {
  const onError = opts.onError ?? ((err: unknown) => console.error('user bus listener failed', err));
  const byUser = new Map<number, ReturnType<typeof channelFanout<UserFrame>>>();
  const taps = createTaps(onError);
  return {
    publish(userId, frame) {
      broker.publish(CHANNEL.user(userId), JSON.stringify(frame));
      taps.run(userId, frame);
    },
    tap: (t) => taps.add(t),
    subscribe(userId, listener: UserFrameListener) {
      let fanout = byUser.get(userId);
      if (fanout === undefined) {
        fanout = channelFanout<UserFrame>(broker, CHANNEL.user(userId), onError);
        byUser.set(userId, fanout);
      }
      const remove = fanout.add(listener);
      return () => {
        remove();
        if (byUser.get(userId)?.size === 0) byUser.delete(userId);
      };
    },
    listenerCount(userId) {
      return opts.publishAlways ? 1 : (byUser.get(userId)?.size ?? 0);
    },
  };
}

/** Session revocations across processes: a logout on one gateway closes the token's sockets on every other. */
export function createBrokerRevocationHub(broker: Broker, onError: (err: unknown) => void = () => {}): RevocationHub {
  const fanout = channelFanout<Revocation>(broker, CHANNEL.revocations, onError);
  return {
    publish(r: Revocation) {
      broker.publish(CHANNEL.revocations, JSON.stringify(r));
    },
    subscribe(listener: RevocationListener) {
      return fanout.add(listener);
    },
  };
}
