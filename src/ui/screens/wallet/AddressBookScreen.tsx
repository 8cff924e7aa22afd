import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { AddressBookEvent, AddressBookStateName } from '../../../machines/addressBookMachine.ts';
import type { SavedAddress, Whitelist } from '../../../protocol/wallet.ts';
import { formatDateTime } from '../../../format/date.ts';
import { useSession } from '../../app/AppCoreProvider.tsx';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { Button } from '../../components/Button.tsx';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useScreenActor } from '../../hooks/useScreenActor.ts';
import { FormField } from '../../components/form/FormField.tsx';
import { SendCodeButton } from '../../components/form/SendCodeButton.tsx';
import { useMailCode } from '../../components/form/useMailCode.ts';
import { CoinNetworkPickers } from '../../components/wallet/WalletPickers.tsx';
import { walletText } from '../../components/wallet/walletModel.ts';
import '../../components/form/auth.css';
import '../../components/wallet/wallet.css';

type Send = (e: AddressBookEvent) => void;

/** One saved address: label, address, coin and network, when it is usable; Rename and Delete (with a confirmation). */
function AddressRow({ a, whitelistOn, renaming, deleting, busy, send }: {
  a: SavedAddress;
  whitelistOn: boolean;
  renaming: { id: number; label: string; error?: string } | null;
  deleting: number | null;
  busy: boolean;
  send: Send;
}) {
  const { t } = useTranslation('wallet');
  const editing = renaming?.id === a.id;
  return (
    <li className="wal-book__row" data-testid="book-row">
      <div className="wal-book__main">
        {editing ? (
          <FormField label={t('addressLabel')} value={renaming.label} maxLength={60} autoFocus
            onValueChange={(value) => send({ type: 'ab.renameLabel', value })}
            error={renaming.error ? walletText(t, renaming.error) : undefined} data-testid="book-rename-input" />
        ) : (
          <span className="wal-book__label" data-testid="book-label">{a.label}</span>
        )}
        <span className="wal-book__addr wal-mono">{a.address}</span>
        <span className="wal-book__meta">
          <span>{`${a.coin} · ${a.network}`}</span>
          {a.usable ? (
            <span className="wal-chip wal-chip--ok">{t('usableNow')}</span>
          ) : (
            <span className={`wal-chip ${whitelistOn ? 'wal-chip--wait' : ''}`} data-testid="book-wait">{t('usableFrom', { time: formatDateTime(a.usableAt) })}</span>
          )}
        </span>
      </div>
      <div className="wal-book__actions">
        {editing ? (
          <>
            <Button size="sm" variant="primary" pending={busy} onClick={() => send({ type: 'ab.renameSave' })} data-testid="book-rename-save">{t('save')}</Button>
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => send({ type: 'ab.renameCancel' })}>{t('cancel')}</Button>
          </>
        ) : deleting === a.id ? (
          <>
            <span role="alert">{t('confirmDelete')}</span>
            <Button size="sm" variant="down" pending={busy} onClick={() => send({ type: 'ab.deleteConfirm' })} data-testid="book-delete-confirm">{t('delete')}</Button>
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => send({ type: 'ab.deleteCancel' })}>{t('cancel')}</Button>
          </>
        ) : (
          <>
            <Button size="sm" variant="ghost" disabled={busy} onClick={() => send({ type: 'ab.renameStart', id: a.id })} aria-label={`${t('rename')}: ${a.label}`} data-testid="book-rename">{t('rename')}</Button>
            <Button size="sm" variant="ghost" disabled={busy} onClick={() => send({ type: 'ab.delete', id: a.id })} aria-label={`${t('delete')}: ${a.label}`} data-testid="book-delete">{t('delete')}</Button>
          </>
        )}
      </div>
    </li>
  );
}

