import { useCallback, useEffect, useState } from 'react';
import { useAppCore } from '../../app/AppCoreProvider.tsx';

/** Seconds a user waits before asking for another mail code (the 60 s countdown on Send code). */
export const RESEND_SECONDS = 60;

/**
 * A one-second countdown for the Send code buttons, on the core's cosmetic timers (no timer in
 * src/ui, src/core/timers.ts).
 *
 * Invariant: `remaining` is 0 when idle and counts down by one each second after `start()`
 * until it reaches 0 again; `start()` while running restarts from `seconds`.
 */
export function useCountdown(seconds: number = RESEND_SECONDS): { remaining: number; start: () => void } {
  const timers = useAppCore().timers;
  const [run, setRun] = useState(0);
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (run === 0) return undefined;
    const sub = timers.every$(1000).subscribe((n) => {
      const left = Math.max(0, seconds - n);
      setRemaining(left);
      if (left === 0) sub.unsubscribe();
    });
    return () => sub.unsubscribe();
  }, [timers, run, seconds]);

  const start = useCallback(() => {
    setRemaining(seconds);
    setRun((r) => r + 1);
  }, [seconds]);
  return { remaining, start };
}
