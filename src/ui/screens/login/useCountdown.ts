import { useCallback, useEffect, useState } from 'react';

/** Seconds a user waits before asking for another mail code (the 60 s countdown on Send code). */
export const RESEND_SECONDS = 60;

/**
 * A one-second countdown for the Send code buttons.
 *
 * Invariant: `remaining` is 0 when idle and counts down by one each second after `start()`
 * until it reaches 0 again; `start()` while running restarts from `seconds`. The timer is a
 * UI concern (a disabled button), so it lives here and not in the core.
 */
export function useCountdown(seconds: number = RESEND_SECONDS): { remaining: number; start: () => void } {
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (remaining <= 0) return undefined;
    const id = setTimeout(() => setRemaining((r) => Math.max(0, r - 1)), 1000);
    return () => clearTimeout(id);
  }, [remaining]);

  const start = useCallback(() => setRemaining(seconds), [seconds]);
  return { remaining, start };
}
