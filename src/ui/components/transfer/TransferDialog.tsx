import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { toast } from '../toast.ts';
import { errorMessage } from '../../../api/client.ts';
import { TRADING_PATHS, WALLETS, type TransferResult, type WalletType } from '../../../protocol/trading.ts';
import { useApi } from '../../app/AppCoreProvider.tsx';
import { availableOf, coinsOf, type BalanceBook } from '../account/assetsModel.ts';
import { sanitizeAmountInput } from '../../../protocol/decimal.ts';
import { inputDecimals, trimDecimal } from '../account/money.ts';
import { formatBalance } from '../../../format/number.ts';
import { apiPath } from '../account/useAccountData.ts';
import { Button } from '../Button.tsx';
import { Modal } from '../Modal.tsx';
import { useViewState } from '../../hooks/useViewState.ts';
import {
  chooseFrom,
  chooseTo,
  isTransferTarget,
  serverMessageKey,
  swapWallets,
  TRANSFER_DIALOG_KEY,
  validateTransfer,
  type TransferDraft,
  type TransferError,
  type TransferTarget,
} from './transferForm.ts';
import { WALLET_LABEL } from './walletLabels.ts';
import './transfer.css';

export interface TransferDialogProps {
  /** The open dialog's wallets and coin (from {@link useTransferDialog}); null: closed. */
  target: TransferTarget | null;
  onClose: () => void;
  /** Live balances (the dialog reads `available` from it as frames arrive). */
  book: BalanceBook;
  /** Called after a successful transfer, before closing (refresh the balances). */
  onDone?: (result: TransferResult) => void;
  /** The amount the form starts with (the order panel's shortfall, issue 26); empty by default. */
  amount?: string;
}

/**
 * Which transfer dialog is open, as view state (issue 16, docs/REPLAY.md): opening it with its
 * wallets and coin and closing it (Esc, cancel, success) are intents in the record, so a replay
 * shows the dialog the user had. An invalid recorded value reads as closed.
 */
export function useTransferDialog(): [TransferTarget | null, (target: TransferTarget | null) => void] {
  const { pathname } = useLocation();
  const [value, set] = useViewState<TransferTarget | null>(TRANSFER_DIALOG_KEY, null, (v) => v === null || isTransferTarget(v));
  const open = useCallback((target: TransferTarget | null) => set(target === null ? null : { ...target, at: pathname }), [set, pathname]);
  // Opened on another screen (the user went Back with it open): not this screen's dialog.
  return [value !== null && value.at !== undefined && value.at !== pathname ? null : value, open];
}

type Shown = { kind: 'key'; key: TransferError } | { kind: 'text'; text: string } | null;

/**
 * The wallet transfer dialog: from/to selects with a swap button, coin, amount with Max and the
 * available balance. SPEC §5 messages are checked before posting and also mapped from the
 * server's answer. Success: the server msg as a toast, `onDone`, close.
 */
export function TransferDialog(props: TransferDialogProps) {
  const { t } = useTranslation('assets');
  if (props.target === null) return null;
  return (
    <Modal open onClose={props.onClose} title={t('transferTitle')} width={460}>
      <TransferForm {...props} target={props.target} />
    </Modal>
  );
}

function TransferForm({ book, onDone, onClose, amount = '', target: { from, to, coin: asked } }: TransferDialogProps & { target: TransferTarget }) {
  const { t } = useTranslation(['assets', 'common']);
  const api = useApi();
  // A coin the balances do not know (a replayed log is external data) falls back to USDT.
  const known = coinsOf(book);
  const coin = book.size > 0 && !known.includes(asked) ? 'USDT' : asked;
  const [draft, setDraft] = useState<TransferDraft>({ from, to: to === from ? (from === 'fund' ? 'perp' : 'fund') : to, coin, amount });
  const [shown, setShown] = useState<Shown>(null);
  const available = availableOf(book, draft.from, draft.coin);
  const update = (d: TransferDraft) => {
    setDraft(d);
    setShown(null);
  };

  const post = useCallback(async () => {
    try {
      const env = await api.request<TransferResult>({ method: 'POST', path: apiPath(TRADING_PATHS.transfer), body: { ...draft } });
      toast.success(t('transferDone')); // what happened, in the user's language (the server's msg is a bare 'success')
      onDone?.(env.data);
      onClose();
    } catch (e: unknown) {
      const msg = errorMessage(e);
      const key = serverMessageKey(msg);
      setShown(key ? { kind: 'key', key } : { kind: 'text', text: msg });
    }
  }, [api, draft, onClose, onDone, t]);

  /** Invalid input answers synchronously (no pending flash); a valid one returns the POST's promise. */
  const submit = (): Promise<void> | undefined => {
    const err = validateTransfer(draft, available);
    if (err) {
      setShown({ kind: 'key', key: err });
      return undefined;
    }
    return post();
  };

  const errorText = shown === null ? null : shown.kind === 'text' ? shown.text : shown.key === 'sameWallet' ? t('assets:sameWallet') : t(`common:${shown.key}`);

  return (
    <form
      className="transfer"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="transfer__wallets">
        <label className="transfer__field">
          <span>{t('from')}</span>
          <select value={draft.from} onChange={(e) => update(chooseFrom(draft, e.target.value as WalletType))} aria-label={t('from')}>
            {WALLETS.map((w) => (
              <option key={w} value={w}>
                {t(WALLET_LABEL[w])}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="transfer__swap" aria-label={t('swap')} title={t('swap')} onClick={() => update(swapWallets(draft))}>
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
            <path d="M7 4v13m0 0-3-3m3 3 3-3M17 20V7m0 0-3 3m3-3 3 3" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
        <label className="transfer__field">
          <span>{t('to')}</span>
          <select value={draft.to} onChange={(e) => update(chooseTo(draft, e.target.value as WalletType))} aria-label={t('to')}>
            {WALLETS.map((w) => (
              <option key={w} value={w}>
                {t(WALLET_LABEL[w])}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="transfer__field">
        <span>{t('coin')}</span>
        <select value={draft.coin} onChange={(e) => update({ ...draft, coin: e.target.value, amount: '' })} aria-label={t('coin')}>
          {coinsOf(book).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label className="transfer__field">
        <span>{t('amount')}</span>
        <div className={`transfer__amount${errorText ? ' has-error' : ''}`}>
          <input
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('amountPlaceholder')}
            value={draft.amount}
            aria-label={t('amount')}
            aria-invalid={errorText ? true : undefined}
            onChange={(e) => update({ ...draft, amount: sanitizeAmountInput(e.target.value, inputDecimals(draft.coin)) })}
          />
          <span className="transfer__coin">{draft.coin}</span>
          <button type="button" className="transfer__max" onClick={() => update({ ...draft, amount: trimDecimal(available, draft.coin) })}>
            {t('max')}
          </button>
        </div>
      </label>
      <p className="transfer__available" data-testid="transfer-available">
        {t('availableAmount', { amount: formatBalance(available, draft.coin), coin: draft.coin })}
      </p>
      {errorText ? (
        <p className="transfer__error" role="alert">
          {errorText}
        </p>
      ) : null}
      <Button type="button" block size="lg" onClick={submit}>
        {t('confirmTransfer')}
      </Button>
    </form>
  );
}
