import { assign, fromPromise, setup } from 'xstate';
import { copyApplyBody, copyFollowBody } from '../protocol/copy.ts';
import type { CopyApplication, CopyFollow, CopyMode } from '../protocol/copy.ts';

/**
 * The copy-trading lifecycles (issue 15; docs/COPY.md "Client"), owned by the core like every
 * screen machine (src/core/screenMachines.ts): their events go to the event log as `screen:<name>`
 * intents. Requests are actors the core provides (through the recorded Http port); no timers.
 *
 * followMachine (/copy and a trader's page, the follow dialog):
 * ```
 * idle ─follow.open(trader)→ editing ─follow.submit (form valid)→ submitting ─ok→ done ─follow.close→ idle
 *        ▲                   │ follow.edit: field changes, errors recomputed   └─error→ editing (server msg)
 *        └──── follow.close ─┘ (invalid submit: errors shown, nothing sent)
 * ```
 * unfollowMachine (the unfollow dialog):
 * ```
 * idle ─unfollow.open(follow)→ choosing ─unfollow.choose(close|keep)→ choosing ─unfollow.confirm→ submitting ─ok→ done ─unfollow.close→ idle
 *                                                                                              └─error→ choosing (server msg)
 * ```
 * applyMachine (the trader application, trader_apply):
 * ```
 * loading ─ok→ none | review | approved | rejected     ─error→ loadFailed ─apply.retry→ loading
 * none / rejected ─apply.submit (valid)→ submitting ─ok→ review    └─error→ back, input kept, server msg
 * review ─apply.frame(approved | rejected)→ approved | rejected
 * ```
 * Invariants (tests/property/copyMachines.prop.test.ts): a request leaves only on a valid submit
 * (confirm), one per submit, never two in flight, carrying exactly the form shown; a failure
 * returns to the form with the input kept and the message; `approved` only from the server.
 */

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
}

// ------------------------------------------------------------------ follow

export interface FollowForm {
  amount: string;
  from: 'fund' | 'perp';
  mode: CopyMode;
  ratio: string;
  fixedAmount: string;
  maxPerOrder: string;
  stopLoss: string;
}

export type FollowField = keyof FollowForm;

export const EMPTY_FOLLOW_FORM: FollowForm = { amount: '', from: 'fund', mode: 'ratio', ratio: '1', fixedAmount: '', maxPerOrder: '', stopLoss: '' };

/** What POST /copy/follow is sent for a form (empty optional fields left out). */
export interface FollowRequest extends Partial<FollowForm> {
  traderId: number;
}

export function followRequest(traderId: number, f: FollowForm): FollowRequest {
  const out: FollowRequest = { traderId, amount: f.amount.trim(), from: f.from, mode: f.mode };
  if (f.mode === 'ratio') out.ratio = f.ratio.trim();
  else out.fixedAmount = f.fixedAmount.trim();
  if (f.maxPerOrder.trim()) out.maxPerOrder = f.maxPerOrder.trim();
  if (f.stopLoss.trim()) out.stopLoss = f.stopLoss.trim();
  return out;
}

/** Field → message (COPY_MSG English text; the UI translates), from the shared zod schema. */
export function followErrors(traderId: number, f: FollowForm): Partial<Record<FollowField, string>> {
  const r = copyFollowBody.safeParse(followRequest(traderId, f));
  if (r.success) return {};
  const out: Partial<Record<FollowField, string>> = {};
  for (const issue of r.error.issues) {
    const k = issue.path[0] as FollowField | undefined;
    if (k && !(k in out)) out[k] = issue.message;
  }
  return out;
}

export interface FollowTarget {
  id: number;
  nickname: string;
}

export interface FollowContext {
  trader: FollowTarget | null;
  form: FollowForm;
  errors: Partial<Record<FollowField, string>>;
  /** Show errors only after the first submit attempt (or on fields the user left). */
  touched: boolean;
  error: string | null;
  result: CopyFollow | null;
  submits: number;
}

export type FollowEvent =
  | { type: 'follow.open'; trader: FollowTarget }
  | { type: 'follow.edit'; field: FollowField; value: string }
  | { type: 'follow.submit' }
  | { type: 'follow.close' };

const followNotProvided = fromPromise<CopyFollow, FollowRequest>(async () => {
  throw new Error("followMachine: actor 'follow' not provided");
});

const followCleared = (): FollowContext => ({ trader: null, form: { ...EMPTY_FOLLOW_FORM }, errors: {}, touched: false, error: null, result: null, submits: 0 });

function edited(form: FollowForm, field: FollowField, value: string): FollowForm {
  if (field === 'mode') return { ...form, mode: value === 'fixed' ? 'fixed' : 'ratio' };
  if (field === 'from') return { ...form, from: value === 'perp' ? 'perp' : 'fund' };
  return { ...form, [field]: value };
}

