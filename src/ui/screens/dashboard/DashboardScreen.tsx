import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatBalance, formatNumber } from '../../../format/number.ts';
import type { Page } from '../../../protocol/envelope.ts';
import { TRADING_PATHS, type Order } from '../../../protocol/trading.ts';
import { useSession } from '../../app/AppCoreProvider.tsx';
import { useLiveGet } from '../../hooks/useLiveGet.ts';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { Avatar } from '../../components/Avatar.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { TransferDialog, useTransferDialog } from '../../components/transfer/TransferDialog.tsx';
import { totalEquityUsd, walletSummaries } from '../../components/account/assetsModel.ts';
import { WalletActions } from '../../components/account/AssetsFrame.tsx';
import { formatFiat } from '../../components/account/money.ts';
import { apiPath, useBalances, useCoinPrices, useCurrency } from '../../components/account/useAccountData.ts';
import { formatDateTime } from '../../../format/date.ts';
import { DASHBOARD_PATHS, type DashboardSummary } from '../../../protocol/help.ts';
import type { WalletType } from '../../../protocol/trading.ts';
import { DASHBOARD_CARDS } from './cards.tsx';
import '../../components/account/assets.css';
import './dashboard.css';

/** How many orders the dashboard lists. */
export const RECENT_ORDERS = 5;

const RECENT_QUERY = { page: 1, pageSize: RECENT_ORDERS };
const ON_ORDER = ['order'];
const NO_QUERY = {};
/** Today's summary is asked again when an order fills or a voucher changes. */
const ON_SUMMARY = ['order', 'voucher'];

/** Where each wallet's line of the split links to. */
const WALLET_PAGE: Record<WalletType, string> = {
  fund: '/my/assets/fund-account',
  spot: '/my/assets/spot-account',
  std: '/my/assets/futures-account',
  perp: '/my/assets/futures-account',
  copy: '/my/assets/overview',
};
const WALLET_LABEL: Record<WalletType, string> = { fund: 'walletFund', spot: 'walletSpot', std: 'walletStd', perp: 'walletPerp', copy: 'walletCopy' };

/** The latest orders (any status): a core live query, asked again on order frames; null while loading. */
function useRecentOrders(): Order[] | null {
  const { load } = useLiveGet<Page<Order>>(apiPath(TRADING_PATHS.orderHistory), RECENT_QUERY, ON_ORDER);
  return load.status === 'loading' ? null : load.status === 'error' ? [] : load.data.list;
}

/**
 * /my/dashboard: the user card (avatar, nickname, UID, masked email, identity state), total
 * assets in the display currency with Deposit / Withdraw / Transfer, and the recent orders.
 */
