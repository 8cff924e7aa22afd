import { useTranslation } from 'react-i18next';
import type { KycStatusDto, KycSubmissionSummary } from '../../../protocol/kyc.ts';
import { parseLang } from '../../i18n/languages.ts';
import { formatDateTime } from '../../../format/date.ts';
import { countryName, kycText } from './kycText.ts';

/** What was submitted (number masked by the server, never the photos), as a definition list. */
export function SubmissionSummary({ sub }: { sub: KycSubmissionSummary }) {
  const { t, i18n } = useTranslation('kyc');
  const rows: [string, string][] = [
    [t('country'), countryName(parseLang(i18n.language), sub.country)],
    [t('docType'), t(`doc_${sub.docType}`)],
    [t('name'), `${sub.firstName} ${sub.lastName}`],
    [t('docNumber'), sub.docNumberMasked],
    [t('submittedAt'), formatDateTime(sub.submittedAt)],
  ];
  if (sub.reviewedAt !== null) rows.push([t('reviewedAt'), formatDateTime(sub.reviewedAt)]);
  return (
    <section className="kyc-summary" aria-label={t('summaryTitle')}>
      <h3 className="kyc-summary__title">{t('summaryTitle')}</h3>
      <dl className="kyc-summary__list">
        {rows.map(([k, v]) => (
          <div key={k} className="kyc-summary__row">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function StatusIcon({ kind }: { kind: 'review' | 'verified' | 'rejected' }) {
  return (
    <span className={`kyc-icon kyc-icon--${kind}`} aria-hidden="true">
      <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        {kind === 'verified' ? <path d="M5 12.5l4.5 4.5L19 7.5" /> : kind === 'review' ? <><circle cx="12" cy="12" r="8.5" /><path d="M12 7.5V12l3 2" /></> : <path d="M7 7l10 10M17 7L7 17" />}
      </svg>
    </span>
  );
}

/** Under review or verified: a status card with the submitted details. */
export function KycStatusPanel({ status, kind }: { status: KycStatusDto; kind: 'review' | 'verified' }) {
  const { t } = useTranslation('kyc');
  return (
    <section className={`acct-card kyc-status kyc-status--${kind}`} data-testid={`kyc-${kind}`} aria-live="polite">
      <div className="kyc-status__head">
        <StatusIcon kind={kind} />
        <div>
          <h2 className="kyc-status__title">{t(kind === 'review' ? 'reviewTitle' : 'verifiedTitle')}</h2>
          <p className="acct-muted kyc-status__text">{t(kind === 'review' ? 'reviewText' : 'verifiedText')}</p>
        </div>
      </div>
      {status.latest ? <SubmissionSummary sub={status.latest} /> : null}
    </section>
  );
}

/** The rejection notice above the form: the reviewer's reason, verbatim. */
export function RejectionNotice({ status }: { status: KycStatusDto }) {
  const { t } = useTranslation('kyc');
  const reason = status.latest?.reason ?? '';
  return (
    <section className="kyc-rejected" role="alert" data-testid="kyc-rejected">
      <StatusIcon kind="rejected" />
      <div>
        <h2 className="kyc-status__title">{t('rejectedTitle')}</h2>
        <p className="kyc-rejected__reason">
          <span>{t('reason')}: </span>
          <b data-testid="kyc-reason">{kycText(t, reason)}</b>
        </p>
        <p className="acct-muted">{t('rejectedText')}</p>
      </div>
    </section>
  );
}