export const followMachine = setup({
  types: { context: {} as FollowContext, events: {} as FollowEvent },
  actors: { follow: followNotProvided },
  guards: {
    valid: ({ context }) => context.trader !== null && Object.keys(followErrors(context.trader.id, context.form)).length === 0,
  },
  actions: {
    open: assign(({ event }) => (event.type === 'follow.open' ? { ...followCleared(), trader: event.trader } : {})),
    edit: assign(({ context, event }) => {
      if (event.type !== 'follow.edit') return {};
      const form = edited(context.form, event.field, event.value);
      return { form, errors: context.trader ? followErrors(context.trader.id, form) : {}, error: null };
    }),
    showErrors: assign(({ context }) => ({ touched: true, errors: context.trader ? followErrors(context.trader.id, context.form) : {} })),
    count: assign(({ context }) => ({ submits: context.submits + 1, error: null })),
    takeDone: assign({ result: ({ event }) => (event as unknown as { output: CopyFollow }).output }),
    takeError: assign({ error: ({ event }) => errorText((event as unknown as { error: unknown }).error) }),
    reset: assign(() => followCleared()),
  },
}).createMachine({
  id: 'copyFollow',
  context: followCleared,
  initial: 'idle',
  states: {
    idle: { on: { 'follow.open': { target: 'editing', actions: 'open' } } },
    editing: {
      on: {
        'follow.edit': { actions: 'edit' },
        'follow.submit': [{ guard: 'valid', target: 'submitting' }, { actions: 'showErrors' }],
        'follow.close': { target: 'idle', actions: 'reset' },
        'follow.open': { target: 'editing', actions: 'open', reenter: true },
      },
    },
    submitting: {
      entry: 'count',
      invoke: {
        src: 'follow',
        input: ({ context }) => followRequest(context.trader?.id ?? 0, context.form),
        onDone: { target: 'done', actions: 'takeDone' },
        onError: { target: 'editing', actions: 'takeError' },
      },
    },
    done: { on: { 'follow.close': { target: 'idle', actions: 'reset' }, 'follow.open': { target: 'editing', actions: 'open' } } },
  },
});

// ------------------------------------------------------------------ unfollow

export interface UnfollowTarget {
  followId: number;
  nickname: string;
  openPositions: number;
}

export interface UnfollowRequest {
  followId: number;
  closePositions: boolean;
}

export interface UnfollowContext {
  target: UnfollowTarget | null;
  closePositions: boolean;
  error: string | null;
  result: CopyFollow | null;
  submits: number;
}

export type UnfollowEvent =
  | { type: 'unfollow.open'; target: UnfollowTarget }
  | { type: 'unfollow.choose'; closePositions: boolean }
  | { type: 'unfollow.confirm' }
  | { type: 'unfollow.close' };

const unfollowNotProvided = fromPromise<CopyFollow, UnfollowRequest>(async () => {
  throw new Error("unfollowMachine: actor 'unfollow' not provided");
});

const unfollowCleared = (): UnfollowContext => ({ target: null, closePositions: true, error: null, result: null, submits: 0 });

export const unfollowMachine = setup({
  types: { context: {} as UnfollowContext, events: {} as UnfollowEvent },
  actors: { unfollow: unfollowNotProvided },
  actions: {
    open: assign(({ event }) => (event.type === 'unfollow.open' ? { ...unfollowCleared(), target: event.target } : {})),
    choose: assign(({ event }) => (event.type === 'unfollow.choose' ? { closePositions: event.closePositions, error: null } : {})),
    count: assign(({ context }) => ({ submits: context.submits + 1, error: null })),
    takeDone: assign({ result: ({ event }) => (event as unknown as { output: CopyFollow }).output }),
    takeError: assign({ error: ({ event }) => errorText((event as unknown as { error: unknown }).error) }),
    reset: assign(() => unfollowCleared()),
  },
}).createMachine({
  id: 'copyUnfollow',
  context: unfollowCleared,
  initial: 'idle',
  states: {
    idle: { on: { 'unfollow.open': { target: 'choosing', actions: 'open' } } },
    choosing: {
      on: {
        'unfollow.choose': { actions: 'choose' },
        'unfollow.confirm': { target: 'submitting' },
        'unfollow.close': { target: 'idle', actions: 'reset' },
      },
    },
    submitting: {
      entry: 'count',
      invoke: {
        src: 'unfollow',
        input: ({ context }) => ({ followId: context.target?.followId ?? 0, closePositions: context.closePositions }),
        onDone: { target: 'done', actions: 'takeDone' },
        onError: { target: 'choosing', actions: 'takeError' },
      },
    },
    done: { on: { 'unfollow.close': { target: 'idle', actions: 'reset' } } },
  },
});

