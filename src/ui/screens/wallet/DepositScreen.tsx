import { useCallback, useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import { toast } from '../../components/toast.ts';
import type { DepositStateName } from '../../../machines/depositMachine.ts';
import { MONEY_PATHS, type Deposit } from '../../../protocol/wallet.ts';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { Button } from '../../components/Button.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import { formatCoinAmount } from '../../components/account/money.ts';
import { RowList, type Column } from '../../components/history/columns.tsx';
import { formatDateTime } from '../../../format/date.ts';
import { useDepositActor } from './useDepositActor.ts';
import { useLiveRows } from './useLiveRows.ts';
import { CoinNetworkPickers } from '../../components/wallet/WalletPickers.tsx';
import { DepositStatus } from './StatusChip.tsx';
import { walletText } from '../../components/wallet/walletModel.ts';
import '../../components/history/orders.css';
import '../../components/wallet/wallet.css';

const api = (p: string) => p.replace(/^\/api/, '');

/** The address as a QR code (qrcode → data URL); nothing until it is drawn. */
function AddressQr({ address, alt }: { address: string; alt: string }) {
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(address, { margin: 1, width: 168 })
      .then((url) => {
        if (live) setQr(url);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [address]);
  return <div className="wal-qr">{qr ? <img src={qr} alt={alt} width={168} height={168} data-testid="deposit-qr" /> : <Spinner size={20} />}</div>;
}

/**
 * /my/wallet/deposit (issue 12): coin and network pickers, the caller's address on that network
 * (the same on every visit) with its QR code and a copy button (SPEC §8 copy messages), the
 * minimum and the confirmations needed, and the recent deposits kept live by `deposit` frames
 * (seen → confirmations → credited, or below the minimum and not credited, with a toast).
 * Balances elsewhere follow the `balance` frame the credit pushes. The address lifecycle is
 * depositMachine (useDepositActor: coin / network picks are intents in the event log).
 */
export function DepositScreen() {
  const { t } = useTranslation('wallet');
  const mobile = useDevice() === 'mobile';
  const [actor, send] = useDepositActor();
  const state = useSelector(actor, (s) => s.value as DepositStateName);
  const { pick, address, error } = useSelector(actor, (s) => s.context);

  const onFrame = useCallback(
    (d: Deposit) => {
      const v = { amount: formatCoinAmount(d.amount, d.coin), coin: d.coin };
      if (d.status === 'credited') toast.success(t('depositCredited', v));
      else if (d.status === 'belowMinimum') toast.warning(walletText(t, 'Below the minimum deposit amount: recorded, not credited'));
      else if (d.confirmations === 0) toast.info(t('depositSeen', v));
    },
    [t],
  );
  const { load: listLoad, rows } = useLiveRows<Deposit>(api(MONEY_PATHS.deposits), 'deposit', 10, onFrame);

  const columns: Column<Deposit>[] = [
    { key: 'time', label: t('assets:time'), render: (d) => formatDateTime(d.time) },
    { key: 'coin', label: t('assets:coin'), head: true, render: (d) => <b>{d.coin}</b> },
    { key: 'network', label: t('network'), render: (d) => d.network },
    { key: 'amount', label: t('assets:amount'), num: true, render: (d) => formatCoinAmount(d.amount, d.coin) },
    // Issue 26: a deposit below the minimum is never confirmed towards a credit: say so instead of '0/6'.
    { key: 'conf', label: t('confirmations'), num: true, render: (d) => (d.status === 'belowMinimum' ? <span data-testid="deposit-conf">{t('conf_belowMinimum')}</span> : <span data-testid="deposit-conf">{`${d.confirmations}/${d.required}`}</span>) },
    { key: 'status', label: t('assets:status'), render: (d) => <DepositStatus d={d} /> },
    { key: 'txid', label: t('txid'), render: (d) => <span className="wal-mono wal-ellipsis" title={d.txid}>{d.txid}</span> },
  ];

  return (
    <AccountLayout title={t('depositTitle')}>
      <section className="acct-card wal-card" aria-label={t('depositAddress')}>
        <CoinNetworkPickers coin={pick.coin} network={pick.network}
          onCoin={(coin) => send({ type: 'dep.coin', coin })} onNetwork={(network) => send({ type: 'dep.network', network })} />
        {state === 'failed' ? (
          <div>
            <p className="acct-error" role="alert">{t('loadFailed', { msg: walletText(t, error ?? 'Error') })}</p>
            <Button variant="secondary" size="sm" onClick={() => send({ type: 'dep.retry' })}>{t('retry')}</Button>
          </div>
        ) : state === 'loading' || !address ? (
          <p className="acct-muted">{t('common:loading')}</p>
        ) : (
          <div className="wal-address">
            <AddressQr address={address.address} alt={t('qrAlt')} />
            <div className="wal-address__body">
              <span className="wal-field__label">{t('depositAddress')}</span>
              <div className="wal-address__row">
                <code className="wal-mono wal-address__value" data-testid="deposit-address">{address.address}</code>
                <CopyButton text={address.address} />
              </div>
              <dl className="wal-facts">
                <div>
                  <dt>{t('minDeposit')}</dt>
                  <dd data-testid="deposit-min">{`${address.minDeposit} ${address.coin}`}</dd>
                </div>
                <div>
                  <dt>{t('confirmationsNeeded')}</dt>
                  <dd data-testid="deposit-confirmations">{address.confirmations}</dd>
                </div>
              </dl>
              <p className="acct-muted">{t('depositNote', { coin: address.coin, network: address.network })}</p>
            </div>
          </div>
        )}
      </section>
      <section className="acct-card acct-card--flush" aria-labelledby="recent-deposits">
        <h2 className="acct-card__title wal-list-title" id="recent-deposits">{t('recentDeposits')}</h2>
        {listLoad.status === 'error' ? (
          <p className="acct-error orders-pad" role="alert">{t('loadFailed', { msg: listLoad.msg })}</p>
        ) : rows.length === 0 ? (
          listLoad.status === 'loading' ? <p className="acct-muted orders-pad">{t('common:loading')}</p> : <EmptyState />
        ) : (
          <RowList rows={rows} columns={columns} rowKey={(d) => d.id} mobile={mobile} label={t('recentDeposits')} />
        )}
      </section>
    </AccountLayout>
  );
}
