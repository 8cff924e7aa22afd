import { assign, fromPromise, setup } from 'xstate';
import { chainRule, WALLET_MSG, type AddressBook, type MoneyCoin, type Network, type SavedAddress, type Withdrawal, type WithdrawInfo } from '../protocol/wallet.ts';
import { compareDecimals, parseScaled } from '../protocol/decimal.ts';
import { addressKey, isValidAddress } from '../protocol/addresses.ts';
import { usdtMinor, usdtValueMinor } from '../protocol/withdrawSafety.ts';
import { labelProblem } from './addressBookMachine.ts';

/**
 * A withdrawal on /my/wallet/withdrawal (issue 12, SPEC §9; docs/WALLET.md):
 *
 * ```
 * loading ─info→ editing | locked          ─error→ loadFailed ─wd.retry→ loading
 * editing ─wd.next (form ok)→ securityStep ─wd.submit (code given)→ submitting ─ok→ submitted
 *          (else: messages shown)            └─wd.back→ editing                  └─error→ lock msg → loading (lock re-read)
 * wd.coin / wd.network anywhere but submitting → loading                                   code msg → securityStep
 * submitted ─wd.again→ loading                                                              other → editing
 * editing ─wd.saveAddress (valid address, not saved, label ok)→ savingAddress ─ok→ loading (the book re-read)
 *                                                                              └─error→ editing (saveError)
 * ```
 *
 * Issue 26: the saved addresses of the coin and network, whitelist mode and the daily limit come with
 * the info; a saved address is picked by sending its address (`wd.address`); whitelist mode refuses
 * an address not in the book (or saved less than 24 h ago under the mode) and the daily limit an
 * amount worth more than what is left, both as they are typed and before the security step.
 *
 * Invariants (tests/property/withdrawalMachine.prop.test.ts):
 * - one request per confirm, never two in flight (`submitting` hears no `wd.submit`);
 * - nothing is sent while the account is locked, or for a form breaking a client rule (address,
 *   amount, minimum, amount + fee within the available balance: exact decimals, never floats);
 * - a refused submit always leaves `submitError` set (the server msg) so the screen says why.
 *
 * No globals: `fetchInfo` and `submit` are actors the screen provides; no timer is needed.
 */

export interface WithdrawalForm {
  coin: MoneyCoin;
  network: Network;
  address: string;
  amount: string;
  code: string;
}

export interface WithdrawalErrors {
  address?: string;
  amount?: string;
  code?: string;
}

export interface WithdrawalContext {
  form: WithdrawalForm;
  info: WithdrawInfo | null;
  errors: WithdrawalErrors;
  submitError: string | null;
  loadError: string | null;
  /** The last accepted withdrawal. */
  submitted: Withdrawal | null;
  submits: number;
  /** The label typed to save the typed address to the address book, and that save's refusal / success. */
  saveLabel: string;
  saveError: string | null;
  saved: boolean;
}

/** POST /money/withdraw/addresses from the form. */
export interface SaveAddressRequest {
  coin: MoneyCoin;
  network: Network;
  address: string;
  label: string;
}

export type WithdrawalEvent =
  | { type: 'wd.coin'; coin: MoneyCoin }
  | { type: 'wd.network'; network: Network }
  | { type: 'wd.address'; value: string }
  | { type: 'wd.amount'; value: string }
  | { type: 'wd.max' }
  /** `code` (not `value`): the event-log redactor knows a field of that name is a secret. */
  | { type: 'wd.code'; code: string }
  | { type: 'wd.next' }
  | { type: 'wd.back' }
  | { type: 'wd.submit' }
  | { type: 'wd.retry' }
  /** Re-read the numbers (the balance moved): derived from a `balance` frame. */
  | { type: 'wd.refresh' }
  | { type: 'wd.again' }
  /** The label of the typed address, to save it to the address book. */
  | { type: 'wd.saveLabel'; value: string }
  | { type: 'wd.saveAddress' };

export const DEFAULT_WITHDRAWAL_FORM: WithdrawalForm = { coin: 'USDT', network: 'TRC20', address: '', amount: '', code: '' };

/** The first network a coin is on (coin pickers reset the network to it). */
export function firstNetwork(coin: MoneyCoin): Network {
  for (const n of ['TRC20', 'ERC20', 'BEP20', 'Bitcoin'] as const) if (chainRule(coin, n)) return n;
  return 'TRC20';
}

/** '10099.000000' → '10099', '0.500' → '0.5': what Max writes in the field (same value, exactly). */
export function trimZeros(amount: string): string {
  return amount.includes('.') ? amount.replace(/\.?0+$/, '') : amount;
}

