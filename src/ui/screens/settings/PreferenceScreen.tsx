import { useTranslation } from 'react-i18next';
import { useSession, useSessionSend } from '../../app/AppCoreProvider.tsx';
import { useLanguage, useTheme } from '../../hooks/usePrefs.ts';
import { LANGUAGES } from '../../i18n/languages.ts';
import type { Lang } from '../../i18n/languages.ts';
import { THEMES } from '../../theme/themes.ts';
import { AvatarEditor } from './AvatarEditor.tsx';
import { KlineColorEditor } from './KlineColorEditor.tsx';
import { NicknameEditor } from './NicknameEditor.tsx';
import { NotifyPrefsEditor } from './NotifyPrefsEditor.tsx';
import { SettingsPage } from './SettingsPage.tsx';
import { ReportProblem } from '../../components/ReportProblem.tsx';
import { ConfirmPrefs } from './ConfirmPrefs.tsx';

/**
 * /my/settings/preference: profile (nickname, avatar), kline colors, language and theme.
 * Profile edits refetch user info so the top bar shows the new nickname and avatar.
 */
export function PreferenceScreen() {
  const { t } = useTranslation('settings');
  const session = useSession();
  const send = useSessionSend();
  const { lang, change } = useLanguage();
  const { theme, set: setTheme } = useTheme();
  const info = session.userInfo;
  const refetch = () => send({ type: 'user.fetchInfo' });

  return (
    <SettingsPage title={t('navPreference')}>
      <section className="settings-card" aria-label={t('profileTitle')}>
        <h2 className="settings-card__title">{t('profileTitle')}</h2>
        <AvatarEditor avatar={info?.avatar ?? ''} onSaved={refetch} />
        <NicknameEditor key={info?.nickname ?? ''} nickname={info?.nickname ?? ''} onSaved={refetch} />
      </section>
      <section className="settings-card" aria-label={t('klineTitle')}>
        <h2 className="settings-card__title">{t('klineTitle')}</h2>
        <KlineColorEditor />
      </section>
      <section className="settings-card" aria-label={t('displayTitle')}>
        <h2 className="settings-card__title">{t('displayTitle')}</h2>
        <div className="settings-row">
          <label className="settings-row__title" htmlFor="settings-language">{t('language')}</label>
          <select id="settings-language" className="settings-select" value={lang}
            onChange={(e) => change(e.target.value as Lang)}>
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>{l.label}</option>
            ))}
          </select>
        </div>
        <div className="settings-row">
          <span className="settings-row__title" id="settings-theme">{t('theme')}</span>
          <div className="settings-segmented" role="radiogroup" aria-labelledby="settings-theme">
            {THEMES.map((th) => (
              <button key={th} type="button" role="radio" aria-checked={theme === th}
                className={`settings-segmented__item${theme === th ? ' is-active' : ''}`} onClick={() => setTheme(th)}>
                {th === 'dark' ? t('themeDark') : t('themeLight')}
              </button>
            ))}
          </div>
        </div>
      </section>
      <section className="settings-card" aria-label={t('help:notifyTitle')}>
        <h2 className="settings-card__title">{t('help:notifyTitle')}</h2>
        <NotifyPrefsEditor />
      </section>
      {session.loggedIn ? <ConfirmPrefs /> : null}
      <ReportProblem />
    </SettingsPage>
  );
}
