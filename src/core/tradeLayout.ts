import { BehaviorSubject, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { Storage } from '../ports/types.ts';

/**
 * The desktop trade screen's panel sizes (issue 14: "a resizable desktop trade layout remembered
 * per user"). Each resizable group of the screen (columns, rows, chart | book) keeps its layout as
 * panel id → percentage. Stored through the core's storage port (recorded as `storage.*`) under
 * `trade_layout:<user id>` (`trade_layout:guest` for a visitor) as JSON; whatever cannot be read
 * back is dropped, so a damaged value falls back to the default sizes instead of breaking the screen.
 */
export type PanelLayout = Readonly<Record<string, number>>;
export type TradeLayouts = Readonly<Record<string, PanelLayout>>;

export const TRADE_LAYOUT_KEY = 'trade_layout';

export interface TradeLayoutStore {
  /** The current owner's layouts now. */
  get(): TradeLayouts;
  /** Whose layouts are shown: a user id, or 'guest'. Changes on login / logout. */
  owner$: Observable<string>;
  owner(): string;
  /** Remembers one group's layout for the current owner. */
  set(group: string, layout: PanelLayout): void;
  stop(): void;
}

const isLayout = (v: unknown): v is PanelLayout =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  Object.keys(v).length > 0 &&
  Object.values(v).every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 100);

/** A stored value → the layouts that are well formed (each a non-empty map of 0..100 numbers). */
export function parseTradeLayouts(raw: string | null): TradeLayouts {
  if (!raw) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
    return Object.fromEntries(Object.entries(v).filter(([, l]) => isLayout(l)));
  } catch {
    return {};
  }
}

export function createTradeLayout(deps: { storage: Storage; userId$: Observable<number | null> }): TradeLayoutStore {
  const key = (owner: string) => `${TRADE_LAYOUT_KEY}:${owner}`;
  const state = new BehaviorSubject<{ owner: string; layouts: TradeLayouts }>({ owner: 'guest', layouts: {} });
  let loaded = false;
  const sub = deps.userId$
    .pipe(
      map((id) => (id === null ? 'guest' : String(id))),
      distinctUntilChanged(),
    )
    .subscribe((owner) => {
      loaded = true;
      state.next({ owner, layouts: parseTradeLayouts(deps.storage.get(key(owner))) });
    });
  const current = () => {
    if (!loaded) {
      loaded = true;
      state.next({ owner: 'guest', layouts: parseTradeLayouts(deps.storage.get(key('guest'))) });
    }
    return state.getValue();
  };
  return {
    get: () => current().layouts,
    owner: () => current().owner,
    owner$: state.pipe(
      map((s) => s.owner),
      distinctUntilChanged(),
    ),
    set(group, layout) {
      if (!isLayout(layout)) return;
      const { owner, layouts } = current();
      const next = { ...layouts, [group]: { ...layout } };
      deps.storage.set(key(owner), JSON.stringify(next));
      state.next({ owner, layouts: next });
    },
    stop() {
      sub.unsubscribe();
      state.complete();
    },
  };
}
