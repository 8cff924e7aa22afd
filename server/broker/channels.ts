import type { Revocation, RevocationHub, RevocationListener } from '../ws/revocations.ts';
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
 * The user event bus across processes: publish goes to the broker (channel per user id); a
 * process subscribes to a user's channel while one of its sockets listens to that user.
 * `listenerCount` is this process's count, except that `publishAlways` makes it report 1 so the
 * engine (which holds no sockets) still builds balance frames for users listening elsewhere.
 */
export function createBrokerUserBus(broker: Broker, opts: { publishAlways?: boolean; onError?: (err: unknown) => void } = {}): UserEventBus {
  const onError = opts.onError ?? ((err: unknown) => console.error('user bus listener failed', err));
  const local = new Map<number, Set<UserFrameListener>>();
  const offs = new Map<number, () => void>();
  return {
    publish(userId, frame) {
      broker.publish(CHANNEL.user(userId), JSON.stringify(frame));
    },
    subscribe(userId, listener) {
      let set = local.get(userId);
      if (set === undefined) {
        const created = new Set<UserFrameListener>();
        set = created;
        local.set(userId, created);
        offs.set(
          userId,
          broker.subscribe(CHANNEL.user(userId), (msg) => {
            const frame = JSON.parse(msg) as UserFrame;
            for (const l of [...created]) {
              try {
                l(frame);
              } catch (err) {
                onError(err);
              }
            }
          }),
        );
      }
      set.add(listener);
      return () => {
        const s = local.get(userId);
        if (s === undefined || !s.delete(listener) || s.size > 0) return;
        local.delete(userId);
        offs.get(userId)?.();
        offs.delete(userId);
      };
    },
    listenerCount(userId) {
      return opts.publishAlways ? 1 : (local.get(userId)?.size ?? 0);
    },
  };
}

/** Session revocations across processes: a logout on one gateway closes the token's sockets on every other. */
export function createBrokerRevocationHub(broker: Broker, onError: (err: unknown) => void = () => {}): RevocationHub {
  const listeners = new Set<RevocationListener>();
  let off: (() => void) | null = null;
  return {
    publish(r: Revocation) {
      broker.publish(CHANNEL.revocations, JSON.stringify(r));
    },
    subscribe(listener) {
      listeners.add(listener);
      off ??= broker.subscribe(CHANNEL.revocations, (msg) => {
        const r = JSON.parse(msg) as Revocation;
        for (const l of [...listeners]) {
          try {
            l(r);
          } catch (err) {
            onError(err);
          }
        }
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && off) {
          off();
          off = null;
        }
      };
    },
  };
}
