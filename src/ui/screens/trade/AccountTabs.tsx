import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/client.ts';
import { formatNumber, formatPercent } from '../../../format/number.ts';
import type { SymbolInfo } from '../../../protocol/market.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { useDevice } from '../../hooks/usePrefs.ts';
import type { Position } from '../../../protocol/trading.ts';
import type { TradingAccount } from './useTradingAccount.ts';

export type AccountTab = 'positions' | 'openOrders' | 'orderHistory' | 'tradeHistory' | 'transactions';
const TABS: readonly AccountTab[] = ['positions', 'openOrders', 'orderHistory', 'tradeHistory', 'transactions'];

/** Date and time of a unix-ms instant in the viewer's zone: 2026-01-15 10:20:30. */
export function dateTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

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
}: {
  account: TradingAccount;
  symbols: readonly SymbolInfo[];
  newId: () => string;
  /** The open tab, owned by the screen so it survives a desktop ↔ tablet layout switch (a remount). */
  tab: AccountTab;
  onTab: (tab: AccountTab) => void;
}) {
  const { t } = useTranslation('trade');
  const setTab = onTab;
  const [editing, setEditing] = useState<Position | null>(null);
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
  const tpslDone = (tp: number | null, sl: number | null) => t(tp !== null && sl !== null ? 'tpslSet_both' : tp !== null ? 'tpslSet_tp' : sl !== null ? 'tpslSet_sl' : 'tpslSet_none');
  const cards = useDevice() === 'mobile';
  const sideCls = (p: Position) => (p.side === 'long' ? 'rf-up' : 'rf-down');
  const positionTitle = (p: Position) => (
    <>
      <strong>{p.symbol}</strong> <span className={sideCls(p)}>{t(p.side)} {p.leverage}x</span>
    </>
  );
  /** A position's figures, drawn as table cells on wide screens and as labelled card fields on phones. */
  const positionCells = (p: Position): { col: (typeof POSITION_COLS)[number]; cls: string; value: ReactNode; testId?: string }[] => [
    { col: 'size', cls: `rf-num ${sideCls(p)}`, value: formatNumber(p.qty, qp(p.symbol)) },
    { col: 'entryPrice', cls: 'rf-num', value: formatNumber(p.entryPrice, pp(p.symbol)) },
    { col: 'markPrice', cls: 'rf-num', value: formatNumber(p.markPrice, pp(p.symbol)) },
    { col: 'liqPrice', cls: 'rf-num', value: formatNumber(p.liquidationPrice, pp(p.symbol)), testId: 'liq-price' },
    { col: 'margin', cls: 'rf-num', value: formatNumber(p.margin, 2) },
    { col: 'marginRatio', cls: 'rf-num', value: formatPercent(p.marginRatio * 100).replace('+', '') },
    { col: 'pnl', cls: `rf-num ${Number(p.unrealizedPnl) >= 0 ? 'rf-up' : 'rf-down'}`, value: `${formatNumber(p.unrealizedPnl, 2)} (${formatPercent(p.returnPct)})` },
    {
      col: 'tpsl',
      cls: 'rf-num',
      value: `${p.tp === null ? '--' : formatNumber(p.tp, pp(p.symbol))} / ${p.sl === null ? '--' : formatNumber(p.sl, pp(p.symbol))}`,
      testId: 'position-tpsl',
    },
  ];
  const positionActions = (p: Position) => (
    <>
      <Button size="sm" variant="secondary" onClick={() => setEditing(p)}>
        {t('editTpSl')}
      </Button>
      <Button
        size="sm"
        variant="secondary"
        onClick={() =>
          act(account.api.closePosition(p.id, newId()), (o) =>
            o.executedQty > 0
              ? t('closedAt', { qty: formatNumber(o.executedQty, qp(p.symbol)), base: base(p.symbol), price: formatNumber(o.avgPrice, pp(p.symbol)) })
              : t('closed'),
          )
        }
      >
        {t('closePosition')}
      </Button>
    </>
  );
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
        {tab === 'positions' && !cards && (
          <table className="rf-table" data-testid="positions">
            <thead>
              <tr>
                {['symbol', ...POSITION_COLS, 'actions'].map((c) => (
                  <th key={c}>{t(`col_${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {empty(account.positions.length, POSITION_COLS.length + 2)}
              {account.positions.map((p) => (
                <tr key={p.id} data-testid="position-row">
                  <td>{positionTitle(p)}</td>
                  {positionCells(p).map((c) => (
                    <td key={c.col} className={c.cls} data-testid={c.testId}>
                      {c.value}
                    </td>
                  ))}
                  <td className="rf-at-actions">{positionActions(p)}</td>
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
        {tab === 'openOrders' && (
          <table className="rf-table" data-testid="open-orders">
            <thead>
              <tr>
                {['time', 'symbol', 'type', 'side', 'price', 'amount', 'filled', 'actions'].map((c) => (
                  <th key={c}>{t(`col_${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {empty(account.openOrders.length, 8)}
              {account.openOrders.map((o) => (
                <tr key={o.id} data-testid="open-order-row">
                  <td>{dateTime(o.createdAt)}</td>
                  <td>{o.symbol}</td>
                  <td>{t(`kind_${o.kind}`)}</td>
                  <td className={o.side === 'buy' ? 'rf-up' : 'rf-down'}>{t(o.side)}</td>
                  <td className="rf-num">{o.kind === 'marketOpen' || o.kind === 'marketClose' ? t('market') : formatNumber(o.price, pp(o.symbol))}</td>
                  <td className="rf-num">{formatNumber(o.qty, qp(o.symbol))}</td>
                  <td className="rf-num">{formatNumber(o.executedQty, qp(o.symbol))}</td>
                  <td>
                    <Button size="sm" variant="secondary" onClick={() => act(account.api.cancelOrder(o.id), () => t('st_canceled'))}>
                      {t('cancelOrder')}
                    </Button>
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
                {['time', 'symbol', 'type', 'side', 'price', 'avgPrice', 'amount', 'filled', 'fee', 'status'].map((c) => (
                  <th key={c}>{t(`col_${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {empty(account.orderHistory.length, 10)}
              {account.orderHistory.map((o) => (
                <tr key={o.id} data-testid="order-history-row">
                  <td>{dateTime(o.createdAt)}</td>
                  <td>{o.symbol}</td>
                  <td>{t(`kind_${o.kind}`)}</td>
                  <td className={o.side === 'buy' ? 'rf-up' : 'rf-down'}>{t(o.side)}</td>
                  <td className="rf-num">{o.kind === 'marketOpen' || o.kind === 'marketClose' ? t('market') : formatNumber(o.price, pp(o.symbol))}</td>
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
        {tab === 'tradeHistory' && (
          <table className="rf-table" data-testid="trade-history">
            <thead>
              <tr>
                {['time', 'symbol', 'side', 'price', 'amount', 'fee', 'realizedPnl'].map((c) => (
                  <th key={c}>{t(`col_${c}`)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {empty(account.fills.length, 7)}
              {account.fills.map((f) => (
                <tr key={f.id} data-testid="trade-history-row">
                  <td>{dateTime(f.time)}</td>
                  <td>{f.symbol}</td>
                  <td className={f.side === 'buy' ? 'rf-up' : 'rf-down'}>{t(f.side)}</td>
                  <td className="rf-num">{formatNumber(f.price, pp(f.symbol))}</td>
                  <td className="rf-num">{formatNumber(f.qty, qp(f.symbol))}</td>
                  <td className="rf-num">{formatNumber(f.fee, 4)}</td>
                  <td className={`rf-num ${Number(f.realizedPnl) >= 0 ? 'rf-up' : 'rf-down'}`}>{formatNumber(f.realizedPnl, 4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
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
                  <td>{dateTime(l.time)}</td>
                  <td>{t(`ledger_${l.type}`, { defaultValue: l.type })}</td>
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
      </div>
      {editing && <TpSlDialog position={editing} onClose={() => setEditing(null)} onSave={(tp, sl) => act(account.api.setTpSl(editing.id, tp, sl), () => tpslDone(tp, sl)).then(() => setEditing(null))} />}
    </section>
  );
}

/** Edits a position's TP/SL; an empty field removes it. */
function TpSlDialog({ position, onClose, onSave }: { position: Position; onClose: () => void; onSave: (tp: number | null, sl: number | null) => Promise<unknown> }) {
  const { t } = useTranslation('trade');
  const [tp, setTp] = useState(position.tp === null ? '' : String(position.tp));
  const [sl, setSl] = useState(position.sl === null ? '' : String(position.sl));
  const num = (s: string) => (s.trim() === '' || !Number.isFinite(Number(s)) ? null : Number(s));
  return (
    <Modal
      open
      onClose={onClose}
      title={`${t('editTpSl')} · ${position.symbol}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button onClick={() => onSave(num(tp), num(sl))}>{t('save')}</Button>
        </>
      }
    >
      <label className="rf-op-field">
        <span>{t('takeProfit')}</span>
        <input inputMode="decimal" value={tp} aria-label={t('takeProfit')} onChange={(e) => setTp(e.target.value)} />
      </label>
      <label className="rf-op-field">
        <span>{t('stopLoss')}</span>
        <input inputMode="decimal" value={sl} aria-label={t('stopLoss')} onChange={(e) => setSl(e.target.value)} />
      </label>
    </Modal>
  );
}
