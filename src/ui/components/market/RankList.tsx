import type { MarketRow } from '../../screens/market/marketList.ts';
import { ChangeBadge } from './ChangeBadge.tsx';
import { formatAbbreviated, trendOf } from '../../../format/number.ts';
import { PriceCell } from './PriceCell.tsx';

export interface RankListProps {
  title: string;
  rows: readonly MarketRow[];
  /** What the right-hand column shows: the change badge (gainers) or the volume (top volume). */
  metric: 'change' | 'volume';
  pathOf: (symbol: string) => string;
  onOpen: (path: string) => void;
  testId: string;
}

/** A short ranked board (top gainers, top volume) on the Market overview. */
export function RankList({ title, rows, metric, pathOf, onOpen, testId }: RankListProps) {
  return (
    <section className="mk-rank" data-testid={testId}>
      <h2 className="mk-rank__title">{title}</h2>
      <ol className="mk-rank__list">
        {rows.map(({ info, ticker }, i) => {
          const href = pathOf(info.symbol);
          return (
            <li key={info.symbol}>
              <a
                className="mk-rank__row"
                href={href}
                data-symbol={info.symbol}
                onClick={(e) => {
                  e.preventDefault();
                  onOpen(href);
                }}
              >
                <span className={`mk-rank__n${i < 3 ? ' mk-rank__n--top' : ''}`}>{i + 1}</span>
                <span className="mk-pair__sym">
                  {info.base}
                  <span className="mk-pair__quote">/{info.quote}</span>
                </span>
                <PriceCell value={ticker?.last} decimals={info.pricePrecision} trend={trendOf(ticker?.changePct)} />
                {metric === 'change' ? (
                  <ChangeBadge pct={ticker?.changePct} variant="badge" />
                ) : (
                  <span className="mk-rank__vol">{formatAbbreviated(ticker?.quoteVolume)}</span>
                )}
              </a>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
