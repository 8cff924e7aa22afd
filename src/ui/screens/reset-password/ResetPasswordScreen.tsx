import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { ResetPasswordBody } from '../../../protocol/user.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { AuthLayout } from '../../components/form/AuthLayout.tsx';
import { PasswordCodeForm } from '../../components/form/PasswordCodeForm.tsx';

/**
 * /reset-password (SPEC §2, §9): email, mailed code, new password twice, and the notice that
 * withdrawals are locked for 48 hours after a reset. On success the server msg is toasted and
 * the user goes to /login with the email prefilled.
 */
export function ResetPasswordScreen() {
  const { t } = useTranslation('auth');
  const api = useApi();
  const navigate = useNavigate();
  return (
    <AuthLayout>
      <PasswordCodeForm
        label={t('resetTitle')}
        mailCode="reset"
        header={
          <>
            <h1 className="auth-title">{t('resetTitle')}</h1>
            <p className="auth-subtitle">{t('resetSubtitle')}</p>
            <p className="auth-notice" role="note">{t('resetNotice')}</p>
          </>
        }
        labels={{ password: t('newPassword'), confirm: t('confirmPassword'), submit: t('resetButton') }}
        send={(v) => {
          const body: ResetPasswordBody = { email: v.email.trim(), code: v.code.trim(), password: v.password, confirmPassword: v.confirm };
          return api.request<unknown>({ method: 'POST', path: '/user/resetPassword', body });
        }}
        onDone={(v) => void navigate(`/login?email=${encodeURIComponent(v.email.trim().toLowerCase())}`)}
        footer={
          <p className="auth-switch">
            <Link className="auth-link" to="/login">{t('backToLogin')}</Link>
          </p>
        }
      />
    </AuthLayout>
  );
}
