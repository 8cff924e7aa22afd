import type { ViewValue } from '../../../core/viewState.ts';
import { DateField } from '../../components/DateField.tsx';
import { isPage, oneOf, stringsLike, useViewState } from '../../hooks/useViewState.ts';
import { useTranslation } from 'react-i18next';
import type { Query } from '../../../api/client.ts';
import type { Page } from '../../../protocol/envelope.ts';
import { DEPOSIT_STATUSES, HISTORY_TYPES, MONEY_COINS, MONEY_PATHS, WITHDRAWAL_STATUSES, type HistoryRow, type HistoryType } from '../../../protocol/wallet.ts';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { WALLET_LABEL } from '../../components/transfer/walletLabels.ts';
import { useLiveGet } from '../../hooks/useLiveGet.ts';
import { useDevice } from '../../hooks/usePrefs.ts';
import { formatCoinAmount } from '../../components/account/money.ts';
import { RowList, type Column } from '../../components/history/columns.tsx';
import { dayEndMs, dayStartMs, formatDateTime } from '../../../format/date.ts';
import { Pager } from '../../components/Pager.tsx';
import { HistoryStatus } from './StatusChip.tsx';
import { walletText } from '../../components/wallet/walletModel.ts';
import '../../components/history/orders.css';
import '../../components/wallet/wallet.css';

export interface WalletHistoryFilters {
  type: '' | HistoryType;
  coin: string;
  status: string;
  /** Local days 'YYYY-MM-DD' ('' = open-ended). */
  from: string;
  to: string;
}

export const EMPTY_WALLET_FILTERS: WalletHistoryFilters = { type: '', coin: '', status: '', from: '', to: '' };
export const WALLET_HISTORY_PAGE_SIZE = 10;
/** The type filter: '' (every type) or a history type. */
const TYPE_FILTERS: readonly WalletHistoryFilters['type'][] = ['', ...HISTORY_TYPES];
const isWalletFilters = (v: ViewValue): boolean => stringsLike(EMPTY_WALLET_FILTERS)(v) && oneOf(TYPE_FILTERS)((v as Record<string, ViewValue>).type ?? null);

/** The GET query of one page: empty filters dropped, the date range as local-day bounds. */
export function walletHistoryQuery(f: WalletHistoryFilters, page: number): Query {
  const q: Query = { page, pageSize: WALLET_HISTORY_PAGE_SIZE };
  if (f.type) q.type = f.type;
  if (f.coin) q.coin = f.coin;
  if (f.status) q.status = f.status;
  const from = dayStartMs(f.from);
  const to = dayEndMs(f.to);
  if (from !== undefined) q.from = from;
  if (to !== undefined) q.to = to;
  return q;
}

/** Statuses a type can have ('' = every type's). */
function statusesOf(type: WalletHistoryFilters['type']): string[] {
  if (type === 'deposit') return [...DEPOSIT_STATUSES];
  if (type === 'withdrawal') return [...WITHDRAWAL_STATUSES];
  if (type === 'transfer') return ['completed'];
  return [...new Set<string>([...DEPOSIT_STATUSES, ...WITHDRAWAL_STATUSES])];
}

const LIVE_FRAMES = ['deposit', 'withdrawal', 'balance'];

/**
 * /my/order/wallet-history (issue 12): deposits, withdrawals and wallet transfers in one paged
 * list filtered by type, coin, status and date range, each row with its status and transaction
 * id. The page is fetched again on every deposit / withdrawal / balance frame, so statuses change
 * live. A filter change starts again at page 1.
 */
