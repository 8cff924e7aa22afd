import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { canOfferSave, savedMatch, type WithdrawalStateName } from '../../../machines/withdrawalMachine.ts';
import { DAILY_WITHDRAW_LIMIT_USDT, WALLET_MSG, type WithdrawInfo } from '../../../protocol/wallet.ts';
import { formatDateTime } from '../../../format/date.ts';
import { useSession } from '../../app/AppCoreProvider.tsx';
import { AccountLayout } from '../../components/account/AccountLayout.tsx';
import { Button } from '../../components/Button.tsx';
import { formatCoinAmount, inputDecimals } from '../../components/account/money.ts';
import { formatBalance } from '../../../format/number.ts';
import { sanitizeAmountInput } from '../../../protocol/decimal.ts';
import { FormField } from '../../components/form/FormField.tsx';
import { SendCodeButton } from '../../components/form/SendCodeButton.tsx';
import { useMailCode } from '../../components/form/useMailCode.ts';
import { useWithdrawalActor } from './useWithdrawalActor.ts';
import { CoinNetworkPickers, PickField } from '../../components/wallet/WalletPickers.tsx';
import { WithdrawalList } from './WithdrawalList.tsx';
import { hoursMinutes, labelled, walletText } from '../../components/wallet/walletModel.ts';
import '../../components/form/auth.css';
import '../../components/history/orders.css';
import '../../components/wallet/wallet.css';

/** SPEC §9 lock banner: the wording of the screen that set it, and the time left. */
function LockBanner({ lock, onRefresh }: { lock: NonNullable<WithdrawInfo['lock']>; onRefresh: () => void }) {
  const { t } = useTranslation('wallet');
  const left = hoursMinutes(lock.leftMs);
  return (
    <div className="wal-banner" role="alert" data-testid="withdraw-lock">
      <strong>{t('lockTitle')}</strong>
      <span>{walletText(t, lock.reason === 'reset' ? WALLET_MSG.lockedAfterReset : WALLET_MSG.lockedAfterChange)}</span>
      <div data-testid="withdraw-lock-left">{t('lockLeft', { time: t('hoursMinutes', left) })}</div>
      <div className="wal-actions" style={{ marginTop: 8 }}>
        <Button variant="secondary" size="sm" onClick={onRefresh}>
          {t('refresh')}
        </Button>
      </div>
    </div>
  );
}

/**
 * The security step's code field: the authenticator code when bound, else an email code with Send
 * code. The code goes to the account's own email (the server refuses any other, issue 26 Minor 16),
 * so the step names that address, masked, and never asks for one, even after a reload.
 */
function CodeField({ info, value, error, disabled, onChange }: { info: WithdrawInfo; value: string; error: string | undefined; disabled: boolean; onChange: (v: string) => void }) {
  const { t } = useTranslation('wallet');
  const session = useSession();
  const mail = useMailCode('security');
  const google = info.security === 'google';
  const masked = session.userInfo?.cover_email ?? '';
  return (
    <>
      {!google ? (
        <p className="acct-muted" data-testid="withdraw-code-to">{masked !== '' ? t('codeToAccount', { email: masked }) : t('codeToAccountEmail')}</p>
      ) : null}
      <FormField
        label={google ? t('googleCode') : t('emailCode')}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder={t('codePlaceholder')}
        value={value}
        onValueChange={(v) => onChange(v.replace(/\D/g, '').slice(0, 6))}
        error={error}
        disabled={disabled}
        data-testid="withdraw-code"
        suffix={google ? undefined : <SendCodeButton remaining={mail.remaining} pending={mail.pending} onSend={() => void mail.send('')} />}
      />
    </>
  );
}

/** Whitelist mode's banner (issue 26): on, and when a requested turn-off takes effect. */
function WhitelistBanner({ whitelist }: { whitelist: WithdrawInfo['whitelist'] }) {
  const { t } = useTranslation('wallet');
  return (
    <p className="wal-info" role="status" data-testid="withdraw-whitelist">
      {t('whitelistOnBanner')}
      {whitelist.offAt !== null ? ` ${t('whitelistOffAt', { time: formatDateTime(whitelist.offAt) })}` : ''}{' '}
      <Link to="/my/wallet/addresses">{t('manageBook')}</Link>
    </p>
  );
}

