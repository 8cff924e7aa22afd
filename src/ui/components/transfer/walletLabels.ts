import type { WalletType } from '../../../protocol/trading.ts';

/** The `assets` i18n key naming each wallet. */
export const WALLET_LABEL: Readonly<Record<WalletType, 'walletFund' | 'walletSpot' | 'walletStd' | 'walletPerp' | 'walletCopy'>> = {
  fund: 'walletFund',
  spot: 'walletSpot',
  std: 'walletStd',
  perp: 'walletPerp',
  copy: 'walletCopy',
};