// ------------------------------------------------------------------ trader application

export interface ApplyForm {
  nickname: string;
  experience: string;
}

export type ApplyField = keyof ApplyForm;

export function applyErrors(f: ApplyForm): Partial<Record<ApplyField, string>> {
  const r = copyApplyBody.safeParse(f);
  if (r.success) return {};
  const out: Partial<Record<ApplyField, string>> = {};
  for (const issue of r.error.issues) {
    const k = issue.path[0] as ApplyField | undefined;
    if (k && !(k in out)) out[k] = issue.message;
  }
  return out;
}

export interface ApplyContext {
  application: CopyApplication | null;
  form: ApplyForm;
  errors: Partial<Record<ApplyField, string>>;
  error: string | null;
  submits: number;
}

export type ApplyEvent =
  | { type: 'apply.edit'; field: ApplyField; value: string }
  | { type: 'apply.submit' }
  | { type: 'apply.frame'; application: CopyApplication }
  | { type: 'apply.retry' };

const fetchApplicationNotProvided = fromPromise<CopyApplication | null>(async () => {
  throw new Error("applyMachine: actor 'fetchApplication' not provided");
});
const applyNotProvided = fromPromise<CopyApplication, ApplyForm>(async () => {
  throw new Error("applyMachine: actor 'apply' not provided");
});

type AppStatus = CopyApplication['status'];
const statusIs = (a: CopyApplication | null, s: AppStatus) => a?.status === s;

export const applyMachine = setup({
  types: { context: {} as ApplyContext, events: {} as ApplyEvent },
  actors: { fetchApplication: fetchApplicationNotProvided, apply: applyNotProvided },
  guards: {
    valid: ({ context }) => Object.keys(applyErrors(context.form)).length === 0,
    isReview: ({ context }) => statusIs(context.application, 'review'),
    isApproved: ({ context }) => statusIs(context.application, 'approved'),
    isRejected: ({ context }) => statusIs(context.application, 'rejected'),
    frameApproved: ({ event }) => event.type === 'apply.frame' && event.application.status === 'approved',
    frameRejected: ({ event }) => event.type === 'apply.frame' && event.application.status === 'rejected',
  },
  actions: {
    takeApplication: assign({ application: ({ event }) => (event as unknown as { output: CopyApplication | null }).output }),
    takeFrame: assign({ application: ({ event, context }) => (event.type === 'apply.frame' ? event.application : context.application) }),
    edit: assign(({ context, event }) => {
      if (event.type !== 'apply.edit') return {};
      const form = { ...context.form, [event.field]: event.value };
      return { form, errors: Object.keys(context.errors).length > 0 ? applyErrors(form) : {}, error: null };
    }),
    showErrors: assign(({ context }) => ({ errors: applyErrors(context.form) })),
    count: assign(({ context }) => ({ submits: context.submits + 1, error: null })),
    takeError: assign({ error: ({ event }) => errorText((event as unknown as { error: unknown }).error) }),
  },
}).createMachine({
  id: 'copyApply',
  context: { application: null, form: { nickname: '', experience: '' }, errors: {}, error: null, submits: 0 },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchApplication',
        onDone: { target: 'route', actions: 'takeApplication' },
        onError: { target: 'loadFailed', actions: 'takeError' },
      },
    },
    loadFailed: { on: { 'apply.retry': 'loading' } },
    route: {
      always: [
        { guard: 'isReview', target: 'review' },
        { guard: 'isApproved', target: 'approved' },
        { guard: 'isRejected', target: 'rejected' },
        { target: 'none' },
      ],
    },
    none: {
      on: {
        'apply.edit': { actions: 'edit' },
        'apply.submit': [{ guard: 'valid', target: 'submitting' }, { actions: 'showErrors' }],
      },
    },
    rejected: {
      on: {
        'apply.edit': { actions: 'edit' },
        'apply.submit': [{ guard: 'valid', target: 'submitting' }, { actions: 'showErrors' }],
      },
    },
    submitting: {
      entry: 'count',
      invoke: {
        src: 'apply',
        input: ({ context }) => ({ nickname: context.form.nickname.trim(), experience: context.form.experience.trim() }),
        onDone: { target: 'review', actions: 'takeApplication' },
        onError: { target: 'route', actions: 'takeError' },
      },
    },
    review: {
      on: {
        'apply.frame': [
          { guard: 'frameApproved', target: 'approved', actions: 'takeFrame' },
          { guard: 'frameRejected', target: 'rejected', actions: 'takeFrame' },
        ],
      },
    },
    approved: {},
  },
});

export type ApplyStateName = 'loading' | 'loadFailed' | 'route' | 'none' | 'rejected' | 'submitting' | 'review' | 'approved';
