import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Avatar } from '../components/Avatar.tsx';
import { useSession } from './AppCoreProvider.tsx';
import { Logo } from './Logo.tsx';
import { MobileDrawer } from './MobileDrawer.tsx';
import { NotificationBell } from './NotificationBell.tsx';

/** Mobile/tablet top bar (SPEC §2): logo, Register or account icon, menu drawer. */
export function MobileTopBar() {
  const { t } = useTranslation('shell');
  const { loggedIn, userInfo } = useSession();
  const [open, setOpen] = useState(false);
  return (
    <header className="rf-topbar rf-topbar--mobile" data-testid="topbar-mobile">
      <Logo />
      <div className="rf-topbar__right">
        {loggedIn ? (
          <>
            <NotificationBell />
            <Link to="/my/dashboard" aria-label={t('account')} className="rf-icon-btn">
              <Avatar src={userInfo?.avatar} size={26} alt={t('avatarAlt')} />
            </Link>
          </>
        ) : (
          <Link className="rf-btn rf-btn--primary rf-btn--sm" to="/register">
            {t('register')}
          </Link>
        )}
        <button type="button" className="rf-icon-btn" aria-label={t('menu')} aria-expanded={open} onClick={() => setOpen(true)}>
          <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
      <MobileDrawer open={open} onClose={() => setOpen(false)} />
    </header>
  );
}
