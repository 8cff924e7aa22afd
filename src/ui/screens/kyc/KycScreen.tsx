import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast.ts';
import type { KycStateName } from '../../../machines/kycMachine.ts';
import { PRODUCT_NAME } from '../../../protocol/user.ts';
import { useSessionSend } from '../../app/AppCoreProvider.tsx';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { SettingsNav } from '../../components/settings/SettingsNav.tsx';
import '../../components/settings/settings.css';
import { Button } from '../../components/Button.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { KycForm } from './KycForm.tsx';
import { KycStatusPanel, RejectionNotice } from './KycStatusPanel.tsx';
import { kycText } from './kycText.ts';
import '../../components/form/auth.css';
import './kyc.css';

/** The core's KYC form actor (src/core/screenMachines.ts). */
const KYC_REQUEST = { name: 'kyc' } as const;

const BADGE: Record<KycStateName, 'unverified' | 'review' | 'verified' | 'rejected' | null> = {
  loading: null,
  loadFailed: null,
  unverified: 'unverified',
  rejected: 'rejected',
  submitting: 'unverified',
  review: 'review',
  verified: 'verified',
};

/**
 * /my/settings/kyc (SPEC §3, §4, §5): identity verification, run by kycMachine. Unverified: the
 * SPEC §5 banner and the form; under review: what was sent (number masked) and when; verified: a
 * verified panel; rejected: the reviewer's reason above the form again. Decisions arrive live
 * as `kyc` user-socket frames; each status change also refetches user info (menus, dashboard).
 * Every request goes through the core's recorded Http port (useApi).
 */
export function KycScreen() {
  const { t } = useTranslation('kyc');
  const sendSession = useSessionSend();
  const [actor, send] = useScreenActor(KYC_REQUEST);
  const state = useSelector(actor, (s) => s.value as KycStateName);
  const status = useSelector(actor, (s) => s.context.status);
  const loadError = useSelector(actor, (s) => s.context.loadError);

  // One-shot outputs of a state change: toasts and a user-info refresh (kycStatus lives there too).
  const previous = useRef<KycStateName>(state);
  useEffect(() => {
    const from = previous.current;
    previous.current = state;
    if (from === state || from === 'loading' || from === 'loadFailed') return;
    if (state === 'review' && from === 'submitting') toast.success(t('msg_submitted'));
    else if (state === 'verified') toast.success(t('verifiedTitle'));
    else if (state === 'rejected' && from === 'review') toast.error(t('rejectedTitle'));
    if (state === 'review' || state === 'verified' || state === 'rejected' || state === 'unverified') sendSession({ type: 'user.fetchInfo' });
  }, [state, t, sendSession]);

  const badge = BADGE[state];
  const editable = state === 'unverified' || state === 'rejected' || state === 'submitting';

  return (
    <AccountLayout
      title={t('title')}
      sub={<SettingsNav />}
      actions={
        badge ? (
          <span className={`kyc-badge kyc-badge--${badge}`} data-testid="kyc-badge">
            {t(`status_${badge}`)}
          </span>
        ) : null
      }
    >
      {state === 'loading' ? (
        <div className="acct-card kyc-loading">
          <Spinner size={20} />
          <span className="acct-muted">{t('common:loading')}</span>
        </div>
      ) : null}
      {state === 'loadFailed' ? (
        <div className="acct-card">
          <p className="acct-error" role="alert">
            {t('loadFailed', { msg: kycText(t, loadError ?? 'Error') })}
          </p>
          <Button variant="secondary" size="sm" onClick={() => send({ type: 'kyc.retry' })}>
            {t('retry')}
          </Button>
        </div>
      ) : null}
      {editable ? (
        <>
          <p className="kyc-banner" role="note" data-testid="kyc-required">
            {t('common:kycRequired', { product: PRODUCT_NAME })}
          </p>
          {status && state === 'rejected' ? <RejectionNotice status={status} /> : null}
          {status && state === 'submitting' && status.latest?.status === 'rejected' ? <RejectionNotice status={status} /> : null}
          <section className="acct-card kyc-card">
            <h2 className="acct-card__title">{t('formTitle')}</h2>
            <p className="acct-muted kyc-intro">{t('formIntro')}</p>
            <KycForm actor={actor} send={send} />
          </section>
        </>
      ) : null}
      {status && (state === 'review' || state === 'verified') ? <KycStatusPanel status={status} kind={state} /> : null}
    </AccountLayout>
  );
}