export function DashboardScreen() {
  const { t } = useTranslation('assets');
  const { userInfo: user } = useSession();
  const balances = useBalances();
  const prices = useCoinPrices(balances.book);
  const currency = useCurrency();
  const orders = useRecentOrders();
  const [transfer, setTransfer] = useTransferDialog();
  const wallets = useMemo(() => walletSummaries(balances.book, prices), [balances.book, prices]);
  const total = useMemo(() => totalEquityUsd(wallets), [wallets]);
  const summary = useLiveGet<DashboardSummary>(DASHBOARD_PATHS.summary, NO_QUERY, ON_SUMMARY).load;
  const { t: td } = useTranslation('dashboard');
  const kyc = user?.kycStatus ?? 'unverified';

  return (
    <AccountLayout title={t('dashboardTitle')}>
      <section className="acct-card dash-user" data-testid="dash-user">
        <Avatar src={user?.avatar} size={64} alt={t('avatarAlt')} />
        <div className="dash-user__text">
          <p className="dash-user__name">{user?.nickname || user?.cover_email || '—'}</p>
          <p className="acct-muted dash-user__line">
            {t('uid')}: <span className="rf-num">{user?.id ?? '—'}</span>
            <CopyButton text={user?.id} label={t('uid')} />
            <span className="dash-user__email">{user?.cover_email}</span>
          </p>
        </div>
        <div className="dash-user__kyc">
          <span className={`dash-badge dash-badge--${kyc}`} data-testid="kyc-state">
            {t(`kyc_${kyc}`)}
          </span>
          {kyc === 'unverified' ? (
            <Link className="acct-link" to="/my/settings/kyc">
              {t('verifyNow')}
            </Link>
          ) : null}
        </div>
      </section>
      <section className="acct-card dash-assets">
        <div>
          <p className="acct-muted">
            {t('totalAssets')} ({currency.code})
          </p>
          <p className="assets-equity__value rf-num" data-testid="dash-total">
            {balances.status === 'loading' && balances.book.size === 0 ? '—' : formatFiat(total, currency)}
          </p>
          <Link className="acct-link" to="/my/assets/overview">
            {t('details')}
          </Link>
        </div>
        <div className="dash-quick" aria-label={t('quickLinks')}>
          <WalletActions onTransfer={() => setTransfer({ from: 'fund', to: 'perp', coin: 'USDT' })} />
        </div>
        <div className="dash-split">
          <h2 className="dash-split__title">{td('byWallet')}</h2>
          <ul className="dash-split__list" data-testid="dash-wallets">
            {wallets.map((w) => (
              <li key={w.wallet}>
                <Link to={WALLET_PAGE[w.wallet]}>{t(WALLET_LABEL[w.wallet])}</Link>
                <span className="rf-num" data-testid={`dash-wallet-${w.wallet}`}>
                  {balances.status === 'loading' && balances.book.size === 0 ? '—' : formatFiat(w.totalUsd, currency)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>
      {summary.status === 'ready' && summary.data.demoCredit ? (
        <section className="acct-card dash-demo" role="note" aria-labelledby="dash-demo-title" data-testid="dash-demo-credit">
          <h2 id="dash-demo-title" className="acct-card__title">
            {td('demoTitle')}
          </h2>
          <p className="acct-muted">{td('demoText', { amount: formatBalance(summary.data.demoCredit, 'USDT') })}</p>
          <Link className="acct-link" to="/my/order/wallet-history">
            {td('demoHistory')}
          </Link>
        </section>
      ) : null}
      <div className="dash-cards" role="group" aria-label={td('cardsLabel')}>
        {DASHBOARD_CARDS.map(({ key, Card }) => (
          <Card key={key} summary={summary} />
        ))}
      </div>
      <section className="acct-card acct-card--flush">
        <div className="dash-orders__head">
          <h2 className="acct-card__title">{t('recentOrders')}</h2>
          <Link className="acct-link" to="/my/order/futures">
            {t('viewAll')}
          </Link>
        </div>
        {orders === null ? (
          <p className="acct-muted orders-pad">{t('common:loading')}</p>
        ) : orders.length === 0 ? (
          <EmptyState />
        ) : (
          <ul className="dash-orders">
            {orders.map((o) => (
              <li key={o.id} className="dash-order" data-testid="recent-order">
                <div>
                  <b>{o.symbol}</b> <span className={o.side === 'buy' ? 'acct-up' : 'acct-down'}>{t(o.side)}</span>
                  <span className="acct-muted"> · {t(`kind_${o.kind}`)}</span>
                  <div className="acct-muted">{formatDateTime(o.createdAt)}</div>
                </div>
                <div className="dash-order__right">
                  <span className="rf-num">
                    {formatNumber(o.qty, 4)} @ {o.avgPrice > 0 ? formatNumber(o.avgPrice, 2) : o.price > 0 ? formatNumber(o.price, 2) : t('marketPrice')}
                  </span>
                  <span className={`orders-status orders-status--${o.status}`}>{t(`status_${o.status}`)}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
      <TransferDialog target={transfer} onClose={() => setTransfer(null)} book={balances.book} onDone={balances.refresh} />
    </AccountLayout>
  );
}