/** 'Daily limit: used / limit' (issue 26), with the way to the higher limit for an unverified account. */
function DailyLimitRow({ limit }: { limit: WithdrawInfo['limit'] }) {
  const { t } = useTranslation('wallet');
  return (
    <>
      <dt title={t('dailyLimitNote')}>{t('dailyLimit')}</dt>
      <dd data-testid="withdraw-limit">
        {t('dailyLimitValue', { used: formatBalance(limit.used, 'USDT'), limit: formatBalance(limit.limit, 'USDT') })}
        {!limit.verified ? (
          <Link className="wal-limit-link" to="/my/settings/kyc" data-testid="withdraw-limit-kyc">
            {t('verifyForMore', { limit: formatBalance(DAILY_WITHDRAW_LIMIT_USDT.verified, 'USDT') })}
          </Link>
        ) : null}
      </dd>
    </>
  );
}

/**
 * /my/wallet/withdrawal (issue 12, SPEC §9): coin, network, address, amount with Max, the network
 * fee, the amount received and the minimum; then the security step (authenticator or email code);
 * the SPEC §9 lock with the time left; the recent withdrawals, live, with Cancel while pending.
 * The lifecycle is withdrawalMachine (useWithdrawalActor); amounts stay decimal strings.
 * Issue 26: the saved addresses of the coin and network to pick from, the offer to save a typed one,
 * whitelist mode's banner and the daily limit ('Daily limit: used / limit').
 */
