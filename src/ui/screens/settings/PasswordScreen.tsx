import { useTranslation } from 'react-i18next';
import type { ModifyPasswordBody } from '../../../protocol/user.ts';
import { useApi, useSessionSend } from '../../app/AppCoreProvider.tsx';
import { PasswordCodeForm } from '../../components/form/PasswordCodeForm.tsx';
import { SettingsPage } from './SettingsPage.tsx';

/**
 * /my/settings/password (SPEC §2, §9): current, new and confirmed password, with the 24-hour
 * notice (withdrawals, C2C sales and payments). On success the server msg is toasted, the
 * form is cleared and user info is refetched (it carries the withdrawal lock).
 */
export function PasswordScreen() {
  const { t } = useTranslation('settings');
  const api = useApi();
  const send = useSessionSend();
  return (
    <SettingsPage title={t('passwordTitle')}>
      <section className="settings-card settings-card--form">
        <PasswordCodeForm
          label={t('passwordTitle')}
          header={<p className="auth-notice" role="note">{t('passwordNotice')}</p>}
          labels={{ oldPassword: t('oldPassword'), password: t('newPassword'), confirm: t('confirmPassword'), submit: t('passwordSubmit') }}
          send={(v) => {
            const body: ModifyPasswordBody = { oldPassword: v.oldPassword, password: v.password, confirmPassword: v.confirm };
            return api.request<unknown>({ method: 'POST', path: '/user/modify-password', body });
          }}
          clearOnDone
          onDone={() => send({ type: 'user.fetchInfo' })}
        />
      </section>
    </SettingsPage>
  );
}
