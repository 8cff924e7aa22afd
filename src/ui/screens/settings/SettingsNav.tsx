import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';

/** The /my/settings/* sub-pages, in menu order. */
export const SETTINGS_PAGES = [
  { path: '/my/settings/preference', label: 'navPreference' },
  { path: '/my/settings/security', label: 'navSecurity' },
  { path: '/my/settings/password', label: 'navPassword' },
  { path: '/my/settings/login-history', label: 'navLoginHistory' },
] as const;

/** Sub-navigation shared by the settings screens: a tab row (scrolls sideways on mobile). */
export function SettingsNav() {
  const { t } = useTranslation('settings');
  return (
    <nav className="settings-nav" aria-label={t('navTitle')}>
      {SETTINGS_PAGES.map((p) => (
        <NavLink key={p.path} to={p.path} className={({ isActive }) => `settings-nav__item${isActive ? ' is-active' : ''}`}>
          {t(p.label)}
        </NavLink>
      ))}
    </nav>
  );
}
