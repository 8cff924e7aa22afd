import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast.ts';
import { errorMessage } from '../../../api/client.ts';
import { MONEY_PATHS, type Withdrawal } from '../../../protocol/wallet.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import { formatCoinAmount } from '../../components/account/money.ts';
import { RowList, type Column } from '../../components/history/columns.tsx';
import { formatDateTime } from '../../../format/date.ts';
import { WithdrawalStatusChip } from './StatusChip.tsx';
import { useLiveRows } from './useLiveRows.ts';
import { walletText } from '../../components/wallet/walletModel.ts';

const path = (p: string) => p.replace(/^\/api/, '');

/**
 * The caller's recent withdrawals, kept live by `withdrawal` frames (review, completion with its
 * transaction id, rejection), with Cancel while pending (POST /money/withdraw/cancel; the frame
 * that follows moves the row, the balance frame returns the hold).
 */
export function WithdrawalList() {
  const { t } = useTranslation('wallet');
  const api = useApi();
  const mobile = useDevice() === 'mobile';
  const { load, rows } = useLiveRows<Withdrawal>(path(MONEY_PATHS.withdrawals), 'withdrawal', 10);
  const [cancelling, setCancelling] = useState<number | null>(null);

  const cancel = useCallback(
    async (w: Withdrawal) => {
      setCancelling(w.id);
      try {
        const env = await api.request<unknown>({ method: 'POST', path: path(MONEY_PATHS.withdrawCancel), body: { id: w.id } });
        toast.success(walletText(t, env.msg || 'Withdrawal cancelled'));
      } catch (e: unknown) {
        toast.error(walletText(t, errorMessage(e)));
      } finally {
        setCancelling(null);
      }
    },
    [api, t],
  );

  const columns: Column<Withdrawal>[] = [
    { key: 'time', label: t('assets:time'), render: (w) => formatDateTime(w.time) },
    { key: 'coin', label: t('assets:coin'), head: true, render: (w) => <b>{`${w.coin} · ${w.network}`}</b> },
    { key: 'amount', label: t('assets:amount'), num: true, render: (w) => formatCoinAmount(w.amount, w.coin) },
    { key: 'fee', label: t('networkFee'), num: true, render: (w) => formatCoinAmount(w.fee, w.coin) },
    { key: 'address', label: t('address'), render: (w) => <span className="wal-mono wal-ellipsis" title={w.address}>{w.address}</span> },
    { key: 'status', label: t('assets:status'), render: (w) => <WithdrawalStatusChip status={w.status} /> },
    { key: 'txid', label: t('txid'), render: (w) => (w.txid ? <span className="wal-mono wal-ellipsis" title={w.txid}>{w.txid}</span> : '—') },
  ];

  return (
    <section className="acct-card acct-card--flush" aria-labelledby="recent-withdrawals">
      <h2 className="acct-card__title wal-list-title" id="recent-withdrawals">{t('recentWithdrawals')}</h2>
      {load.status === 'error' ? (
        <p className="acct-error orders-pad" role="alert">{t('loadFailed', { msg: load.msg })}</p>
      ) : rows.length === 0 ? (
        load.status === 'loading' ? <p className="acct-muted orders-pad">{t('common:loading')}</p> : <EmptyState />
      ) : (
        <RowList
          rows={rows}
          columns={columns}
          rowKey={(w) => w.id}
          mobile={mobile}
          label={t('recentWithdrawals')}
          actions={{
            label: t('assets:actions'),
            render: (w) =>
              w.status === 'pending' ? (
                <Button variant="ghost" size="sm" pending={cancelling === w.id} onClick={() => void cancel(w)} data-testid="withdrawal-cancel">
                  {t('cancel')}
                </Button>
              ) : null,
          }}
        />
      )}
    </section>
  );
}