/** amount + fee as exact decimals, or null when the amount is not a decimal. */
function plusFee(amount: string, fee: string): bigint | null {
  const a = parseScaled(amount);
  const f = parseScaled(fee);
  return a === null || f === null ? null : a + f;
}

/**
 * The client rules of the form step (the server checks them again): the WALLET_MSG text per field,
 * empty when the form may go to the security step. Exact decimal comparisons only.
 */
export function checkWithdrawalForm(form: WithdrawalForm, info: WithdrawInfo | null): WithdrawalErrors {
  const errors: WithdrawalErrors = {};
  if (form.address.trim() === '') errors.address = WALLET_MSG.addressRequired;
  else if (addressProblem(form) !== null) errors.address = WALLET_MSG.addressInvalid;
  else {
    const listed = whitelistProblem(form, info);
    if (listed) errors.address = listed;
  }
  const amount = form.amount.trim();
  const scaled = parseScaled(amount);
  if (amount === '' || scaled === null || scaled <= 0n) errors.amount = WALLET_MSG.amountRequired;
  else if (info) {
    const total = plusFee(amount, info.fee);
    const available = parseScaled(info.available) ?? 0n;
    if (compareDecimals(amount, info.minWithdrawal) < 0) errors.amount = `${WALLET_MSG.minWithdrawal}${info.minWithdrawal} ${info.coin}`;
    else if (total === null || total > available) errors.amount = WALLET_MSG.insufficientBalance;
    else if (overDailyLimit(amount, info)) errors.amount = WALLET_MSG.dailyLimitExceeded;
  }
  return errors;
}

/** The saved address of the form's coin and network that is the typed one (spelling-insensitive), if any. */
export function savedMatch(form: Pick<WithdrawalForm, 'coin' | 'network' | 'address'>, addresses: readonly SavedAddress[] | undefined): SavedAddress | undefined {
  const rule = chainRule(form.coin, form.network);
  const typed = form.address.trim();
  if (!rule || typed === '') return undefined;
  const key = addressKey(rule.format, typed);
  return addresses?.find((a) => a.coin === form.coin && a.network === form.network && addressKey(rule.format, a.address) === key);
}

/**
 * Whitelist mode's refusal of a well-formed address (the server's rule, issue 26): not in the book,
 * or saved under the mode less than 24 h ago; null when the mode is off or the address may be used.
 */
export function whitelistProblem(form: Pick<WithdrawalForm, 'coin' | 'network' | 'address'>, info: WithdrawInfo | null): string | null {
  if (!info?.whitelist?.enabled || form.address.trim() === '') return null;
  const saved = savedMatch(form, info.addresses);
  if (!saved) return WALLET_MSG.notWhitelisted;
  return saved.usable ? null : WALLET_MSG.addressNotYetUsable;
}

/** Whether `amount` (a valid decimal) is worth more in USDT than what is left of the daily limit (the server's valuation). */
export function overDailyLimit(amount: string, info: WithdrawInfo | null): boolean {
  const limit = info?.limit;
  if (!limit || limit.price === null) return false;
  const value = usdtValueMinor(amount, limit.price);
  const used = usdtMinor(limit.used);
  const max = usdtMinor(limit.limit);
  return value !== null && used !== null && max !== null && used + value > max;
}

/** What is left of the daily limit in USDT minor units (never below 0), or null without the limit. */
export function dailyLimitLeft(info: WithdrawInfo | null): bigint | null {
  const used = info?.limit ? usdtMinor(info.limit.used) : null;
  const max = info?.limit ? usdtMinor(info.limit.limit) : null;
  return used === null || max === null ? null : max > used ? max - used : 0n;
}

/** Whether the form offers to save the typed address: valid for the network and not in the book yet. */
export function canOfferSave(form: WithdrawalForm, info: WithdrawInfo | null): boolean {
  return form.address.trim() !== '' && addressProblem(form) === null && info !== null && !savedMatch(form, info.addresses);
}

/**
 * Whether the typed address is one of the chosen network's (format and checksum, the server's own
 * check: src/protocol/addresses.ts): WALLET_MSG.addressInvalid, or null when valid or still empty.
 * Run as the address is typed and when the network changes, so a wrong address never reaches the
 * security step and never spends an emailed code (issue 26).
 */
export function addressProblem(form: Pick<WithdrawalForm, 'coin' | 'network' | 'address'>): string | null {
  const address = form.address.trim();
  const rule = chainRule(form.coin, form.network);
  if (address === '' || !rule) return null;
  return isValidAddress(rule.format, address) ? null : WALLET_MSG.addressInvalid;
}

