import { assign, emit, fromPromise, setup } from 'xstate';
import { fromUnits, percentQty, qtyUnitsOf, scaledOf, toUnits, type ClosePercent } from '../protocol/positionMath.ts';
import type { Order, Position } from '../protocol/trading.ts';

/**
 * Closing positions from the trade screen's account panel (issue 14; docs/TRADE_UI.md):
 *
 * ```
 * idle ─close.open (quick, confirmation off)→ submitting
 * idle ─close.open→ editing ─close.confirm (form ok)→ submitting ─done→ idle (emits closed)
 *                   │  close.mode/qty/pct/price/dontAsk       └─error→ editing (dialog) | idle (quick), emits closeFailed
 *                   └─close.cancel→ idle
 * idle ─closeAll.open (confirmation off)→ submittingAll ─done→ idle (emits closedAll)
 * idle ─closeAll.open→ confirmingAll ─closeAll.confirm→ submittingAll   └─error→ idle (emits closeFailed)
 *                                     └─closeAll.cancel→ idle
 * ```
 *
 * The dialog is the confirmation: it shows the quantity, the estimated price (mark for a market
 * close, the limit price) and the estimated PnL. 'Do not ask again' (`close.dontAsk` /
 * `closeAll.dontAsk`) is saved on confirm through the `savePref` action the core provides (the
 * storage port, per user); the `confirmClose` / `confirmCloseAll` guards read it back.
 *
 * Invariants (tests/property/closeMachine.prop.test.ts): a close request is sent at most once per
 * confirm and never two at once; the quantity sent is on the step and never above the position
 * (the whole position is sent without a quantity); a limit close always carries a price on the tick.
 */

/** The instrument figures the dialog needs (from SymbolInfo). */
export interface CloseRules {
  qtyPrecision: number;
  qtyStep: number;
  minOrderQuantity: number;
  pricePrecision: number;
  tickSize: number;
}

export type CloseMode = 'market' | 'limit';

/** What the core sends: no qty = the whole position; price = a limit close. Decimal strings. */
export interface CloseRequest {
  positionId: string;
  clientOrderId: string;
  qty?: string;
  price?: string;
}

/** Client-side refusals (i18n keys in the positions namespace). */
export type CloseProblem = 'qtyRequired' | 'qtyTooLarge' | 'qtyMin' | 'qtyStep' | 'priceRequired' | 'priceTick' | 'noPosition';

export interface CloseContext {
  newId: () => string;
  position: Position | null;
  rules: CloseRules | null;
  mode: CloseMode;
  qty: string;
  pct: ClosePercent | null;
  price: string;
  dontAsk: boolean;
  /** Whether the dialog is shown (false for a quick close with confirmations off). */
  dialog: boolean;
  problem: CloseProblem | null;
  serverError: string | null;
  /** Requests started (close and close-all). */
  sends: number;
  /** The id of the request in flight (or the last one). */
  clientOrderId: string | null;
  /** Positions a close-all confirmation is about. */
  allCount: number;
}

export type CloseEvent =
  | { type: 'close.open'; position: Position; rules: CloseRules; quick: boolean }
  /** Derived: the live position (mark, PnL, size) while the dialog is open. */
  | { type: 'close.position'; position: Position | null }
  | { type: 'close.mode'; mode: CloseMode }
  | { type: 'close.qty'; text: string }
  | { type: 'close.pct'; pct: ClosePercent }
  | { type: 'close.price'; text: string }
  | { type: 'close.dontAsk'; on: boolean }
  | { type: 'close.confirm' }
  | { type: 'close.cancel' }
  | { type: 'closeAll.open'; count: number }
  | { type: 'closeAll.dontAsk'; on: boolean }
  | { type: 'closeAll.confirm' }
  | { type: 'closeAll.cancel' };

export type CloseEmitted =
  | { type: 'closed'; order: Order; position: Position; request: CloseRequest }
  | { type: 'closedAll'; orders: Order[] }
  | { type: 'closeFailed'; msg: string };

export interface CloseInput {
  newId: () => string;
}

const stepUnits = (r: CloseRules) => toUnits(r.qtyStep, r.qtyPrecision) ?? 1n;
const posUnits = (p: Position, r: CloseRules) => toUnits(p.qty, r.qtyPrecision) ?? 0n;

/** The quantity field for `pct` % of the position (exact, on the step). */
export function pctText(p: Position, r: CloseRules, pct: number): string {
  return fromUnits(percentQty(posUnits(p, r), pct, stepUnits(r)), r.qtyPrecision);
}

