import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { signedUsdt, trendClass } from '../../components/copy/copyModel.ts';
import { useMyCopyPositions, useMyFollows } from '../../components/copy/useCopyData.ts';
import '../../components/copy/copy.css';
import './dashboard.css';

/** The dashboard's copy-trading card: active copies, copied positions and their unrealized PnL, linking to /copy. */
export function CopyDashboardCard() {
  const { t } = useTranslation('copy');
  const follows = useMyFollows();
  const positions = useMyCopyPositions();
  const active = follows.load.status === 'ready' ? follows.load.data.filter((f) => f.status === 'active').length : null;
  const ps = positions.load.status === 'ready' ? positions.load.data : null;
  const upnl = ps ? String(ps.reduce((s, p) => s + Number(p.unrealizedPnl), 0)) : '0';
  return (
    <section className="acct-card dash-card cp-dash" aria-labelledby="cp-dash-h" data-testid="dash-copy">
      <h2 className="acct-card__title" id="cp-dash-h">{t('dashTitle')}</h2>
      <dl className="cp-stats">
        <div><dt>{t('dashCopies')}</dt><dd className="rf-num">{active ?? '—'}</dd></div>
        <div><dt>{t('dashPositions')}</dt><dd className="rf-num">{ps ? ps.length : '—'}</dd></div>
        <div><dt>{t('dashPnl')}</dt><dd className={`rf-num ${trendClass(upnl)}`}>{ps ? signedUsdt(upnl) : '—'}</dd></div>
      </dl>
      <Link className="acct-link dash-card__link" to="/copy">{t('dashOpen')}</Link>
    </section>
  );
}
