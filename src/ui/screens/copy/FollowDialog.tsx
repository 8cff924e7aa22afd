import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { followMachine, FollowField } from '../../../machines/copyMachines.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import type { ScreenSend } from '../../hooks/useScreenActor.ts';
import { copyMsg } from '../../components/copy/copyModel.ts';

export type FollowActor = ActorRefFrom<typeof followMachine>;

function Field({ id, label, value, error, onChange, testId, disabled }: { id: string; label: string; value: string; error?: string | undefined; onChange: (v: string) => void; testId: string; disabled: boolean }) {
  const { t } = useTranslation('copy');
  return (
    <div className="cp-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className="cp-input" inputMode="decimal" autoComplete="off" value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-err` : undefined} data-testid={testId} />
      {error ? (
        <p id={`${id}-err`} className="cp-error" role="alert">
          {copyMsg(t, error)}
        </p>
      ) : null}
    </div>
  );
}

/** The follow dialog (followMachine): amount, source wallet, mode (ratio / fixed), max per order, stop at a loss. */
export function FollowDialog({ actor, send }: { actor: FollowActor; send: ScreenSend<typeof followMachine> }) {
  const { t } = useTranslation('copy');
  const base = useId();
  const state = useSelector(actor, (s) => s.value);
  const ctx = useSelector(actor, (s) => s.context);
  if (state === 'idle' || !ctx.trader) return null;
  const busy = state === 'submitting';
  const err = (f: FollowField) => (ctx.touched ? ctx.errors[f] : undefined);
  const edit = (field: FollowField) => (value: string) => send({ type: 'follow.edit', field, value });
  const close = () => send({ type: 'follow.close' });
  const name = ctx.trader.nickname;
  if (state === 'done') {
    return (
      <Modal open onClose={close} title={t('followTitle', { name })} footer={<Button onClick={close} data-testid="cp-follow-done">{t('close')}</Button>}>
        <p className="cp-done" role="status">{t('followDone', { name })}</p>
      </Modal>
    );
  }
  return (
    <Modal
      open
      onClose={close}
      title={t('followTitle', { name })}
      width={480}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>{t('cancel')}</Button>
          <Button onClick={() => send({ type: 'follow.submit' })} pending={busy} data-testid="cp-follow-submit">{t('confirmFollow')}</Button>
        </>
      }
    >
      <form className="cp-form" noValidate onSubmit={(e) => { e.preventDefault(); send({ type: 'follow.submit' }); }}>
        <Field id={`${base}-amount`} label={t('amount')} value={ctx.form.amount} error={err('amount')} onChange={edit('amount')} testId="cp-amount" disabled={busy} />
        <div className="cp-field">
          <label htmlFor={`${base}-from`}>{t('from')}</label>
          <select id={`${base}-from`} className="cp-input" value={ctx.form.from} disabled={busy} onChange={(e) => edit('from')(e.target.value)} data-testid="cp-from">
            <option value="fund">{t('from_fund')}</option>
            <option value="perp">{t('from_perp')}</option>
          </select>
        </div>
        <fieldset className="cp-seg">
          <legend>{t('mode')}</legend>
          {(['ratio', 'fixed'] as const).map((m) => (
            <label key={m} className={`cp-seg__opt${ctx.form.mode === m ? ' is-active' : ''}`}>
              <input type="radio" name={`${base}-mode`} value={m} checked={ctx.form.mode === m} disabled={busy} onChange={() => edit('mode')(m)} data-testid={`cp-mode-${m}`} />
              {t(`mode_${m}`)}
            </label>
          ))}
        </fieldset>
        {ctx.form.mode === 'ratio' ? (
          <Field id={`${base}-ratio`} label={t('ratio')} value={ctx.form.ratio} error={err('ratio')} onChange={edit('ratio')} testId="cp-ratio" disabled={busy} />
        ) : (
          <Field id={`${base}-fixed`} label={t('fixedAmount')} value={ctx.form.fixedAmount} error={err('fixedAmount')} onChange={edit('fixedAmount')} testId="cp-fixed" disabled={busy} />
        )}
        <Field id={`${base}-max`} label={t('maxPerOrder')} value={ctx.form.maxPerOrder} error={err('maxPerOrder')} onChange={edit('maxPerOrder')} testId="cp-max" disabled={busy} />
        <Field id={`${base}-stop`} label={t('stopLoss')} value={ctx.form.stopLoss} error={err('stopLoss')} onChange={edit('stopLoss')} testId="cp-stop" disabled={busy} />
        <p className="cp-note">{t('followRules')}</p>
        {ctx.error ? <p className="cp-error" role="alert" data-testid="cp-follow-error">{copyMsg(t, ctx.error)}</p> : null}
      </form>
    </Modal>
  );
}