/** The mark price as the limit field's starting text, on the tick's precision. */
export function markText(p: Position, r: CloseRules): string {
  return p.markPrice.toFixed(r.pricePrecision);
}

/** Why the form may not be sent, or null (then {@link closeRequestOf} gives the request). */
export function checkClose(c: Pick<CloseContext, 'position' | 'rules' | 'mode' | 'qty' | 'price'>): CloseProblem | null {
  const { position: p, rules: r } = c;
  if (!p || !r) return 'noPosition';
  const units = qtyUnitsOf(c.qty, r.qtyPrecision);
  if (units === null) {
    // A positive quantity finer than the instrument's precision (0.0001 BTC): below the minimum or off the step (issue 26).
    const exact = scaledOf(c.qty.trim());
    if (!/^\d+(\.\d+)?$/.test(c.qty.trim()) || exact === null || exact <= 0n) return 'qtyRequired';
    const min = scaledOf(r.minOrderQuantity);
    return min !== null && exact < min ? 'qtyMin' : 'qtyStep';
  }
  if (units <= 0n) return 'qtyRequired';
  const whole = posUnits(p, r);
  if (units > whole) return 'qtyTooLarge';
  if (units !== whole) {
    const min = toUnits(r.minOrderQuantity, r.qtyPrecision) ?? 0n;
    if (units < min) return 'qtyMin';
    if (units % stepUnits(r) !== 0n) return 'qtyStep';
  }
  if (c.mode === 'limit') {
    const t = c.price.trim();
    if (t === '' || !/^\d+(\.\d+)?$/.test(t) || Number(t) <= 0) return 'priceRequired';
    const px = toUnits(t, r.pricePrecision);
    const tick = toUnits(r.tickSize, r.pricePrecision) ?? 1n;
    if (px === null || (tick > 0n && px % tick !== 0n)) return 'priceTick';
  }
  return null;
}

/** The request of a checked form: the whole position goes without a quantity (the server closes exactly all). */
export function closeRequestOf(c: Pick<CloseContext, 'position' | 'rules' | 'mode' | 'qty' | 'price'>, clientOrderId: string): CloseRequest {
  const p = c.position as Position;
  const r = c.rules as CloseRules;
  const units = qtyUnitsOf(c.qty, r.qtyPrecision) ?? 0n;
  const req: CloseRequest = { positionId: p.id, clientOrderId };
  if (units !== posUnits(p, r)) req.qty = fromUnits(units, r.qtyPrecision);
  if (c.mode === 'limit') req.price = fromUnits(toUnits(c.price.trim(), r.pricePrecision) ?? 0n, r.pricePrecision);
  return req;
}

const errText = (e: unknown): string => {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') return (e as { msg: string }).msg || 'Error';
  return 'Error';
};

const closeNotProvided = fromPromise<Order, CloseRequest>(async () => {
  throw new Error("closeMachine: actor 'close' not provided");
});
const closeAllNotProvided = fromPromise<Order[], void>(async () => {
  throw new Error("closeMachine: actor 'closeAll' not provided");
});

const EMPTY_FORM = { position: null, rules: null, mode: 'market' as CloseMode, qty: '', pct: null, price: '', dontAsk: false, problem: null, serverError: null };

