import { BehaviorSubject, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { Storage } from '../ports/types.ts';

/**
 * One JSON value kept per user through the core's storage port (recorded as `storage.*`) under
 * `<prefix>:<owner>`: read again whenever the user changes, parsed with a fallback (a damaged
 * value must not break a screen), written on every update. The owner is the user id, or
 * `guestOwner` while nobody is logged in; with `guestOwner` null a visitor sees `parse(null)` and
 * updates are ignored.
 */
export interface UserStored<T> {
  get(): T;
  /** The current value, then every change (a user switch included). */
  value$: Observable<T>;
  /** Whose value is shown: a user id, the guest owner, or null (no one). */
  owner(): string | null;
  owner$: Observable<string | null>;
  /** Stores `next(current)` for the current owner (ignored without one). */
  update(next: (current: T) => T): void;
  stop(): void;
}

export function createUserStored<T>(deps: {
  storage: Storage;
  userId$: Observable<number | null>;
  prefix: string;
  parse: (raw: string | null) => T;
  guestOwner: string | null;
}): UserStored<T> {
  const { storage, prefix, parse, guestOwner } = deps;
  const read = (owner: string | null) => ({ owner, value: parse(owner === null ? null : storage.get(`${prefix}:${owner}`)) });
  // Storage is read (a recorded event) when userId$ first says who it is, or at the first get()
  // before that, never at construction.
  const state = new BehaviorSubject<{ owner: string | null; value: T }>({ owner: guestOwner, value: parse(null) });
  let loaded = false;
  const load = (owner: string | null) => {
    loaded = true;
    state.next(read(owner));
  };
  const sub = deps.userId$
    .pipe(
      map((id) => (id === null ? guestOwner : String(id))),
      distinctUntilChanged(),
    )
    .subscribe(load);
  const current = () => {
    if (!loaded) load(guestOwner);
    return state.getValue();
  };
  return {
    get: () => current().value,
    value$: state.pipe(map((s) => s.value)),
    owner: () => current().owner,
    owner$: state.pipe(
      map((s) => s.owner),
      distinctUntilChanged(),
    ),
    update(next) {
      const { owner, value } = current();
      if (owner === null) return;
      const v = next(value);
      storage.set(`${prefix}:${owner}`, JSON.stringify(v));
      state.next({ owner, value: v });
    },
    stop() {
      sub.unsubscribe();
      state.complete();
    },
  };
}
