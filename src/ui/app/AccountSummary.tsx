import { useTranslation } from 'react-i18next';
import { Avatar } from '../components/Avatar.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
import type { UserInfo } from '../../protocol/user.ts';

/** Avatar, masked email and UID with a copy button; used by the account dropdown and drawer. */
export function AccountSummary({ user }: { user: UserInfo | null }) {
  const { t } = useTranslation('shell');
  return (
    <div className="rf-account-summary" data-testid="account-summary">
      <Avatar src={user?.avatar} size={40} alt={t('avatarAlt')} />
      <div className="rf-account-summary__text">
        <div className="rf-account-summary__email">{user?.cover_email ?? '—'}</div>
        <div className="rf-account-summary__uid">
          <span>
            {t('uid')}: <span className="rf-num">{user?.id ?? '—'}</span>
          </span>
          <CopyButton text={user?.id} label={`${t('uid')}`} />
        </div>
      </div>
    </div>
  );
}
