import { assign, fromPromise, setup } from 'xstate';
import { checkKycImage, isRejected, KYC_MSG, validateKycForm } from '../protocol/kyc.ts';
import type { KycFileInfo, KycFormErrors, KycFormValues, KycImageSlot, KycStatusDto, KycTextField } from '../protocol/kyc.ts';

/**
 * Identity verification on /my/settings/kyc (SPEC §3, §4, §5; docs/KYC.md):
 *
 * ```
 * loading ─ok→ unverified | rejected | review | verified        ─error→ loadFailed ─kyc.retry→ loading
 * unverified / rejected ─kyc.submit (form valid)→ submitting ─ok→ review
 *                       (invalid: errors shown, nothing sent)    └─error→ back to the form, input kept
 *                                                                 (already in review / verified → loading)
 * review ─kyc.frame verified→ verified      review ─kyc.frame rejected→ rejected (form prefilled, photos cleared)
 * ```
 *
 * Invariants (tests/property/kycMachine.prop.test.ts):
 * - one request per valid submit and never two in flight: `submitting` is entered only from the
 *   form with no validation error, and `kyc.submit` elsewhere does nothing;
 * - `verified` is reached only from a server answer (status, submit or a `kyc.frame` saying so),
 *   and once verified nothing moves it back;
 * - a failed submit returns to the form with every field and photo kept and the server msg shown;
 * - a photo that fails the SPEC §5 check (type, 8 MB) is never stored in the form.
 *
 * No globals: the two requests are the `fetchStatus` and `submit` actors the screen provides
 * (through the recorded Http port); the machine needs no timer.
 */

/** Photos as the machine holds them: anything with a name, type and size (a browser File). */
export type KycForm = KycFormValues<KycFileInfo>;

export interface KycContext {
  /** The latest status the server told us (null until the first answer). */
  status: KycStatusDto | null;
  form: KycForm;
  /** Inline messages per field (English KYC_MSG texts; the UI translates them). */
  errors: KycFormErrors;
  /** The server msg (or network message) of the last failed submit. */
  submitError: string | null;
  loadError: string | null;
  /** Submit requests started in this machine's life. */
  submits: number;
}

export type KycEvent =
  | { type: 'kyc.field'; field: KycTextField; value: string }
  | { type: 'kyc.file'; slot: KycImageSlot; file: KycFileInfo | null }
  | { type: 'kyc.submit' }
  | { type: 'kyc.frame'; status: KycStatusDto }
  | { type: 'kyc.retry' };

export const EMPTY_KYC_FORM: KycForm = { country: '', docType: '', firstName: '', lastName: '', docNumber: '', cover: null, info: null };

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
}

/** After a rejection: empty text fields take the rejected submission's values (the number is masked, so it stays as typed). */
export function prefillFrom(form: KycForm, status: KycStatusDto | null): KycForm {
  const l = status?.latest;
  if (!l) return form;
  return {
    ...form,
    country: form.country || l.country,
    docType: form.docType || l.docType,
    firstName: form.firstName || l.firstName,
    lastName: form.lastName || l.lastName,
  };
}

const fetchNotProvided = fromPromise<KycStatusDto>(async () => {
  throw new Error("kycMachine: actor 'fetchStatus' not provided");
});
const submitNotProvided = fromPromise<KycStatusDto, KycForm>(async () => {
  throw new Error("kycMachine: actor 'submit' not provided");
});

type Status = KycStatusDto['status'];
const statusIs = (s: KycStatusDto, st: Status) => s.status === st;
const frameOf = (e: KycEvent): KycStatusDto | null => (e.type === 'kyc.frame' ? e.status : null);
const outputOf = (e: unknown): KycStatusDto => (e as { output: KycStatusDto }).output;

/** Editing the form: the same in `unverified` and `rejected`. */
const editing = {
  'kyc.field': { actions: 'setField' },
  'kyc.file': { actions: 'setFile' },
  'kyc.submit': [{ guard: 'formValid', target: 'submitting' }, { actions: 'showErrors' }],
  'kyc.frame': [
    { guard: 'frameVerified', target: 'verified', actions: 'takeFrame' },
    { guard: 'frameReview', target: 'review', actions: 'takeFrame' },
    { guard: 'frameRejected', target: 'rejected', actions: 'takeFrame' },
    { actions: 'takeFrame' },
  ],
} as const;

