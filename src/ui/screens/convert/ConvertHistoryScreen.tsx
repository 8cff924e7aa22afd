import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import type { Query } from '../../../api/client.ts';
import { CONVERT_ACCOUNTS, CONVERT_COINS, CONVERT_PATHS, type Conversion, type ConvertAccount } from '../../../protocol/convert.ts';
import type { ViewValue } from '../../../core/viewState.ts';
import type { Page } from '../../../protocol/envelope.ts';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useLiveGet } from '../../hooks/useLiveGet.ts';
import { useDevice } from '../../hooks/usePrefs.ts';
import { isPage, oneOf, stringsLike, useViewState } from '../../hooks/useViewState.ts';
import { formatCoinAmount } from '../../components/account/money.ts';
import { formatRate } from '../../../format/number.ts';
import { RowList, type Column } from '../../components/history/columns.tsx';
import { dayEndMs, dayStartMs, formatDateTime } from '../../../format/date.ts';
import { Pager } from '../../components/Pager.tsx';
import '../../components/history/orders.css';
import '../../components/wallet/wallet.css';

export interface ConvertHistoryFilters {
  from: string;
  to: string;
  account: '' | ConvertAccount;
  /** Local days 'YYYY-MM-DD'. */
  start: string;
  end: string;
}

const EMPTY: ConvertHistoryFilters = { from: '', to: '', account: '', start: '', end: '' };
const PAGE_SIZE = 10;
const LIVE = ['convert'];
/** The account filter: '' (every account) or a convert account. */
const ACCOUNT_FILTERS: readonly ConvertHistoryFilters['account'][] = ['', ...CONVERT_ACCOUNTS];
/** What the view store may hold for the filters: the five strings, the account empty or a convert account. */
export const isConvertFilters = (v: ViewValue): boolean => stringsLike(EMPTY)(v) && oneOf(ACCOUNT_FILTERS)((v as Record<string, ViewValue>).account ?? null);

/** The GET query of one page (empty filters dropped, local-day bounds). */
export function convertHistoryQuery(f: ConvertHistoryFilters, page: number): Query {
  const q: Query = { page, pageSize: PAGE_SIZE };
  if (f.from) q.from = f.from;
  if (f.to) q.to = f.to;
  if (f.account) q.account = f.account;
  const start = dayStartMs(f.start);
  const end = dayEndMs(f.end);
  if (start !== undefined) q.start = start;
  if (end !== undefined) q.end = end;
  return q;
}

/**
 * /my/order/convert (issue 12): filled converts, newest first: pair, amounts, rate, fee 0, account
 * and time, filtered by coins, account and date range, paged; a new convert (its `convert` frame)
 * refreshes the page.
 */
export function ConvertHistoryScreen() {
  const { t } = useTranslation('convert');
  const mobile = useDevice() === 'mobile';
  // Filters and page are view state (issue 16): in the record, shown again by a replay.
  const [filters, setFilters] = useViewState<ConvertHistoryFilters>('convert.history.filters', EMPTY, isConvertFilters);
  const [page, setPage] = useViewState<number>('convert.history.page', 1, isPage);
  const { load } = useLiveGet<Page<Conversion>>(CONVERT_PATHS.history.replace(/^\/api/, ''), convertHistoryQuery(filters, page), LIVE);
  const set = <K extends keyof ConvertHistoryFilters>(k: K, v: ConvertHistoryFilters[K]) => {
    setFilters({ ...filters, [k]: v });
    setPage(1);
  };

  const columns: Column<Conversion>[] = [
    { key: 'time', label: t('assets:time'), render: (c) => formatDateTime(c.time) },
    { key: 'pair', label: t('pair'), head: true, render: (c) => <b>{`${c.from} → ${c.to}`}</b> },
    { key: 'paid', label: t('paid'), num: true, render: (c) => `${formatCoinAmount(c.fromAmount, c.from)} ${c.from}` },
    { key: 'received', label: t('receivedCol'), num: true, render: (c) => `${formatCoinAmount(c.toAmount, c.to)} ${c.to}` },
    { key: 'rate', label: t('rate'), num: true, render: (c) => formatRate(c.rate) },
    { key: 'fee', label: t('fee'), num: true, render: () => '0' },
    { key: 'account', label: t('account'), render: (c) => t(`acct_${c.account}`) },
  ];
  const coinSelect = (k: 'from' | 'to', label: string) => (
    <label className="orders-filter">
      <span>{label}</span>
      <select aria-label={label} value={filters[k]} onChange={(e) => set(k, e.target.value)}>
        <option value="">{t('allCoins')}</option>
        {CONVERT_COINS.map((c) => <option key={c} value={c}>{c}</option>)}
      </select>
    </label>
  );

  return (
    <AccountLayout title={t('historyTitle')}>
      <div className={mobile ? 'orders-panel' : 'acct-card acct-card--flush orders-panel'}>
        <div className="orders-filters" role="group" aria-label={t('historyTitle')}>
          {coinSelect('from', t('from'))}
          {coinSelect('to', t('to'))}
          <label className="orders-filter">
            <span>{t('account')}</span>
            <select aria-label={t('account')} value={filters.account} onChange={(e) => set('account', e.target.value as ConvertHistoryFilters['account'])}>
              <option value="">{t('allAccounts')}</option>
              {CONVERT_ACCOUNTS.map((a) => <option key={a} value={a}>{t(`acct_${a}`)}</option>)}
            </select>
          </label>
          <label className="orders-filter">
            <span>{t('startDate')}</span>
            <DateField label={t('startDate')} value={filters.start} max={filters.end || undefined} onChange={(d) => set('start', d)} />
          </label>
          <label className="orders-filter">
            <span>{t('endDate')}</span>
            <DateField label={t('endDate')} value={filters.end} min={filters.start || undefined} onChange={(d) => set('end', d)} />
          </label>
          <button type="button" className="acct-link orders-reset" onClick={() => { setFilters(EMPTY); setPage(1); }}>
            {t('assets:resetFilters')}
          </button>
        </div>
        {load.status === 'error' ? (
          <p className="acct-error orders-pad" role="alert">{load.msg}</p>
        ) : load.status === 'loading' ? (
          <p className="acct-muted orders-pad">{t('common:loading')}</p>
        ) : load.data.list.length === 0 ? (
          <EmptyState />
        ) : (
          <RowList rows={load.data.list} columns={columns} rowKey={(c) => c.id} mobile={mobile} label={t('historyTitle')} />
        )}
        {load.status === 'ready' ? <Pager page={page} total={load.data.total} pageSize={load.data.pageSize} onPage={setPage} /> : null}
      </div>
    </AccountLayout>
  );
}
