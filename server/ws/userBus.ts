/**
 * Frames pushed to a logged-in user's socket (GET /api/ws/user). `data` is the order, position or
 * balance DTO the trading issue defines; the bus does not look inside it.
 */
export interface UserFrame {
  type: 'order' | 'position' | 'balance' | 'kyc' | 'compensation' | 'voucher' | 'deposit' | 'withdrawal' | 'convert' | 'copy' | 'notification';
  data: unknown;
}

export type UserFrameListener = (frame: UserFrame) => void;

/** Sees every frame this process publishes, for any user (the notification centre derives notices from them). */
export type UserFrameTap = (userId: number, frame: UserFrame) => void;

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
  /**
   * Registers a tap called after every `publish` made in THIS process, whoever listens (so an event
   * is tapped once, by the process that caused it, even when the frame fans out across a broker).
   * Returns the removal function. A throwing tap is isolated like a listener.
   */
  tap(tap: UserFrameTap): () => void;
}

/** The tap list behind {@link UserEventBus.tap}, shared by the in-process and broker buses. */
export function createTaps(onError: (err: unknown) => void): { add(tap: UserFrameTap): () => void; run(userId: number, frame: UserFrame): void } {
  const taps: UserFrameTap[] = [];
  return {
    add(tap) {
      taps.push(tap);
      return () => {
        const i = taps.indexOf(tap);
        if (i >= 0) taps.splice(i, 1);
      };
    },
    run(userId, frame) {
      for (const t of [...taps]) {
        try {
          t(userId, frame);
        } catch (err) {
          onError(err);
        }
      }
    },
  };
}

export function createUserEventBus(onError: (err: unknown) => void = () => {}): UserEventBus {
  const byUser = new Map<number, Set<UserFrameListener>>();
  const taps = createTaps(onError);
  return {
    publish(userId, frame) {
      const set = byUser.get(userId);
      for (const l of set ? [...set] : []) {
        try {
          l(frame);
        } catch (err) {
          onError(err);
        }
      }
      taps.run(userId, frame);
    },
    tap: (t) => taps.add(t),
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
