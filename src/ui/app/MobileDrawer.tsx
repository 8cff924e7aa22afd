import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LazyDrawer as Drawer } from '../components/LazyDrawer.tsx';
import { useLanguage, useTheme } from '../hooks/usePrefs.ts';
import { useLoginHref } from '../hooks/useLoginHref.ts';
import { LANGUAGES } from '../i18n/languages.ts';
import { useSession, useSessionSend } from './AppCoreProvider.tsx';
import { AccountSummary } from './AccountSummary.tsx';
import { MOBILE_ACCOUNT_MENU, MORE_MENU, TRADE_MENU, type MenuItem } from './menus.ts';

/** A menu entry that expands its children in place (mobile drawer). */
function MenuGroup({ item, onNavigate }: { item: MenuItem; onNavigate: () => void }) {
  const { t } = useTranslation('shell');
  const [open, setOpen] = useState(false);
  if (!item.children) {
    return (
      <Link className="rf-drawer-menu__item" to={item.path} onClick={onNavigate}>
        {t(item.label)}
      </Link>
    );
  }
  return (
    <div className="rf-drawer-menu__group">
      <button type="button" className="rf-drawer-menu__item" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {t(item.label)}
        <span className={`rf-caret ${open ? 'is-open' : ''}`} aria-hidden="true" />
      </button>
      {open && (
        <div className="rf-drawer-menu__children">
          {item.children.map((c) => (
            <Link key={c.path} className="rf-drawer-menu__item" to={c.path} onClick={onNavigate}>
              {t(c.label)}
            </Link>
          ))}
        </div>
      )}
    </div>
  );
}

const SITE_MENU: readonly MenuItem[] = [
  { label: 'home', path: '/' },
  { label: 'market', path: '/market' },
  { label: 'trade', path: '/trade', children: TRADE_MENU },
  { label: 'more', path: '/more', children: MORE_MENU },
];

/** The mobile/tablet menu drawer (SPEC §2) with its language sub-drawer and dark-mode switch. */
export function MobileDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { loggedIn, userInfo } = useSession();
  const send = useSessionSend();
  const { theme, set } = useTheme();
  const { lang, change } = useLanguage();
  const loginHref = useLoginHref();
  const [langOpen, setLangOpen] = useState(false);
  return (
    <>
      <Drawer open={open} onClose={onClose} label={t('menu')} side="right">
        <div className="rf-drawer-menu" data-testid="mobile-drawer">
          {loggedIn ? (
            <>
              <AccountSummary user={userInfo} />
              <div className="rf-drawer-menu__actions">
                <Link className="rf-btn rf-btn--primary rf-btn--md" to="/my/wallet/deposit" onClick={onClose}>
                  {t('deposit')}
                </Link>
                <Link className="rf-btn rf-btn--secondary rf-btn--md" to="/my/wallet/withdrawal" onClick={onClose}>
                  {t('withdrawal')}
                </Link>
              </div>
            </>
          ) : (
            <div className="rf-drawer-menu__actions">
              <Link className="rf-btn rf-btn--secondary rf-btn--md" to={loginHref} onClick={onClose}>
                {t('login')}
              </Link>
              <Link className="rf-btn rf-btn--primary rf-btn--md" to="/register" onClick={onClose}>
                {t('register')}
              </Link>
            </div>
          )}
          <nav aria-label={t('menu')}>
            {SITE_MENU.map((m) => (
              <MenuGroup key={m.path} item={m} onNavigate={onClose} />
            ))}
          </nav>
          {loggedIn && (
            <nav aria-label={t('account')} className="rf-drawer-menu__account">
              {MOBILE_ACCOUNT_MENU.map((m) => (
                <MenuGroup key={m.path} item={m} onNavigate={onClose} />
              ))}
              <button
                type="button"
                className="rf-drawer-menu__item rf-menu-list__logout"
                onClick={() => {
                  onClose();
                  send({ type: 'user.logout' });
                }}
              >
                {t('logout')}
              </button>
            </nav>
          )}
          <button type="button" className="rf-drawer-menu__item" onClick={() => setLangOpen(true)}>
            {t('language')}
            <span className="rf-muted">{LANGUAGES.find((l) => l.code === lang)?.label}</span>
          </button>
          <label className="rf-drawer-menu__item rf-switch">
            {t('darkMode')}
            <input
              type="checkbox"
              role="switch"
              checked={theme === 'dark'}
              onChange={(e) => set(e.currentTarget.checked ? 'dark' : 'light')}
            />
          </label>
        </div>
      </Drawer>
      <Drawer open={langOpen} onClose={() => setLangOpen(false)} label={t('language')} title={t('language')} side="bottom">
        {LANGUAGES.map((l) => (
          <button
            key={l.code}
            type="button"
            className={`rf-drawer-menu__item ${l.code === lang ? 'is-active' : ''}`}
            data-lang={l.code}
            onClick={() => {
              setLangOpen(false);
              if (l.code !== lang) change(l.code);
            }}
          >
            {l.label}
          </button>
        ))}
      </Drawer>
    </>
  );
}
