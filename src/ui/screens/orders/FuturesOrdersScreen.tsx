import { useCallback, useEffect, useMemo, useState } from 'react';
import { isPage, oneOf, stringsLike, useViewState } from '../../hooks/useViewState.ts';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast.ts';
import { errorMessage } from '../../../api/client.ts';
import type { SymbolInfo } from '../../../protocol/market.ts';
import { TRADING_PATHS, type Fill, type LedgerEntry, type Order } from '../../../protocol/trading.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { Pager } from '../../components/Pager.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import { fillColumns, ledgerColumns, orderColumns, RowList } from '../../components/history/columns.tsx';
import { EMPTY_FILTERS, ORDER_TABS, type HistoryFilters, type OrderTab } from './historyQuery.ts';
import { OrderFilters } from './OrderFilters.tsx';
import { useHistoryPage } from './useHistoryPage.ts';
import { orderEdits } from '../../../protocol/orderView.ts';
import { EditOrderDialog, editedText } from '../../components/positions/PositionDialogs.tsx';
import '../../components/history/orders.css';

const TAB_LABEL = { open: 'tabOpen', history: 'tabHistory', trades: 'tabTrades', ledger: 'tabLedger' } as const;

/** The instruments (GET /market/symbols once): pair names for the filter, precisions for the edit dialog; empty until it answers. */
function useSymbols(): SymbolInfo[] {
  const api = useApi();
  const [symbols, setSymbols] = useState<SymbolInfo[]>([]);
  useEffect(() => {
    let live = true;
    api
      .get<SymbolInfo[]>('/market/symbols')
      .then((list) => {
        if (live && Array.isArray(list)) setSymbols(list);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [api]);
  return symbols;
}

const isIdOrNull = (v: unknown): v is string | null => v === null || (typeof v === 'string' && v.length > 0 && v.length <= 64);

function TabBody({ tab, filters, page, setPage, symbols }: { tab: OrderTab; filters: HistoryFilters; page: number; setPage: (p: number) => void; symbols: readonly SymbolInfo[] }) {
  const { t } = useTranslation('assets');
  const api = useApi();
  const mobile = useDevice() === 'mobile';
  const { load, reload } = useHistoryPage<Order | Fill | LedgerEntry>(tab, filters, page);
  // The open order being edited (issue 26: a stop's trigger, a limit's price, the size), as view state.
  const [editId, setEditId] = useViewState<string | null>('orders.futures.edit', null, isIdOrNull);

  const cancel = useCallback(
    async (o: Order) => {
      try {
        const env = await api.request({ method: 'POST', path: TRADING_PATHS.cancelOrder.replace(/^\/api/, ''), body: { orderId: o.id } });
        toast.success(env.msg || t('canceledOk'));
      } catch (e: unknown) {
        toast.error(errorMessage(e));
      }
      reload();
    },
    [api, reload, t],
  );

  if (load.status === 'error') {
    return (
      <p className="acct-error orders-pad" role="alert">
        {t('loadFailed', { msg: load.msg })}
      </p>
    );
  }
  if (load.status === 'loading') return <p className="acct-muted orders-pad">{t('common:loading')}</p>;
  const { list, total, pageSize } = load.data;
  const label = t(TAB_LABEL[tab]);
  const editing = tab === 'open' && editId !== null ? ((list as Order[]).find((o) => o.id === editId && orderEdits(o) !== null) ?? null) : null;
  const info = (symbol: string) => symbols.find((x) => x.symbol === symbol);
  const openActions = (o: Order) => (
    <span className="orders-actions">
      {orderEdits(o) !== null && (
        <Button variant="ghost" size="sm" onClick={() => setEditId(o.id)}>
          {t('editOrder')}
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={() => cancel(o)}>
        {t('cancelOrder')}
      </Button>
    </span>
  );
  return (
    <>
      {list.length === 0 ? (
        <EmptyState />
      ) : tab === 'ledger' ? (
        <RowList rows={list as LedgerEntry[]} columns={ledgerColumns(t)} rowKey={(r) => r.id} mobile={mobile} label={label} />
      ) : tab === 'trades' ? (
        <RowList rows={list as Fill[]} columns={fillColumns(t)} rowKey={(r) => r.id} mobile={mobile} label={label} />
      ) : (
        <RowList
          rows={list as Order[]}
          columns={orderColumns(t, tab === 'history')}
          rowKey={(r) => r.id}
          mobile={mobile}
          label={label}
          actions={tab === 'open' ? { label: t('actions'), render: openActions } : undefined}
        />
      )}
      {editing && (
        <EditOrderDialog
          order={editing}
          base={info(editing.symbol)?.base ?? ''}
          pricePrecision={info(editing.symbol)?.pricePrecision ?? 2}
          qtyPrecision={info(editing.symbol)?.qtyPrecision ?? 3}
          onClose={() => setEditId(null)}
          onSave={async (patch) => {
            const o = await api.post<Order>(TRADING_PATHS.editOrder.replace(/^\/api/, ''), { orderId: editing.id, ...patch });
            const i = info(o.symbol);
            toast.success(editedText(t, o, i?.base ?? '', i?.pricePrecision ?? 2, i?.qtyPrecision ?? 3));
            reload();
          }}
        />
      )}
      <Pager page={page} total={total} pageSize={pageSize} onPage={setPage} />
    </>
  );
}

const isHistoryFilters = stringsLike(EMPTY_FILTERS);

/**
 * /my/order/futures: open orders (with cancel), order history, trade history and transaction
 * history, filtered by contract, pair, kind / status / entry type and date range, paged. A tab or
 * filter change starts again at page 1; lists refresh on the user socket's order/balance frames.
 */
export function FuturesOrdersScreen() {
  const { t } = useTranslation('assets');
  const device = useDevice();
  const symbolInfo = useSymbols();
  const symbols = useMemo(() => symbolInfo.map((x) => x.symbol), [symbolInfo]);
  // View state as intents (src/core/viewState.ts): recorded, and shown again by a replay.
  const [tab, setTab] = useViewState<OrderTab>('orders.futures.tab', 'open', oneOf(ORDER_TABS));
  const [filters, setFilters] = useViewState<HistoryFilters>('orders.futures.filters', EMPTY_FILTERS, isHistoryFilters);
  const [page, setPage] = useViewState<number>('orders.futures.page', 1, isPage);
  const items = useMemo(() => ORDER_TABS.map((k) => ({ key: k, label: t(TAB_LABEL[k]) })), [t]);

  return (
    <AccountLayout title={t('ordersTitle')}>
      <div className={device === 'mobile' ? 'orders-panel' : 'acct-card acct-card--flush orders-panel'}>
        <div className="orders-tabs">
          <Tabs
            items={items}
            active={tab}
            label={t('ordersTitle')}
            onChange={(k) => {
              setTab(k);
              setPage(1);
            }}
          />
        </div>
        <OrderFilters
          tab={tab}
          value={filters}
          symbols={symbols}
          onChange={(f) => {
            setFilters(f);
            setPage(1);
          }}
        />
        <TabBody key={tab} tab={tab} filters={filters} page={page} setPage={setPage} symbols={symbolInfo} />
      </div>
    </AccountLayout>
  );
}
