import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CopyTrader } from '../../../protocol/copy.ts';
import { Button } from '../../components/Button.tsx';
import { pct, signedUsdt, trendClass, usdt } from '../../components/copy/copyModel.ts';
import { Sparkline } from './Sparkline.tsx';

/** One lead trader in the /copy list: name, 30-day return and PnL, win rate, followers, assets under copy, PnL line, Copy. */
export function TraderCard({ trader, copying, onCopy }: { trader: CopyTrader; copying: boolean; onCopy: (t: CopyTrader) => void }) {
  const { t } = useTranslation('copy');
  return (
    <li className="cp-trader" data-testid={`cp-trader-${trader.id}`}>
      <div className="cp-trader__head">
        <span className="cp-avatar" aria-hidden="true">{trader.nickname.slice(0, 1)}</span>
        <div>
          <Link to={`/copy/trader/${trader.id}`} className="cp-link cp-trader__name">{trader.nickname}</Link>
          {trader.simulated ? <span className="cp-tag">{t('simulated')}</span> : null}
        </div>
      </div>
      <div className="cp-trader__roi">
        <span className="cp-muted cp-small">{t('roi30')}</span>
        <b className={`rf-num ${trendClass(trader.roi30)}`}>{pct(trader.roi30)}</b>
      </div>
      <Sparkline series={trader.series} label={t('chartLabel', { name: trader.nickname })} width={240} height={40} fluid />
      <dl className="cp-stats">
        <div><dt>{t('pnl30')}</dt><dd className={`rf-num ${trendClass(trader.pnl30)}`}>{signedUsdt(trader.pnl30)}</dd></div>
        <div><dt>{t('winRate')}</dt><dd className="rf-num">{Number(trader.winRate).toFixed(2)}%</dd></div>
        <div><dt>{t('followers')}</dt><dd className="rf-num">{trader.followers}</dd></div>
        <div><dt>{t('aum')}</dt><dd className="rf-num">{usdt(trader.aum)}</dd></div>
      </dl>
      <Button size="sm" variant={copying ? 'secondary' : 'primary'} disabled={copying} onClick={() => onCopy(trader)} data-testid={`cp-copy-${trader.id}`}>
        {copying ? t('copying') : t('copy')}
      </Button>
    </li>
  );
}
