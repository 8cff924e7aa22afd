import type { Observable } from 'rxjs';
import type { Storage } from '../ports/types.ts';
import { createUserStored } from './userStored.ts';

/**
 * The user's position confirmations (issue 14): whether closing a position and closing all
 * positions ask first. 'Do not ask again' in the dialogs turns one off; /my/settings/preference
 * turns it back on. Stored per user through the core's storage port (recorded as `storage.*`)
 * under `position_confirm:<user id>` as JSON; logged out (or before the user's info arrives)
 * everything asks.
 */
export interface PositionPrefs {
  confirmClose: boolean;
  confirmCloseAll: boolean;
}

export const DEFAULT_POSITION_PREFS: PositionPrefs = { confirmClose: true, confirmCloseAll: true };
export const POSITION_PREFS_KEY = 'position_confirm';

export interface PositionPrefsStore {
  /** The current user's preferences now. */
  get(): PositionPrefs;
  /** The current preferences, then every change (user switch included). */
  prefs$: Observable<PositionPrefs>;
  /** Changes the current user's preferences (ignored while no user is known). */
  set(patch: Partial<PositionPrefs>): void;
  stop(): void;
}

/** A stored value → preferences; anything unreadable asks (the safe default). */
export function parsePositionPrefs(raw: string | null): PositionPrefs {
  if (!raw) return DEFAULT_POSITION_PREFS;
  try {
    const v = JSON.parse(raw) as Partial<Record<keyof PositionPrefs, unknown>>;
    return { confirmClose: v.confirmClose !== false, confirmCloseAll: v.confirmCloseAll !== false };
  } catch {
    return DEFAULT_POSITION_PREFS;
  }
}

export function createPositionPrefs(deps: { storage: Storage; userId$: Observable<number | null> }): PositionPrefsStore {
  const stored = createUserStored({ ...deps, prefix: POSITION_PREFS_KEY, parse: parsePositionPrefs, guestOwner: null });
  return {
    get: stored.get,
    prefs$: stored.value$,
    set: (patch) => stored.update((current) => ({ ...current, ...patch })),
    stop: stored.stop,
  };
}
