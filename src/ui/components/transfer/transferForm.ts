import { TRADE_MSG, WALLETS, type WalletType } from '../../../protocol/trading.ts';
import { compareDecimals, parseScaled } from '../../../protocol/decimal.ts';

/**
 * Client-side checks of the transfer dialog, the same rules the server applies (SPEC §5), so the
 * user sees the message before a request is sent. Keys are `common` / `assets` i18n keys.
 *
 * Invariants (property-tested): an empty or non-numeric amount always gives
 * 'transferAmountRequired', a zero (or negative) number 'transferAmountPositive'; a positive amount is accepted exactly when it is ≤ available
 * (exact decimal comparison) and the wallets differ.
 */
export type TransferError = 'transferAmountRequired' | 'transferAmountPositive' | 'insufficientBalance' | 'sameWallet';

export interface TransferDraft {
  from: WalletType;
  to: WalletType;
  coin: string;
  amount: string;
}

export function validateTransfer(d: TransferDraft, available: string): TransferError | null {
  if (d.from === d.to) return 'sameWallet';
  const v = parseScaled(d.amount);
  if (v === null) return 'transferAmountRequired';
  // A number that is not above 0 ('0', '0.00') is not a missing amount (issue 26 cosmetics).
  if (v <= 0n) return 'transferAmountPositive';
  if (compareDecimals(d.amount, available) > 0) return 'insufficientBalance';
  return null;
}

/** The i18n key for a known server message, so a server rejection is shown translated too. */
export function serverMessageKey(msg: string): TransferError | null {
  if (msg === TRADE_MSG.transferAmountRequired) return 'transferAmountRequired';
  if (msg === TRADE_MSG.insufficientBalance) return 'insufficientBalance';
  if (msg === TRADE_MSG.sameWallet) return 'sameWallet';
  return null;
}

/** Picking `next` as the source when it is the current destination swaps the two (never equal). */
export function chooseFrom(d: TransferDraft, next: WalletType): TransferDraft {
  return next === d.to ? { ...d, from: next, to: d.from } : { ...d, from: next };
}

export function chooseTo(d: TransferDraft, next: WalletType): TransferDraft {
  return next === d.from ? { ...d, to: next, from: d.to } : { ...d, to: next };
}

export function swapWallets(d: TransferDraft): TransferDraft {
  return { ...d, from: d.to, to: d.from };
}

/**
 * Which transfer dialog is open (view state 'dialog.transfer', docs/REPLAY.md): wallets and coin,
 * and `at`, the path of the screen it was opened on: one key serves every screen with the dialog,
 * so a dialog left open when the user navigated away (browser Back) does not open on the next one.
 * Records made before `at` existed carry none and show on any screen.
 */
export interface TransferTarget {
  from: WalletType;
  to: WalletType;
  coin: string;
  at?: string;
}

export const TRANSFER_DIALOG_KEY = 'dialog.transfer';

const WALLET_NAMES: readonly string[] = WALLETS;

/**
 * The guard of a recorded 'dialog.transfer' value (a log is external data): exactly
 * `{from, to, coin}` with two different known wallets and a coin symbol, plus optionally `at` (a
 * path); anything else reads as no dialog.
 */
export function isTransferTarget(v: unknown): v is TransferTarget {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return (
    (Object.keys(o).length === 3 || (Object.keys(o).length === 4 && typeof o.at === 'string' && o.at.startsWith('/') && o.at.length <= 200)) &&
    typeof o.from === 'string' &&
    typeof o.to === 'string' &&
    WALLET_NAMES.includes(o.from) &&
    WALLET_NAMES.includes(o.to) &&
    o.from !== o.to &&
    typeof o.coin === 'string' &&
    /^[A-Z0-9]{2,12}$/.test(o.coin)
  );
}
