import { useTranslation } from 'react-i18next';
import type { Voucher } from '../../../protocol/vouchers.ts';
import { Button } from '../../components/Button.tsx';
import { compensationRefId, formatDay, formatVoucherValue, sourceKey } from './couponModel.ts';

export interface VoucherCardProps {
  v: Voucher;
  /** Merge mode: the card is a checkbox. */
  selecting: boolean;
  selected: boolean;
  /** False when the card cannot join the selection (other kind, not usable, limit reached). */
  selectable: boolean;
  onToggle: () => void;
  onUse: () => void;
}

/** The validity line: permanent, the expiry date, or when it was used / merged / expired. */
function Validity({ v }: { v: Voucher }) {
  const { t } = useTranslation('coupon');
  if (v.status === 'used' && v.usedAt !== null) return <>{t('usedOn', { date: formatDay(v.usedAt) })}</>;
  if (v.status === 'merged' && v.usedAt !== null) return <>{t('mergedOn', { date: formatDay(v.usedAt) })}</>;
  if (v.expiresAt === null) return <>{t('permanent')}</>;
  return <>{t(v.status === 'expired' ? 'expiredOn' : 'validUntil', { date: formatDay(v.expiresAt) })}</>;
}

/**
 * One voucher as a ticket: the value (USDT or percent) on the left stub, kind, what it does,
 * validity, source and status badge on the right, and "Use" on a usable one (or a checkbox in merge
 * mode). Used and merged vouchers say what consumed them.
 */
export function VoucherCard({ v, selecting, selected, selectable, onToggle, onUse }: VoucherCardProps) {
  const { t } = useTranslation('coupon');
  const value = formatVoucherValue(v.kind, v.value);
  const usable = v.status === 'use';
  const orderId = compensationRefId(v.usedRef);
  const cls = ['cpn-card', `cpn-card--${v.kind}`, usable ? '' : 'is-inactive', selected ? 'is-selected' : ''].filter(Boolean).join(' ');
  const body = (
    <>
      <div className="cpn-card__stub">
        <b className="cpn-card__value" data-testid={`cpn-value-${v.id}`}>
          {t(value.key, { value: value.value })}
        </b>
        <span className="cpn-card__kind">{t(`kind_${v.kind}`)}</span>
      </div>
      <div className="cpn-card__body">
        <div className="cpn-card__top">
          <span className={`cpn-badge cpn-badge--${v.status}`}>{t(`status_${v.status}`)}</span>
          <span className="cpn-card__id">#{v.id}</span>
        </div>
        <p className="cpn-card__desc">{t(`desc_${v.kind}`)}</p>
        <p className="cpn-card__meta">
          <Validity v={v} />
        </p>
        <p className="cpn-card__meta">{t('source', { source: t(sourceKey(v.source)) })}</p>
        {v.status === 'used' && orderId !== null ? <p className="cpn-card__meta">{t('usedFor', { id: orderId })}</p> : null}
        {v.status === 'merged' && v.mergedInto !== null ? <p className="cpn-card__meta">{t('mergedInto', { id: v.mergedInto })}</p> : null}
      </div>
    </>
  );
  if (selecting) {
    return (
      <li>
        <label className={`${cls} cpn-card--pick${selectable || selected ? '' : ' is-disabled'}`}>
          <input
            type="checkbox"
            className="cpn-card__check"
            checked={selected}
            disabled={!selectable && !selected}
            onChange={onToggle}
            aria-label={t('selectVoucher', { id: v.id })}
            data-testid={`cpn-select-${v.id}`}
          />
          {body}
        </label>
      </li>
    );
  }
  return (
    <li className={cls} data-testid={`cpn-card-${v.id}`}>
      {body}
      {usable ? (
        <div className="cpn-card__action">
          <Button size="sm" onClick={onUse} data-testid={`cpn-use-${v.id}`}>
            {t('use')}
          </Button>
        </div>
      ) : null}
    </li>
  );
}