/** The form's errors with the address one set from {@link addressProblem}, then whitelist mode's. */
function withAddressCheck(form: WithdrawalForm, errors: WithdrawalErrors, info: WithdrawInfo | null = null): WithdrawalErrors {
  const { address: _a, ...rest } = errors;
  void _a;
  const problem = addressProblem(form) ?? whitelistProblem(form, info);
  return problem === null ? rest : { ...rest, address: problem };
}

const LOCK_MSGS: readonly string[] = [WALLET_MSG.lockedAfterReset, WALLET_MSG.lockedAfterChange];
const CODE_MSGS: readonly string[] = [WALLET_MSG.codeRequired, WALLET_MSG.codeInvalid, WALLET_MSG.tooManyAttempts];

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
}
const errOf = (event: unknown) => errorText((event as { error: unknown }).error);

const infoNotProvided = fromPromise<WithdrawInfo, { coin: MoneyCoin; network: Network }>(async () => {
  throw new Error("withdrawalMachine: actor 'fetchInfo' not provided");
});
const submitNotProvided = fromPromise<Withdrawal, WithdrawalForm>(async () => {
  throw new Error("withdrawalMachine: actor 'submit' not provided");
});
const saveNotProvided = fromPromise<AddressBook, SaveAddressRequest>(async () => {
  throw new Error("withdrawalMachine: actor 'saveAddress' not provided");
});

/** Coin and network pickers: heard wherever the form is not being sent. */
const pickers = {
  'wd.coin': { target: '#withdrawal.loading', actions: 'setCoin' },
  'wd.network': { target: '#withdrawal.loading', actions: 'setNetwork' },
} as const;

