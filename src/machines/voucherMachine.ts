import { assign, fromPromise, setup } from 'xstate';
import { MERGE_MAX, MERGE_MIN } from '../protocol/vouchers.ts';
import type { Voucher, VoucherKind } from '../protocol/vouchers.ts';

/**
 * The merge flow of /my/coupon (SPEC §3/§4: 2..10 usable vouchers of one kind become one):
 *
 * ```
 * browsing ─merge.start(kind)→ selecting ─merge.confirm (≥2)→ confirming ─merge.submit→ merging ─ok→ done ─merge.close→ browsing
 *    ▲                          │ merge.toggle(voucher)         │ merge.back → selecting   └─rejected→ failed ─merge.submit→ merging
 *    └──────── merge.cancel ────┴───────────────────────────────┴──────────────────────────────────────┘ (merge.cancel)
 * ```
 *
 * Invariants (tests/property/voucherMachine.prop.test.ts):
 * - the selection only ever holds distinct usable (`use`) vouchers of the selection's kind, at most
 *   {@link MERGE_MAX}; a `voucher.frame` saying a selected voucher changed (used elsewhere, expired)
 *   drops it, and confirming falls back to selecting when fewer than {@link MERGE_MIN} remain;
 * - `merging` is entered only with MERGE_MIN..MERGE_MAX selected, one request per submit (clicks
 *   while merging send nothing), and the request carries exactly the selected ids;
 * - a rejection keeps the server msg (`error`); success keeps the new voucher (`result`).
 *
 * No globals: the request is the `merge` actor the screen provides (through the recorded Http port).
 */

export interface VoucherMachineContext {
  /** The kind being merged (the active tab when merge mode started); null while browsing. */
  kind: VoucherKind | null;
  selected: Voucher[];
  /** The merged voucher after success. */
  result: Voucher | null;
  /** The server msg of the last rejection (or the network message). */
  error: string | null;
  /** Merge requests sent since merge mode started. */
  attempts: number;
}

export type VoucherMachineEvent =
  | { type: 'merge.start'; kind: VoucherKind }
  | { type: 'merge.toggle'; voucher: Voucher }
  | { type: 'merge.confirm' }
  | { type: 'merge.back' }
  | { type: 'merge.submit' }
  | { type: 'merge.cancel' }
  | { type: 'merge.close' }
  | { type: 'voucher.frame'; voucher: Voucher };

/** What the screen's `merge` actor sends (POST /vouchers/merge). */
export interface MergeRequest {
  ids: number[];
}

/** True when `v` may join a selection of `kind`: usable, same kind. */
export function selectable(kind: VoucherKind | null, v: Voucher): boolean {
  return kind !== null && v.kind === kind && v.status === 'use';
}

/** True when the selection can be merged (a count in MERGE_MIN..MERGE_MAX). */
export function mergeable(selected: readonly Voucher[]): boolean {
  return selected.length >= MERGE_MIN && selected.length <= MERGE_MAX;
}

/** Toggles `v` in the selection, refusing what is not selectable and anything past MERGE_MAX. */
export function toggleSelection(kind: VoucherKind | null, selected: readonly Voucher[], v: Voucher): Voucher[] {
  if (selected.some((s) => s.id === v.id)) return selected.filter((s) => s.id !== v.id);
  if (!selectable(kind, v) || selected.length >= MERGE_MAX) return [...selected];
  return [...selected, v];
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
}

const mergeNotProvided = fromPromise<Voucher, MergeRequest>(async () => {
  throw new Error("voucherMachine: actor 'merge' not provided");
});

const cleared = { kind: null, selected: [], result: null, error: null, attempts: 0 };

export const voucherMachine = setup({
  types: {
    context: {} as VoucherMachineContext,
    events: {} as VoucherMachineEvent,
  },
  actors: { merge: mergeNotProvided },
  guards: {
    mergeable: ({ context }) => mergeable(context.selected),
    tooFew: ({ context }) => !mergeable(context.selected),
  },
  actions: {
    start: assign(({ event }) => (event.type === 'merge.start' ? { ...cleared, kind: event.kind } : {})),
    toggle: assign({
      selected: ({ context, event }) => (event.type === 'merge.toggle' ? toggleSelection(context.kind, context.selected, event.voucher) : context.selected),
    }),
    takeFrame: assign({
      selected: ({ context, event }) => {
        if (event.type !== 'voucher.frame') return context.selected;
        const v = event.voucher;
        if (!context.selected.some((s) => s.id === v.id)) return context.selected;
        return selectable(context.kind, v) ? context.selected.map((s) => (s.id === v.id ? v : s)) : context.selected.filter((s) => s.id !== v.id);
      },
    }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1, error: null }),
    takeDone: assign({ result: ({ event }) => (event as unknown as { output: Voucher }).output, selected: [], error: null }),
    takeError: assign({ error: ({ event }) => errorText((event as unknown as { error: unknown }).error) }),
    reset: assign(() => ({ ...cleared })),
  },
}).createMachine({
  id: 'vouchers',
  context: { ...cleared },
  initial: 'browsing',
  states: {
    browsing: {
      on: { 'merge.start': { target: 'selecting', actions: 'start' } },
    },
    selecting: {
      on: {
        'merge.toggle': { actions: 'toggle' },
        'voucher.frame': { actions: 'takeFrame' },
        'merge.confirm': { guard: 'mergeable', target: 'confirming' },
        'merge.start': { target: 'selecting', actions: 'start', reenter: true },
        'merge.cancel': { target: 'browsing', actions: 'reset' },
      },
    },
    confirming: {
      always: { guard: 'tooFew', target: 'selecting' },
      on: {
        'voucher.frame': { actions: 'takeFrame' },
        'merge.submit': { guard: 'mergeable', target: 'merging' },
        'merge.back': { target: 'selecting' },
        'merge.cancel': { target: 'browsing', actions: 'reset' },
      },
    },
    merging: {
      entry: 'countAttempt',
      invoke: {
        src: 'merge',
        input: ({ context }) => ({ ids: context.selected.map((v) => v.id) }),
        onDone: { target: 'done', actions: 'takeDone' },
        onError: { target: 'failed', actions: 'takeError' },
      },
    },
    failed: {
      always: { guard: 'tooFew', target: 'selecting' },
      on: {
        'voucher.frame': { actions: 'takeFrame' },
        'merge.submit': { guard: 'mergeable', target: 'merging' },
        'merge.back': { target: 'selecting' },
        'merge.cancel': { target: 'browsing', actions: 'reset' },
      },
    },
    done: {
      on: {
        'merge.close': { target: 'browsing', actions: 'reset' },
        'merge.cancel': { target: 'browsing', actions: 'reset' },
        'merge.start': { target: 'selecting', actions: 'start' },
      },
    },
  },
});

export type VoucherStateName = 'browsing' | 'selecting' | 'confirming' | 'merging' | 'failed' | 'done';
