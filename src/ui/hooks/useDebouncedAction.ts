import { useCallback, useEffect, useRef, useState } from 'react';

/** SPEC §9: clicks closer than this to the previous accepted click are ignored. */
export const CLICK_DEBOUNCE_MS = 450;

/**
 * The user's edits anywhere in the page so far (`input` and `change` events, seen in the capture
 * phase so no handler can hide them). A click that follows an edit is a new intent, never the
 * second half of a double click: without this, a submit refused for an empty form and a fast
 * correction (autofill, a paste, a file picked, a quick typist or a test driver) left the next
 * submit inside the 450 ms window, where it was dropped without a word (issue 17).
 */
let edits = 0;
let watching = false;
function watchEdits(): void {
  if (watching || typeof document === 'undefined') return;
  watching = true;
  const bump = (): void => {
    edits += 1;
  };
  document.addEventListener('input', bump, true);
  document.addEventListener('change', bump, true);
}

/**
 * Leading-edge double-click guard: the first click runs at once; a further click within `ms` is
 * dropped unless the user edited something in between (then it is a new intent and runs); while
 * a returned promise is unsettled `pending` is true and clicks are dropped too (no double
 * submits; the pending state is visible). Uses `performance.now` via the injected `now` for
 * testability.
 */
export function useDebouncedAction<A extends unknown[]>(
  action: ((...args: A) => unknown) | undefined,
  ms: number = CLICK_DEBOUNCE_MS,
  now: () => number = () => performance.now(),
): { run: (...args: A) => void; pending: boolean } {
  const [pending, setPending] = useState(false);
  const last = useRef<number>(-Infinity);
  const editsAtLast = useRef(-1);
  const busy = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    watchEdits();
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    (...args: A) => {
      if (!action || busy.current) return;
      const t = now();
      if (t - last.current < ms && editsAtLast.current === edits) return;
      last.current = t;
      editsAtLast.current = edits;
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
