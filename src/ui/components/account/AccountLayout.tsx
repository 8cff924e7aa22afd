import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { useDevice } from '../../hooks/usePrefs.ts';
import { ACCOUNT_NAV, type AccountNavItem } from './accountNav.ts';
import './account.css';

function NavEntry({ item }: { item: AccountNavItem }) {
  const { t } = useTranslation('assets');
  if (item.children) {
    return (
      <li className="acct-nav__group">
        <span className="acct-nav__group-label">{t(item.label)}</span>
        <ul>
          {item.children.map((c) => (
            <NavEntry key={c.path} item={c} />
          ))}
        </ul>
      </li>
    );
  }
  return (
    <li>
      <NavLink to={item.path} className={({ isActive }) => `acct-nav__link${isActive ? ' is-active' : ''}`}>
        {t(item.label)}
      </NavLink>
    </li>
  );
}

/** The desktop side navigation of the /my account centre. */
export function AccountNav() {
  const { t } = useTranslation('assets');
  return (
    <nav className="acct-nav" aria-label={t('navTitle')}>
      <ul>
        {ACCOUNT_NAV.map((i) => (
          <NavEntry key={i.path} item={i} />
        ))}
      </ul>
    </nav>
  );
}

/**
 * Frame of an account-centre page: the side navigation on desktop (the mobile drawer carries the
 * same menu on smaller screens), a heading row with optional actions, and the content.
 */
export function AccountLayout({ title, actions, children, sub }: { title: string; actions?: ReactNode; children: ReactNode; sub?: ReactNode }) {
  const device = useDevice();
  return (
    <div className={`acct-page acct-page--${device}`}>
      {device === 'desktop' ? <AccountNav /> : null}
      <div className="acct-main">
        {sub}
        <header className="acct-head">
          <h1 className="acct-title">{title}</h1>
          {actions ? <div className="acct-head__actions">{actions}</div> : null}
        </header>
        {children}
      </div>
    </div>
  );
}

/** A horizontal tab row of sibling pages (asset sub-pages on tablet and phone). */
export function SubPageTabs({ items, label }: { items: readonly AccountNavItem[]; label: string }) {
  const { t } = useTranslation('assets');
  return (
    <nav className="acct-subtabs" aria-label={label}>
      {items.map((p) => (
        <NavLink key={p.path} to={p.path} className={({ isActive }) => `acct-subtabs__item${isActive ? ' is-active' : ''}`}>
          {t(p.label)}
        </NavLink>
      ))}
    </nav>
  );
}
