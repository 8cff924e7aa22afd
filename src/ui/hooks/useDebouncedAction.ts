import { useCallback, useEffect, useRef, useState } from 'react';

/** SPEC §9: clicks closer than this to the previous accepted click are ignored. */
export const CLICK_DEBOUNCE_MS = 450;

/**
 * Leading-edge click guard: the first click runs at once, further clicks within `ms` are
 * dropped, and while a returned promise is unsettled `pending` is true and clicks are dropped
 * too (no double submits). Uses `performance.now` via the injected `now` for testability.
 */
export function useDebouncedAction<A extends unknown[]>(
  action: ((...args: A) => unknown) | undefined,
  ms: number = CLICK_DEBOUNCE_MS,
  now: () => number = () => performance.now(),
): { run: (...args: A) => void; pending: boolean } {
  const [pending, setPending] = useState(false);
  const last = useRef<number>(-Infinity);
  const busy = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    (...args: A) => {
      if (!action || busy.current) return;
      const t = now();
      if (t - last.current < ms) return;
      last.current = t;
      const result = action(...args);
      if (result instanceof Promise) {
        busy.current = true;
        setPending(true);
        const done = (): void => {
          busy.current = false;
          if (mounted.current) setPending(false);
        };
        result.then(done, done);
      }
    },
    [action, ms, now],
  );
  return { run, pending };
}
