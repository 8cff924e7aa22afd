import { useEffect, useState } from 'react';
import { animationFrameScheduler, auditTime, type Observable, type SchedulerLike } from 'rxjs';

/**
 * Subscribes a component to a stream and coalesces its values to at most one React state update
 * per animation frame: a burst of frames (an order book receiving dozens of diffs) renders once,
 * with the latest value. This is the only place the streams meet animation-frame timing, so the
 * reducers and their RxJS wiring stay deterministic and run at full speed headless.
 *
 * `initial` is shown until the first coalesced value arrives. Changing `source$` resubscribes
 * (keep it stable with useMemo). `scheduler` is for tests; the default is the animation-frame scheduler.
 */
export function useStream<T>(source$: Observable<T>, initial: T, scheduler: SchedulerLike = animationFrameScheduler): T {
  const [value, setValue] = useState<T>(initial);
  useEffect(() => {
    // auditTime(0) on the animation-frame scheduler: after the first value, wait for the next
    // frame and emit only the latest value seen meanwhile.
    const sub = source$.pipe(auditTime(0, scheduler)).subscribe((v) => setValue(() => v));
    return () => sub.unsubscribe();
  }, [source$, scheduler]);
  return value;
}
