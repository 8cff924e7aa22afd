import { useEffect, useRef, useState } from 'react';
import type { Observable } from 'rxjs';

const raf: (cb: () => void) => unknown =
  typeof globalThis.requestAnimationFrame === 'function' ? (cb) => globalThis.requestAnimationFrame(cb) : (cb) => globalThis.setTimeout(cb, 16);
const cancelRaf: (id: unknown) => void =
  typeof globalThis.cancelAnimationFrame === 'function' ? (id) => globalThis.cancelAnimationFrame(id as number) : (id) => globalThis.clearTimeout(id as number);

/**
 * The latest value of a stream, coalesced to at most one React render per animation frame
 * (the UI edge of docs/STREAMS.md: reducers run at full speed on every frame; only the render
 * is throttled). Resubscribes when `stream$` changes identity (memoise it), starting from `initial`.
 */
export function useFrameState<T>(stream$: Observable<T>, initial: T): T {
  const [value, setValue] = useState(initial);
  const latest = useRef(initial);
  useEffect(() => {
    let scheduled: unknown = null;
    const sub = stream$.subscribe((v) => {
      latest.current = v;
      if (scheduled !== null) return;
      scheduled = raf(() => {
        scheduled = null;
        setValue(latest.current);
      });
    });
    return () => {
      sub.unsubscribe();
      if (scheduled !== null) cancelRaf(scheduled);
    };
  }, [stream$]);
  return value;
}
