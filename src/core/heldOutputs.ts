import { Observable, Subject } from 'rxjs';

/**
 * The core's outputs (toasts, navigations) for the React shell, kept while nobody performs them.
 *
 * The core starts before React mounts (src/main.tsx: the sockets connect while the language's
 * texts load), so an output can happen before the shell subscribes: a server closing the user
 * socket with 4001 in that window once left the page logged out on /my/dashboard instead of on
 * /login?redirect=… (a browser test on a busy machine). An output with no subscriber is held (the
 * latest `limit`), and the next subscriber gets the held ones first, in order; with a subscriber,
 * outputs pass straight through.
 */
export interface HeldOutputs<T> {
  next(value: T): void;
  complete(): void;
  readonly observable: Observable<T>;
}

export function createHeldOutputs<T>(limit = 20): HeldOutputs<T> {
  const live = new Subject<T>();
  const held: T[] = [];
  return {
    next(value) {
      if (live.observed) {
        live.next(value);
        return;
      }
      held.push(value);
      if (held.length > limit) held.shift();
    },
    complete: () => live.complete(),
    observable: new Observable<T>((subscriber) => {
      // Held first (an output a held one causes is held too, and delivered in this same loop), then live.
      while (held.length > 0) for (const value of held.splice(0)) subscriber.next(value);
      return live.subscribe(subscriber);
    }),
  };
}