/** Whitelist-only mode: its state, Turn on / Turn off, and the email-code step either asks for. */
function WhitelistCard({ whitelist, step, code, busy, error, send }: {
  whitelist: Whitelist;
  step: { enabled: boolean } | null;
  code: string;
  busy: boolean;
  error: string | null;
  send: Send;
}) {
  const { t } = useTranslation('wallet');
  const session = useSession();
  const mail = useMailCode('security');
  const stateText = !whitelist.enabled
    ? t('whitelistStateOff')
    : whitelist.offAt !== null
      ? t('whitelistStateOffing', { time: formatDateTime(whitelist.offAt) })
      : t('whitelistStateOn');
  const masked = session.userInfo?.cover_email ?? '';
  return (
    <section className="acct-card wal-card" aria-labelledby="wl-title">
      <div className="wal-switch">
        <h2 className="acct-card__title" id="wl-title">{t('whitelistTitle')}</h2>
        <span className={`wal-chip ${whitelist.enabled ? 'wal-chip--ok' : ''}`} data-testid="wl-state">{stateText}</span>
      </div>
      <p className="acct-muted">{t('whitelistText')}</p>
      {step ? (
        <fieldset className="wal-fieldset">
          <legend className="acct-muted">{step.enabled ? t('whitelistConfirmOn') : t('whitelistConfirmOff')}</legend>
          <p className="acct-muted">{masked !== '' ? t('codeToAccount', { email: masked }) : t('codeToAccountEmail')}</p>
          <FormField label={t('emailCode')} inputMode="numeric" autoComplete="one-time-code" placeholder={t('codePlaceholder')} value={code}
            onValueChange={(v) => send({ type: 'ab.code', code: v.replace(/\D/g, '').slice(0, 6) })} disabled={busy}
            error={error ? walletText(t, error) : undefined} data-testid="wl-code"
            suffix={<SendCodeButton remaining={mail.remaining} pending={mail.pending} onSend={() => void mail.send('')} />} />
          <div className="wal-actions">
            <Button variant="secondary" disabled={busy} onClick={() => send({ type: 'ab.cancel' })}>{t('cancel')}</Button>
            <Button variant="primary" pending={busy} onClick={() => send({ type: 'ab.confirm' })} data-testid="wl-confirm">{t('confirm')}</Button>
          </div>
        </fieldset>
      ) : (
        <div className="wal-actions">
          {!whitelist.enabled || whitelist.offAt !== null ? (
            <Button variant="primary" disabled={busy} onClick={() => send({ type: 'ab.whitelist', enabled: true })} data-testid="wl-on">
              {whitelist.enabled ? t('keepOn') : t('turnOn')}
            </Button>
          ) : (
            <Button variant="secondary" disabled={busy} onClick={() => send({ type: 'ab.whitelist', enabled: false })} data-testid="wl-off">{t('turnOff')}</Button>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * /my/wallet/addresses (issue 26): the withdrawal address book (add with a label, checked for the
 * network as it is typed; rename; delete) and whitelist-only mode (on at once, off 24 h later,
 * both with the email code). The lifecycle is addressBookMachine, owned by the core.
 */
export function AddressBookScreen() {
  const { t } = useTranslation('wallet');
  const [actor, send] = useScreenActor({ name: 'addressBook' });
  const state = useSelector(actor, (s) => s.value as AddressBookStateName);
  const ctx = useSelector(actor, (s) => s.context);
  const busy = state === 'saving';
  const { draft, errors, book } = ctx;
  const err = (m: string | undefined) => (m ? walletText(t, m) : undefined);
  const whitelistOn = book?.whitelist.enabled ?? false;

  return (
    <AccountLayout title={t('bookTitle')}>
      <section className="acct-card wal-card" aria-labelledby="book-add">
        <p className="acct-muted wal-intro">{t('bookIntro')} <Link to="/my/wallet/withdrawal">{t('withdrawalTitle')}</Link></p>
        <h2 className="acct-card__title" id="book-add">{t('addAddressTitle')}</h2>
        <CoinNetworkPickers coin={draft.coin} network={draft.network} disabled={busy}
          onCoin={(coin) => send({ type: 'ab.coin', coin })} onNetwork={(network) => send({ type: 'ab.network', network })} />
        <form className="auth-form" noValidate onSubmit={(e) => { e.preventDefault(); send({ type: 'ab.save' }); }} aria-labelledby="book-add">
          <FormField label={t('address')} value={draft.address} placeholder={t('addressPlaceholder', { network: draft.network })}
            onValueChange={(value) => send({ type: 'ab.address', value })} error={err(errors.address)}
            autoComplete="off" spellCheck={false} maxLength={128} data-testid="book-address" />
          <FormField label={t('addressLabel')} value={draft.label} placeholder={t('labelPlaceholder')} maxLength={60}
            onValueChange={(value) => send({ type: 'ab.label', value })} error={err(errors.label)} data-testid="book-label-input" />
          {whitelistOn ? <p className="acct-muted wal-min">{t('whitelistNewWaits')}</p> : null}
          <div className="wal-actions">
            <Button type="submit" variant="primary" pending={busy && ctx.last === 'add'} disabled={state !== 'ready'} data-testid="book-save">{t('saveAddress')}</Button>
          </div>
        </form>
        {ctx.notice ? <p className="wal-info" role="status" data-testid="book-notice">{walletText(t, ctx.notice)}</p> : null}
        {ctx.error && state !== 'whitelistStep' ? <p className="auth-server-error" role="alert" data-testid="book-error">{walletText(t, ctx.error)}</p> : null}
      </section>
      {book ? (
        <WhitelistCard whitelist={book.whitelist} step={ctx.whitelist} code={ctx.whitelist?.code ?? ''} busy={busy} error={state === 'whitelistStep' ? ctx.error : null} send={send} />
      ) : null}
      <section className="acct-card wal-card" aria-labelledby="book-list">
        <h2 className="acct-card__title" id="book-list">{t('savedAddresses')}</h2>
        {state === 'loadFailed' ? (
          <div>
            <p className="acct-error" role="alert">{t('loadFailed', { msg: walletText(t, ctx.loadError ?? 'Error') })}</p>
            <Button variant="secondary" size="sm" onClick={() => send({ type: 'ab.retry' })}>{t('retry')}</Button>
          </div>
        ) : !book ? (
          <p className="acct-muted">{t('common:loading')}</p>
        ) : book.addresses.length === 0 ? (
          <EmptyState text={t('noAddresses')} />
        ) : (
          <ul className="wal-book" aria-label={t('savedAddresses')}>
            {book.addresses.map((a) => (
              <AddressRow key={a.id} a={a} whitelistOn={whitelistOn} renaming={ctx.renaming} deleting={ctx.deleting} busy={busy} send={send} />
            ))}
          </ul>
        )}
      </section>
    </AccountLayout>
  );
}