export const withdrawalMachine = setup({
  types: { context: {} as WithdrawalContext, events: {} as WithdrawalEvent },
  actors: { fetchInfo: infoNotProvided, submit: submitNotProvided, saveAddress: saveNotProvided },
  guards: {
    locked: ({ event }) => (event as unknown as { output: WithdrawInfo }).output.lock !== null,
    formOk: ({ context }) => Object.keys(checkWithdrawalForm(context.form, context.info)).length === 0,
    codeGiven: ({ context }) => context.form.code.trim() !== '',
    lockRefusal: ({ event }) => LOCK_MSGS.includes(errOf(event)),
    codeRefusal: ({ event }) => CODE_MSGS.includes(errOf(event)),
    saveOk: ({ context }) => canOfferSave(context.form, context.info) && labelProblem(context.saveLabel) === null,
  },
  actions: {
    setCoin: assign(({ context, event }) => {
      if (event.type !== 'wd.coin') return {};
      const network = chainRule(event.coin, context.form.network) ? context.form.network : firstNetwork(event.coin);
      const form = { ...context.form, coin: event.coin, network, amount: '' };
      return { form, errors: withAddressCheck(form, {}), submitError: null };
    }),
    setNetwork: assign(({ context, event }) =>
      event.type === 'wd.network' && chainRule(context.form.coin, event.network)
        ? { form: { ...context.form, network: event.network }, errors: withAddressCheck({ ...context.form, network: event.network }, {}), submitError: null }
        : {},
    ),
    setAddress: assign(({ context, event }) => {
      if (event.type !== 'wd.address') return {};
      const form = { ...context.form, address: event.value };
      return { form, errors: withAddressCheck(form, context.errors, context.info), submitError: null, saveError: null, saved: false };
    }),
    setSaveLabel: assign(({ event }) => (event.type === 'wd.saveLabel' ? { saveLabel: event.value, saveError: null } : {})),
    saveLabelProblem: assign(({ context }) => ({ saveError: labelProblem(context.saveLabel) })),
    takeSaved: assign({ saveLabel: '', saveError: null, saved: true }),
    takeSaveError: assign({ saveError: ({ event }) => errOf(event) }),
    setAmount: assign(({ context, event }) => {
      if (event.type !== 'wd.amount') return {};
      const { amount: _a, ...errors } = context.errors;
      void _a;
      return { form: { ...context.form, amount: event.value }, errors, submitError: null };
    }),
    setMax: assign(({ context }) => {
      const { amount: _a, ...errors } = context.errors;
      void _a;
      return { form: { ...context.form, amount: trimZeros(context.info?.max ?? '') }, errors, submitError: null };
    }),
    setCode: assign(({ context, event }) => (event.type === 'wd.code' ? { form: { ...context.form, code: event.code }, errors: {}, submitError: null } : {})),
    showErrors: assign({ errors: ({ context }) => checkWithdrawalForm(context.form, context.info) }),
    codeMissing: assign({ errors: { code: WALLET_MSG.codeRequired } }),
    takeInfo: assign(({ context, event }) => {
      const info = (event as unknown as { output: WithdrawInfo }).output;
      // The book or the mode may have changed: the typed address is checked against the new info.
      return { info, loadError: null, errors: context.form.address.trim() === '' ? context.errors : withAddressCheck(context.form, context.errors, info) };
    }),
    takeLoadError: assign({ loadError: ({ event }) => errOf(event) }),
    countSubmit: assign({ submits: ({ context }) => context.submits + 1, submitError: null, errors: {} }),
    takeSubmitted: assign(({ context, event }) => ({
      submitted: (event as unknown as { output: Withdrawal }).output,
      form: { ...context.form, address: '', amount: '', code: '' },
    })),
    takeSubmitError: assign({ submitError: ({ event }) => errOf(event) }),
    clearCode: assign(({ context }) => ({ form: { ...context.form, code: '' } })),
    clearSubmitted: assign({ submitted: null, submitError: null }),
  },
}).createMachine({
  id: 'withdrawal',
  context: { form: DEFAULT_WITHDRAWAL_FORM, info: null, errors: {}, submitError: null, loadError: null, submitted: null, submits: 0, saveLabel: '', saveError: null, saved: false },
  initial: 'loading',
  states: {
    loading: {
      // typing goes on while the numbers are re-read
      on: { ...pickers, 'wd.address': { actions: 'setAddress' }, 'wd.amount': { actions: 'setAmount' } },
      invoke: {
        src: 'fetchInfo',
        input: ({ context }) => ({ coin: context.form.coin, network: context.form.network }),
        onDone: [
          { guard: 'locked', target: 'locked', actions: 'takeInfo' },
          { target: 'editing', actions: 'takeInfo' },
        ],
        onError: { target: 'loadFailed', actions: 'takeLoadError' },
      },
    },
    loadFailed: { on: { ...pickers, 'wd.retry': 'loading' } },
    /** SPEC §9: withdrawals blocked after a password reset / change; `info.lock` says which and how long. */
    locked: { on: { ...pickers, 'wd.retry': 'loading', 'wd.refresh': 'loading' } },
    editing: {
      on: {
        ...pickers,
        'wd.address': { actions: 'setAddress' },
        'wd.amount': { actions: 'setAmount' },
        'wd.max': { actions: 'setMax' },
        'wd.refresh': 'loading',
        'wd.next': [{ guard: 'formOk', target: 'securityStep' }, { actions: 'showErrors' }],
        'wd.saveLabel': { actions: 'setSaveLabel' },
        'wd.saveAddress': [{ guard: 'saveOk', target: 'savingAddress' }, { actions: 'saveLabelProblem' }],
      },
    },
    /**
     * Saving the typed address to the address book (issue 26); typing goes on meanwhile: the
     * address and amount fields stay editable (the label is the one being saved: its field waits).
     */
    savingAddress: {
      on: { 'wd.address': { actions: 'setAddress' }, 'wd.amount': { actions: 'setAmount' }, 'wd.max': { actions: 'setMax' } },
      invoke: {
        src: 'saveAddress',
        input: ({ context }) => ({ coin: context.form.coin, network: context.form.network, address: context.form.address.trim(), label: context.saveLabel.trim() }),
        onDone: { target: 'loading', actions: 'takeSaved' },
        onError: { target: 'editing', actions: 'takeSaveError' },
      },
    },
    securityStep: {
      on: {
        ...pickers,
        'wd.code': { actions: 'setCode' },
        'wd.back': 'editing',
        'wd.submit': [{ guard: 'codeGiven', target: 'submitting' }, { actions: 'codeMissing' }],
      },
    },
    submitting: {
      entry: 'countSubmit',
      invoke: {
        src: 'submit',
        input: ({ context }) => ({ ...context.form, address: context.form.address.trim(), amount: context.form.amount.trim(), code: context.form.code.trim() }),
        onDone: { target: 'submitted', actions: 'takeSubmitted' },
        onError: [
          { guard: 'lockRefusal', target: 'loading', actions: 'takeSubmitError' },
          { guard: 'codeRefusal', target: 'securityStep', actions: ['takeSubmitError', 'clearCode'] },
          { target: 'editing', actions: ['takeSubmitError', 'clearCode'] },
        ],
      },
    },
    submitted: { on: { ...pickers, 'wd.again': { target: 'loading', actions: 'clearSubmitted' } } },
  },
});

export type WithdrawalStateName = 'loading' | 'loadFailed' | 'locked' | 'editing' | 'savingAddress' | 'securityStep' | 'submitting' | 'submitted';
