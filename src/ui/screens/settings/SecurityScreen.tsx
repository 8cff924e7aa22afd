import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSession, useSessionSend } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { GoogleBindPanel } from './GoogleBindPanel.tsx';
import { SettingsPage } from './SettingsPage.tsx';

/**
 * /my/settings/security: Google authenticator (bound / not bound, with the bind flow), the
 * masked email and a link to change the login password. Bound status comes from user info,
 * which is refetched after a successful bind.
 */
export function SecurityScreen() {
  const { t } = useTranslation('settings');
  const session = useSession();
  const send = useSessionSend();
  const [binding, setBinding] = useState(false);
  const info = session.userInfo;
  const bound = info?.googleBound === true;

  return (
    <SettingsPage title={t('securityTitle')}>
      <section className="settings-card">
        <div className="settings-row">
          <div className="settings-row__text">
            <h2 className="settings-row__title">{t('googleTitle')}</h2>
            <p className="settings-muted">{t('googleDesc')}</p>
          </div>
          <span className={`settings-badge${bound ? ' settings-badge--on' : ''}`} data-testid="google-status">
            {bound ? t('bound') : t('unbound')}
          </span>
          {!bound && !binding ? (
            <Button type="button" variant="primary" onClick={() => setBinding(true)} disabled={info === null}>
              {t('bind')}
            </Button>
          ) : null}
        </div>
        <div className="settings-row">
          <div className="settings-row__text">
            <h2 className="settings-row__title">{t('emailTitle')}</h2>
            <p className="settings-muted">{t('emailDesc')}</p>
          </div>
          <span className="settings-value">{info?.cover_email ?? ''}</span>
        </div>
        <div className="settings-row">
          <div className="settings-row__text">
            <h2 className="settings-row__title">{t('loginPasswordTitle')}</h2>
            <p className="settings-muted">{t('loginPasswordDesc')}</p>
          </div>
          <Link className="settings-action" to="/my/settings/password">{t('change')}</Link>
        </div>
      </section>
      {binding && !bound ? (
        <GoogleBindPanel
          onBound={() => {
            setBinding(false);
            send({ type: 'user.fetchInfo' });
          }}
        />
      ) : null}
    </SettingsPage>
  );
}
