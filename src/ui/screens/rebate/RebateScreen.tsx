import { useTranslation } from 'react-i18next';
import { ratePercent, type Invitee } from '../../../protocol/referral.ts';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useCopy } from '../../hooks/useCopy.ts';
import { useDevice } from '../../hooks/usePrefs.ts';
import { isPage, useViewState } from '../../hooks/useViewState.ts';
import { formatStatement } from '../../../format/number.ts';
import { RowList, type Column } from '../../components/history/columns.tsx';
import { formatDateTime } from '../../../format/date.ts';
import { Pager } from '../../components/Pager.tsx';
import { InviteQr } from './InviteQr.tsx';
import { absoluteLink, useInvitees, useReferralSummary } from '../../hooks/useReferral.ts';
import '../../components/history/orders.css';
import './rebate.css';

/**
 * /my/rebate (issue 15, docs/REFERRAL.md): the caller's invitation code and link (opens /register
 * with the code filled in) with copy buttons (SPEC §8 copy messages) and the link's QR code; the
 * rebate rate, total earnings, yesterday's earnings (previous UTC day on the server clock) and
 * the number of invited users; the invitees (masked email, sign-up time, volume, fees, rebate
 * produced), paged. Both reads are core live queries that follow the fund wallet's `balance`
 * frames, so a rebate shows up while the page is open.
 */
export function RebateScreen() {
  const { t } = useTranslation('referral');
  const mobile = useDevice() === 'mobile';
  const copy = useCopy();
  const summary = useReferralSummary();
  // The invitees' page is view state (issue 16): in the record, shown again by a replay.
  const [page, setPage] = useViewState<number>('rebate.page', 1, isPage);
  const invitees = useInvitees(page);
  const s = summary.status === 'ready' ? summary.data : null;
  const link = s ? absoluteLink(s.link, window.location.origin) : '';
  const money = (v: string | undefined) => (s && v !== undefined ? `${formatStatement(v, s.coin)} ${s.coin}` : '—');

  const columns: Column<Invitee>[] = [
    { key: 'email', label: t('account'), head: true, render: (i) => <b>{i.email}</b> },
    { key: 'registered', label: t('registeredAt'), render: (i) => formatDateTime(i.registeredAt) },
    { key: 'volume', label: t('volume'), num: true, render: (i) => `${formatStatement(i.volume, 'USDT')} USDT` },
    { key: 'fees', label: t('fees'), num: true, render: (i) => `${formatStatement(i.fees, 'USDT')} USDT` },
    { key: 'rebate', label: t('rebate'), num: true, render: (i) => <span className="acct-up">{`${formatStatement(i.rebate, 'USDT')} USDT`}</span> },
  ];

  return (
    <AccountLayout title={t('title')}>
      {summary.status === 'error' ? <p className="acct-error" role="alert">{summary.msg}</p> : null}
      <section className="acct-card rb-invite" aria-labelledby="rb-invite-title">
        <div className="rb-invite__body">
          <h2 className="acct-card__title" id="rb-invite-title">{s ? t('subtitle', { rate: s.ratePercent }) : t('title')}</h2>
          <div className="rb-field">
            <span className="acct-muted" id="rb-code-label">{t('myCode')}</span>
            <div className="rb-field__row">
              <output className="rb-field__value rb-code rf-num" aria-labelledby="rb-code-label" data-testid="rebate-code">{s?.code ?? '—'}</output>
              <Button variant="secondary" size="sm" disabled={!s} onClick={() => void copy(s?.code)} data-testid="rebate-copy-code">
                {t('copyCode')}
              </Button>
            </div>
          </div>
          <div className="rb-field">
            <span className="acct-muted" id="rb-link-label">{t('myLink')}</span>
            <div className="rb-field__row">
              <output className="rb-field__value rb-link" aria-labelledby="rb-link-label" data-testid="rebate-link">{link || '—'}</output>
              <Button variant="primary" size="sm" disabled={!s} onClick={() => void copy(link)} data-testid="rebate-copy-link">
                {t('copyLink')}
              </Button>
            </div>
          </div>
        </div>
        <figure className="rb-invite__qr">
          {link ? <InviteQr link={link} alt={t('qrAlt')} /> : <div className="rb-qr" style={{ width: 160, height: 160 }} />}
          <figcaption className="acct-muted">{t('qrHint')}</figcaption>
        </figure>
      </section>

      <section className="rb-stats" aria-label={t('title')}>
        <div className="acct-card rb-stat">
          <span className="acct-muted">{t('rate')}</span>
          <b className="rb-stat__value rf-num" data-testid="rebate-rate">{s ? `${s.ratePercent}%` : '—'}</b>
        </div>
        <div className="acct-card rb-stat">
          <span className="acct-muted">{t('totalEarnings')}</span>
          <b className="rb-stat__value rf-num" data-testid="rebate-total">{money(s?.totalEarnings)}</b>
          {s ? <span className="acct-muted rb-stat__sub" data-testid="rebate-today">{t('todayEarnings', { amount: formatStatement(s.todayEarnings, s.coin), coin: s.coin })}</span> : null}
        </div>
        <div className="acct-card rb-stat">
          <span className="acct-muted">{t('yesterdayEarnings')}</span>
          <b className="rb-stat__value rf-num" data-testid="rebate-yesterday">{money(s?.yesterdayEarnings)}</b>
        </div>
        <div className="acct-card rb-stat">
          <span className="acct-muted">{t('totalInvited')}</span>
          <b className="rb-stat__value rf-num" data-testid="rebate-invited">{s ? s.totalInvited : '—'}</b>
        </div>
      </section>

      <section className={mobile ? 'rb-list' : 'acct-card acct-card--flush rb-list'} aria-labelledby="rb-list-title">
        <h2 className="acct-card__title rb-list__title" id="rb-list-title">{t('invitees')}</h2>
        {invitees.status === 'error' ? (
          <p className="acct-error orders-pad" role="alert">{invitees.msg}</p>
        ) : invitees.status === 'loading' ? (
          <p className="acct-muted orders-pad">{t('common:loading')}</p>
        ) : invitees.data.list.length === 0 ? (
          <EmptyState text={t('noInvitees')} />
        ) : (
          <div data-testid="rebate-invitees">
            <RowList rows={invitees.data.list} columns={columns} rowKey={(i) => `${i.email}|${i.registeredAt}`} mobile={mobile} label={t('invitees')} />
          </div>
        )}
        {invitees.status === 'ready' ? <Pager page={page} total={invitees.data.total} pageSize={invitees.data.pageSize} onPage={setPage} /> : null}
      </section>

      <section className="acct-card rb-rules" aria-labelledby="rb-rules-title">
        <h2 className="acct-card__title" id="rb-rules-title">{t('rulesTitle')}</h2>
        <ol>
          <li>{t('rule1')}</li>
          <li>{t('rule2', { rate: s?.ratePercent ?? ratePercent() })}</li>
          <li>{t('rule3')}</li>
        </ol>
      </section>
    </AccountLayout>
  );
}
