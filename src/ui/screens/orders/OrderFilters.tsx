import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import type { LedgerEntryType, OrderKind, TradeOrderStatus } from '../../../protocol/trading.ts';
import { EMPTY_FILTERS, kindOptions, LEDGER_TYPES, type HistoryFilters, type OrderTab } from './historyQuery.ts';

const STATUSES: readonly TradeOrderStatus[] = ['pending', 'filled', 'canceled'];

/**
 * The filter bar of the futures-orders page: contract, pair, kind / status (orders) or entry type
 * (ledger), and a date range. Every change reports the whole new filter set.
 */
export function OrderFilters({ tab, value, symbols, onChange }: { tab: OrderTab; value: HistoryFilters; symbols: readonly string[]; onChange: (f: HistoryFilters) => void }) {
  const { t } = useTranslation('assets');
  const set = <K extends keyof HistoryFilters>(k: K, v: HistoryFilters[K]) => onChange({ ...value, [k]: v });
  const kinds = kindOptions(tab);
  return (
    <div className="orders-filters" role="group" aria-label={t('ordersTitle')}>
      <label className="orders-filter">
        <span>{t('contract')}</span>
        <select aria-label={t('contract')} value={value.contract} onChange={(e) => set('contract', e.target.value as HistoryFilters['contract'])}>
          <option value="">{t('allContracts')}</option>
          <option value="perp">{t('contractPerp')}</option>
          <option value="std">{t('contractStd')}</option>
        </select>
      </label>
      <label className="orders-filter">
        <span>{t('pair')}</span>
        <select aria-label={t('pair')} value={value.symbol} onChange={(e) => set('symbol', e.target.value)}>
          <option value="">{t('allPairs')}</option>
          {symbols.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {tab === 'ledger' ? (
        <label className="orders-filter">
          <span>{t('ledgerType')}</span>
          <select aria-label={t('ledgerType')} value={value.ledgerType} onChange={(e) => set('ledgerType', e.target.value as LedgerEntryType | '')}>
            <option value="">{t('allLedgerTypes')}</option>
            {LEDGER_TYPES.map((k) => (
              <option key={k} value={k}>
                {t(`ledger_${k}`)}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <label className="orders-filter">
          <span>{t('kind')}</span>
          <select aria-label={t('kind')} value={value.kind} onChange={(e) => set('kind', e.target.value as OrderKind | '')}>
            <option value="">{t('allKinds')}</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {t(`kind_${k}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      {tab === 'history' ? (
        <label className="orders-filter">
          <span>{t('status')}</span>
          <select aria-label={t('status')} value={value.status} onChange={(e) => set('status', e.target.value as TradeOrderStatus | '')}>
            <option value="">{t('allStatuses')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`status_${s}`)}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="orders-filter">
        <span>{t('dateFrom')}</span>
        <DateField label={t('dateFrom')} value={value.from} max={value.to || undefined} onChange={(d) => set('from', d)} />
      </label>
      <label className="orders-filter">
        <span>{t('dateTo')}</span>
        <DateField label={t('dateTo')} value={value.to} min={value.from || undefined} onChange={(d) => set('to', d)} />
      </label>
      <button type="button" className="acct-link orders-reset" onClick={() => onChange(EMPTY_FILTERS)}>
        {t('resetFilters')}
      </button>
    </div>
  );
}
