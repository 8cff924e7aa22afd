import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ContractKind, SymbolInfo } from '../../../protocol/market.ts';

/** How many listed pairs the page offers instead. */
export const UNKNOWN_PAIR_SUGGESTIONS = 6;

/**
 * A trade URL whose pair is not listed for its contract (issue 26): the app's not-found layout
 * inside the shell (heading, what happened, the market list) and the first listed pairs of the same
 * contract, each a link to its trade screen.
 */
export function UnknownPair({ pair, contract, symbols, base }: { pair: string; contract: ContractKind; symbols: readonly SymbolInfo[]; base: string }) {
  const { t } = useTranslation('trade');
  const suggestions = symbols.slice(0, UNKNOWN_PAIR_SUGGESTIONS);
  return (
    <section className="rf-placeholder rf-unknown-pair" data-testid="unknown-pair" aria-labelledby="rf-unknown-pair-title">
      <h1 id="rf-unknown-pair-title">{t('unknownPairTitle')}</h1>
      <p>{t('unknownPairText', { pair, contract: t(contract === 'perp' ? 'perpetual' : 'standard') })}</p>
      <Link className="rf-btn rf-btn--primary rf-btn--md" to="/market">
        {t('openMarketList')}
      </Link>
      {suggestions.length > 0 ? (
        <nav aria-label={t('listedPairs')}>
          <p className="rf-unknown-pair__label">{t('listedPairs')}</p>
          <ul className="rf-unknown-pair__pairs">
            {suggestions.map((s) => (
              <li key={s.symbol}>
                <Link className="rf-btn rf-btn--secondary rf-btn--sm" to={`${base}/${s.symbol}`}>
                  {s.symbol}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </section>
  );
}
