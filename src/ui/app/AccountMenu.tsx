import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Avatar } from '../components/Avatar.tsx';
import { Dropdown } from '../components/Dropdown.tsx';
import { useSession, useSessionSend } from './AppCoreProvider.tsx';
import { AccountSummary } from './AccountSummary.tsx';
import { ACCOUNT_MENU } from './menus.ts';

/** Desktop account dropdown (SPEC §2): summary, seven entries, Logout (sends user.logout). */
export function AccountMenu() {
  const { t } = useTranslation('shell');
  const { userInfo } = useSession();
  const send = useSessionSend();
  return (
    <Dropdown label={t('account')} align="right" trigger={<Avatar src={userInfo?.avatar} size={28} alt={t('avatarAlt')} />}>
      {(close) => (
        <div className="rf-account-menu">
          <AccountSummary user={userInfo} />
          <nav className="rf-menu-list">
            {ACCOUNT_MENU.map((m) => (
              <Link key={m.path} role="menuitem" to={m.path} onClick={close}>
                {t(m.label)}
              </Link>
            ))}
            <button
              type="button"
              role="menuitem"
              className="rf-menu-list__logout"
              onClick={() => {
                close();
                send({ type: 'user.logout' });
              }}
            >
              {t('logout')}
            </button>
          </nav>
        </div>
      )}
    </Dropdown>
  );
}
