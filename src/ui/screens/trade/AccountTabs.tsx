import { useCallback, useEffect } from 'react';
import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../components/toast.ts';
import { errorMessage } from '../../../api/client.ts';
import { formatNumber, formatPercent } from '../../../format/number.ts';
import type { SymbolInfo } from '../../../protocol/market.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import type { ContractKind } from '../../../protocol/market.ts';
import type { Order } from '../../../protocol/trading.ts';
import type { LivePosition as Position } from '../../../streams/positionFigures.ts';
import type { HistoryList } from '../../../core/tradingApi.ts';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import { useViewState } from '../../hooks/useViewState.ts';
import { CloseAllDialog, CloseDialog, EditOrderDialog, editedText, TpslDialog } from '../../components/positions/PositionDialogs.tsx';
import { orderEdits, orderLimitPrice, orderTrigger } from '../../../protocol/orderView.ts';
import { isDemoCredit } from '../../../protocol/demoCredit.ts';
import type { TradingAccount } from './useTradingAccount.ts';
import { formatDateTime } from '../../../format/date.ts';

export const ACCOUNT_TABS = ['positions', 'openOrders', 'orderHistory', 'tradeHistory', 'transactions'] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number];
const TABS: readonly AccountTab[] = ['positions', 'openOrders', 'orderHistory', 'tradeHistory', 'transactions'];

/**
 * The tables below the chart: positions (close, edit TP/SL), open orders (cancel), order
 * history, trade history and transaction (ledger) history, from {@link TradingAccount}.
 * Prices use the instrument's precision when the row is for a known symbol.
 */
/** The figure columns of a position (after the symbol, before the actions). */
const POSITION_COLS = ['size', 'entryPrice', 'markPrice', 'liqPrice', 'margin', 'marginRatio', 'pnl', 'tpsl'] as const;

