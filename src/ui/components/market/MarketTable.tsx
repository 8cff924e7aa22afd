import { memo } from 'react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContractKind } from '../../../protocol/market.ts';
import type { MarketRow, Sort, SortKey } from './marketList.ts';
import { tradePath } from './marketList.ts';
import { ChangeBadge } from './ChangeBadge.tsx';
import { FavoriteStar } from './FavoriteStar.tsx';
import { formatPrice, formatAbbreviated, trendOf } from '../../../format/number.ts';
import { PriceCell } from './PriceCell.tsx';
import { Sparkline } from './Sparkline.tsx';

export interface MarketTableProps {
  rows: readonly MarketRow[];
  kind: ContractKind;
  favorites: ReadonlySet<string>;
  onToggleFavorite: (symbol: string) => void;
  sort: Sort;
  onSort: (key: SortKey) => void;
  /** Called with the trade route of the clicked row (/mFutures/X or /stdFuture/X). */
  onOpen: (path: string) => void;
  /** Recent last prices per symbol for the trend column; omitted = no trend column. */
  history?: (symbol: string) => readonly number[];
  emptyText: string;
}

const COLUMNS: readonly { key: SortKey; label: string; cls: string }[] = [
  { key: 'pair', label: 'col.pair', cls: 'mk-col-pair' },
  { key: 'last', label: 'col.last', cls: 'mk-col-num' },
  { key: 'change', label: 'col.change', cls: 'mk-col-num' },
  { key: 'high', label: 'col.high', cls: 'mk-col-num mk-col-wide' },
  { key: 'low', label: 'col.low', cls: 'mk-col-num mk-col-wide' },
  { key: 'volume', label: 'col.volume', cls: 'mk-col-num mk-col-wide' },
];

/**
 * The contract list: sortable headers, favourites star, live prices. On phones the CSS
 * hides the high / low / volume / trend / action columns and turns the change into a badge,
 * which gives the compact pair · price · change list.
 */
export function MarketTable({ rows, kind, favorites, onToggleFavorite, sort, onSort, onOpen, history, emptyText }: MarketTableProps) {
  const { t } = useTranslation('market');
  return (
    <table className="mk-table" data-testid="market-table">
      <thead>
        <tr>
          {COLUMNS.map((c) => {
            const dir = sort?.key === c.key ? sort.dir : null;
            return (
              <th
                key={c.key}
                className={c.cls}
                aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}
              >
                <button type="button" className="mk-sort" onClick={() => onSort(c.key)} aria-label={t('sort.by', { col: t(c.label) })}>
                  {t(c.label)}
                  <span className={`mk-sort__arrows${dir ? ` mk-sort__arrows--${dir}` : ''}`} aria-hidden="true">
                    <i />
                    <i />
                  </span>
                </button>
              </th>
            );
          })}
          {history && <th className="mk-col-trend mk-col-wide">{t('col.trend')}</th>}
          <th className="mk-col-action mk-col-wide">{t('col.action')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={COLUMNS.length + (history ? 2 : 1)} className="mk-empty">
              {emptyText}
            </td>
          </tr>
        )}
        {rows.map(({ info, ticker }) => (
          <MarketRowView
            key={info.symbol}
            info={info}
            ticker={ticker}
            kind={kind}
            favorite={favorites.has(info.symbol)}
            onToggleFavorite={onToggleFavorite}
            onOpen={onOpen}
            points={history?.(info.symbol)}
            tradeLabel={t('trade')}
            starLabel={t(favorites.has(info.symbol) ? 'fav.remove' : 'fav.add', { pair: info.symbol })}
          />
        ))}
      </tbody>
    </table>
  );
}

interface MarketRowViewProps {
  info: MarketRow['info'];
  ticker: MarketRow['ticker'];
  kind: ContractKind;
  favorite: boolean;
  onToggleFavorite: (symbol: string) => void;
  onOpen: (path: string) => void;
  /** The trend column's points (undefined: no trend column). */
  points: readonly number[] | undefined;
  tradeLabel: string;
  /** The favourites star's name (translated here once per list render, not by a hook in every row). */
  starLabel: string;
}

/**
 * Whether a row shows the same thing as before (issue 30: a ticker batch changes a few symbols, so
 * the other rows of the list must not render again). Tickers and trend points are replaced, never
 * mutated, when they change (src/core/marketTickers.ts), so identity says it; the handlers are
 * the screen's (they act on a symbol or path given to them, never on what the row showed).
 */
export function sameMarketRow(a: MarketRowViewProps, b: MarketRowViewProps): boolean {
  return a.info === b.info && a.ticker === b.ticker && a.kind === b.kind && a.favorite === b.favorite && a.points === b.points && a.tradeLabel === b.tradeLabel && a.starLabel === b.starLabel;
}

const MarketRowView = memo(function MarketRowView({ info, ticker, kind, favorite, onToggleFavorite, onOpen, points, tradeLabel, starLabel }: MarketRowViewProps) {
  const path = tradePath(kind, info.symbol);
  const trend = trendOf(ticker?.changePct);
  return (
    <tr
      className="mk-row"
      data-symbol={info.symbol}
      tabIndex={0}
      onClick={() => onOpen(path)}
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key === 'Enter') onOpen(path);
      }}
    >
      <td className="mk-col-pair">
        <div className="mk-pair">
          <FavoriteStar symbol={info.symbol} active={favorite} onToggle={onToggleFavorite} label={starLabel} />
          <span className="mk-pair__text">
            <span className="mk-pair__sym">
              {info.base}
              <span className="mk-pair__quote">/{info.quote}</span>
            </span>
            <span className="mk-pair__name">{info.name}</span>
          </span>
        </div>
      </td>
      <td className="mk-col-num">
        <PriceCell value={ticker?.last} decimals={info.pricePrecision} trend={trend} />
      </td>
      <td className="mk-col-num mk-col-change">
        <ChangeBadge pct={ticker?.changePct} variant="text" />
      </td>
      <td className="mk-col-num mk-col-wide">{formatPrice(ticker?.high, info.pricePrecision)}</td>
      <td className="mk-col-num mk-col-wide">{formatPrice(ticker?.low, info.pricePrecision)}</td>
      <td className="mk-col-num mk-col-wide">{formatAbbreviated(ticker?.quoteVolume)}</td>
      {points && (
        <td className="mk-col-trend mk-col-wide">
          <Sparkline points={points} trend={trend} />
        </td>
      )}
      <td className="mk-col-action mk-col-wide">
        <span className="mk-trade-link">{tradeLabel}</span>
      </td>
    </tr>
  );
}, sameMarketRow);
