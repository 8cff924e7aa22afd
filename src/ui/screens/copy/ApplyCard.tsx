import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { TRADER_EXPERIENCE_MAX, TRADER_NICK_MAX } from '../../../protocol/copy.ts';
import { Button } from '../../components/Button.tsx';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import { copyMsg } from '../../components/copy/copyModel.ts';

const APPLY = { name: 'copyApply' } as const;

/** The trader application (trader_apply) with its review state, driven by applyMachine. */
export function ApplyCard() {
  const { t } = useTranslation('copy');
  const id = useId();
  const [actor, send] = useScreenActor(APPLY);
  const state = useSelector(actor, (s) => s.value);
  const ctx = useSelector(actor, (s) => s.context);
  const formShown = state === 'none' || state === 'rejected' || state === 'submitting';
  const busy = state === 'submitting';
  return (
    <section className="cp-card cp-apply" aria-labelledby={`${id}-h`} data-testid="cp-apply">
      <h2 id={`${id}-h`}>{t('applyTitle')}</h2>
      <p className="cp-muted">{t('applyIntro')}</p>
      {state === 'loading' ? <p className="cp-muted">…</p> : null}
      {state === 'loadFailed' ? (
        <p className="cp-error" role="alert">
          {t('loadFailed', { msg: ctx.error ?? '' })} <Button size="sm" variant="secondary" onClick={() => send({ type: 'apply.retry' })}>{t('retry')}</Button>
        </p>
      ) : null}
      {state === 'review' || state === 'approved' || state === 'rejected' ? (
        <p className={`cp-state cp-state--${state}`} role="status" data-testid="cp-apply-state">
          {t(`applyState_${state}`)}
          {state === 'rejected' && ctx.application?.reason ? ` ${t('rejectReason', { reason: ctx.application.reason })}` : ''}
        </p>
      ) : null}
      {formShown ? (
        <form className="cp-form" noValidate onSubmit={(e) => { e.preventDefault(); send({ type: 'apply.submit' }); }}>
          <div className="cp-field">
            <label htmlFor={`${id}-nick`}>{t('nickname')}</label>
            <input id={`${id}-nick`} className="cp-input" maxLength={TRADER_NICK_MAX} value={ctx.form.nickname} disabled={busy}
              onChange={(e) => send({ type: 'apply.edit', field: 'nickname', value: e.target.value })} aria-invalid={ctx.errors.nickname ? true : undefined} data-testid="cp-apply-nick" />
            {ctx.errors.nickname ? <p className="cp-error" role="alert">{copyMsg(t, ctx.errors.nickname)}</p> : null}
          </div>
          <div className="cp-field">
            <label htmlFor={`${id}-exp`}>{t('experience')}</label>
            <textarea id={`${id}-exp`} className="cp-input cp-textarea" rows={3} maxLength={TRADER_EXPERIENCE_MAX} value={ctx.form.experience} disabled={busy}
              onChange={(e) => send({ type: 'apply.edit', field: 'experience', value: e.target.value })} aria-invalid={ctx.errors.experience ? true : undefined} data-testid="cp-apply-exp" />
            {ctx.errors.experience ? <p className="cp-error" role="alert">{copyMsg(t, ctx.errors.experience)}</p> : null}
          </div>
          {ctx.error ? <p className="cp-error" role="alert">{copyMsg(t, ctx.error)}</p> : null}
          <Button type="submit" pending={busy} data-testid="cp-apply-submit">{t('submitApply')}</Button>
        </form>
      ) : null}
    </section>
  );
}
