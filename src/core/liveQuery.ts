import { Observable } from 'rxjs';
import type { ApiClient, Query } from '../api/client.ts';
import { errorMessage } from '../api/client.ts';
import type { InboundFrame } from '../machines/socketMachine.ts';

/** A GET's state on screen: loading (only before the first answer), failed with the server msg, or ready. */
export type Load<T> = { status: 'loading' } | { status: 'error'; msg: string } | { status: 'ready'; data: T };

/** One live GET owned by the core; see {@link createLiveQueries}. */
export interface LiveQuery<T> {
  /** The current load at once, then every change (the UI throttles). */
  load$: Observable<Load<T>>;
  /** Asks again (after an action whose result the list shows); asks in one synchronous run are one request. */
  reload(): void;
}

export interface LiveQueries {
  /**
   * A GET that follows the server live (the history tabs, the coupon list, the compensation
   * orders): made when the first reader subscribes, again on `reload()` and on every user-socket
   * frame whose type is in `reloadOn`, while a reader lives. The last answer stays while the next
   * loads; a stale answer (a newer request was made, or no reader is left) is ignored rather than
   * aborted (an aborted call would surface as a network-error toast).
   */
  get<T>(path: string, query: Query, reloadOn: readonly string[]): LiveQuery<T>;
}

export function createLiveQueries(deps: { api: ApiClient; userFrames$: Observable<InboundFrame>; defer?: (fn: () => void) => void }): LiveQueries {
  const defer = deps.defer ?? ((fn: () => void) => queueMicrotask(fn));
  return {
    get<T>(path: string, query: Query, reloadOn: readonly string[]): LiveQuery<T> {
      let load: Load<T> = { status: 'loading' };
      const listeners = new Set<(l: Load<T>) => void>();
      let generation = 0;
      let queued = false;
      const set = (l: Load<T>) => {
        load = l;
        for (const fn of [...listeners]) fn(l);
      };
      const request = () => {
        queued = false;
        if (listeners.size === 0) return;
        const gen = ++generation;
        deps.api.get<T>(path, query).then(
          (data) => gen === generation && listeners.size > 0 && set({ status: 'ready', data }),
          (e: unknown) => gen === generation && listeners.size > 0 && set({ status: 'error', msg: errorMessage(e) }),
        );
      };
      const reload = () => {
        if (queued) return;
        queued = true;
        defer(request);
      };
      const load$ = new Observable<Load<T>>((sub) => {
        const fn = (l: Load<T>) => sub.next(l);
        const first = listeners.size === 0;
        listeners.add(fn);
        sub.next(load);
        if (first) request();
        const frames = deps.userFrames$.subscribe((f) => {
          if (reloadOn.includes(f.type)) reload();
        });
        return () => {
          frames.unsubscribe();
          listeners.delete(fn);
          if (listeners.size === 0) generation += 1;
        };
      });
      return { load$, reload };
    },
  };
}