export const kycMachine = setup({
  types: {
    context: {} as KycContext,
    events: {} as KycEvent,
  },
  actors: { fetchStatus: fetchNotProvided, submit: submitNotProvided },
  guards: {
    formValid: ({ context }) => Object.keys(validateKycForm(context.form)).length === 0,
    frameVerified: ({ event }) => frameOf(event)?.status === 'verified',
    frameReview: ({ event }) => frameOf(event)?.status === 'review',
    frameRejected: ({ event }) => {
      const s = frameOf(event);
      return s !== null && isRejected(s);
    },
    frameUnverified: ({ event }) => frameOf(event)?.status === 'unverified',
    answerVerified: ({ event }) => statusIs(outputOf(event), 'verified'),
    answerReview: ({ event }) => statusIs(outputOf(event), 'review'),
    answerRejected: ({ event }) => isRejected(outputOf(event)),
    /** The server says the state moved on (another tab submitted, or a reviewer decided): reload. */
    stateConflict: ({ event }) => {
      const msg = errorText((event as unknown as { error: unknown }).error);
      return msg === KYC_MSG.alreadyInReview || msg === KYC_MSG.alreadyVerified;
    },
    wasRejected: ({ context }) => context.status !== null && isRejected(context.status),
  },
  actions: {
    takeFrame: assign({ status: ({ context, event }) => frameOf(event) ?? context.status }),
    takeAnswer: assign({ status: ({ event }) => outputOf(event), loadError: null }),
    prefill: assign({ form: ({ context }) => prefillFrom(context.form, context.status) }),
    clearPhotos: assign({ form: ({ context }) => ({ ...context.form, cover: null, info: null }), errors: {} }),
    setField: assign(({ context, event }) => {
      if (event.type !== 'kyc.field') return {};
      const { [event.field]: _dropped, ...errors } = context.errors;
      void _dropped;
      return { form: { ...context.form, [event.field]: event.value }, errors, submitError: null };
    }),
    setFile: assign(({ context, event }) => {
      if (event.type !== 'kyc.file') return {};
      const { [event.slot]: _dropped, ...errors } = context.errors;
      void _dropped;
      const problem = event.file === null ? null : checkKycImage(event.file);
      if (problem !== null) return { form: { ...context.form, [event.slot]: null }, errors: { ...errors, [event.slot]: problem }, submitError: null };
      return { form: { ...context.form, [event.slot]: event.file }, errors, submitError: null };
    }),
    showErrors: assign({ errors: ({ context }) => validateKycForm(context.form) }),
    countSubmit: assign({ submits: ({ context }) => context.submits + 1, submitError: null, errors: {} }),
    takeSubmitError: assign({ submitError: ({ event }) => errorText((event as unknown as { error: unknown }).error) }),
    takeLoadError: assign({ loadError: ({ event }) => errorText((event as unknown as { error: unknown }).error) }),
  },
}).createMachine({
  id: 'kyc',
  context: { status: null, form: EMPTY_KYC_FORM, errors: {}, submitError: null, loadError: null, submits: 0 },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchStatus',
        onDone: [
          { guard: 'answerVerified', target: 'verified', actions: 'takeAnswer' },
          { guard: 'answerReview', target: 'review', actions: 'takeAnswer' },
          { guard: 'answerRejected', target: 'rejected', actions: ['takeAnswer', 'prefill'] },
          { target: 'unverified', actions: 'takeAnswer' },
        ],
        onError: { target: 'loadFailed', actions: 'takeLoadError' },
      },
    },
    loadFailed: {
      on: { 'kyc.retry': 'loading' },
    },
    unverified: { on: editing },
    rejected: { on: editing },
    submitting: {
      entry: 'countSubmit',
      invoke: {
        src: 'submit',
        input: ({ context }) => context.form,
        onDone: [
          { guard: 'answerVerified', target: 'verified', actions: 'takeAnswer' },
          { target: 'review', actions: 'takeAnswer' },
        ],
        onError: [
          { guard: 'stateConflict', target: 'loading', actions: 'takeSubmitError' },
          { guard: 'wasRejected', target: 'rejected', actions: 'takeSubmitError' },
          { target: 'unverified', actions: 'takeSubmitError' },
        ],
      },
      on: {
        // The server accepted (its frame can beat the HTTP answer): follow it. Older frames are stale here.
        'kyc.frame': [
          { guard: 'frameVerified', target: 'verified', actions: 'takeFrame' },
          { guard: 'frameReview', target: 'review', actions: 'takeFrame' },
        ],
      },
    },
    review: {
      on: {
        'kyc.frame': [
          { guard: 'frameVerified', target: 'verified', actions: 'takeFrame' },
          { guard: 'frameRejected', target: 'rejected', actions: ['takeFrame', 'clearPhotos', 'prefill'] },
          { guard: 'frameUnverified', target: 'unverified', actions: ['takeFrame', 'clearPhotos'] },
          { actions: 'takeFrame' },
        ],
      },
    },
    /** Terminal for the account: nothing the client hears moves it back. */
    verified: {},
  },
});

export type KycStateName = 'loading' | 'loadFailed' | 'unverified' | 'rejected' | 'submitting' | 'review' | 'verified';
