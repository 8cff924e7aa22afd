import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/client.ts';
import type { RegisterBody } from '../../../protocol/user.ts';
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

type Field = 'email' | 'code' | 'password' | 'confirm' | 'agree';

/**
 * /register (SPEC §2, §5). The referral code is optional and prefilled from `?inviteCode=`
 * or `?ref=`. Submitting with the agreement unchecked shows the inline agreement message and
 * the 'Please check the user agreement' prompt; on success the server msg is toasted and the
 * user lands on /login with the email prefilled.
 */
export function RegisterScreen() {
  const { t } = useTranslation('auth');
  const api = useApi();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const mail = useMailCode('register');
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [inviteCode, setInviteCode] = useState(() => params.get('inviteCode') ?? params.get('ref') ?? '');
  const [agree, setAgree] = useState(false);
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
      agree: agree ? null : 'agreementRequired',
    });
    setErrors(next);
    if (next.agree) toast.error(errorText(t, 'registerAgreement'));
    if (hasErrors(next)) return;
    setPending(true);
    setServerError(null);
    const body: RegisterBody = {
      email: email.trim(),
      code: code.trim(),
      password,
      confirmPassword: confirm,
      inviteCode: inviteCode.trim(),
      agree: true,
    };
    try {
      const env = await api.request<unknown>({ method: 'POST', path: '/user/register', body });
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
      <form className="auth-form" onSubmit={(e) => e.preventDefault()} noValidate aria-label={t('registerTitle')}>
        <h1 className="auth-title">{t('registerTitle')}</h1>
        <p className="auth-subtitle">{t('registerSubtitle')}</p>
        <FormField label={t('email')} type="email" autoComplete="email" placeholder={t('emailPlaceholder')}
          value={email} onValueChange={setEmail} error={show(errors.email)} />
        <FormField label={t('code')} inputMode="numeric" autoComplete="one-time-code" placeholder={t('codePlaceholder')}
          value={code} onValueChange={(v) => setCode(v.replace(/\D/g, '').slice(0, 6))} error={show(errors.code)}
          suffix={<SendCodeButton remaining={mail.remaining} pending={mail.pending} onSend={sendCode} />} />
        <FormField label={t('password')} type="password" autoComplete="new-password" placeholder={t('passwordPlaceholder')}
          value={password} onValueChange={setPassword} error={show(errors.password)} />
        <FormField label={t('confirmPassword')} type="password" autoComplete="new-password" placeholder={t('confirmPlaceholder')}
          value={confirm} onValueChange={setConfirm} error={show(errors.confirm)} />
        <FormField label={t('referralCode')} placeholder={t('referralPlaceholder')} value={inviteCode} onValueChange={setInviteCode} />
        <label className="auth-check">
          <input type="checkbox" checked={agree} onChange={(e) => {
            setAgree(e.target.checked);
            if (e.target.checked) setErrors((x) => ({ ...x, agree: undefined }));
          }} aria-invalid={errors.agree ? true : undefined} />
          <span>
            {t('agreePrefix')} <Link className="auth-link" to="/help-detail/8">{t('userAgreement')}</Link> {t('and')}{' '}
            <Link className="auth-link" to="/help-detail/9">{t('privacyPolicy')}</Link>
          </span>
        </label>
        {errors.agree ? <p className="auth-check-error" role="alert">{show(errors.agree)}</p> : <div style={{ height: 12 }} />}
        {serverError ? <p className="auth-server-error" role="alert">{serverError}</p> : null}
        <Button type="submit" variant="primary" block pending={pending} onClick={submit}>
          {t('registerButton')}
        </Button>
        <p className="auth-switch">
          {t('haveAccount')} <Link className="auth-link" to="/login">{t('loginNow')}</Link>
        </p>
      </form>
    </AuthLayout>
  );
}
