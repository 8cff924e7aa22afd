import type { Storage } from '../ports/types.ts';

/**
 * What the screens keep on the device besides the per-user stores (issue 27: the UI reaches the
 * Storage port only through the core): the pair last opened on the trade screen (SPEC §3, §9: the
 * /mFutures and /stdFuture redirects go back to it) and the session store's display currency
 * (SPEC §3 `currency_icon`). Through the core's storage port, so they are recorded as `storage.*`
 * and a replay reads what the recorded page read.
 */
export const TRADE_PAIR_KEY = 'trade_pair';
export const CURRENCY_STORAGE_KEY = 'currency_icon';

export interface DevicePrefs {
  /** The pair last opened on the trade screen, as stored (null: none yet). */
  tradePair(): string | null;
  /** Remembers the pair the trade screen shows. */
  setTradePair(symbol: string): void;
  /** The stored display currency code, as stored (null: none). */
  currency(): string | null;
}

export function createDevicePrefs(storage: Storage): DevicePrefs {
  return {
    tradePair: () => storage.get(TRADE_PAIR_KEY),
    setTradePair: (symbol) => storage.set(TRADE_PAIR_KEY, symbol),
    currency: () => storage.get(CURRENCY_STORAGE_KEY),
  };
}
