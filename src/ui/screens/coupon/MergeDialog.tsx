import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { voucherMachine } from '../../../machines/voucherMachine.ts';
import { mergePreview } from '../../../protocol/vouchers.ts';
import type { Voucher } from '../../../protocol/vouchers.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import type { ScreenSend } from '../../hooks/useScreenActor.ts';
import { formatDay, formatVoucherValue, voucherMsgKey } from './couponModel.ts';

export type VoucherActor = ActorRefFrom<typeof voucherMachine>;

function ValueText({ v }: { v: Pick<Voucher, 'kind' | 'value'> }) {
  const { t } = useTranslation('coupon');
  const f = formatVoucherValue(v.kind, v.value);
  return <>{t(f.key, { value: f.value })}</>;
}

function Validity({ expiresAt }: { expiresAt: number | null }) {
  const { t } = useTranslation('coupon');
  return <>{expiresAt === null ? t('permanent') : t('validUntil', { date: formatDay(expiresAt) })}</>;
}

/**
 * The merge confirmation and result, driven by voucherMachine: the selected vouchers, the preview
 * of the new one (the server's own formula, src/protocol/vouchers.ts mergePreview) and the rules;
 * then the server's answer: the new voucher, or the rejection (translated when known).
 */
export function MergeDialog({ actor, send }: { actor: VoucherActor; send: ScreenSend<typeof voucherMachine> }) {
  const { t } = useTranslation('coupon');
  const state = useSelector(actor, (s) => s.value);
  const selected = useSelector(actor, (s) => s.context.selected);
  const result = useSelector(actor, (s) => s.context.result);
  const error = useSelector(actor, (s) => s.context.error);
  const kind = useSelector(actor, (s) => s.context.kind);
  const open = state === 'confirming' || state === 'merging' || state === 'failed' || state === 'done';
  if (!open || kind === null) return null;
  const merging = state === 'merging';
  const cancel = () => {
    if (!merging) send({ type: state === 'done' ? 'merge.close' : 'merge.back' });
  };

  if (state === 'done' && result) {
    return (
      <Modal
        open
        onClose={cancel}
        title={t('doneTitle')}
        width={420}
        footer={
          <Button data-testid="cpn-done-close" onClick={() => send({ type: 'merge.close' })}>
            {t('common:close')}
          </Button>
        }
      >
        <div className="cpn-dialog">
          <p className="cpn-dialog__text">{t('doneText')}</p>
          <div className={`cpn-result cpn-result--${result.kind}`} data-testid="cpn-result">
            <span className="acct-muted">{t('resultValue')}</span>
            <b data-testid="cpn-result-value">
              <ValueText v={result} />
            </b>
            <span className="acct-muted">
              <Validity expiresAt={result.expiresAt} />
            </span>
          </div>
        </div>
      </Modal>
    );
  }

  const preview = mergePreview(selected);
  const msgKey = error === null ? null : voucherMsgKey(error);
  return (
    <Modal
      open
      onClose={cancel}
      title={t('confirmTitle')}
      width={460}
      footer={
        <>
          <Button variant="secondary" onClick={cancel} disabled={merging}>
            {t('back')}
          </Button>
          <Button data-testid="cpn-merge-confirm" pending={merging} onClick={() => send({ type: 'merge.submit' })}>
            {state === 'failed' ? t('retry') : t('common:confirm')}
          </Button>
        </>
      }
    >
      <div className="cpn-dialog">
        <p className="cpn-dialog__text">{t('confirmText', { count: selected.length })}</p>
        <ul className="cpn-chips" aria-label={t(`kind_${kind}`)}>
          {selected.map((v) => (
            <li key={v.id} className="cpn-chip">
              <ValueText v={v} />
              <span className="acct-muted">#{v.id}</span>
            </li>
          ))}
        </ul>
        <div className={`cpn-result cpn-result--${kind}`}>
          <span className="acct-muted">{t('resultValue')}</span>
          <b data-testid="cpn-preview-value">
            <ValueText v={{ kind, value: preview.value }} />
          </b>
          <span className="acct-muted">
            {t('resultValidity')}: <Validity expiresAt={preview.expiresAt} />
          </span>
        </div>
        <ul className="cpn-rules">
          <li>{t(`rule_${kind}`)}</li>
          <li>{t('ruleExpiry')}</li>
        </ul>
        {error !== null ? (
          <p className="cpn-error" role="alert" data-testid="cpn-merge-error">
            {msgKey ? t(msgKey) : error}
          </p>
        ) : null}
      </div>
    </Modal>
  );
}
