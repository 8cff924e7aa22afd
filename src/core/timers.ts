import { Observable } from 'rxjs';
import type { Clock } from '../ports/types.ts';

/**
 * Cosmetic time for the UI (a banner carousel's autoplay, a resend-code countdown): the screens
 * have no timers of their own (no setTimeout in src/ui), they read these streams. They run on the
 * RAW clock port (not the recording wrapper): nothing the app decides depends on them, so their
 * firings are not worth a `timer` record each; in replay they follow the virtual clock.
 */
export interface UiTimers {
  /** Emits 1, 2, 3, ... every `ms` while subscribed. */
  every$(ms: number): Observable<number>;
  /** Emits once after `ms`, then completes. */
  after$(ms: number): Observable<void>;
}

export function createUiTimers(clock: Clock): UiTimers {
  return {
    every$: (ms) =>
      new Observable<number>((sub) => {
        let n = 0;
        let id: unknown = null;
        const arm = () => {
          id = clock.setTimeout(() => {
            n += 1;
            arm();
            sub.next(n);
          }, ms);
        };
        arm();
        return () => clock.clearTimeout(id);
      }),
    after$: (ms) =>
      new Observable<void>((sub) => {
        const id = clock.setTimeout(() => {
          sub.next();
          sub.complete();
        }, ms);
        return () => clock.clearTimeout(id);
      }),
  };
}
