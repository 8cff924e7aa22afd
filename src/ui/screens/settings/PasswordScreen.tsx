import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/client.ts';
import type { ModifyPasswordBody } from '../../../protocol/user.ts';
import { useApi, useSessionSend } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { checkConfirm, checkPassword, collectErrors, hasErrors } from '../login/authValidation.ts';
import type { AuthErrorKey, FieldErrors } from '../login/authValidation.ts';
import { errorText } from '../login/errorText.ts';
import { FormField } from '../login/FormField.tsx';
import '../login/auth.css';
import { SettingsPage } from './SettingsPage.tsx';

type Field = 'oldPassword' | 'password' | 'confirm';

/**
 * /my/settings/password (SPEC §2, §9): current, new and confirmed password, with the 24-hour
 * notice (withdrawals, C2C sales and payments). On success the server msg is toasted, the
 * form is cleared and user info is refetched (it carries the withdrawal lock).
 */
export function PasswordScreen() {
  const { t } = useTranslation('settings');
  const { t: ta } = useTranslation('auth');
  const api = useApi();
  const send = useSessionSend();
  const [oldPassword, setOld] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const show = (k: AuthErrorKey | undefined) => (k ? errorText(ta, k) : undefined);

  const submit = async () => {
    const next = collectErrors<Field>({
      oldPassword: checkPassword(oldPassword),
      password: checkPassword(password),
      confirm: checkConfirm(password, confirm),
    });
    setErrors(next);
    if (hasErrors(next)) return;
    setPending(true);
    setServerError(null);
    const body: ModifyPasswordBody = { oldPassword, password, confirmPassword: confirm };
    try {
      const env = await api.request<unknown>({ method: 'POST', path: '/user/modify-password', body });
      toast.success(env.msg);
      setOld('');
      setPassword('');
      setConfirm('');
      send({ type: 'user.fetchInfo' });
    } catch (err) {
      const msg = errorMessage(err);
      setServerError(msg);
      toast.error(msg);
    } finally {
      setPending(false);
    }
  };

  return (
    <SettingsPage title={t('passwordTitle')}>
      <section className="settings-card settings-card--form">
        <form className="auth-form" onSubmit={(e) => e.preventDefault()} noValidate aria-label={t('passwordTitle')}>
          <p className="auth-notice" role="note">{t('passwordNotice')}</p>
          <FormField label={t('oldPassword')} type="password" autoComplete="current-password" placeholder={ta('passwordPlaceholder')}
            value={oldPassword} onValueChange={setOld} error={show(errors.oldPassword)} />
          <FormField label={t('newPassword')} type="password" autoComplete="new-password" placeholder={ta('passwordPlaceholder')}
            value={password} onValueChange={setPassword} error={show(errors.password)} />
          <FormField label={t('confirmPassword')} type="password" autoComplete="new-password" placeholder={ta('confirmPlaceholder')}
            value={confirm} onValueChange={setConfirm} error={show(errors.confirm)} />
          {serverError ? <p className="auth-server-error" role="alert">{serverError}</p> : null}
          <Button type="submit" variant="primary" block pending={pending} onClick={submit}>
            {t('passwordSubmit')}
          </Button>
        </form>
      </section>
    </SettingsPage>
  );
}
