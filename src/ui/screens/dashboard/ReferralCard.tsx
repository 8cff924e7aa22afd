import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatStatement } from '../../../format/number.ts';
import { useReferralSummary } from '../rebate/useReferral.ts';
import '../rebate/rebate.css';

/**
 * The dashboard's referral card (issue 15): total and yesterday's rebate earnings and the number
 * of invited users at a glance, linking to /my/rebate. Self-contained: it reads the same core live
 * query as the rebate page.
 */
export function ReferralCard() {
  const { t } = useTranslation('referral');
  const load = useReferralSummary();
  const s = load.status === 'ready' ? load.data : null;
  return (
    <section className="acct-card rb-card" aria-labelledby="dash-referral-title" data-testid="dash-referral">
      <div>
        <h2 className="acct-card__title" id="dash-referral-title">{t('cardTitle')}</h2>
        <div className="rb-card__figures">
          <b className="rb-stat__value rf-num" data-testid="dash-referral-total">{s ? `${formatStatement(s.totalEarnings, s.coin)} ${s.coin}` : '—'}</b>
          <span className="acct-muted">{s ? t('cardYesterday', { amount: formatStatement(s.yesterdayEarnings, s.coin), coin: s.coin }) : null}</span>
          <span className="acct-muted">{s ? t('cardInvited', { n: s.totalInvited }) : null}</span>
        </div>
      </div>
      <Link className="acct-link" to="/my/rebate">
        {t('cardOpen')}
      </Link>
    </section>
  );
}
