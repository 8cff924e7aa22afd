import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/client.ts';
import type { ResetPasswordBody } from '../../../protocol/user.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { AuthLayout } from '../login/AuthLayout.tsx';
import { checkCode, checkConfirm, checkEmail, checkPassword, collectErrors, hasErrors } from '../login/authValidation.ts';
import type { AuthErrorKey, FieldErrors } from '../login/authValidation.ts';
import { errorText } from '../login/errorText.ts';
import { FormField } from '../login/FormField.tsx';
import { SendCodeButton } from '../login/SendCodeButton.tsx';
import { useMailCode } from '../login/useMailCode.ts';
import '../login/auth.css';

type Field = 'email' | 'code' | 'password' | 'confirm';

/**
 * /reset-password (SPEC §2, §9): email, mailed code, new password twice, and the notice that
 * withdrawals are locked for 48 hours after a reset. On success the server msg is toasted and
 * the user goes to /login with the email prefilled.
 */
export function ResetPasswordScreen() {
  const { t } = useTranslation('auth');
  const api = useApi();
  const navigate = useNavigate();
  const mail = useMailCode('reset');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const show = (k: AuthErrorKey | undefined) => (k ? errorText(t, k) : undefined);

  const sendCode = () => {
    const err = checkEmail(email);
    setErrors((e) => ({ ...e, email: err ?? undefined }));
    if (err === null) void mail.send(email);
  };

  const submit = async () => {
    const next = collectErrors<Field>({
      email: checkEmail(email),
      code: checkCode(code),
      password: checkPassword(password),
      confirm: checkConfirm(password, confirm),
    });
    setErrors(next);
    if (hasErrors(next)) return;
    setPending(true);
    setServerError(null);
    const body: ResetPasswordBody = { email: email.trim(), code: code.trim(), password, confirmPassword: confirm };
    try {
      const env = await api.request<unknown>({ method: 'POST', path: '/user/resetPassword', body });
      toast.success(env.msg);
      void navigate(`/login?email=${encodeURIComponent(email.trim().toLowerCase())}`);
    } catch (err) {
      const msg = errorMessage(err);
      setServerError(msg);
      toast.error(msg);
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthLayout>
      <form className="auth-form" onSubmit={(e) => e.preventDefault()} noValidate aria-label={t('resetTitle')}>
        <h1 className="auth-title">{t('resetTitle')}</h1>
        <p className="auth-subtitle">{t('resetSubtitle')}</p>
        <p className="auth-notice" role="note">{t('resetNotice')}</p>
        <FormField label={t('email')} type="email" autoComplete="email" placeholder={t('emailPlaceholder')}
          value={email} onValueChange={setEmail} error={show(errors.email)} />
        <FormField label={t('code')} inputMode="numeric" autoComplete="one-time-code" placeholder={t('codePlaceholder')}
          value={code} onValueChange={(v) => setCode(v.replace(/\D/g, '').slice(0, 6))} error={show(errors.code)}
          suffix={<SendCodeButton remaining={mail.remaining} pending={mail.pending} onSend={sendCode} />} />
        <FormField label={t('newPassword')} type="password" autoComplete="new-password" placeholder={t('passwordPlaceholder')}
          value={password} onValueChange={setPassword} error={show(errors.password)} />
        <FormField label={t('confirmPassword')} type="password" autoComplete="new-password" placeholder={t('confirmPlaceholder')}
          value={confirm} onValueChange={setConfirm} error={show(errors.confirm)} />
        {serverError ? <p className="auth-server-error" role="alert">{serverError}</p> : null}
        <Button type="submit" variant="primary" block pending={pending} onClick={submit}>
          {t('resetButton')}
        </Button>
        <p className="auth-switch">
          <Link className="auth-link" to="/login">{t('backToLogin')}</Link>
        </p>
      </form>
    </AuthLayout>
  );
}
