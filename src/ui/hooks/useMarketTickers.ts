import { useMemo } from 'react';
import type { MarketTickersOptions, MarketTickersView } from '../../core/marketTickers.ts';
import { useAppCore } from '../app/AppCoreProvider.tsx';
import { useStream } from './useStream.ts';

export type { MarketTickersOptions, MarketTickersView };

const EMPTY: readonly number[] = [];
const INITIAL: MarketTickersView = { symbols: null, lookup: () => undefined, history: () => EMPTY, loadError: false };

/**
 * Live tickers of the whole market for Home and Market, read from the core
 * (src/core/marketTickers.ts: REST list and snapshot with retry, sparklines, `all@ticker`).
 * Pass a stable (module-level) `sparks` function.
 */
export function useMarketTickers(options: MarketTickersOptions = {}): MarketTickersView {
  const m = useAppCore().streams.market;
  const sparks = options.sparks;
  return useStream(useMemo(() => m.tickers$({ sparks }), [m, sparks]), INITIAL);
}
