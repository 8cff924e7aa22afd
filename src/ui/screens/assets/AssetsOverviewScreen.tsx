import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { WalletType } from '../../../protocol/trading.ts';
import { TransferDialog, useTransferDialog } from '../../components/transfer/TransferDialog.tsx';
import { WALLET_LABEL } from '../../components/transfer/walletLabels.ts';
import { totalEquityUsd, walletSummaries } from '../../components/account/assetsModel.ts';
import { AssetsFrame } from '../../components/account/AssetsFrame.tsx';
import { formatFiat } from '../../components/account/money.ts';
import { useBalances, useCoinPrices, useCurrency } from '../../components/account/useAccountData.ts';

/** Where each wallet card's "Details" goes. */
export const WALLET_PAGE: Readonly<Record<WalletType, string>> = {
  fund: '/my/assets/fund-account',
  spot: '/my/assets/spot-account',
  std: '/my/assets/futures-account',
  perp: '/my/assets/futures-account',
  copy: '/copy',
};

/**
 * /my/assets/overview: total equity in the display currency and one card per wallet (fund, spot,
 * standard futures, perpetual futures, copy) with its total and available, live from the user
 * socket's balance frames.
 */
export function AssetsOverviewScreen() {
  const { t } = useTranslation('assets');
  const balances = useBalances();
  const prices = useCoinPrices(balances.book);
  const currency = useCurrency();
  const [transfer, setTransfer] = useTransferDialog();
  const summaries = useMemo(() => walletSummaries(balances.book, prices), [balances.book, prices]);
  const total = totalEquityUsd(summaries);
  const loading = balances.status === 'loading' && balances.book.size === 0;

  return (
    <AssetsFrame title={t('overviewTitle')} onTransfer={() => setTransfer({ from: 'fund', to: 'perp', coin: 'USDT' })}>
      {balances.status === 'error' ? (
        <p className="acct-error" role="alert">
          {t('loadFailed', { msg: balances.error ?? '' })}
        </p>
      ) : null}
      <section className="acct-card assets-equity" aria-labelledby="assets-equity">
        <p className="acct-muted" id="assets-equity">
          {t('totalEquity')} ({currency.code})
        </p>
        <p className="assets-equity__value rf-num" data-testid="total-equity">
          {loading ? '—' : formatFiat(total, currency)}
        </p>
      </section>
      <ul className="assets-wallets" aria-label={t('navAssets')}>
        {summaries.map((w) => (
          <li key={w.wallet} className="acct-card assets-wallet" data-testid={`wallet-${w.wallet}`}>
            <div className="assets-wallet__head">
              <h2>{t(WALLET_LABEL[w.wallet])}</h2>
              <Link className="acct-link" to={WALLET_PAGE[w.wallet]}>
                {t('details')}
              </Link>
            </div>
            <dl className="assets-wallet__figures">
              <div>
                <dt>{t('total')}</dt>
                <dd className="rf-num" data-testid={`wallet-${w.wallet}-total`}>
                  {loading ? '—' : formatFiat(w.totalUsd, currency)}
                </dd>
              </div>
              <div>
                <dt>{t('available')}</dt>
                <dd className="rf-num" data-testid={`wallet-${w.wallet}-available`}>
                  {loading ? '—' : formatFiat(w.availableUsd, currency)}
                </dd>
              </div>
            </dl>
            <button type="button" className="acct-link" onClick={() => setTransfer({ from: w.wallet, to: w.wallet === 'fund' ? 'perp' : 'fund', coin: 'USDT' })}>
              {t('transfer')}
            </button>
          </li>
        ))}
      </ul>
      <TransferDialog target={transfer} onClose={() => setTransfer(null)} book={balances.book} onDone={balances.refresh} />
    </AssetsFrame>
  );
}
