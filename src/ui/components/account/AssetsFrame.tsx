import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AccountLayout, SubPageTabs } from './AccountLayout.tsx';
import { ASSET_PAGES } from './accountNav.ts';
import { Button } from '../Button.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import './assets.css';

/** Deposit / Withdraw links and the Transfer button, shared by every asset page. */
export function WalletActions({ onTransfer, size = 'md' }: { onTransfer: () => void; size?: 'sm' | 'md' }) {
  const { t } = useTranslation('assets');
  return (
    <>
      <Link className={`rf-btn rf-btn--primary rf-btn--${size}`} to="/my/wallet/deposit">
        {t('deposit')}
      </Link>
      <Link className={`rf-btn rf-btn--secondary rf-btn--${size}`} to="/my/wallet/withdrawal">
        {t('withdraw')}
      </Link>
      <Button variant="secondary" size={size} onClick={onTransfer}>
        {t('transfer')}
      </Button>
    </>
  );
}

/** An asset page: account layout, sibling tabs where the side navigation is hidden, the actions. */
export function AssetsFrame({ title, onTransfer, children }: { title: string; onTransfer: () => void; children: ReactNode }) {
  const { t } = useTranslation('assets');
  const device = useDevice();
  return (
    <AccountLayout
      title={title}
      sub={device === 'desktop' ? null : <SubPageTabs items={ASSET_PAGES} label={t('navAssets')} />}
      actions={<WalletActions onTransfer={onTransfer} size={device === 'mobile' ? 'sm' : 'md'} />}
    >
      {children}
    </AccountLayout>
  );
}
