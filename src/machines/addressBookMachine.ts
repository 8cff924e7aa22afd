import { assign, fromPromise, setup } from 'xstate';
import { chainRule, WALLET_MSG, ADDRESS_LABEL_MAX, type AddressBook, type MoneyCoin, type Network } from '../protocol/wallet.ts';
import { addressKey, isValidAddress } from '../protocol/addresses.ts';

/**
 * The withdrawal address book on /my/wallet/addresses (issue 26; docs/WALLET.md):
 *
 * ```
 * loading ─book→ ready ─ab.save (form ok)───────→ saving ─ok→ ready (notice)
 *         ─error→ loadFailed ─ab.retry→ loading     ab.renameSave / ab.deleteConfirm → saving
 * ready ─ab.whitelist {enabled}→ whitelistStep ─ab.confirm (code given)→ saving ─ok→ ready
 *                                 └─ab.cancel→ ready          a code refusal → whitelistStep, other → ready
 * ```
 *
 * Every change answers the whole book, which replaces the context's; the address is checked for the
 * network as it is typed (src/protocol/addresses.ts, the server's own check), a label is required.
 * Invariants (tests/property/addressBookMachine.prop.test.ts): one request at a time, never a
 * request for an address the network refuses, a refused request always leaves `error` set.
 */

export interface AddressDraft {
  coin: MoneyCoin;
  network: Network;
  address: string;
  label: string;
}

export interface AddressDraftErrors {
  address?: string;
  label?: string;
}

/** What a change asks the server for. */
export type BookRequest =
  | { kind: 'add'; coin: MoneyCoin; network: Network; address: string; label: string }
  | { kind: 'rename'; id: number; label: string }
  | { kind: 'delete'; id: number }
  | { kind: 'whitelist'; enabled: boolean; code: string };

export interface AddressBookContext {
  book: AddressBook | null;
  draft: AddressDraft;
  errors: AddressDraftErrors;
  /** The row being renamed and its new label. */
  renaming: { id: number; label: string; error?: string } | null;
  /** The row asked to be deleted (the row shows Confirm / Cancel). */
  deleting: number | null;
  /** Whitelist mode's security step: the state asked for and the code typed. */
  whitelist: { enabled: boolean; code: string } | null;
  /** What the last request was (for the notice) and its refusal. */
  last: BookRequest['kind'] | null;
  notice: string | null;
  error: string | null;
  loadError: string | null;
  requests: number;
}

export type AddressBookEvent =
  | { type: 'ab.coin'; coin: MoneyCoin }
  | { type: 'ab.network'; network: Network }
  | { type: 'ab.address'; value: string }
  | { type: 'ab.label'; value: string }
  | { type: 'ab.save' }
  | { type: 'ab.renameStart'; id: number }
  | { type: 'ab.renameLabel'; value: string }
  | { type: 'ab.renameSave' }
  | { type: 'ab.renameCancel' }
  | { type: 'ab.delete'; id: number }
  | { type: 'ab.deleteConfirm' }
  | { type: 'ab.deleteCancel' }
  | { type: 'ab.whitelist'; enabled: boolean }
  /** `code` (not `value`): the event-log redactor knows a field of that name is a secret. */
  | { type: 'ab.code'; code: string }
  | { type: 'ab.confirm' }
  | { type: 'ab.cancel' }
  | { type: 'ab.retry' };

export const DEFAULT_ADDRESS_DRAFT: AddressDraft = { coin: 'USDT', network: 'TRC20', address: '', label: '' };

/** A label's problem (required, at most 40 characters), or null. */
export function labelProblem(label: string): string | null {
  const l = label.trim();
  if (l === '') return WALLET_MSG.labelRequired;
  return [...l].length > ADDRESS_LABEL_MAX ? WALLET_MSG.labelTooLong : null;
}

/**
 * The add form's problems: the address for the network (format and checksum), already in the book
 * (same spelling-insensitive key), and the label. Empty when it may be sent.
 */
export function checkAddressDraft(draft: AddressDraft, book: AddressBook | null): AddressDraftErrors {
  const errors: AddressDraftErrors = {};
  const address = draft.address.trim();
  const rule = chainRule(draft.coin, draft.network);
  if (address === '') errors.address = WALLET_MSG.addressRequired;
  else if (!rule || !isValidAddress(rule.format, address)) errors.address = WALLET_MSG.addressInvalid;
  else if (book?.addresses.some((a) => a.coin === draft.coin && a.network === draft.network && addressKey(rule.format, a.address) === addressKey(rule.format, address))) {
    errors.address = WALLET_MSG.addressExists;
  }
  const label = labelProblem(draft.label);
  if (label) errors.label = label;
  return errors;
}

