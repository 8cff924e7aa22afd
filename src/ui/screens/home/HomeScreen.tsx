import { useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import type { SymbolInfo } from '../../../protocol/market.ts';
import { useSession } from '../../app/AppCoreProvider.tsx';
import { useMarketTickers } from '../../hooks/useMarketTickers.ts';
import { joinRows, selectHot } from '../../components/market/marketList.ts';
import { HomeView } from './HomeView.tsx';

/** How many hot pairs Home lists. */
const HOT_ROWS = 6;
/** Only the hot pairs Home shows get a 24 h sparkline. */
const HOT_PERP = (s: SymbolInfo) => s.hot && s.kinds.includes('perp');

/** / (SPEC §1, §2): connects {@link HomeView} to the session and the live hot tickers. */
export function HomeScreen() {
  const session = useSession();
  const market = useMarketTickers({ sparks: HOT_PERP });
  const navigate = useNavigate();
  const hot = useMemo(
    () => selectHot(joinRows((market.symbols ?? []).filter(HOT_PERP), market.lookup), HOT_ROWS),
    [market.symbols, market.lookup],
  );
  return <HomeView loggedIn={session.loggedIn} hot={hot} history={market.history} onOpen={(path) => void navigate(path)} />;
}
