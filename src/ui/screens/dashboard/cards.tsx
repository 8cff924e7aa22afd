import type { ComponentType, ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatScaled, parseScaled, sumDecimals } from '../../../protocol/decimal.ts';
import type { DashboardSummary } from '../../../protocol/help.ts';
import { useSession } from '../../app/AppCoreProvider.tsx';
import type { Load } from '../../hooks/useLiveGet.ts';
import { usePositions } from '../../components/account/useAccountData.ts';
import { ReferralCard } from './ReferralCard.tsx';
import { CopyDashboardCard } from './CopyDashboardCard.tsx';

/** What every dashboard card receives: the server's summary of today (one request for all cards). */
export interface DashboardCardProps {
  summary: Load<DashboardSummary>;
}

/** One slot of the dashboard's card row. */
export interface DashboardCardDef {
  key: string;
  Card: ComponentType<DashboardCardProps>;
}

/** The frame of a card: a title, the figure, an optional line under it, and the link to its page. */
export function DashCard({ id, title, value, sub, to, linkLabel, tone }: {
  id: string;
  title: string;
  value: ReactNode;
  sub?: ReactNode;
  to: string;
  linkLabel: string;
  tone?: 'up' | 'down';
}) {
  return (
    <section className="acct-card dash-card" data-testid={`dash-card-${id}`} aria-labelledby={`dash-card-${id}-title`}>
      <h2 className="acct-card__title" id={`dash-card-${id}-title`}>
        {title}
      </h2>
      <p className={`dash-card__value rf-num${tone ? ` acct-${tone}` : ''}`} data-testid={`dash-card-${id}-value`}>
        {value}
      </p>
      {sub ? <p className="acct-muted dash-card__sub">{sub}</p> : null}
      <Link className="acct-link dash-card__link" to={to}>
        {linkLabel}
      </Link>
    </section>
  );
}

/** A signed decimal string with 2 decimals ('+6.20', '-1.05', '0.00'). */
export function signed2(text: string): { text: string; tone?: 'up' | 'down' } {
  const v = parseScaled(text) ?? 0n;
  const body = formatScaled(v, 2);
  if (body === '0.00' || body === '-0.00') return { text: '0.00' };
  return v > 0n ? { text: `+${body}`, tone: 'up' } : { text: body, tone: 'down' };
}

function TodayPnlCard({ summary }: DashboardCardProps) {
  const { t } = useTranslation('dashboard');
  const { positions, loaded } = usePositions();
  const unrealized = useMemo(() => formatScaled(sumDecimals(positions.map((p) => p.unrealizedPnl)), 6), [positions]);
  if (summary.status !== 'ready') {
    return <DashCard id="pnl" title={t('todayPnl')} value="—" sub={summary.status === 'error' ? summary.msg : t('todayPnlHint')} to="/my/order/futures" linkLabel={t('viewOrders')} />;
  }
  const today = signed2(summary.data.todayRealizedPnl);
  const open = signed2(unrealized);
  return (
    <DashCard
      id="pnl"
      title={t('todayPnl')}
      value={`${today.text} USDT`}
      tone={today.tone}
      sub={
        <>
          {t('todayPnlHint')} · {t('todayTrades', { count: summary.data.todayTrades })}
          {loaded && positions.length > 0 ? (
            <>
              <br />
              {t('unrealized')}: <span className={open.tone ? `acct-${open.tone}` : undefined}>{open.text} USDT</span>
            </>
          ) : null}
        </>
      }
      to="/my/order/futures"
      linkLabel={t('viewOrders')}
    />
  );
}

function IdentityCard() {
  const { t } = useTranslation('dashboard');
  const { t: ta } = useTranslation('assets');
  const kyc = useSession().userInfo?.kycStatus ?? 'unverified';
  return (
    <DashCard
      id="kyc"
      title={t('identity')}
      value={<span className={`dash-badge dash-badge--${kyc}`}>{ta(`kyc_${kyc}`)}</span>}
      to="/my/settings/kyc"
      linkLabel={t('viewKyc')}
    />
  );
}

function VouchersCard({ summary }: DashboardCardProps) {
  const { t } = useTranslation('dashboard');
  return (
    <DashCard
      id="vouchers"
      title={t('vouchers')}
      value={summary.status === 'ready' ? String(summary.data.usableVouchers) : '—'}
      sub={summary.status === 'error' ? summary.msg : t('vouchersHint')}
      to="/my/coupon"
      linkLabel={t('viewVouchers')}
    />
  );
}

/**
 * THE dashboard's card row, in order. A feature adds its card with ONE line here (a component that
 * reads its own data through the core, see DashCard for the frame):
 * - SLOT referral earnings (/my/rebate): `{ key: 'referral', Card: ReferralEarningsCard },`
 * - SLOT copy positions (/copy): `{ key: 'copy', Card: CopyPositionsCard },`
 */
export const DASHBOARD_CARDS: readonly DashboardCardDef[] = [
  { key: 'pnl', Card: TodayPnlCard },
  { key: 'kyc', Card: IdentityCard },
  { key: 'vouchers', Card: VouchersCard },
  { key: 'referral', Card: ReferralCard },
  { key: 'copy', Card: CopyDashboardCard },
];