export function WithdrawalScreen() {
  const { t } = useTranslation('wallet');
  const [actor, send] = useWithdrawalActor();
  const state = useSelector(actor, (s) => s.value as WithdrawalStateName);
  const ctx = useSelector(actor, (s) => s.context);
  const { form, info, errors } = ctx;
  const sending = state === 'submitting';
  const inForm = state === 'editing' || state === 'loading' || state === 'savingAddress' || state === 'securityStep' || sending;
  const security = state === 'securityStep' || sending;
  const err = (m: string | undefined) => (m ? walletText(t, m) : undefined);
  const coinInfo = info && info.coin === form.coin && info.network === form.network ? info : null;

  return (
    <AccountLayout title={t('withdrawalTitle')}>
      <section className="acct-card wal-card" aria-label={t('withdrawalTitle')}>
        <CoinNetworkPickers coin={form.coin} network={form.network} disabled={sending}
          onCoin={(coin) => send({ type: 'wd.coin', coin })} onNetwork={(network) => send({ type: 'wd.network', network })} />
        {state === 'loadFailed' ? (
          <div>
            <p className="acct-error" role="alert">{t('loadFailed', { msg: walletText(t, ctx.loadError ?? 'Error') })}</p>
            <Button variant="secondary" size="sm" onClick={() => send({ type: 'wd.retry' })}>{t('retry')}</Button>
          </div>
        ) : null}
        {state === 'locked' && info?.lock ? <LockBanner lock={info.lock} onRefresh={() => send({ type: 'wd.retry' })} /> : null}
        {inForm && coinInfo?.whitelist?.enabled ? <WhitelistBanner whitelist={coinInfo.whitelist} /> : null}
        {state === 'submitted' && ctx.submitted ? (
          <div className="wal-card" data-testid="withdraw-submitted">
            <h2 className="acct-card__title">{t('submittedTitle')}</h2>
            <p className="acct-muted">{t('summary', { amount: formatCoinAmount(ctx.submitted.amount, ctx.submitted.coin), coin: ctx.submitted.coin, address: ctx.submitted.address })}</p>
            <p className="acct-muted">{t('submittedText')}</p>
            <div className="wal-actions">
              <Button variant="primary" onClick={() => send({ type: 'wd.again' })}>{t('newWithdrawal')}</Button>
            </div>
          </div>
        ) : null}
        {inForm ? (
          <form className="auth-form" noValidate onSubmit={(e) => e.preventDefault()} aria-label={t('withdrawalTitle')}>
            {coinInfo && (coinInfo.addresses?.length ?? 0) > 0 ? (
              <PickField label={t('savedAddresses')} testId="withdraw-saved" disabled={security}
                value={savedMatch(form, coinInfo.addresses)?.address ?? ''}
                onChange={(value) => send({ type: 'wd.address', value })}
                options={[
                  { value: '', label: t('pickSaved') },
                  ...coinInfo.addresses.map((a) => ({
                    value: a.address,
                    label: `${a.label} · ${a.address.slice(0, 6)}…${a.address.slice(-4)}${a.usable || !coinInfo.whitelist.enabled ? '' : ` (${t('notReady', { time: formatDateTime(a.usableAt) })})`}`,
                  })),
                ]} />
            ) : null}
            <FormField label={t('withdrawAddress')} value={form.address} placeholder={t('addressPlaceholder', { network: form.network })}
              onValueChange={(value) => send({ type: 'wd.address', value })} error={err(errors.address)} disabled={security}
              autoComplete="off" spellCheck={false} maxLength={128} data-testid="withdraw-address" />
            {(state === 'editing' || state === 'savingAddress') && canOfferSave(form, coinInfo) ? (
              <fieldset className="wal-fieldset wal-save" data-testid="withdraw-save">
                <legend className="wal-field__label">{t('saveAddressTitle')}</legend>
                <FormField label={t('addressLabel')} value={ctx.saveLabel} placeholder={t('labelPlaceholder')} maxLength={60}
                  onValueChange={(value) => send({ type: 'wd.saveLabel', value })} error={err(ctx.saveError ?? undefined)}
                  disabled={state === 'savingAddress'} data-testid="withdraw-save-label"
                  suffix={<Button variant="text" size="sm" pending={state === 'savingAddress'} onClick={() => send({ type: 'wd.saveAddress' })} data-testid="withdraw-save-button">{t('saveAddress')}</Button>} />
                {coinInfo?.whitelist?.enabled ? <p className="acct-muted wal-min">{t('whitelistNewWaits')}</p> : null}
              </fieldset>
            ) : null}
            {ctx.saved && savedMatch(form, coinInfo?.addresses) ? <p className="acct-muted wal-min" role="status" data-testid="withdraw-saved-note">{t('savedNote')}</p> : null}
            <p className="wal-book-link"><Link to="/my/wallet/addresses" data-testid="withdraw-book-link">{t('manageBook')}</Link></p>
            <FormField label={t('assets:amount')} value={form.amount} inputMode="decimal" disabled={security}
              placeholder={coinInfo ? t('amountPlaceholder', { min: `${coinInfo.minWithdrawal} ${form.coin}` }) : ''}
              onValueChange={(v) => send({ type: 'wd.amount', value: sanitizeAmountInput(v, inputDecimals(form.coin)) })}
              error={err(errors.amount)} data-testid="withdraw-amount"
              suffix={<button type="button" className="wal-max" disabled={security || !coinInfo} onClick={() => send({ type: 'wd.max' })}>{t('max')}</button>} />
            {coinInfo ? <p className="acct-muted wal-min" data-testid="withdraw-min">{labelled(walletText(t, WALLET_MSG.minWithdrawal), `${coinInfo.minWithdrawal} ${form.coin}`)}</p> : null}
            <dl className="wal-summary">
              <dt>{t('assets:available')}</dt>
              <dd data-testid="withdraw-available">{coinInfo ? `${formatBalance(coinInfo.available, form.coin)} ${form.coin}` : '—'}</dd>
              <dt>{t('networkFee')}</dt>
              <dd data-testid="withdraw-fee">{coinInfo ? `${coinInfo.fee} ${form.coin}` : '—'}</dd>
              <dt>{t('received')}</dt>
              <dd data-testid="withdraw-received">{form.amount.trim() !== '' ? `${formatCoinAmount(form.amount, form.coin)} ${form.coin}` : '—'}</dd>
              {coinInfo?.limit ? <DailyLimitRow limit={coinInfo.limit} /> : null}
            </dl>
            {security && coinInfo ? (
              <fieldset className="wal-fieldset">
                <legend className="acct-card__title">{t('securityTitle')}</legend>
                <CodeField info={coinInfo} value={form.code} error={err(errors.code)} disabled={sending} onChange={(code) => send({ type: 'wd.code', code })} />
              </fieldset>
            ) : null}
            {ctx.submitError ? <p className="auth-server-error" role="alert" data-testid="withdraw-error">{walletText(t, ctx.submitError)}</p> : null}
            <div className="wal-actions">
              {security ? (
                <>
                  <Button variant="secondary" disabled={sending} onClick={() => send({ type: 'wd.back' })}>{t('back')}</Button>
                  <Button variant="primary" pending={sending} onClick={() => send({ type: 'wd.submit' })} data-testid="withdraw-submit">{t('confirmWithdrawal')}</Button>
                </>
              ) : (
                <Button variant="primary" disabled={state === 'loading'} onClick={() => send({ type: 'wd.next' })} data-testid="withdraw-next">{t('next')}</Button>
              )}
            </div>
          </form>
        ) : null}
      </section>
      <WithdrawalList />
    </AccountLayout>
  );
}