export const closeMachine = setup({
  types: { context: {} as CloseContext, events: {} as CloseEvent, input: {} as CloseInput, emitted: {} as CloseEmitted },
  actors: { close: closeNotProvided, closeAll: closeAllNotProvided },
  guards: {
    /** Provided by the core from the user's preferences: whether a close asks first. */
    confirmClose: () => true,
    confirmCloseAll: () => true,
    quick: ({ event }) => event.type === 'close.open' && event.quick,
    formOk: ({ context }) => checkClose(context) === null,
    hasPositions: ({ event }) => event.type === 'closeAll.open' && event.count > 0,
  },
  actions: {
    /** Provided by the core: when `dontAsk`, stores 'do not ask again' for `kind` (per user). */
    savePref: (_, params: { kind: 'close' | 'closeAll'; dontAsk: boolean }) => void params,
    openForm: assign(({ event }) => {
      if (event.type !== 'close.open') return {};
      const pct: ClosePercent = 100;
      return {
        ...EMPTY_FORM,
        position: event.position,
        rules: event.rules,
        pct,
        qty: pctText(event.position, event.rules, pct),
        price: markText(event.position, event.rules),
        dialog: true,
      };
    }),
    quickForm: assign({ dialog: false }),
    livePosition: assign(({ context, event }) => (event.type === 'close.position' && event.position && context.position && event.position.id === context.position.id ? { position: event.position } : {})),
    setMode: assign(({ event }) => (event.type === 'close.mode' ? { mode: event.mode, problem: null, serverError: null } : {})),
    setQty: assign(({ event }) => (event.type === 'close.qty' ? { qty: event.text, pct: null, problem: null, serverError: null } : {})),
    setPct: assign(({ context, event }) =>
      event.type === 'close.pct' && context.position && context.rules ? { pct: event.pct, qty: pctText(context.position, context.rules, event.pct), problem: null, serverError: null } : {},
    ),
    setPrice: assign(({ event }) => (event.type === 'close.price' ? { price: event.text, problem: null, serverError: null } : {})),
    setDontAsk: assign(({ event }) => (event.type === 'close.dontAsk' || event.type === 'closeAll.dontAsk' ? { dontAsk: event.on } : {})),
    showProblem: assign({ problem: ({ context }) => checkClose(context) }),
    startSend: assign(({ context }) => ({ sends: context.sends + 1, clientOrderId: context.newId(), problem: null, serverError: null })),
    takeError: assign({ serverError: ({ event }) => errText((event as { error?: unknown }).error) }),
    emitFailed: emit(({ event }) => ({ type: 'closeFailed' as const, msg: errText((event as { error?: unknown }).error) })),
    emitClosed: emit(({ context, event }) => ({
      type: 'closed' as const,
      order: (event as unknown as { output: Order }).output,
      position: context.position as Position,
      request: closeRequestOf(context, context.clientOrderId ?? ''),
    })),
    emitClosedAll: emit(({ event }) => ({ type: 'closedAll' as const, orders: (event as unknown as { output: Order[] }).output })),
    reset: assign({ ...EMPTY_FORM, dialog: false, allCount: 0 }),
    openAll: assign(({ event }) => (event.type === 'closeAll.open' ? { allCount: event.count, dontAsk: false, serverError: null } : {})),
  },
}).createMachine({
  id: 'close',
  context: ({ input }) => ({ newId: input.newId, ...EMPTY_FORM, dialog: false, sends: 0, clientOrderId: null, allCount: 0 }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'close.open': [
          { guard: 'quick', target: 'quickCheck', actions: 'openForm' },
          { target: 'editing', actions: 'openForm' },
        ],
        'closeAll.open': [
          { guard: 'hasPositions', target: 'allCheck', actions: 'openAll' },
        ],
      },
    },
    /** A quick close (the row's Close button): straight to the server when confirmations are off. */
    quickCheck: {
      always: [{ guard: 'confirmClose', target: 'editing' }, { target: 'submitting', actions: ['quickForm', 'startSend'] }],
    },
    editing: {
      on: {
        'close.position': { actions: 'livePosition' },
        'close.mode': { actions: 'setMode' },
        'close.qty': { actions: 'setQty' },
        'close.pct': { actions: 'setPct' },
        'close.price': { actions: 'setPrice' },
        'close.dontAsk': { actions: 'setDontAsk' },
        'close.confirm': [
          { guard: 'formOk', target: 'submitting', actions: [{ type: 'savePref', params: ({ context }) => ({ kind: 'close' as const, dontAsk: context.dontAsk }) }, 'startSend'] },
          { actions: 'showProblem' },
        ],
        'close.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    submitting: {
      on: { 'close.position': { actions: 'livePosition' } },
      invoke: {
        src: 'close',
        input: ({ context }) => closeRequestOf(context, context.clientOrderId ?? ''),
        onDone: { target: 'idle', actions: ['emitClosed', 'reset'] },
        onError: [
          { guard: ({ context }) => context.dialog, target: 'editing', actions: ['takeError', 'emitFailed'] },
          { target: 'idle', actions: ['emitFailed', 'reset'] },
        ],
      },
    },
    allCheck: {
      always: [{ guard: 'confirmCloseAll', target: 'confirmingAll' }, { target: 'submittingAll', actions: 'startSend' }],
    },
    confirmingAll: {
      on: {
        'closeAll.dontAsk': { actions: 'setDontAsk' },
        'closeAll.confirm': { target: 'submittingAll', actions: [{ type: 'savePref', params: ({ context }) => ({ kind: 'closeAll' as const, dontAsk: context.dontAsk }) }, 'startSend'] },
        'closeAll.cancel': { target: 'idle', actions: 'reset' },
      },
    },
    submittingAll: {
      invoke: {
        src: 'closeAll',
        onDone: { target: 'idle', actions: ['emitClosedAll', 'reset'] },
        onError: { target: 'idle', actions: ['emitFailed', 'reset'] },
      },
    },
  },
});
