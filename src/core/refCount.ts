import { Observable } from 'rxjs';

/**
 * Reference counting of the core's per-key resources (a symbol's topics, a REST seed, a
 * contract's account lists): `open` runs when the first reader of a key arrives, `close` when the
 * last one leaves. Invariant: for every key, `open` and `close` alternate, starting with `open`.
 */
export function createRefCount<K>(open: (key: K) => void, close: (key: K) => void): { acquire(key: K): () => void; count(key: K): number } {
  const counts = new Map<K, number>();
  return {
    acquire(key) {
      const n = counts.get(key) ?? 0;
      counts.set(key, n + 1);
      if (n === 0) open(key);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (counts.get(key) ?? 1) - 1;
        if (left > 0) counts.set(key, left);
        else {
          counts.delete(key);
          close(key);
        }
      };
    },
    count: (key) => counts.get(key) ?? 0,
  };
}

/**
 * A reader stream over a value the core keeps: emits `current()` at once on subscribe, then
 * whatever `changes` delivers; `acquire()` runs on subscribe and its release on unsubscribe (this
 * is how a screen's reading opens topics and seeds). Synchronous, unthrottled: the one throttle is
 * the UI's useStream.
 */
export function readerStream<T>(current: () => T, changes: (emit: (v: T) => void) => () => void, acquire: () => () => void): Observable<T> {
  return new Observable<T>((sub) => {
    const release = acquire();
    sub.next(current());
    const stop = changes((v) => sub.next(v));
    return () => {
      stop();
      release();
    };
  });
}

/** Listeners per key; `emit` is a no-op for a key nobody listens to (the hot path checks `has`). */
export class Listeners<K, V> {
  private readonly byKey = new Map<K, Set<(v: V) => void>>();

  has(key: K): boolean {
    return this.byKey.has(key);
  }

  on(key: K, fn: (v: V) => void): () => void {
    let set = this.byKey.get(key);
    if (!set) {
      set = new Set();
      this.byKey.set(key, set);
    }
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0 && this.byKey.get(key) === set) this.byKey.delete(key);
    };
  }

  emit(key: K, value: V): void {
    const set = this.byKey.get(key);
    if (set) for (const fn of [...set]) fn(value);
  }
}
