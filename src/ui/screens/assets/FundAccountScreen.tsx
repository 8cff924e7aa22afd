import { useTranslation } from 'react-i18next';
import { WalletCoinsPage } from './WalletCoinsPage.tsx';

/** /my/assets/fund-account: the fund wallet's coins (deposits land here). */
export function FundAccountScreen() {
  const { t } = useTranslation('assets');
  return <WalletCoinsPage wallet="fund" title={t('fundTitle')} />;
}
