import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../format/number.ts';
import type { Trade } from '../../../protocol/market.ts';

/** HH:MM:SS of a unix-ms time in the viewer's zone. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Latest trades, newest first, coloured by the taker side (--up buy, --down sell). */
export function LatestTrades({ trades, pricePrecision, qtyPrecision, rows = 24 }: { trades: readonly Trade[]; pricePrecision: number; qtyPrecision: number; rows?: number }) {
  const { t } = useTranslation('trade');
  return (
    // A scrollable region is reachable by keyboard (tabIndex 0) and named.
    <section className="rf-trades" aria-label={t('latestTrades')} tabIndex={0}>
      <header className="rf-ob-head">
        <span>{t('latestTrades')}</span>
      </header>
      <div className="rf-ob-cols">
        <span>{t('price')}</span>
        <span>{t('amount')}</span>
        <span>{t('time')}</span>
      </div>
      {trades.length === 0 && <p className="rf-ob-status">{t('loading')}</p>}
      {trades.slice(0, rows).map((tr) => (
        <div key={tr.id} className="rf-trade-row" data-testid="trade-row">
          <span className={`rf-num ${tr.side === 'buy' ? 'rf-up' : 'rf-down'}`}>{formatNumber(tr.price, pricePrecision)}</span>
          <span className="rf-num">{formatNumber(tr.qty, qtyPrecision)}</span>
          <span className="rf-num">{clockTime(tr.ts)}</span>
        </div>
      ))}
    </section>
  );
}
