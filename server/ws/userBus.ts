/**
 * Frames pushed to a logged-in user's socket (GET /api/ws/user). `data` is the order, position or
 * balance DTO the trading issue defines; the bus does not look inside it.
 */
export interface UserFrame {
  type: 'order' | 'position' | 'balance' | 'kyc' | 'compensation' | 'voucher' | 'deposit' | 'withdrawal' | 'convert' | 'copy';
  data: unknown;
}

export type UserFrameListener = (frame: UserFrame) => void;

/**
 * A tiny in-process pub/sub keyed by user id. Delivery is synchronous and in publish order;
 * a throwing listener is isolated (reported to `onError`) so one bad socket cannot stop the
 * others. Multiple tabs of one user each subscribe separately.
 */
export interface UserEventBus {
  publish(userId: number, frame: UserFrame): void;
  /** Returns the unsubscribe function. */
  subscribe(userId: number, listener: UserFrameListener): () => void;
  /** Number of listeners for a user (tests, stats). */
  listenerCount(userId: number): number;
}

export function createUserEventBus(onError: (err: unknown) => void = () => {}): UserEventBus {
  const byUser = new Map<number, Set<UserFrameListener>>();
  return {
    publish(userId, frame) {
      const set = byUser.get(userId);
      if (set === undefined) return;
      for (const l of [...set]) {
        try {
          l(frame);
        } catch (err) {
          onError(err);
        }
      }
    },
    subscribe(userId, listener) {
      let set = byUser.get(userId);
      if (set === undefined) {
        set = new Set();
        byUser.set(userId, set);
      }
      set.add(listener);
      return () => {
        const s = byUser.get(userId);
        if (s === undefined) return;
        s.delete(listener);
        if (s.size === 0) byUser.delete(userId);
      };
    },
    listenerCount(userId) {
      return byUser.get(userId)?.size ?? 0;
    },
  };
}
