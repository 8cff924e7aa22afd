import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import { formatNumber } from '../../../format/number.ts';
import type { compensationMachine } from '../../../machines/compensationMachine.ts';
import { canSubmit } from '../../../machines/compensationMachine.ts';
import type { Voucher } from '../../../protocol/vouchers.ts';
import { PRODUCT_NAME } from '../../../protocol/user.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import { formatCoinAmount } from '../../components/account/money.ts';
import { formatDateTime } from '../../../format/date.ts';
import { boostedDays, remainingOf } from './compensationModel.ts';
import { useUsableVouchers } from './useCompensationData.ts';
import type { ScreenSend } from '../../hooks/useScreenActor.ts';

export type CompensationActor = ActorRefFrom<typeof compensationMachine>;

const usdt = (v: string): string => formatCoinAmount(v, 'USDT');

function VoucherChoice({ v, checked, onPick }: { v: Voucher; checked: boolean; onPick: () => void }) {
  const { t } = useTranslation('compensation');
  const value = v.kind === 'lossProtection' ? t('voucherLossValue', { value: usdt(v.value) }) : t('voucherSpeedValue', { value: formatNumber(v.value, 0) });
  return (
    <label className={`comp-voucher${checked ? ' is-checked' : ''}`}>
      <input type="radio" name="comp-voucher" checked={checked} onChange={onPick} data-testid={`comp-voucher-${v.id}`} />
      <span className="comp-voucher__value">{value}</span>
      <span className="acct-muted">{v.expiresAt === null ? t('voucherPermanent') : t('voucherExpires', { date: formatDateTime(v.expiresAt).slice(0, 10) })}</span>
    </label>
  );
}

/**
 * The confirmation dialog of claim / boost / withdraw, driven by the compensation machine: the
 * voucher picker (optional loss-protection voucher for a claim, a required speed voucher for a
 * boost), the server's rejection, and the identity-verification link when the server asks for it.
 */
export function ActionDialog({ actor, send }: { actor: CompensationActor; send: ScreenSend<typeof compensationMachine> }) {
  const { t } = useTranslation('compensation');
  const state = useSelector(actor, (s) => s.value);
  const order = useSelector(actor, (s) => s.context.order);
  const action = useSelector(actor, (s) => s.context.action);
  const voucherId = useSelector(actor, (s) => s.context.voucherId);
  const error = useSelector(actor, (s) => s.context.error);
  const kycRequired = useSelector(actor, (s) => s.context.kycRequired);
  const open = state === 'confirming' || state === 'submitting' || state === 'failed';
  const kind = !open || action === 'withdraw' ? null : action === 'claim' ? 'lossProtection' : 'speed';
  const vouchers = useUsableVouchers(kind);
  if (!open || !order || !action) return null;

  const submitting = state === 'submitting';
  const close = () => {
    if (!submitting) send({ type: 'comp.cancel' });
  };
  const picked = vouchers.find((v) => v.id === voucherId);
  const intro =
    action === 'claim'
      ? t('claimText', { daily: usdt(order.dailyReturn), amount: usdt(order.amount), days: formatNumber(order.durationDays, 0) })
      : action === 'boost'
        ? t('boostText', { remaining: usdt(remainingOf(order)), days: formatNumber(order.daysLeft, 0) })
        : t('withdrawText', { amount: usdt(order.paid) });

  return (
    <Modal
      open
      onClose={close}
      title={t(`${action}Title`)}
      width={460}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={submitting}>
            {t('common:cancel')}
          </Button>
          <Button
            data-testid="comp-confirm"
            pending={submitting}
            disabled={!canSubmit(order, action, voucherId)}
            onClick={() => send({ type: 'comp.confirm' })}
          >
            {t('common:confirm')}
          </Button>
        </>
      }
    >
      <div className="comp-dialog">
        <p className="comp-dialog__intro">{intro}</p>
        {kind ? (
          <fieldset className="comp-vouchers">
            <legend>{t(kind === 'lossProtection' ? 'voucherLoss' : 'voucherSpeed')}</legend>
            {kind === 'lossProtection' ? (
              <label className={`comp-voucher${voucherId === null ? ' is-checked' : ''}`}>
                <input type="radio" name="comp-voucher" checked={voucherId === null} onChange={() => send({ type: 'comp.voucher', voucherId: null })} />
                <span className="comp-voucher__value">{t('noVoucher')}</span>
              </label>
            ) : null}
            {vouchers.map((v) => (
              <VoucherChoice key={v.id} v={v} checked={v.id === voucherId} onPick={() => send({ type: 'comp.voucher', voucherId: v.id })} />
            ))}
            {vouchers.length === 0 ? (
              <p className="acct-muted">
                {t('noVouchers')}{' '}
                <Link to="/my/coupon" className="acct-link">
                  {t('myCoupons')}
                </Link>
              </p>
            ) : null}
            {kind === 'lossProtection' ? <p className="acct-muted comp-hint">{t('voucherCap')}</p> : null}
            {kind === 'speed' && picked ? (
              <p className="comp-hint" data-testid="comp-boost-preview">
                {t('boostPreview', { days: formatNumber(boostedDays(order.daysLeft, Number(picked.value)), 0) })}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        {error ? (
          <div className="comp-error" role="alert">
            <p>{kycRequired ? t('common:kycRequired', { product: PRODUCT_NAME }) : error}</p>
            {kycRequired ? (
              <Link to="/my/settings/kyc" className="acct-link" data-testid="comp-kyc-link">
                {t('verifyIdentity')}
              </Link>
            ) : null}
          </div>
        ) : null}
      </div>
    </Modal>
  );
}
