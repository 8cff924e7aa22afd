import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { unfollowMachine } from '../../../machines/copyMachines.ts';
import { Button } from '../../components/Button.tsx';
import { Modal } from '../../components/Modal.tsx';
import type { ScreenSend } from '../../hooks/useScreenActor.ts';
import { copyMsg } from '../../components/copy/copyModel.ts';

export type UnfollowActor = ActorRefFrom<typeof unfollowMachine>;

/** The unfollow dialog (unfollowMachine): close the copied positions now or keep them. */
export function UnfollowDialog({ actor, send }: { actor: UnfollowActor; send: ScreenSend<typeof unfollowMachine> }) {
  const { t } = useTranslation('copy');
  const name = useId();
  const state = useSelector(actor, (s) => s.value);
  const ctx = useSelector(actor, (s) => s.context);
  if (state === 'idle' || !ctx.target) return null;
  const close = () => send({ type: 'unfollow.close' });
  const busy = state === 'submitting';
  const who = ctx.target.nickname;
  if (state === 'done') {
    return (
      <Modal open onClose={close} title={t('unfollowTitle', { name: who })} footer={<Button onClick={close} data-testid="cp-unfollow-done">{t('close')}</Button>}>
        <p className="cp-done" role="status">{t('unfollowDone', { name: who })}</p>
      </Modal>
    );
  }
  return (
    <Modal
      open
      onClose={close}
      title={t('unfollowTitle', { name: who })}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>{t('cancel')}</Button>
          <Button variant="down" onClick={() => send({ type: 'unfollow.confirm' })} pending={busy} data-testid="cp-unfollow-confirm">{t('confirmUnfollow')}</Button>
        </>
      }
    >
      <p>{t('unfollowText')}</p>
      <p className="cp-muted">{t('positionsOpen', { count: ctx.target.openPositions })}</p>
      <fieldset className="cp-choice">
        <legend className="cp-sr">{t('unfollowTitle', { name: who })}</legend>
        <label>
          <input type="radio" name={name} checked={ctx.closePositions} disabled={busy} onChange={() => send({ type: 'unfollow.choose', closePositions: true })} data-testid="cp-unfollow-close" />
          {t('unfollowClose')}
        </label>
        <label>
          <input type="radio" name={name} checked={!ctx.closePositions} disabled={busy} onChange={() => send({ type: 'unfollow.choose', closePositions: false })} data-testid="cp-unfollow-keep" />
          {t('unfollowKeep')}
        </label>
      </fieldset>
      {ctx.error ? <p className="cp-error" role="alert">{copyMsg(t, ctx.error)}</p> : null}
    </Modal>
  );
}
