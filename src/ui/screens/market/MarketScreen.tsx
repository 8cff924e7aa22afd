import { useRef } from 'react';
import type { SymbolInfo } from '../../../protocol/market.ts';
import { useNavigate } from 'react-router-dom';
import { useAppCore, useMarketSocket } from '../../app/AppCoreProvider.tsx';
import { useMarketFavorites } from '../../hooks/useMarketFavorites.ts';
import { useMarketTickers } from '../../hooks/useMarketTickers.ts';
import { useDevice } from '../../hooks/usePrefs.ts';
import { useViewState } from '../../hooks/useViewState.ts';
import { DEFAULT_LIST_STATE, isMarketListState, MarketView, type MarketListState } from './MarketView.tsx';

/** Every listed instrument gets a 24 h sparkline (list trend column and hot cards). */
const EVERY = () => true;
/**
 * On a phone the list has no trend column (market.css hides it), so only the hot cards' instruments
 * get one: 4-8 kline requests instead of one per instrument, and no hidden sparklines rendered
 * (issue 30: /market's main thread on a phone).
 */
const HOT = (info: SymbolInfo) => info.hot === true;

/**
 * /market (SPEC §2): connects {@link MarketView} to the app core: live tickers, the market
 * socket status, the user's favourites (per user, src/core/favorites.ts) and navigation.
 */
export function MarketScreen() {
  const core = useAppCore();
  const socket = useMarketSocket();
  const mobile = useDevice() === 'mobile';
  const market = useMarketTickers({ sparks: mobile ? HOT : EVERY });
  const favorites = useMarketFavorites(core.favorites);
  const navigate = useNavigate();
  // The kind and category tabs and the sort are view state (issue 16): in the record, shown again by a replay.
  const [list, setList] = useViewState<MarketListState>('market.list', DEFAULT_LIST_STATE, isMarketListState);
  const everConnected = useRef(false);
  if (socket.connected) everConnected.current = true;
  return (
    <MarketView
      symbols={market.symbols}
      lookup={market.lookup}
      history={market.history}
      trendColumn={!mobile}
      connected={socket.connected}
      everConnected={everConnected.current || socket.status === 'reconnecting'}
      loadError={market.loadError}
      favorites={favorites.set}
      onToggleFavorite={favorites.toggle}
      onOpen={(path) => void navigate(path)}
      listState={{ value: list, onChange: setList }}
    />
  );
}
