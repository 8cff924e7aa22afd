import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { formatNumber, trendOf } from '../../../format/number.ts';
import type { Fill, LedgerEntry, Order } from '../../../protocol/trading.ts';
import { orderLimitPrice, orderTrigger } from '../../../protocol/orderView.ts';
import { isDemoCredit } from '../../../protocol/demoCredit.ts';
import { WALLET_LABEL } from '../transfer/walletLabels.ts';
import { formatCoinAmount } from '../account/money.ts';
import { formatDateTime } from '../../../format/date.ts';

/**
 * Column definitions per tab. The same definitions render the desktop table and the phone card
 * list, so both layouts always show the same fields.
 */
export interface Column<T> {
  key: string;
  label: string;
  num?: boolean;
  /** On the phone card list this column is the card's heading. */
  head?: boolean;
  render: (row: T) => ReactNode;
}

function signed(v: string, coin = 'USDT'): ReactNode {
  const tr = trendOf(v);
  return <span className={tr === 'up' ? 'acct-up' : tr === 'down' ? 'acct-down' : ''}>{formatCoinAmount(v, coin)}</span>;
}

function sideCell(t: TFunction, side: 'buy' | 'sell'): ReactNode {
  return <span className={side === 'buy' ? 'acct-up' : 'acct-down'}>{t(side)}</span>;
}

function contractLabel(t: TFunction, c: 'perp' | 'std'): string {
  return t(c === 'perp' ? 'contractPerp' : 'contractStd');
}

/** Price of an order: its limit price, or 'Market' for one that executes at the market (a stop-market too). */
function orderPrice(t: TFunction, o: Order): string {
  const p = orderLimitPrice(o);
  return p === null ? t('marketPrice') : formatNumber(p, 2);
}

/** A conditional order's trigger and the price it watches ("67,000.00 · Mark"); '--' for the other kinds. */
export function orderTriggerText(t: TFunction, o: Order): string {
  const tr = orderTrigger(o);
  return tr ? `${formatNumber(tr.price, 2)} · ${t(`triggerBy_${tr.by}`)}` : '--';
}

/** A time on two lines (date, then time of day), so the wide order tables fit at 1440 px (issue 26, Minor 21). */
function timeCell(ms: number): ReactNode {
  const [day, clock] = formatDateTime(ms).split(' ');
  return (
    <span className="orders-time">
      {day}
      <br />
      {clock}
    </span>
  );
}

export function orderColumns(t: TFunction, withStatus: boolean): Column<Order>[] {
  const cols: Column<Order>[] = [
    { key: 'time', label: t('time'), render: (o) => timeCell(o.createdAt) },
    { key: 'symbol', label: t('pair'), head: true, render: (o) => <b>{o.symbol}</b> },
    { key: 'contract', label: t('contract'), render: (o) => contractLabel(t, o.contract) },
    { key: 'kind', label: t('kind'), render: (o) => t(`kind_${o.kind}`) },
    { key: 'side', label: t('side'), render: (o) => sideCell(t, o.side) },
    { key: 'leverage', label: t('leverage'), num: true, render: (o) => `${o.leverage}x` },
    { key: 'trigger', label: t('trigger'), num: true, render: (o) => orderTriggerText(t, o) },
    { key: 'price', label: t('price'), num: true, render: (o) => orderPrice(t, o) },
    { key: 'qty', label: t('quantity'), num: true, render: (o) => formatNumber(o.qty, 4) },
    { key: 'executed', label: t('executedQty'), num: true, render: (o) => formatNumber(o.executedQty, 4) },
    { key: 'avg', label: t('avgPrice'), num: true, render: (o) => (o.executedQty > 0 ? formatNumber(o.avgPrice, 2) : '--') },
  ];
  if (withStatus) cols.push({ key: 'status', label: t('status'), render: (o) => <span className={`orders-status orders-status--${o.status}`}>{t(`status_${o.status}`)}</span> });
  return cols;
}

export function fillColumns(t: TFunction): Column<Fill>[] {
  return [
    { key: 'time', label: t('time'), render: (f) => timeCell(f.time) },
    { key: 'symbol', label: t('pair'), head: true, render: (f) => <b>{f.symbol}</b> },
    { key: 'contract', label: t('contract'), render: (f) => contractLabel(t, f.contract) },
    { key: 'kind', label: t('kind'), render: (f) => t(`kind_${f.kind}`) },
    { key: 'side', label: t('side'), render: (f) => sideCell(t, f.side) },
    { key: 'qty', label: t('executedQty'), num: true, render: (f) => formatNumber(f.qty, 4) },
    { key: 'price', label: t('avgPrice'), num: true, render: (f) => formatNumber(f.price, 2) },
    { key: 'liquidity', label: t('liquidity'), render: (f) => (f.liquidity ? t(`liquidity_${f.liquidity}`) : '--') },
    { key: 'fee', label: t('fee'), num: true, render: (f) => formatCoinAmount(f.fee, 'USDT') },
    { key: 'pnl', label: t('realizedPnl'), num: true, render: (f) => signed(f.realizedPnl) },
  ];
}

export function ledgerColumns(t: TFunction): Column<LedgerEntry>[] {
  return [
    { key: 'time', label: t('time'), render: (e) => formatDateTime(e.time) },
    { key: 'type', label: t('ledgerType'), head: true, render: (e) => (isDemoCredit(e) ? t('demoCredit') : t(`ledger_${e.type}`)) },
    { key: 'wallet', label: t('navAssets'), render: (e) => t(WALLET_LABEL[e.wallet]) },
    { key: 'coin', label: t('coin'), render: (e) => e.coin },
    { key: 'amount', label: t('amount'), num: true, render: (e) => signed(e.amount, e.coin) },
    { key: 'after', label: t('balanceAfter'), num: true, render: (e) => formatCoinAmount(e.balanceAfter, e.coin) },
  ];
}

/** A table (tablet, desktop) or a card list (phone) of `rows` with the given columns. */
export function RowList<T>({ rows, columns, rowKey, mobile, actions, label }: {
  rows: readonly T[];
  columns: readonly Column<T>[];
  rowKey: (row: T) => string | number;
  mobile: boolean;
  actions?: { label: string; render: (row: T) => ReactNode };
  label: string;
}) {
  if (mobile) {
    const first = columns.find((c) => c.head) ?? columns[0];
    const rest = columns.filter((c) => c !== first);
    return (
      <ul className="acct-cards" aria-label={label}>
        {rows.map((r) => (
          <li key={rowKey(r)} className="acct-item" data-testid="history-row">
            <div className="acct-item__head">
              <span>{first?.render(r)}</span>
              {actions ? actions.render(r) : null}
            </div>
            {rest.map((c) => (
              <div key={c.key} className="acct-item__row">
                <span>{c.label}</span>
                <b>{c.render(r)}</b>
              </div>
            ))}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="acct-table-wrap">
      <table className="acct-table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.num ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
            {actions ? <th scope="col" className="num acct-table__actions">{actions.label}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)} data-testid="history-row">
              {columns.map((c) => (
                <td key={c.key} className={c.num ? 'num' : undefined}>
                  {c.render(r)}
                </td>
              ))}
              {actions ? <td className="num acct-table__actions">{actions.render(r)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
