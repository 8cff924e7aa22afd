import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ChangeBadge } from '../../components/market/ChangeBadge.tsx';
import { formatAbbreviated, trendOf } from '../../../format/number.ts';
import { PriceCell } from '../../components/market/PriceCell.tsx';
import { Sparkline } from '../../components/market/Sparkline.tsx';
import type { MarketRow } from '../../components/market/marketList.ts';
import { tradePath } from '../../components/market/marketList.ts';

export interface HotTickersProps {
  rows: readonly MarketRow[];
  history: (symbol: string) => readonly number[];
  onOpen: (path: string) => void;
}

/**
 * Live tickers of the hot pairs on Home (SPEC §2): last price, 24 h change coloured up/down,
 * volume; a row opens the USDT-M trade screen /mFutures/{pair}.
 */
export function HotTickers({ rows, history, onOpen }: HotTickersProps) {
  const { t } = useTranslation('home');
  return (
    <section className="home-section home-hot" data-testid="home-hot">
      <div className="home-section__head">
        <h2 className="home-section__title">{t('hot.title')}</h2>
        <Link className="home-link" to="/market">
          {t('hot.more')} ›
        </Link>
      </div>
      <div className="home-hot__table" role="table">
        <div className="home-hot__row home-hot__row--head" role="row">
          <span role="columnheader">{t('hot.pair')}</span>
          <span role="columnheader" className="home-num">{t('hot.last')}</span>
          <span role="columnheader" className="home-num">{t('hot.change')}</span>
          <span role="columnheader" className="home-num home-wide">{t('hot.volume')}</span>
          <span role="columnheader" className="home-wide" aria-hidden="true" />
        </div>
        {rows.length === 0 && <p className="home-hot__empty">{t('hot.empty')}</p>}
        {rows.map(({ info, ticker }) => {
          const href = tradePath('perp', info.symbol);
          const trend = trendOf(ticker?.changePct);
          return (
            <a
              key={info.symbol}
              role="row"
              href={href}
              className="home-hot__row"
              data-symbol={info.symbol}
              onClick={(e) => {
                e.preventDefault();
                onOpen(href);
              }}
            >
              <span role="cell" className="home-hot__pair">
                <b>{info.base}</b>
                <span className="home-muted">/{info.quote}</span>
                <span className="home-hot__name home-wide">{info.name}</span>
              </span>
              <span role="cell" className="home-num">
                <PriceCell value={ticker?.last} decimals={info.pricePrecision} trend={trend} />
              </span>
              <span role="cell" className="home-num">
                <ChangeBadge pct={ticker?.changePct} variant="badge" />
              </span>
              <span role="cell" className="home-num home-wide">{formatAbbreviated(ticker?.quoteVolume)}</span>
              <span role="cell" className="home-wide home-hot__spark">
                <Sparkline points={history(info.symbol)} trend={trend} width={110} height={32} />
              </span>
            </a>
          );
        })}
      </div>
    </section>
  );
}
