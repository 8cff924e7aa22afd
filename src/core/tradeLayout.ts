import { map, type Observable } from 'rxjs';
import type { Storage } from '../ports/types.ts';
import { createUserStored } from './userStored.ts';

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
  const stored = createUserStored({ ...deps, prefix: TRADE_LAYOUT_KEY, parse: parseTradeLayouts, guestOwner: 'guest' });
  // With a guest owner there is always one.
  const owner = (o: string | null) => o ?? 'guest';
  return {
    get: stored.get,
    owner: () => owner(stored.owner()),
    owner$: stored.owner$.pipe(map(owner)),
    set(group, layout) {
      if (!isLayout(layout)) return;
      stored.update((layouts) => ({ ...layouts, [group]: { ...layout } }));
    },
    stop: stored.stop,
  };
}
