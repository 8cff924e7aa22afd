import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from '../../components/toast.ts';
import type { RegisterBody } from '../../../protocol/user.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { AuthLayout } from '../../components/form/AuthLayout.tsx';
import { errorText } from '../../components/form/errorText.ts';
import { FormField } from '../../components/form/FormField.tsx';
import { PasswordCodeForm } from '../../components/form/PasswordCodeForm.tsx';

/**
 * /register (SPEC §2, §5). The referral code is optional and prefilled from `?code=` (the
 * invitation link of /my/rebate), `?inviteCode=` or `?ref=`. Submitting with the agreement unchecked shows the inline agreement message and
 * the 'Please check the user agreement' prompt; on success the server msg is toasted and the
 * user lands on /login with the email prefilled.
 */
export function RegisterScreen() {
  const { t } = useTranslation('auth');
  const api = useApi();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [inviteCode, setInviteCode] = useState(() => params.get('code') ?? params.get('inviteCode') ?? params.get('ref') ?? '');
  const [agree, setAgree] = useState(false);
  const [agreeError, setAgreeError] = useState(false);

  const checkAgreement = () => {
    setAgreeError(!agree);
    if (!agree) toast.error(errorText(t, 'registerAgreement'));
    return agree;
  };

  return (
    <AuthLayout>
      <PasswordCodeForm
        label={t('registerTitle')}
        mailCode="register"
        header={
          <>
            <h1 className="auth-title">{t('registerTitle')}</h1>
            <p className="auth-subtitle">{t('registerSubtitle')}</p>
          </>
        }
        labels={{ password: t('password'), confirm: t('confirmPassword'), submit: t('registerButton') }}
        checkExtra={checkAgreement}
        extra={
          <>
            <FormField label={t('referralCode')} placeholder={t('referralPlaceholder')} value={inviteCode} onValueChange={setInviteCode} />
            <label className="auth-check">
              <input type="checkbox" checked={agree} onChange={(e) => {
                setAgree(e.target.checked);
                if (e.target.checked) setAgreeError(false);
              }} aria-invalid={agreeError ? true : undefined} />
              <span>
                {t('agreePrefix')} <Link className="auth-link" to="/help-detail/8">{t('userAgreement')}</Link> {t('and')}{' '}
                <Link className="auth-link" to="/help-detail/9">{t('privacyPolicy')}</Link>
              </span>
            </label>
            {agreeError ? <p className="auth-check-error" role="alert">{errorText(t, 'agreementRequired')}</p> : <div style={{ height: 12 }} />}
          </>
        }
        send={(v) => {
          const body: RegisterBody = { email: v.email.trim(), code: v.code.trim(), password: v.password, confirmPassword: v.confirm, inviteCode: inviteCode.trim(), agree: true };
          return api.request<unknown>({ method: 'POST', path: '/user/register', body });
        }}
        onDone={(v) => void navigate(`/login?email=${encodeURIComponent(v.email.trim().toLowerCase())}`)}
        footer={
          <p className="auth-switch">
            {t('haveAccount')} <Link className="auth-link" to="/login">{t('loginNow')}</Link>
          </p>
        }
      />
    </AuthLayout>
  );
}
