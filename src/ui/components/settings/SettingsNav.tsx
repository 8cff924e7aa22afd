import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { settingsTabs } from '../../app/navTree.ts';

/** The /my/settings/* pages in tab order, from the one nav tree (src/ui/app/navTree.ts). */
export const SETTINGS_PAGES = settingsTabs();

/** Sub-navigation shared by the settings screens: a tab row (scrolls sideways on mobile). */
export function SettingsNav() {
  const { t } = useTranslation('settings');
  return (
    <nav className="settings-nav" aria-label={t('navTitle')}>
      {SETTINGS_PAGES.map((p) => (
        <NavLink key={p.path} to={p.path} className={({ isActive }) => `settings-nav__item${isActive ? ' is-active' : ''}`}>
          {t(p.label.startsWith('settings:') ? p.label : `assets:${p.label}`)}
        </NavLink>
      ))}
    </nav>
  );
}
