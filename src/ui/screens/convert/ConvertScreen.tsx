import { useEffect, useId, useRef, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { toast } from '../../components/toast.ts';
import { formatBalance, formatRate } from '../../../format/number.ts';
import { convertStateOf } from '../../../machines/convertMachine.ts';
import { CONVERT_ACCOUNTS, CONVERT_COINS, CONVERT_MSG, type ConvertCoin } from '../../../protocol/convert.ts';
import { useSession } from '../../app/AppCoreProvider.tsx';
import { Button } from '../../components/Button.tsx';
import { useLoginHref } from '../../hooks/useLoginHref.ts';
import { useMarketTickers } from '../../hooks/useMarketTickers.ts';
import { availableOf, type BalanceBook } from '../../components/account/assetsModel.ts';
import { compareDecimals, sanitizeAmountInput } from '../../../protocol/decimal.ts';
import { formatCoinAmount, inputDecimals, trimDecimal } from '../../components/account/money.ts';
import { useBalances } from '../../components/account/useAccountData.ts';
import { PickField } from '../../components/wallet/WalletPickers.tsx';
import { convertText } from '../../components/wallet/walletModel.ts';
import { useConvertActor } from './useConvertActor.ts';
import '../../components/wallet/wallet.css';

const COIN_OPTIONS = CONVERT_COINS.map((c) => ({ value: c, label: c }));

/** Live indicative rate (display only): last prices of the coins' USDT markets, USDT = 1. */
function useIndicativeRate(from: ConvertCoin, to: ConvertCoin): number | null {
  const { lookup } = useMarketTickers();
  const price = (c: ConvertCoin) => (c === 'USDT' ? 1 : lookup(`${c}USDT`)?.last);
  const a = price(from);
  const b = price(to);
  return a && b ? a / b : null;
}

/** The balances of a logged-in user (a guest never asks: that would send them to /login). */
function BalanceProbe({ onBook }: { onBook: (b: BalanceBook) => void }) {
  const { book, status } = useBalances();
  // NOTE: only a loaded snapshot counts: before it, 'Available: 0' would be a wrong statement.
  useEffect(() => {
    if (status === 'ready') onBook(book);
  }, [book, status, onBook]);
  return null;
}

/**
 * /convert (issue 12): from coin, to coin and a swap button, amount with Max, payment account
 * (fund or spot), a live indicative rate; Preview asks for a quote whose rate holds for a visible
 * countdown (the machine's `after` delays on the core clock), Convert fills at exactly that rate
 * (fee 0), an expired quote says so and offers a fresh one, and a double click converts once
 * (convertMachine via useConvertActor). Guests see the form and a login prompt.
 */
export function ConvertScreen() {
  const { t } = useTranslation('convert');
  const session = useSession();
  const loginHref = useLoginHref();
  const [actor, send] = useConvertActor();
  const state = useSelector(actor, (s) => convertStateOf(s.value));
  const ctx = useSelector(actor, (s) => s.context);
  const { form, quote } = ctx;
  const rate = useIndicativeRate(form.from, form.to);
  const [book, setBook] = useState<BalanceBook | null>(null);
  const amountId = useId();
  const available = session.loggedIn && book ? availableOf(book, form.account, form.from) : null;
  const over = available !== null && form.amount.trim() !== '' && compareDecimals(form.amount, available) > 0;
  const error = ctx.error ?? (over ? CONVERT_MSG.insufficientBalance : null);
  const busy = state === 'quoting' || state === 'converting';

  const prev = useRef(state);
  useEffect(() => {
    if (prev.current === 'converting' && state === 'done' && ctx.result) toast.success(t('msg_converted'));
    prev.current = state;
  }, [state, ctx.result, t]);

  return (
    <div className="cv-page">
      {session.loggedIn ? <BalanceProbe onBook={setBook} /> : null}
      <h1>{t('title')}</h1>
      <p className="cv-intro">{t('intro')}</p>
      <form className="cv-card" noValidate onSubmit={(e) => e.preventDefault()} aria-label={t('title')}>
        <PickField label={t('account')} value={form.account} testId="cv-account" disabled={busy}
          options={CONVERT_ACCOUNTS.map((a) => ({ value: a, label: t(`acct_${a}`) }))} onChange={(account) => send({ type: 'convert.account', account })} />
        <PickField label={t('from')} value={form.from} testId="cv-from" disabled={busy} options={COIN_OPTIONS} onChange={(coin) => send({ type: 'convert.from', coin })} />
        <button type="button" className="cv-swap" aria-label={t('swap')} title={t('swap')} disabled={busy} onClick={() => send({ type: 'convert.swap' })} data-testid="cv-swap">
          <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M7 4l-4 4h3v8h2V8h3L7 4zm10 16l4-4h-3V8h-2v8h-3l4 4z" /></svg>
        </button>
        <PickField label={t('to')} value={form.to} testId="cv-to" disabled={busy} options={COIN_OPTIONS} onChange={(coin) => send({ type: 'convert.to', coin })} />
        <div className="wal-field">
          <label className="wal-field__label" htmlFor={amountId}>{t('amount')}</label>
          <div className="wal-input-row">
            <input id={amountId} className="wal-input" inputMode="decimal" autoComplete="off" placeholder={t('amountPlaceholder')} value={form.amount} disabled={busy}
              data-testid="cv-amount" aria-invalid={error ? true : undefined}
              onChange={(e) => send({ type: 'convert.amount', value: sanitizeAmountInput(e.target.value, inputDecimals(form.from)) })} />
            <span className="wal-suffix">{form.from}</span>
            <button type="button" className="wal-max" disabled={busy || available === null} onClick={() => available !== null && send({ type: 'convert.amount', value: trimDecimal(available, form.from) })}>{t('max')}</button>
          </div>
          {available !== null ? <span className="wal-hint" data-testid="cv-available">{t('available', { amount: formatBalance(available, form.from), coin: form.from })}</span> : null}
        </div>
        <div className="cv-rate">
          <span>{t('rate')}</span>
          <b data-testid="cv-live-rate">{rate !== null && form.from !== form.to ? t('liveRate', { from: form.from, to: form.to, rate: formatRate(rate) }) : '—'}</b>
        </div>
        <div className="cv-rate"><span>{t('fee')}</span><b data-testid="cv-fee">0</b></div>
        {quote && (state === 'quoted' || state === 'converting' || state === 'expired') ? (
          <div className="cv-quote" data-testid="cv-quote">
            <div className="cv-rate"><span>{t('youPay')}</span><b>{`${formatCoinAmount(quote.fromAmount, quote.from)} ${quote.from}`}</b></div>
            <div className="cv-rate"><span>{t('youReceive')}</span><b data-testid="cv-receive">{`${formatCoinAmount(quote.toAmount, quote.to)} ${quote.to}`}</b></div>
            <div className="cv-rate"><span>{t('rate')}</span><b data-testid="cv-quoted-rate">{t('quotedRate', { from: quote.from, to: quote.to, rate: formatRate(quote.rate) })}</b></div>
            <div className="cv-rate"><span>{t('fee')}</span><b>{`0 ${quote.from}`}</b></div>
            {state === 'expired' ? null : <span className="cv-countdown" aria-live="polite" data-testid="cv-countdown">{t('countdown', { s: ctx.secondsLeft })}</span>}
          </div>
        ) : null}
        {state === 'done' && ctx.result ? (
          <div className="cv-quote" data-testid="cv-done" role="status">
            <b>{t('doneTitle')}</b>
            <span>{t('doneText', { fromAmount: formatCoinAmount(ctx.result.fromAmount, ctx.result.from), from: ctx.result.from, toAmount: formatCoinAmount(ctx.result.toAmount, ctx.result.to), to: ctx.result.to })}</span>
          </div>
        ) : null}
        {error ? (
          <p className="wal-error" role="alert" data-testid="cv-error">
            {convertText(t, error)}
            {error === CONVERT_MSG.insufficientBalance ? <> <Link className="wal-link" to="/my/wallet/deposit">{t('deposit')}</Link></> : null}
          </p>
        ) : null}
        {!session.loggedIn ? (
          <div className="cv-login" data-testid="cv-login">
            <span>{t('loginPrompt')}</span>
            <Link className="wal-link" to={loginHref}>{t('login')}</Link>
          </div>
        ) : state === 'quoted' || state === 'converting' ? (
          <div className="wal-actions">
            <Button variant="secondary" disabled={state === 'converting'} onClick={() => send({ type: 'convert.cancel' })}>{t('cancel')}</Button>
            <Button variant="primary" pending={state === 'converting'} onClick={() => send({ type: 'convert.confirm' })} data-testid="cv-confirm">{t('convert')}</Button>
          </div>
        ) : state === 'expired' ? (
          <Button variant="primary" block onClick={() => send({ type: 'convert.requote' })} data-testid="cv-requote">{t('requote')}</Button>
        ) : state === 'done' ? (
          <Button variant="primary" block onClick={() => send({ type: 'convert.again' })}>{t('again')}</Button>
        ) : (
          <Button variant="primary" block pending={state === 'quoting'} onClick={() => send({ type: 'convert.preview' })} data-testid="cv-preview">{t('preview')}</Button>
        )}
      </form>
      {session.loggedIn ? <Link className="cv-history-link" to="/my/order/convert">{t('historyTitle')}</Link> : null}
    </div>
  );
}
