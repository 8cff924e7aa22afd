import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatStatement } from '../../../format/number.ts';
import { useReferralSummary } from '../../hooks/useReferral.ts';
import './dashboard.css';

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
    <section className="acct-card dash-card" aria-labelledby="dash-referral-title" data-testid="dash-referral">
      <h2 className="acct-card__title" id="dash-referral-title">{t('cardTitle')}</h2>
      <p className="dash-card__value rf-num" data-testid="dash-referral-total">{s ? `${formatStatement(s.totalEarnings, s.coin)} ${s.coin}` : '—'}</p>
      {s ? (
        <p className="acct-muted dash-card__sub">
          {t('cardYesterday', { amount: formatStatement(s.yesterdayEarnings, s.coin), coin: s.coin })}
          <br />
          {t('cardInvited', { n: s.totalInvited })}
        </p>
      ) : null}
      <Link className="acct-link dash-card__link" to="/my/rebate">
        {t('cardOpen')}
      </Link>
    </section>
  );
}