/** The address field's problem as it is typed: none while empty. */
function typedErrors(draft: AddressDraft, book: AddressBook | null, errors: AddressDraftErrors): AddressDraftErrors {
  const all = checkAddressDraft(draft, book);
  const out: AddressDraftErrors = {};
  if (draft.address.trim() !== '' && all.address) out.address = all.address;
  if (errors.label && all.label) out.label = all.label;
  return out;
}

const CODE_MSGS: readonly string[] = [WALLET_MSG.codeRequired, WALLET_MSG.codeInvalid, WALLET_MSG.tooManyAttempts];

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
}
const errOf = (event: unknown) => errorText((event as { error: unknown }).error);

/** The notice after a change (the server's answer text for it, in WALLET_MSG). */
export function noticeOf(kind: BookRequest['kind'], book: AddressBook, before: AddressBook | null): string {
  switch (kind) {
    case 'add':
      return WALLET_MSG.addressSaved;
    case 'rename':
      return WALLET_MSG.addressRenamed;
    case 'delete':
      return WALLET_MSG.addressDeleted;
    case 'whitelist':
      if (!book.whitelist.enabled) return WALLET_MSG.whitelistOffScheduled;
      if (book.whitelist.offAt !== null) return WALLET_MSG.whitelistOffScheduled;
      return before?.whitelist.offAt != null ? WALLET_MSG.whitelistOffCancelled : WALLET_MSG.whitelistOn;
  }
}

const loadNotProvided = fromPromise<AddressBook>(async () => {
  throw new Error("addressBookMachine: actor 'load' not provided");
});
const mutateNotProvided = fromPromise<AddressBook, BookRequest>(async () => {
  throw new Error("addressBookMachine: actor 'mutate' not provided");
});

