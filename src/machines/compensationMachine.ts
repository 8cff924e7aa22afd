import { assign, fromPromise, setup } from 'xstate';
import { ACTION_STATUSES } from '../protocol/compensation.ts';
import type { CompensationAction, CompensationOrder } from '../protocol/compensation.ts';
import { KYC_REQUIRED_MSG } from '../protocol/user.ts';

/**
 * The action flow of one compensation order on /my/compensation/orders (SPEC §4: claim, boost,
 * withdraw), one dialog at a time:
 *
 * ```
 * idle ─comp.open(order, action)→ confirming ─comp.confirm→ submitting ─ok→ done ─after resultHold→ idle
 *   ▲                               │  comp.voucher (choose / clear)      └─rejected→ failed ─comp.confirm→ submitting
 *   └────────── comp.cancel ────────┘                                               └─comp.cancel→ idle
 * ```
 *
 * Invariants (tests/property/compensationMachine.prop.test.ts):
 * - `submitting` is entered only from `confirming` / `failed` and only when the action is allowed
 *   for the order's current status, and a boost always carries a voucher: one request per confirm,
 *   repeated clicks while submitting send nothing;
 * - a `comp.frame` for the order in the dialog always replaces it (the latest server state wins),
 *   so a confirm after the order moved on (e.g. paid out) is refused locally;
 * - a rejection keeps the server msg; the KYC message sets `kycRequired` so the UI can link to
 *   identity verification.
 *
 * No globals: the request is the `submit` actor provided by the screen (through the recorded Http
 * port) and the only timer is the named `resultHold` delay on the clock given to `createActor`.
 */

/** How long the success state stays before the dialog resets. */
export const COMPENSATION_RESULT_HOLD_MS = 2500;

/** What the screen's `submit` actor sends. */
export interface CompensationRequest {
  action: CompensationAction;
  id: number;
  voucherId?: number;
}

export interface CompensationContext {
  order: CompensationOrder | null;
  action: CompensationAction | null;
  voucherId: number | null;
  /** The server msg of the last rejection (or the network message). */
  error: string | null;
  kycRequired: boolean;
  /** Requests sent for the current dialog (1 + retries). */
  attempts: number;
}

export type CompensationEvent =
  | { type: 'comp.open'; order: CompensationOrder; action: CompensationAction; voucherId?: number | null }
  | { type: 'comp.voucher'; voucherId: number | null }
  | { type: 'comp.confirm' }
  | { type: 'comp.cancel' }
  | { type: 'comp.frame'; order: CompensationOrder };

/** True when `action` may be sent for `order` now (its status allows it; a boost has a voucher). */
export function canSubmit(order: CompensationOrder | null, action: CompensationAction | null, voucherId: number | null): boolean {
  if (!order || !action) return false;
  if (!ACTION_STATUSES[action].includes(order.status)) return false;
  return action !== 'boost' || voucherId !== null;
}

/** The request for the dialog's current choice (withdraw never carries a voucher). */
export function requestOf(ctx: CompensationContext): CompensationRequest {
  const req: CompensationRequest = { action: ctx.action ?? 'claim', id: ctx.order?.id ?? 0 };
  if (ctx.voucherId !== null && ctx.action !== 'withdraw') req.voucherId = ctx.voucherId;
  return req;
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
}

const submitNotProvided = fromPromise<CompensationOrder, CompensationRequest>(async () => {
  throw new Error("compensationMachine: actor 'submit' not provided");
});

const closed = { order: null, action: null, voucherId: null, error: null, kycRequired: false, attempts: 0 } as const;

export const compensationMachine = setup({
  types: {
    context: {} as CompensationContext,
    events: {} as CompensationEvent,
  },
  actors: { submit: submitNotProvided },
  delays: { resultHold: COMPENSATION_RESULT_HOLD_MS },
  guards: {
    openable: ({ event }) => event.type === 'comp.open' && ACTION_STATUSES[event.action].includes(event.order.status),
    submittable: ({ context }) => canSubmit(context.order, context.action, context.voucherId),
  },
  actions: {
    open: assign(({ event }) =>
      event.type === 'comp.open'
        ? { ...closed, order: event.order, action: event.action, voucherId: event.action === 'withdraw' ? null : (event.voucherId ?? null) }
        : {},
    ),
    chooseVoucher: assign({ voucherId: ({ context, event }) => (event.type === 'comp.voucher' && context.action !== 'withdraw' ? event.voucherId : context.voucherId) }),
    takeFrame: assign({
      order: ({ context, event }) => (event.type === 'comp.frame' && context.order !== null && event.order.id === context.order.id ? event.order : context.order),
    }),
    takeDone: assign({ order: ({ event }) => (event as unknown as { output: CompensationOrder }).output, error: null, kycRequired: false }),
    takeError: assign(({ event }) => {
      const msg = errorText((event as unknown as { error: unknown }).error);
      return { error: msg, kycRequired: msg === KYC_REQUIRED_MSG };
    }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1, error: null, kycRequired: false }),
    reset: assign(() => ({ ...closed })),
  },
}).createMachine({
  id: 'compensation',
  context: { ...closed },
  initial: 'idle',
  on: { 'comp.frame': { actions: 'takeFrame' } },
  states: {
    idle: {
      on: { 'comp.open': { guard: 'openable', target: 'confirming', actions: 'open' } },
    },
    confirming: {
      on: {
        'comp.voucher': { actions: 'chooseVoucher' },
        'comp.confirm': { guard: 'submittable', target: 'submitting' },
        'comp.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    submitting: {
      entry: 'countAttempt',
      invoke: {
        src: 'submit',
        input: ({ context }) => requestOf(context),
        onDone: { target: 'done', actions: 'takeDone' },
        onError: { target: 'failed', actions: 'takeError' },
      },
    },
    failed: {
      on: {
        'comp.voucher': { actions: 'chooseVoucher' },
        'comp.confirm': { guard: 'submittable', target: 'submitting' },
        'comp.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    done: {
      after: { resultHold: { target: 'idle', actions: 'reset' } },
      on: {
        'comp.cancel': { target: 'idle', actions: 'reset' },
        'comp.open': { guard: 'openable', target: 'confirming', actions: 'open' },
      },
    },
  },
});

export type CompensationStateName = 'idle' | 'confirming' | 'submitting' | 'failed' | 'done';
