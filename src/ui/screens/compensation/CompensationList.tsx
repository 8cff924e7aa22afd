import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatNumber, trendOf } from '../../../format/number.ts';
import { actionOf } from '../../../protocol/compensation.ts';
import type { CompensationAction, CompensationOrder } from '../../../protocol/compensation.ts';
import { Button } from '../../components/Button.tsx';
import { formatUsdtDisplay } from '../../components/account/money.ts';
import { formatDateTime } from '../../../format/date.ts';
import { paidPercent } from './compensationModel.ts';

const usdt = formatUsdtDisplay;

function Signed({ value }: { value: string }) {
  const tr = trendOf(value);
  return <span className={tr === 'up' ? 'acct-up' : tr === 'down' ? 'acct-down' : ''}>{usdt(value)}</span>;
}

/** Date over time, so the wide table fits a 1440 px desktop with the side navigation. */
function Created({ ms }: { ms: number }) {
  const [date, time] = formatDateTime(ms).split(' ');
  return (
    <span className="comp-created">
      {date}
      <span className="acct-muted">{time}</span>
    </span>
  );
}

export function StatusBadge({ status }: { status: CompensationOrder['status'] }) {
  const { t } = useTranslation('compensation');
  return <span className={`comp-status comp-status--${status}`}>{t(`status_${status}`)}</span>;
}

/** Paid amount with a progress bar (paid / amount). */
function Paid({ o }: { o: CompensationOrder }) {
  const { t } = useTranslation('compensation');
  const pct = paidPercent(o);
  const label = `${formatNumber(pct, 1)}%`;
  return (
    <div className="comp-paid">
      <span>
        {usdt(o.paid)} <span className="acct-muted">/ {usdt(o.amount)}</span>
      </span>
      <span className="comp-bar" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(pct)} aria-label={t('progress', { pct: label })}>
        <span className="comp-bar__fill" style={{ width: `${pct}%` }} />
      </span>
    </div>
  );
}

function Duration({ o }: { o: CompensationOrder }) {
  const { t } = useTranslation('compensation');
  const running = o.status === 'active' || o.status === 'inCompensation';
  return (
    <div className="comp-duration">
      <span>{formatNumber(o.durationDays, 0)}</span>
      {running ? <span className="acct-muted">{t('daysLeft', { days: formatNumber(o.daysLeft, 0) })}</span> : null}
      {o.boosts > 0 ? <span className="comp-boosted">{t('boosted', { count: o.boosts })}</span> : null}
    </div>
  );
}

const ACTION_VARIANT: Record<CompensationAction, 'primary' | 'secondary'> = { claim: 'primary', boost: 'secondary', withdraw: 'primary' };

function ActionButton({ o, onAction }: { o: CompensationOrder; onAction: (o: CompensationOrder, a: CompensationAction) => void }) {
  const { t } = useTranslation('compensation');
  const a = actionOf(o.status);
  if (!a) return <span className="acct-muted">—</span>;
  return (
    <Button size="sm" variant={ACTION_VARIANT[a]} data-testid={`comp-${a}-${o.id}`} onClick={() => onAction(o, a)}>
      {t(a)}
    </Button>
  );
}

interface Column {
  key: string;
  label: string;
  num?: boolean;
  render: (o: CompensationOrder) => ReactNode;
}

function columns(t: TFunction): Column[] {
  return [
    { key: 'created', label: t('colCreated'), render: (o) => <Created ms={o.createdAt} /> },
    { key: 'status', label: t('colStatus'), render: (o) => <StatusBadge status={o.status} /> },
    { key: 'pnl', label: t('colTotalPnl'), num: true, render: (o) => <Signed value={o.totalUserPnl} /> },
    { key: 'total', label: t('colTotalCompensation'), num: true, render: (o) => usdt(o.totalUserCompensation) },
    { key: 'amount', label: t('colAmount'), num: true, render: (o) => <b>{usdt(o.amount)}</b> },
    { key: 'paid', label: t('colPaid'), render: (o) => <Paid o={o} /> },
    { key: 'duration', label: t('colDuration'), num: true, render: (o) => <Duration o={o} /> },
    { key: 'daily', label: t('colDailyReturn'), num: true, render: (o) => usdt(o.dailyReturn) },
  ];
}

/**
 * The orders as a table (tablet, desktop) or cards (phone), every SPEC §3 field in both, with the
 * one action the status allows.
 */
export function CompensationList({ orders, mobile, onAction }: { orders: readonly CompensationOrder[]; mobile: boolean; onAction: (o: CompensationOrder, a: CompensationAction) => void }) {
  const { t } = useTranslation('compensation');
  const cols = columns(t);
  if (mobile) {
    return (
      <ul className="acct-cards comp-cards" aria-label={t('title')}>
        {orders.map((o) => (
          <li key={o.id} className="acct-item" data-testid="comp-row">
            <div className="acct-item__head">
              <StatusBadge status={o.status} />
              <span className="acct-muted">{formatDateTime(o.createdAt)}</span>
            </div>
            <div className="comp-card__amount">
              <span className="acct-muted">{t('colAmount')}</span>
              <b>{usdt(o.amount)} USDT</b>
            </div>
            <Paid o={o} />
            {cols
              .filter((c) => !['created', 'status', 'amount', 'paid'].includes(c.key))
              .map((c) => (
                <div key={c.key} className="acct-item__row">
                  <span>{c.label}</span>
                  <b>{c.render(o)}</b>
                </div>
              ))}
            {actionOf(o.status) ? (
              <div className="acct-item__actions">
                <ActionButton o={o} onAction={onAction} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="acct-table-wrap">
      <table className="acct-table comp-table" aria-label={t('title')}>
        <thead>
          <tr>
            {cols.map((c) => (
              <th key={c.key} scope="col" className={c.num ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
            <th scope="col" className="num">
              {t('colAction')}
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id} data-testid="comp-row">
              {cols.map((c) => (
                <td key={c.key} className={c.num ? 'num' : undefined}>
                  {c.render(o)}
                </td>
              ))}
              <td className="num">
                <ActionButton o={o} onAction={onAction} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
