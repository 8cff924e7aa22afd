import { useCallback, useSyncExternalStore } from 'react';
import type { Observable } from 'rxjs';

/**
 * Reads a core value that has a synchronous getter and a change stream (preferences, layouts),
 * without the frame coalescing of useStream: a controlled input bound to it (a settings switch)
 * must show its new state in the same render as the click, or React puts the old value back and
 * the click looks lost. `get` must return the same object until the value changes.
 */
export function useCurrent<T>(changes$: Observable<unknown>, get: () => T): T {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const sub = changes$.subscribe(() => onChange());
      return () => sub.unsubscribe();
    },
    [changes$],
  );
  return useSyncExternalStore(subscribe, get, get);
}
