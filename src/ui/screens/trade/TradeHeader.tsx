import { useTranslation } from 'react-i18next';
import { formatAbbreviated, formatNumber, formatPercent } from '../../../format/number.ts';
import type { ContractKind, SymbolInfo } from '../../../protocol/market.ts';
import type { TickerState } from '../../../streams/ticker.ts';
import { PairSwitcher } from './PairSwitcher.tsx';
import { formatCountdown, untilNextCharge } from '../../../format/date.ts';

/** Pair switcher plus the 24 h ticker of the pair (last, change, high, low, volume, funding). */
export function TradeHeader({ symbol, contract, symbols, info, ticker, onPick }: { symbol: string; contract: ContractKind; symbols: readonly SymbolInfo[] | null; info: SymbolInfo | null; ticker: TickerState; onPick: (s: string) => void }) {
  const { t } = useTranslation('trade');
  const tk = ticker.ticker;
  const pp = info?.pricePrecision ?? 2;
  const up = (tk?.changePct ?? 0) >= 0;
  const countdown = tk ? formatCountdown(untilNextCharge(tk.ts, contract === 'perp' ? 8 : 24)) : '';
  return (
    <header className="rf-th">
      <h1 className="rf-sr-only">{`${symbol} ${t(contract === 'perp' ? 'perpetual' : 'standard')}`}</h1>
      <PairSwitcher symbol={symbol} symbols={symbols} onPick={onPick} />
      <span className="rf-th-kind">{t(contract === 'perp' ? 'perpetual' : 'standard')}</span>
      <strong className={`rf-th-last rf-num ${up ? 'rf-up' : 'rf-down'}`} data-testid="last-price">
        {tk ? formatNumber(tk.last, pp) : '--'}
      </strong>
      <dl className="rf-th-stats">
        <div>
          <dt>{t('change24h')}</dt>
          <dd className={`rf-num ${up ? 'rf-up' : 'rf-down'}`}>{tk ? formatPercent(tk.changePct) : '--'}</dd>
        </div>
        <div>
          <dt>{t('high24h')}</dt>
          <dd className="rf-num">{tk ? formatNumber(tk.high, pp) : '--'}</dd>
        </div>
        <div>
          <dt>{t('low24h')}</dt>
          <dd className="rf-num">{tk ? formatNumber(tk.low, pp) : '--'}</dd>
        </div>
        <div>
          <dt>{t('vol24h')}</dt>
          <dd className="rf-num">{tk ? formatAbbreviated(tk.volume) : '--'}</dd>
        </div>
        <div>
          <dt>{t('turnover24h')}</dt>
          <dd className="rf-num">{tk ? formatAbbreviated(tk.quoteVolume) : '--'}</dd>
        </div>
        {/* Always there ('--' until the data comes), so the header keeps its height (issue 30: no layout shift). */}
        <div>
          <dt>{t('markPrice')}</dt>
          <dd className="rf-num">{tk?.mark !== undefined ? formatNumber(tk.mark, pp) : '--'}</dd>
        </div>
        <div>
          <dt>{t(contract === 'perp' ? 'fundingRate' : 'overnightFee')}</dt>
          <dd className="rf-num">
            {info ? formatPercent((contract === 'perp' ? info.fundingRateRatio : info.overnightFeeRatio) * 100, 4).replace('+', '') : '--'}
            {/* Issue 26: the countdown to the next charge, on the market's clock (each ticker frame's ts). */}
            {tk ? (
              <span className="rf-th-countdown" data-testid="funding-countdown" title={t(contract === 'perp' ? 'nextFundingIn' : 'nextOvernightIn', { time: countdown })}>
                <span className="rf-sr-only">{t(contract === 'perp' ? 'nextFundingIn' : 'nextOvernightIn', { time: '' })}</span>
                {countdown}
              </span>
            ) : null}
          </dd>
        </div>
      </dl>
    </header>
  );
}
