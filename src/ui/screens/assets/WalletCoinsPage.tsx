import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Balance, WalletType } from '../../../protocol/trading.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { TransferDialog, useTransferDialog } from '../../components/transfer/TransferDialog.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import { walletSummaries } from '../../components/account/assetsModel.ts';
import { AssetsFrame } from '../../components/account/AssetsFrame.tsx';
import { formatFiat } from '../../components/account/money.ts';
import { formatBalance } from '../../../format/number.ts';
import { useBalances, useCoinPrices, useCurrency } from '../../components/account/useAccountData.ts';

/** The first letters of a coin in a round badge (no coin artwork is shipped). */
export function CoinBadge({ coin }: { coin: string }) {
  return (
    <span className="assets-coin">
      <span className="assets-coin__icon" aria-hidden="true">
        {coin.slice(0, 1)}
      </span>
      {coin}
    </span>
  );
}

/**
 * A wallet page with a coin table (coin, total, available, frozen, actions): the spot and fund
 * accounts. The wallet's estimated value heads the page; rows update live from balance frames.
 */
export function WalletCoinsPage({ wallet, title }: { wallet: WalletType; title: string }) {
  const { t } = useTranslation('assets');
  const device = useDevice();
  const balances = useBalances();
  const prices = useCoinPrices(balances.book);
  const currency = useCurrency();
  const [transfer, setTransfer] = useTransferDialog();
  const summary = useMemo(() => walletSummaries(balances.book, prices).find((w) => w.wallet === wallet), [balances.book, prices, wallet]);
  const rows: Balance[] = summary?.coins ?? [];
  const other: WalletType = wallet === 'fund' ? 'perp' : 'fund';
  const setTransferCoin = (coin: string) => setTransfer({ from: wallet, to: other, coin });

  return (
    <AssetsFrame title={title} onTransfer={() => setTransferCoin('USDT')}>
      {balances.status === 'error' ? (
        <p className="acct-error" role="alert">
          {t('loadFailed', { msg: balances.error ?? '' })}
        </p>
      ) : null}
      <section className="acct-card">
        <p className="acct-muted">
          {t('estimatedValue')} ({currency.code})
        </p>
        <p className="assets-equity__value rf-num" data-testid="wallet-value">
          {summary ? formatFiat(summary.totalUsd, currency) : '—'}
        </p>
      </section>
      <section className={device === 'mobile' ? '' : 'acct-card acct-card--flush'}>
        {rows.length === 0 ? (
          <EmptyState />
        ) : device === 'mobile' ? (
          <ul className="acct-cards">
            {rows.map((b) => (
              <li key={b.coin} className="acct-item" data-testid="coin-row">
                <div className="acct-item__head">
                  <CoinBadge coin={b.coin} />
                  <button type="button" className="acct-link" onClick={() => setTransferCoin(b.coin)}>
                    {t('transfer')}
                  </button>
                </div>
                <div className="acct-item__row"><span>{t('total')}</span><b>{formatBalance(b.total, b.coin)}</b></div>
                <div className="acct-item__row"><span>{t('available')}</span><b>{formatBalance(b.available, b.coin)}</b></div>
                <div className="acct-item__row"><span>{t('frozen')}</span><b>{formatBalance(b.frozen, b.coin)}</b></div>
              </li>
            ))}
          </ul>
        ) : (
          <div className="acct-table-wrap">
            <table className="acct-table">
              <thead>
                <tr>
                  <th scope="col">{t('coin')}</th>
                  <th scope="col" className="num">{t('total')}</th>
                  <th scope="col" className="num">{t('available')}</th>
                  <th scope="col" className="num">{t('frozen')}</th>
                  <th scope="col" className="num">{t('actions')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((b) => (
                  <tr key={b.coin} data-testid="coin-row">
                    <td><CoinBadge coin={b.coin} /></td>
                    <td className="num">{formatBalance(b.total, b.coin)}</td>
                    <td className="num">{formatBalance(b.available, b.coin)}</td>
                    <td className="num">{formatBalance(b.frozen, b.coin)}</td>
                    <td className="num">
                      <button type="button" className="acct-link" onClick={() => setTransferCoin(b.coin)}>
                        {t('transfer')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <TransferDialog target={transfer} onClose={() => setTransfer(null)} book={balances.book} onDone={balances.refresh} />
    </AssetsFrame>
  );
}
