import type { MarketRow } from './marketList.ts';
import { ChangeBadge } from './ChangeBadge.tsx';
import { formatAbbreviated, trendOf } from '../../../format/number.ts';
import { PriceCell } from './PriceCell.tsx';
import { Sparkline } from './Sparkline.tsx';

export interface HotCardProps {
  row: MarketRow;
  /** Trade route the card opens. */
  href: string;
  onOpen: (path: string) => void;
  points?: readonly number[];
  volumeLabel: string;
}

/**
 * A hot-coin card (Market overview top strip): pair, live last price, 24 h change badge,
 * quote volume and a sparkline of recent ticks. It is a link, so it opens in a new tab too.
 */
export function HotCard({ row, href, onOpen, points, volumeLabel }: HotCardProps) {
  const { info, ticker } = row;
  const trend = trendOf(ticker?.changePct);
  return (
    <a
      className="mk-hot-card"
      href={href}
      data-symbol={info.symbol}
      onClick={(e) => {
        e.preventDefault();
        onOpen(href);
      }}
    >
      <div className="mk-hot-card__head">
        <span className="mk-pair__sym">
          {info.base}
          <span className="mk-pair__quote">/{info.quote}</span>
        </span>
        <ChangeBadge pct={ticker?.changePct} variant="badge" />
      </div>
      <div className="mk-hot-card__price">
        <PriceCell value={ticker?.last} decimals={info.pricePrecision} trend={trend} />
      </div>
      <div className="mk-hot-card__foot">
        <span className="mk-muted">
          {volumeLabel} {formatAbbreviated(ticker?.quoteVolume)}
        </span>
        {points && <Sparkline points={points} trend={trend} width={80} height={28} />}
      </div>
    </a>
  );
}

/** An empty card with the final card's boxes, shown while the market loads (issue 30: no layout shift). */
export function HotCardPlaceholder() {
  return (
    <div className="mk-hot-card mk-skel" aria-hidden="true">
      <div className="mk-hot-card__head">
        <span className="mk-pair__sym">{'\u00a0'}</span>
        <span className="mk-change mk-change--badge">{'\u00a0'}</span>
      </div>
      <div className="mk-hot-card__price">
        <span className="mk-price">{'\u00a0'}</span>
      </div>
      <div className="mk-hot-card__foot">
        <span className="mk-muted">{'\u00a0'}</span>
        <svg width={80} height={28} aria-hidden="true" />
      </div>
    </div>
  );
}
