import { useTranslation } from 'react-i18next';
import { WalletCoinsPage } from './WalletCoinsPage.tsx';

/** /my/assets/spot-account: the spot wallet's coins. */
export function SpotAccountScreen() {
  const { t } = useTranslation('assets');
  return <WalletCoinsPage wallet="spot" title={t('spotTitle')} />;
}