export const addressBookMachine = setup({
  types: { context: {} as AddressBookContext, events: {} as AddressBookEvent },
  actors: { load: loadNotProvided, mutate: mutateNotProvided },
  guards: {
    draftOk: ({ context }) => Object.keys(checkAddressDraft(context.draft, context.book)).length === 0,
    renameOk: ({ context }) => context.renaming !== null && labelProblem(context.renaming.label) === null,
    deleteAsked: ({ context }) => context.deleting !== null,
    codeGiven: ({ context }) => (context.whitelist?.code.trim() ?? '') !== '',
    codeRefusal: ({ context, event }) => context.last === 'whitelist' && CODE_MSGS.includes(errOf(event)),
  },
  actions: {
    setCoin: assign(({ context, event }) => {
      if (event.type !== 'ab.coin') return {};
      const network = chainRule(event.coin, context.draft.network) ? context.draft.network : (['TRC20', 'ERC20', 'BEP20', 'Bitcoin'] as const).find((n) => chainRule(event.coin, n)) ?? 'TRC20';
      const draft = { ...context.draft, coin: event.coin, network };
      return { draft, errors: typedErrors(draft, context.book, context.errors), notice: null, error: null };
    }),
    setNetwork: assign(({ context, event }) => {
      if (event.type !== 'ab.network' || !chainRule(context.draft.coin, event.network)) return {};
      const draft = { ...context.draft, network: event.network };
      return { draft, errors: typedErrors(draft, context.book, context.errors), notice: null, error: null };
    }),
    setAddress: assign(({ context, event }) => {
      if (event.type !== 'ab.address') return {};
      const draft = { ...context.draft, address: event.value };
      return { draft, errors: typedErrors(draft, context.book, context.errors), notice: null, error: null };
    }),
    setLabel: assign(({ context, event }) => {
      if (event.type !== 'ab.label') return {};
      const draft = { ...context.draft, label: event.value };
      return { draft, errors: typedErrors(draft, context.book, context.errors), notice: null, error: null };
    }),
    showErrors: assign({ errors: ({ context }) => checkAddressDraft(context.draft, context.book) }),
    startRename: assign(({ context, event }) => {
      if (event.type !== 'ab.renameStart') return {};
      const row = context.book?.addresses.find((a) => a.id === event.id);
      return row ? { renaming: { id: row.id, label: row.label }, deleting: null, notice: null, error: null } : {};
    }),
    setRenameLabel: assign(({ context, event }) =>
      event.type === 'ab.renameLabel' && context.renaming ? { renaming: { id: context.renaming.id, label: event.value } } : {},
    ),
    renameError: assign(({ context }) => {
      if (!context.renaming) return {};
      const error = labelProblem(context.renaming.label);
      return { renaming: error ? { ...context.renaming, error } : { id: context.renaming.id, label: context.renaming.label } };
    }),
    cancelRename: assign({ renaming: null }),
    askDelete: assign(({ event }) => (event.type === 'ab.delete' ? { deleting: event.id, renaming: null, notice: null, error: null } : {})),
    cancelDelete: assign({ deleting: null }),
    askWhitelist: assign(({ event }) => (event.type === 'ab.whitelist' ? { whitelist: { enabled: event.enabled, code: '' }, notice: null, error: null } : {})),
    setCode: assign(({ context, event }) => (event.type === 'ab.code' && context.whitelist ? { whitelist: { ...context.whitelist, code: event.code }, error: null } : {})),
    codeMissing: assign({ error: WALLET_MSG.codeRequired }),
    cancelWhitelist: assign({ whitelist: null, error: null }),
    takeBook: assign({ book: ({ event }) => (event as unknown as { output: AddressBook }).output, loadError: null }),
    takeLoadError: assign({ loadError: ({ event }) => errOf(event) }),
    takeChange: assign(({ context, event }) => {
      const book = (event as unknown as { output: AddressBook }).output;
      const kind = context.last ?? 'add';
      return {
        book,
        notice: noticeOf(kind, book, context.book),
        error: null,
        draft: kind === 'add' ? { ...context.draft, address: '', label: '' } : context.draft,
        errors: {},
        renaming: null,
        deleting: null,
        whitelist: null,
      };
    }),
    takeError: assign(({ context, event }) => ({ error: errOf(event), whitelist: context.whitelist ? { ...context.whitelist, code: '' } : null })),
    dropWhitelist: assign({ whitelist: null }),
  },
}).createMachine({
  id: 'addressBook',
  context: {
    book: null, draft: DEFAULT_ADDRESS_DRAFT, errors: {}, renaming: null, deleting: null, whitelist: null,
    last: null, notice: null, error: null, loadError: null, requests: 0,
  },
  initial: 'loading',
  // The form takes typing in every state: an address typed while the book still loads (or while a
  // whitelist step or a save is open) is never dropped from the controlled field.
  on: {
    'ab.coin': { actions: 'setCoin' },
    'ab.network': { actions: 'setNetwork' },
    'ab.address': { actions: 'setAddress' },
    'ab.label': { actions: 'setLabel' },
  },
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: { target: 'ready', actions: 'takeBook' },
        onError: { target: 'loadFailed', actions: 'takeLoadError' },
      },
    },
    loadFailed: { on: { 'ab.retry': 'loading' } },
    ready: {
      on: {
        'ab.save': [
          { guard: 'draftOk', target: 'saving', actions: assign({ last: 'add' as const }) },
          { actions: 'showErrors' },
        ],
        'ab.renameStart': { actions: 'startRename' },
        'ab.renameLabel': { actions: 'setRenameLabel' },
        'ab.renameSave': [{ guard: 'renameOk', target: 'saving', actions: assign({ last: 'rename' as const }) }, { actions: 'renameError' }],
        'ab.renameCancel': { actions: 'cancelRename' },
        'ab.delete': { actions: 'askDelete' },
        'ab.deleteConfirm': { guard: 'deleteAsked', target: 'saving', actions: assign({ last: 'delete' as const }) },
        'ab.deleteCancel': { actions: 'cancelDelete' },
        'ab.whitelist': { target: 'whitelistStep', actions: 'askWhitelist' },
      },
    },
    whitelistStep: {
      on: {
        'ab.code': { actions: 'setCode' },
        'ab.confirm': [{ guard: 'codeGiven', target: 'saving', actions: assign({ last: 'whitelist' as const }) }, { actions: 'codeMissing' }],
        'ab.cancel': { target: 'ready', actions: 'cancelWhitelist' },
      },
    },
    saving: {
      entry: assign({ requests: ({ context }) => context.requests + 1, error: null, notice: null }),
      invoke: {
        src: 'mutate',
        input: ({ context }) => requestOf(context),
        onDone: { target: 'ready', actions: 'takeChange' },
        onError: [
          { guard: 'codeRefusal', target: 'whitelistStep', actions: 'takeError' },
          { target: 'ready', actions: ['takeError', 'dropWhitelist'] },
        ],
      },
    },
  },
});

/** The request of the change being sent, from the context (`last` says which). */
export function requestOf(context: AddressBookContext): BookRequest {
  switch (context.last) {
    case 'rename':
      return { kind: 'rename', id: context.renaming?.id ?? 0, label: (context.renaming?.label ?? '').trim() };
    case 'delete':
      return { kind: 'delete', id: context.deleting ?? 0 };
    case 'whitelist':
      return { kind: 'whitelist', enabled: context.whitelist?.enabled ?? false, code: (context.whitelist?.code ?? '').trim() };
    default:
      return { kind: 'add', coin: context.draft.coin, network: context.draft.network, address: context.draft.address.trim(), label: context.draft.label.trim() };
  }
}

export type AddressBookStateName = 'loading' | 'loadFailed' | 'ready' | 'whitelistStep' | 'saving';
