import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import { toast } from '../components/toast.ts';
import { Dropdown } from '../components/Dropdown.tsx';
import { useLanguage } from '../hooks/usePrefs.ts';
import { useLoginHref } from '../hooks/useLoginHref.ts';
import { LANGUAGES } from '../i18n/languages.ts';
import { useSession } from './AppCoreProvider.tsx';
import { AccountMenu } from './AccountMenu.tsx';
import { Logo } from './Logo.tsx';
import { MORE_MENU, TRADE_MENU, type MenuItem } from './menus.ts';
import { NotificationBell } from './NotificationBell.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';

function MenuDropdown({ label, items }: { label: string; items: readonly MenuItem[] }) {
  const { t } = useTranslation('shell');
  return (
    <Dropdown label={label} trigger={<span>{label}</span>} className="rf-topnav__dropdown">
      {(close) => (
        <nav className="rf-menu-list">
          {items.map((m) => (
            <Link key={m.path} role="menuitem" to={m.path} onClick={close}>
              {t(m.label)}
            </Link>
          ))}
        </nav>
      )}
    </Dropdown>
  );
}

/** Language dropdown: choosing one stores it, sets <html lang> and reloads (SPEC §4). */
export function LanguageDropdown() {
  const { t } = useTranslation('shell');
  const { lang, change } = useLanguage();
  const current = LANGUAGES.find((l) => l.code === lang);
  return (
    // The accessible name holds the visible text (WCAG 2.5.3): "Language: English".
    <Dropdown label={`${t('language')}: ${current?.label ?? lang}`} align="right" trigger={<span data-testid="lang-current">{current?.label}</span>}>
      {(close) => (
        <nav className="rf-menu-list">
          {LANGUAGES.map((l) => (
            <button
              key={l.code}
              type="button"
              role="menuitemradio"
              aria-checked={l.code === lang}
              data-lang={l.code}
              onClick={() => {
                close();
                if (l.code !== lang) change(l.code);
              }}
            >
              {l.label}
            </button>
          ))}
        </nav>
      )}
    </Dropdown>
  );
}

/** The 64 px desktop top bar (SPEC §2). */
export function DesktopTopBar() {
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation('common');
  const { loggedIn } = useSession();
  const loginHref = useLoginHref();
  return (
    <header className="rf-topbar rf-topbar--desktop" data-testid="topbar-desktop">
      <Logo />
      <nav className="rf-topnav" aria-label={t('menu')}>
        <NavLink to="/" end>
          {t('home')}
        </NavLink>
        <NavLink to="/market">{t('market')}</NavLink>
        <MenuDropdown label={t('trade')} items={TRADE_MENU} />
        <MenuDropdown label={t('more')} items={MORE_MENU} />
      </nav>
      <div className="rf-topbar__right">
        {loggedIn ? (
          <>
            <NotificationBell />
            <AccountMenu />
          </>
        ) : (
          <>
            <Link className="rf-btn rf-btn--text rf-btn--sm" to={loginHref} data-testid="login-link">
              {t('login')}
            </Link>
            <Link className="rf-btn rf-btn--primary rf-btn--sm" to="/register">
              {t('register')}
            </Link>
          </>
        )}
        <button type="button" className="rf-btn rf-btn--ghost rf-btn--sm" onClick={() => toast.info(tc('comingSoon'))}>
          {t('download')}
        </button>
        <LanguageDropdown />
        <ThemeToggle />
      </div>
    </header>
  );
}