export function WalletHistoryScreen() {
  const { t } = useTranslation('wallet');
  const mobile = useDevice() === 'mobile';
  // View state as intents (src/core/viewState.ts): recorded, and shown again by a replay.
  const [filters, setFilters] = useViewState<WalletHistoryFilters>('wallet.history.filters', EMPTY_WALLET_FILTERS, isWalletFilters);
  const [page, setPage] = useViewState<number>('wallet.history.page', 1, isPage);
  const { load } = useLiveGet<Page<HistoryRow>>(MONEY_PATHS.history.replace(/^\/api/, ''), walletHistoryQuery(filters, page), LIVE_FRAMES);
  const set = <K extends keyof WalletHistoryFilters>(k: K, v: WalletHistoryFilters[K]) => {
    setFilters({ ...filters, [k]: v, ...(k === 'type' ? { status: '' } : {}) });
    setPage(1);
  };
  const statusLabel = (s: string) => (s === 'credited' || s === 'belowMinimum' ? t(`dep_${s}`) : s === 'confirming' ? t('dep_confirmingShort') : t(`wd_${s}`));

  const columns: Column<HistoryRow>[] = [
    { key: 'time', label: t('assets:time'), render: (r) => formatDateTime(r.time) },
    { key: 'type', label: t('type'), head: true, render: (r) => <b>{t(`type_${r.type}`)}</b> },
    { key: 'coin', label: t('assets:coin'), render: (r) => (r.network ? `${r.coin} · ${r.network}` : r.coin) },
    { key: 'amount', label: t('assets:amount'), num: true, render: (r) => formatCoinAmount(r.amount, r.coin) },
    { key: 'fee', label: t('networkFee'), num: true, render: (r) => (r.type === 'withdrawal' ? formatCoinAmount(r.fee, r.coin) : '—') },
    {
      key: 'where', label: t('fromTo'),
      render: (r) => (r.type === 'transfer' ? `${t(`assets:${WALLET_LABEL[r.from as keyof typeof WALLET_LABEL] ?? r.from}`)} → ${t(`assets:${WALLET_LABEL[r.to as keyof typeof WALLET_LABEL] ?? r.to}`)}` : <span className="wal-mono wal-ellipsis" title={r.address}>{r.address}</span>),
    },
    {
      key: 'status',
      label: t('assets:status'),
      // A note says why a withdrawal ended so (cancelled by a password change, a reviewer's reason).
      render: (r) => (
        <>
          <HistoryStatus type={r.type} status={r.status} />
          {r.note ? <small className="wal-note" data-testid="history-note">{walletText(t, r.note)}</small> : null}
        </>
      ),
    },
    { key: 'txid', label: t('txid'), render: (r) => (r.txid ? <span className="wal-mono wal-ellipsis" title={r.txid} data-testid="history-txid">{r.txid}</span> : '—') },
  ];

  return (
    <AccountLayout title={t('historyTitle')}>
      <div className={mobile ? 'orders-panel' : 'acct-card acct-card--flush orders-panel'}>
        <div className="orders-filters" role="group" aria-label={t('historyTitle')}>
          <label className="orders-filter">
            <span>{t('type')}</span>
            <select aria-label={t('type')} value={filters.type} onChange={(e) => set('type', e.target.value as WalletHistoryFilters['type'])} data-testid="history-type">
              <option value="">{t('allTypes')}</option>
              {HISTORY_TYPES.map((k) => <option key={k} value={k}>{t(`type_${k}`)}</option>)}
            </select>
          </label>
          <label className="orders-filter">
            <span>{t('assets:coin')}</span>
            <select aria-label={t('assets:coin')} value={filters.coin} onChange={(e) => set('coin', e.target.value)}>
              <option value="">{t('allCoins')}</option>
              {MONEY_COINS.map((c) => <option key={c} value={c}>{c}</option>)}
            </select>
          </label>
          <label className="orders-filter">
            <span>{t('assets:status')}</span>
            <select aria-label={t('assets:status')} value={filters.status} onChange={(e) => set('status', e.target.value)}>
              <option value="">{t('assets:allStatuses')}</option>
              {statusesOf(filters.type).map((s) => <option key={s} value={s}>{statusLabel(s)}</option>)}
            </select>
          </label>
          <label className="orders-filter">
            <span>{t('assets:dateFrom')}</span>
            <DateField label={t('assets:dateFrom')} value={filters.from} max={filters.to || undefined} onChange={(d) => set('from', d)} testId="history-from" />
          </label>
          <label className="orders-filter">
            <span>{t('assets:dateTo')}</span>
            <DateField label={t('assets:dateTo')} value={filters.to} min={filters.from || undefined} onChange={(d) => set('to', d)} testId="history-to" />
          </label>
          <button type="button" className="acct-link orders-reset" onClick={() => { setFilters(EMPTY_WALLET_FILTERS); setPage(1); }}>
            {t('assets:resetFilters')}
          </button>
        </div>
        {load.status === 'error' ? (
          <p className="acct-error orders-pad" role="alert">{t('loadFailed', { msg: load.msg })}</p>
        ) : load.status === 'loading' ? (
          <p className="acct-muted orders-pad">{t('common:loading')}</p>
        ) : load.data.list.length === 0 ? (
          <EmptyState />
        ) : (
          <RowList rows={load.data.list} columns={columns} rowKey={(r) => `${r.type}-${r.id}`} mobile={mobile} label={t('historyTitle')} />
        )}
        {load.status === 'ready' ? <Pager page={page} total={load.data.total} pageSize={load.data.pageSize} onPage={setPage} /> : null}
      </div>
    </AccountLayout>
  );
}
