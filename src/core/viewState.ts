import { BehaviorSubject, type Observable } from 'rxjs';

/**
 * View state as intents (issue 16, docs/REPLAY.md "View state"): the screen-local state a user
 * sees (the trade screen's account tab, the chart's interval and indicators, the filters and page
 * of a history list, which dialog is open) lives here instead of in a component's useState, so a
 * recording knows it and a replay shows the screen as the user had it.
 *
 * One store, many keys ('trade.accountTab' → 'positions'); values are small JSON values. `set` is
 * the user's intent: createRecordedCore logs it as `ui.intent {actor: 'view', event: {type:
 * 'view.set', key, value}}` (through `onIntent`), and the replay driver applies the recorded one
 * with `apply` (not logged again). A set to the current value is not an intent (nothing changed).
 * Screens read a key with `useViewState` (src/ui/hooks/useViewState.ts, on useCurrent) and must
 * validate what they read (a log is external data) and fall back to their default.
 */
export type ViewValue = string | number | boolean | null | readonly ViewValue[] | { readonly [key: string]: ViewValue };
export type ViewValues = Readonly<Record<string, ViewValue>>;

export const VIEW_ACTOR = 'view';
export const VIEW_SET = 'view.set';

export interface ViewStateStore {
  /** The value of `key`, undefined when never set. */
  get(key: string): ViewValue | undefined;
  /** Every key set so far (same object until something changes). */
  all(): ViewValues;
  /** Emits the whole map after every change. */
  changes$: Observable<ViewValues>;
  /** The user changed what the screen shows: recorded as an intent, then applied. */
  set(key: string, value: ViewValue): void;
  /** Applies a value without recording it (the replay of a recorded intent). */
  apply(key: string, value: ViewValue): void;
  /** Set by createRecordedCore: logs each intent. */
  onIntent: ((key: string, value: ViewValue) => void) | null;
}

const same = (a: ViewValue | undefined, b: ViewValue): boolean => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** A view value is JSON: strings, finite numbers, booleans, null, arrays and plain objects of them. */
export function isViewValue(v: unknown, depth = 0): v is ViewValue {
  if (depth > 4) return false;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (Array.isArray(v)) return v.length <= 100 && v.every((x) => isViewValue(x, depth + 1));
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    const entries = Object.entries(v as Record<string, unknown>);
    return entries.length <= 50 && entries.every(([, x]) => isViewValue(x, depth + 1));
  }
  return false;
}

export function createViewState(): ViewStateStore {
  const state = new BehaviorSubject<ViewValues>({});
  const put = (key: string, value: ViewValue) => state.next({ ...state.value, [key]: value });
  const store: ViewStateStore = {
    get: (key) => state.value[key],
    all: () => state.value,
    changes$: state.asObservable(),
    set(key, value) {
      if (same(state.value[key], value)) return;
      store.onIntent?.(key, value);
      put(key, value);
    },
    apply(key, value) {
      if (same(state.value[key], value)) return;
      put(key, value);
    },
    onIntent: null,
  };
  return store;
}
