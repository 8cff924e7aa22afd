import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatPercent } from '../../../format/number.ts';
import type { OrderBookState } from '../../../streams/orderBook.ts';
import { selectBookSummary, selectGroupedBook, tickGroupingOptions, type GroupedRow } from '../../../streams/orderBookSelectors.ts';

export interface OrderBookProps {
  book: OrderBookState;
  tickSize: number;
  qtyPrecision: number;
  /** Last traded price, shown between the sides. */
  lastPrice: number | null;
  lastUp: boolean;
  /** Rows per side. */
  rows?: number;
  /** Clicking a level fills the order panel's price. */
  onPickPrice?: (price: string) => void;
}

/**
 * The order book: asks (best at the bottom) above the last price and spread, bids (best at the
 * top) below, grouped at a precision step (1, 2, 5, 10 ticks; asks rounded up, bids down, see
 * orderBookSelectors.ts), with a depth bar behind each row sized by the cumulative quantity.
 */
export function OrderBook({ book, tickSize, qtyPrecision, lastPrice, lastUp, rows = 12, onPickPrice }: OrderBookProps) {
  const { t } = useTranslation('trade');
  const options = useMemo(() => tickGroupingOptions(tickSize, [1, 2, 5, 10]), [tickSize]);
  const [stepIndex, setStepIndex] = useState(0);
  const opt = options[Math.min(stepIndex, options.length - 1)] ?? options[0];
  const step = opt?.step ?? tickSize;
  const decimals = opt?.decimals ?? 2;
  const grouped = selectGroupedBook(book, step, rows);
  const summary = selectBookSummary(book);
  const maxTotal = Math.max(grouped.bids[grouped.bids.length - 1]?.total ?? 0, grouped.asks[grouped.asks.length - 1]?.total ?? 0) || 1;
  const asks = [...grouped.asks].reverse();

  const row = (r: GroupedRow, side: 'bid' | 'ask') => (
    <button
      key={`${side}${r.price}`}
      type="button"
      className={`rf-ob-row is-${side}`}
      onClick={() => onPickPrice?.(r.price.toFixed(decimals))}
      data-testid={`ob-${side}`}
    >
      <span className="rf-ob-bar" style={{ width: `${(r.total / maxTotal) * 100}%` }} />
      <span className={`rf-num ${side === 'bid' ? 'rf-up' : 'rf-down'}`}>{r.label}</span>
      <span className="rf-num">{formatNumber(r.qty, qtyPrecision)}</span>
      <span className="rf-num">{formatNumber(r.total, qtyPrecision)}</span>
    </button>
  );

  return (
    <section className="rf-ob" aria-label={t('orderBook')}>
      <header className="rf-ob-head">
        <span>{t('orderBook')}</span>
        <label className="rf-ob-step">
          <span className="rf-sr">{t('precision')}</span>
          <select value={stepIndex} onChange={(e) => setStepIndex(Number(e.target.value))} aria-label={t('precision')}>
            {options.map((o, i) => (
              <option key={o.label} value={i}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
      </header>
      <div className="rf-ob-cols">
        <span>{t('price')}</span>
        <span>{t('amount')}</span>
        <span>{t('total')}</span>
      </div>
      <div className="rf-ob-side is-asks">{asks.map((r) => row(r, 'ask'))}</div>
      <div className="rf-ob-mid" data-testid="ob-spread">
        <strong className={`rf-num ${lastUp ? 'rf-up' : 'rf-down'}`}>{lastPrice === null ? '--' : formatNumber(lastPrice, decimals)}</strong>
        <span className="rf-num">
          {t('spread')} {summary.spread === null ? '--' : formatNumber(summary.spread, decimals)}
          {summary.spreadPct === null ? '' : ` (${formatPercent(summary.spreadPct, 3).replace('+', '')})`}
        </span>
      </div>
      <div className="rf-ob-side is-bids">{grouped.bids.map((r) => row(r, 'bid'))}</div>
      {book.status !== 'live' && <p className="rf-ob-status">{book.status === 'resync' ? t('resyncing') : t('loading')}</p>}
    </section>
  );
}
