import type { MarketRow } from './marketList.ts';
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
  /** While the list loads: this many empty rows of the final height, so nothing below moves when the data arrives (issue 30). */
  placeholderRows?: number;
}

/** An empty row with the final row's boxes (a badge or volume cell of the same height). */
function PlaceholderRow({ metric }: { metric: RankListProps['metric'] }) {
  return (
    <li aria-hidden="true">
      <span className="mk-rank__row mk-skel">
        <span className="mk-rank__n">{'\u00a0'}</span>
        <span className="mk-pair__sym">{'\u00a0'}</span>
        <span className="mk-price">{'\u00a0'}</span>
        {metric === 'change' ? <span className="mk-change mk-change--badge">{'\u00a0'}</span> : <span className="mk-rank__vol">{'\u00a0'}</span>}
      </span>
    </li>
  );
}

/** A short ranked board (top gainers, top volume) on the Market overview. */
export function RankList({ title, rows, metric, pathOf, onOpen, testId, placeholderRows = 0 }: RankListProps) {
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
        {rows.length === 0 && Array.from({ length: placeholderRows }, (_, i) => <PlaceholderRow key={i} metric={metric} />)}
      </ol>
    </section>
  );
}