export function AccountTabs({
  account,
  symbols,
  newId,
  tab,
  onTab,
  contract = 'perp',
}: {
  /** The contract kind of the screen: the close / TP/SL machines are per kind. */
  contract?: ContractKind;
  account: TradingAccount;
  symbols: readonly SymbolInfo[];
  newId: () => string;
  /** The open tab, owned by the screen so it survives a desktop ↔ tablet layout switch (a remount). */
  tab: AccountTab;
  onTab: (tab: AccountTab) => void;
}) {
  const { t } = useTranslation('trade');
  void newId;
  const setTab = onTab;
  // The edit dialog's target is view state (issue 16): the order id, shown only while that order is still open.
  const [editOrderId, setEditOrderId] = useViewState<string | null>('trade.editOrder', null, isOrderIdOrNull);
  // The Cancel-all confirmation of the open orders tab (issue 26: a button, not only Shift+C), as view state.
  const [cancelAllAsk, setCancelAllAsk] = useViewState<boolean>('trade.cancelAll', false, isBoolean);
  const { t: tf } = useTranslation('orderForm');
  const cancelAll = async () => {
    setCancelAllAsk(false);
    const results = await Promise.allSettled(account.openOrders.map((o) => account.api.cancelOrder(o.id)));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const bad = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (ok > 0) toast.success(tf('cancelAllDone', { count: ok }));
    if (bad) toast.error(errorMessage(bad.reason));
    account.refresh();
  };
  const editOrder = editOrderId === null ? null : (account.openOrders.find((o) => o.id === editOrderId && orderEdits(o) !== null) ?? null);
  const flows = usePositionFlows(contract, account, symbols);
  const pp = (symbol: string) => symbols.find((s) => s.symbol === symbol)?.pricePrecision ?? 2;
  const qp = (symbol: string) => symbols.find((s) => s.symbol === symbol)?.qtyPrecision ?? 3;
  /** Runs an account action; the toast says what happened, built from the server's answer. */
  const act = async <T,>(p: Promise<T>, ok: (answer: T) => string) => {
    try {
      const answer = await p;
      toast.success(ok(answer));
      account.refresh();
    } catch (e) {
      toast.error(errorMessage(e));
    }
  };
  const base = (symbol: string) => symbols.find((s) => s.symbol === symbol)?.base ?? '';
  const cards = useDevice() === 'mobile';
  const sideCls = (p: Position) => (p.side === 'long' ? 'rf-up' : 'rf-down');
  const positionTitle = (p: Position) => (
    <>
      <strong>{p.symbol}</strong> <span className={`rf-at-side ${sideCls(p)}`}>{t(p.side)} {p.leverage}x</span>
    </>
  );
  /** A position's figures, drawn as table cells on wide screens and as labelled card fields on phones. */
  const positionCells = (p: Position): { col: (typeof POSITION_COLS)[number]; cls: string; value: ReactNode; testId?: string }[] => [
    { col: 'size', cls: `rf-num ${sideCls(p)}`, value: formatNumber(p.qty, qp(p.symbol)), testId: 'position-size' },
    { col: 'entryPrice', cls: 'rf-num', value: formatNumber(p.entryPrice, pp(p.symbol)) },
    { col: 'markPrice', cls: 'rf-num', value: formatNumber(p.markPrice, pp(p.symbol)), testId: 'position-mark' },
    {
      col: 'liqPrice',
      cls: 'rf-num',
      value: (
        <>
          <span data-testid="liq-price">{formatNumber(p.liquidationPrice, pp(p.symbol))}</span>
          {p.liqDistance !== null && (
            <span className="rf-at-sub" data-testid="liq-distance" title={t('liqDistance')}>
              {t('liqDistanceShort', { pct: formatPercent(p.liqDistance * 100).replace('+', '') })}
            </span>
          )}
        </>
      ),
    },
    { col: 'margin', cls: 'rf-num', value: formatNumber(p.margin, 2) },
    { col: 'marginRatio', cls: 'rf-num', value: formatPercent(p.marginRatio * 100).replace('+', ''), testId: 'position-margin-ratio' },
    {
      col: 'pnl',
      cls: `rf-num ${Number(p.unrealizedPnl) >= 0 ? 'rf-up' : 'rf-down'}`,
      value: `${formatNumber(p.unrealizedPnl, 2)} (${formatPercent(p.returnPct)})`,
      testId: 'position-pnl',
    },
    {
      col: 'tpsl',
      cls: 'rf-num',
      value: `${p.tp === null ? '--' : formatNumber(p.tp, pp(p.symbol))} / ${p.sl === null ? '--' : formatNumber(p.sl, pp(p.symbol))}`,
      testId: 'position-tpsl',
    },
  ];
  const positionActions = (p: Position) => (
    <>
      <Button size="sm" variant="secondary" onClick={() => flows.openTpsl(p)}>
        {t('editTpSl')}
      </Button>
      <Button size="sm" variant="secondary" onClick={() => flows.openClose(p, true)} data-testid="close-position">
        {t('closePosition')}
      </Button>
      <Button size="sm" variant="secondary" onClick={() => flows.openClose(p, false)}>
        {t('positions:closeCustom')}
      </Button>
    </>
  );
  /** Order kinds the trade texts may not name yet fall back to the positions texts. */
  const kindText = (kind: Order['kind']) => t(`kind_${kind}`);
  /** A conditional order's trigger and the price it watches ("67,000.0 · Mark"); '--' for the other kinds. */
  const triggerText = (o: Order) => {
    const tr = orderTrigger(o);
    return tr ? `${formatNumber(tr.price, pp(o.symbol))} · ${t(`triggerBy_${tr.by}`)}` : '--';
  };
  /** The price the order executes at, or 'Market'. */
  const priceText = (o: Order) => {
    const p = orderLimitPrice(o);
    return p === null ? t('market') : formatNumber(p, pp(o.symbol));
  };
  const moreButton = (list: HistoryList, shown: number) =>
    account.more?.[list] ? (
      <div className="rf-at-more">
        <span>{t('positions:shownOf', { shown })}</span>
        <Button size="sm" variant="secondary" onClick={() => account.loadMore(list)} data-testid={`load-more-${list}`}>
          {t('positions:loadMore')}
        </Button>
      </div>
    ) : null;
  const count = (k: AccountTab) => (k === 'positions' ? account.positions.length : k === 'openOrders' ? account.openOrders.length : null);

  const empty = (n: number, cols: number) =>
    n === 0 ? (
      <tr>
        <td colSpan={cols} className="rf-at-empty">
          {account.loggedIn ? t('common:noData') : t('loginToTrade')}
        </td>
      </tr>
    ) : null;

  return (
    <section className="rf-at" aria-label={t('account')}>
      <Tabs
        label={t('account')}
        active={tab}
        onChange={setTab}
        items={TABS.map((k) => ({ key: k, label: count(k) ? `${t(`tab_${k}`)} (${count(k)})` : t(`tab_${k}`) }))}
      />
      <div className="rf-at-body" role="region" aria-label={t(`tab_${tab}`)} tabIndex={0}>
        {tab === 'positions' && account.positions.length > 0 && (
          <div className="rf-at-toolbar">
            <Button size="sm" variant="secondary" onClick={() => flows.openCloseAll()} data-testid="close-all">
              {t('positions:closeAll')}
            </Button>
          </div>
        )}
        {tab === 'positions' && !cards && (
          <table className="rf-table" data-testid="positions">
            <thead>
              <tr>
                {['symbol', ...POSITION_COLS, 'actions'].map((c) => (
                  <th key={c} className={c === 'actions' ? 'rf-at-actions' : undefined}>
                    {t(`col_${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {empty(account.positions.length, POSITION_COLS.length + 2)}
              {account.positions.map((p) => (
                <tr key={p.id} data-testid="position-row">
                  <td className="rf-at-symbol">{positionTitle(p)}</td>
                  {positionCells(p).map((c) => (
                    <td key={c.col} className={c.cls} data-testid={c.testId}>
                      {c.value}
                    </td>
                  ))}
                  <td className="rf-at-actions">
                    <div className="rf-at-actions__row">{positionActions(p)}</div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {tab === 'positions' && cards && (
          // Phones: one card per position, every figure labelled, no sideways scrolling (issue 14).
          <div className="rf-pos-cards" data-testid="positions">
            {account.positions.length === 0 ? <p className="rf-at-empty">{account.loggedIn ? t('common:noData') : t('loginToTrade')}</p> : null}
            {account.positions.map((p) => (
              <article key={p.id} className="rf-pos-card" data-testid="position-row" aria-label={`${p.symbol} ${t(p.side)}`}>
                <header className="rf-pos-card__head">{positionTitle(p)}</header>
                <dl className="rf-pos-card__grid">
                  {positionCells(p).map((c) => (
                    <div key={c.col}>
                      <dt>{t(`col_${c.col}`)}</dt>
                      <dd className={c.cls} data-testid={c.testId}>
                        {c.value}
                      </dd>
                    </div>
                  ))}
                </dl>
                <div className="rf-pos-card__actions">{positionActions(p)}</div>
              </article>
            ))}
          </div>
        )}
        {tab === 'openOrders' && account.openOrders.length > 0 && (
          <div className="rf-at-toolbar">
            <Button size="sm" variant="secondary" onClick={() => setCancelAllAsk(true)} data-testid="cancel-all-orders">
              {t('cancelAllOrders')}
            </Button>
          </div>
        )}
        {tab === 'openOrders' && (
          <table className="rf-table" data-testid="open-orders">
            <thead>
              <tr>
                {['time', 'symbol', 'type', 'side', 'trigger', 'price', 'amount', 'filled', 'actions'].map((c) => (
                  <th key={c} className={c === 'actions' ? 'rf-at-actions' : undefined}>
                    {t(`col_${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {empty(account.openOrders.length, 9)}
              {account.openOrders.map((o) => (
                <tr key={o.id} data-testid="open-order-row">
                  <td>{formatDateTime(o.createdAt)}</td>
                  <td>{o.symbol}</td>
                  <td>{kindText(o.kind)}</td>
                  <td className={o.side === 'buy' ? 'rf-up' : 'rf-down'}>{t(o.side)}</td>
                  <td className="rf-num" data-testid="order-trigger">{triggerText(o)}</td>
                  <td className="rf-num" data-testid="order-price">{priceText(o)}</td>
                  <td className="rf-num">{formatNumber(o.qty, qp(o.symbol))}</td>
                  <td className="rf-num">{formatNumber(o.executedQty, qp(o.symbol))}</td>
                  <td className="rf-at-actions">
                    <div className="rf-at-actions__row">
                      {orderEdits(o) !== null && (
                        <Button size="sm" variant="secondary" onClick={() => setEditOrderId(o.id)}>
                          {t('positions:editOrder')}
                        </Button>
                      )}
                      <Button size="sm" variant="secondary" onClick={() => act(account.api.cancelOrder(o.id), () => t('st_canceled'))}>
                        {t('cancelOrder')}
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {tab === 'orderHistory' && (
          <table className="rf-table" data-testid="order-history">
            <thead>
              <tr>
                {['time', 'symbol', 'type', 'side', 'trigger', 'price', 'avgPrice', 'amount', 'filled', 'fee', 'status'].map((c) => (
                  <th key={c}>{t(`col_${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {empty(account.orderHistory.length, 11)}
              {account.orderHistory.map((o) => (
                <tr key={o.id} data-testid="order-history-row">
                  <td>{formatDateTime(o.createdAt)}</td>
                  <td>{o.symbol}</td>
                  <td>{kindText(o.kind)}</td>
                  <td className={o.side === 'buy' ? 'rf-up' : 'rf-down'}>{t(o.side)}</td>
                  <td className="rf-num">{triggerText(o)}</td>
                  <td className="rf-num">{priceText(o)}</td>
                  <td className="rf-num">{o.executedQty > 0 ? formatNumber(o.avgPrice, pp(o.symbol)) : '--'}</td>
                  <td className="rf-num">{formatNumber(o.qty, qp(o.symbol))}</td>
                  <td className="rf-num">{formatNumber(o.executedQty, qp(o.symbol))}</td>
                  <td className="rf-num">{formatNumber(o.fee, 4)}</td>
                  <td>{t(`status_${o.status}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {tab === 'orderHistory' && moreButton('orderHistory', account.orderHistory.length)}
        {tab === 'tradeHistory' && (
          <table className="rf-table" data-testid="trade-history">
            <thead>
              <tr>
                {['time', 'symbol', 'side', 'price', 'amount', 'liquidity', 'fee', 'realizedPnl'].map((c) => (
                  <th key={c}>{t(`col_${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {empty(account.fills.length, 8)}
              {account.fills.map((f) => (
                <tr key={f.id} data-testid="trade-history-row">
                  <td>{formatDateTime(f.time)}</td>
                  <td>{f.symbol}</td>
                  <td className={f.side === 'buy' ? 'rf-up' : 'rf-down'}>{t(f.side)}</td>
                  <td className="rf-num">{formatNumber(f.price, pp(f.symbol))}</td>
                  <td className="rf-num">{formatNumber(f.qty, qp(f.symbol))}</td>
                  <td data-testid="fill-liquidity">{f.liquidity ? t(`liquidity_${f.liquidity}`) : '--'}</td>
                  <td className="rf-num">{formatNumber(f.fee, 4)}</td>
                  <td className={`rf-num ${Number(f.realizedPnl) >= 0 ? 'rf-up' : 'rf-down'}`}>{formatNumber(f.realizedPnl, 4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {tab === 'tradeHistory' && moreButton('fills', account.fills.length)}
        {tab === 'transactions' && (
          <table className="rf-table" data-testid="transactions">
            <thead>
              <tr>
                {['time', 'txType', 'symbol', 'change', 'balanceAfter'].map((c) => (
                  <th key={c}>{t(`col_${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {empty(account.ledger.length, 5)}
              {account.ledger.map((l) => (
                <tr key={l.id} data-testid="transaction-row" data-type={l.type}>
                  <td>{formatDateTime(l.time)}</td>
                  <td>{isDemoCredit(l) ? t('ledgerDemoCredit') : t(`ledger_${l.type}`)}</td>
                  <td>{l.symbol || '--'}</td>
                  <td className={`rf-num ${Number(l.amount) >= 0 ? 'rf-up' : 'rf-down'}`}>
                    {Number(l.amount) > 0 ? '+' : ''}
                    {formatNumber(l.amount, 4)} {l.coin}
                  </td>
                  <td className="rf-num">{formatNumber(l.balanceAfter, 4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {tab === 'transactions' && moreButton('ledger', account.ledger.length)}
      </div>
      {flows.dialogs}
      {editOrder && (
        <EditOrderDialog
          order={editOrder}
          base={base(editOrder.symbol)}
          pricePrecision={pp(editOrder.symbol)}
          qtyPrecision={qp(editOrder.symbol)}
          onClose={() => setEditOrderId(null)}
          onSave={async (patch) => {
            const o = await account.api.editOrder(editOrder.id, patch);
            toast.success(editedText(t, o, base(o.symbol), pp(o.symbol), qp(o.symbol)));
            account.refresh();
          }}
        />
      )}
      <Modal
        open={cancelAllAsk && account.openOrders.length > 0}
        onClose={() => setCancelAllAsk(false)}
        title={tf('cancelAllTitle')}
        footer={
          <>
            <Button variant="secondary" onClick={() => setCancelAllAsk(false)}>
              {tf('keepOrders')}
            </Button>
            <Button variant="primary" onClick={cancelAll} data-testid="cancel-all-confirm">
              {tf('cancelAllConfirm')}
            </Button>
          </>
        }
      >
        <p>{tf('cancelAllBody', { count: account.openOrders.length, symbol: [...new Set(account.openOrders.map((o) => o.symbol))].join(', ') })}</p>
      </Modal>
    </section>
  );
}

const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';

/** A recorded 'trade.editOrder' value: an order id (a short string) or null (no dialog). */
export const isOrderIdOrNull = (v: unknown): v is string | null => v === null || (typeof v === 'string' && v.length > 0 && v.length <= 64);


/**
 * The close and TP/SL flows of the panel: the core's machines (src/core/screenMachines.ts) held
 * while the panel is mounted, their dialogs, the live position sent to an open dialog, and the
 * toasts of what happened (from the machines' emitted events).
 */
function usePositionFlows(contract: ContractKind, account: TradingAccount, symbols: readonly SymbolInfo[]) {
  const { t } = useTranslation('trade');
  const [closeActor, sendClose] = useScreenActor({ name: 'close', contract });
  const [tpslActor, sendTpsl] = useScreenActor({ name: 'tpsl', contract });
  const closeState = useSelector(closeActor, (s) => s.value);
  const closeCtx = useSelector(closeActor, (s) => s.context);
  const tpslState = useSelector(tpslActor, (s) => s.value);
  const tpslCtx = useSelector(tpslActor, (s) => s.context);
  const rulesOf = useCallback(
    (symbol: string) => {
      const s = symbols.find((x) => x.symbol === symbol);
      return {
        qtyPrecision: s?.qtyPrecision ?? 3,
        qtyStep: s?.qtyStep ?? 0.001,
        minOrderQuantity: s?.minOrderQuantity ?? 0.001,
        pricePrecision: s?.pricePrecision ?? 2,
        tickSize: s?.tickSize ?? 0.01,
      };
    },
    [symbols],
  );
  const baseOf = useCallback((symbol: string) => symbols.find((x) => x.symbol === symbol)?.base ?? '', [symbols]);

  // The open dialogs follow the live position (mark, PnL, size): derived, not an intent.
  const { positions, refresh } = account;
  const closeId = closeCtx.position?.id ?? null;
  const tpslId = tpslCtx.position?.id ?? null;
  // A dialog whose position is gone (liquidated, closed elsewhere, or a replayed log naming a
  // position this account does not hold) is not shown and is cancelled: derived from the data.
  const loggedIn = account.loggedIn;
  const closeLive = closeId !== null && positions.some((p) => p.id === closeId);
  const tpslLive = tpslId !== null && positions.some((p) => p.id === tpslId);
  useEffect(() => {
    if (closeId) sendClose({ type: 'close.position', position: positions.find((p) => p.id === closeId) ?? null }, { derived: true });
    if (tpslId) sendTpsl({ type: 'tpsl.position', position: positions.find((p) => p.id === tpslId) ?? null }, { derived: true });
  }, [positions, closeId, tpslId, sendClose, sendTpsl]);
  useEffect(() => {
    if (!loggedIn) return;
    if (closeId && !closeLive && closeState === 'editing') sendClose({ type: 'close.cancel' }, { derived: true });
    if (tpslId && !tpslLive && tpslState === 'editing') sendTpsl({ type: 'tpsl.cancel' }, { derived: true });
  }, [loggedIn, closeId, closeLive, closeState, tpslId, tpslLive, tpslState, sendClose, sendTpsl]);

  // What happened, in the user's language.
  useEffect(() => {
    const subs = [
      closeActor.on('closed', (e) => {
        const o = e.order;
        const pp = rulesOf(o.symbol).pricePrecision;
        const qp = rulesOf(o.symbol).qtyPrecision;
        if (o.executedQty > 0) toast.success(t('closedAt', { qty: formatNumber(o.executedQty, qp), base: baseOf(o.symbol), price: formatNumber(o.avgPrice, pp) }));
        else if (o.kind === 'limitClose') toast.success(t('positions:limitPlaced', { qty: formatNumber(o.qty, qp), base: baseOf(o.symbol), price: formatNumber(o.price, pp) }));
        else toast.success(t('closed'));
        refresh();
      }),
      closeActor.on('closedAll', (e) => {
        toast.success(t('positions:closedAll', { count: e.orders.length }));
        refresh();
      }),
      closeActor.on('closeFailed', (e) => void toast.error(e.msg)),
      tpslActor.on('tpslSaved', (e) => {
        const { tp, sl } = e.request;
        toast.success(t(tp !== null && sl !== null ? 'tpslSet_both' : tp !== null ? 'tpslSet_tp' : sl !== null ? 'tpslSet_sl' : 'tpslSet_none'));
        refresh();
      }),
      tpslActor.on('tpslFailed', (e) => void toast.error(e.msg)),
    ];
    return () => subs.forEach((s) => s.unsubscribe());
  }, [closeActor, tpslActor, refresh, t, rulesOf, baseOf]);

  const closeOpen = (closeState === 'editing' || closeState === 'submitting') && closeCtx.dialog && closeLive;
  const dialogs = (
    <>
      {closeOpen && (
        <CloseDialog
          ctx={closeCtx}
          pending={closeState === 'submitting'}
          base={baseOf(closeCtx.position?.symbol ?? '')}
          onMode={(mode) => sendClose({ type: 'close.mode', mode })}
          onQty={(text) => sendClose({ type: 'close.qty', text })}
          onPct={(pct) => sendClose({ type: 'close.pct', pct })}
          onPrice={(text) => sendClose({ type: 'close.price', text })}
          onDontAsk={(on) => sendClose({ type: 'close.dontAsk', on })}
          onConfirm={() => sendClose({ type: 'close.confirm' })}
          onCancel={() => sendClose({ type: 'close.cancel' })}
        />
      )}
      {closeState === 'confirmingAll' && (
        <CloseAllDialog
          positions={positions}
          dontAsk={closeCtx.dontAsk}
          pending={false}
          onDontAsk={(on) => sendClose({ type: 'closeAll.dontAsk', on })}
          onConfirm={() => sendClose({ type: 'closeAll.confirm' })}
          onCancel={() => sendClose({ type: 'closeAll.cancel' })}
        />
      )}
      {(tpslState === 'editing' || tpslState === 'saving') && tpslLive && (
        <TpslDialog
          ctx={tpslCtx}
          pending={tpslState === 'saving'}
          base={baseOf(tpslCtx.position?.symbol ?? '')}
          onTp={(text) => sendTpsl({ type: 'tpsl.tp', text })}
          onSl={(text) => sendTpsl({ type: 'tpsl.sl', text })}
          onSave={() => sendTpsl({ type: 'tpsl.save' })}
          onCancel={() => sendTpsl({ type: 'tpsl.cancel' })}
        />
      )}
    </>
  );
  return {
    dialogs,
    openClose: (p: Position, quick: boolean) => sendClose({ type: 'close.open', position: p, rules: rulesOf(p.symbol), quick }),
    openCloseAll: () => sendClose({ type: 'closeAll.open', count: positions.length }),
    openTpsl: (p: Position) => sendTpsl({ type: 'tpsl.open', position: p, rules: rulesOf(p.symbol) }),
  };
}

