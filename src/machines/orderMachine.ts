import { assign, fromPromise, setup } from 'xstate';

/**
 * The life of one order ticket on the trade screen (issue 4, SPEC §5 and §9):
 *
 * ```
 * editing ─order.submit→ validating ─invalid→ editing (error)
 *                                    ├─leverage > 10→ confirming ─order.confirm→ submitting
 *                                    │                           └order.back→ editing
 *                                    └─ok→ submitting ─ok→ pending ─order.frame filled→ filled
 *                                                     │            └order.frame canceled→ canceled
 *                                                     ├─rejected (server code)→ rejected
 *                                                     └─network error→ failed ─order.retry→ submitting (same clientOrderId)
 * pending / filled / canceled / rejected / failed ─order.edit→ editing (the next submit draws a new id)
 * filled / canceled / rejected ─after resultHold→ editing
 * ```
 *
 * Invariants (property-tested in tests/property/orderMachine.prop.test.ts):
 * - one POST per entry to `submitting`, and `submitting` is entered only from validating,
 *   confirming or a retry: repeated clicks while submitting or confirming never post twice;
 * - a retry after a network error reuses the clientOrderId, so the server (idempotent by that
 *   id) never opens twice; a new id is drawn only for a new ticket;
 * - a leverage above {@link RISK_LEVERAGE} always passes through `confirming`.
 *
 * No globals: the client order id comes from the Random port through `input.newId`, the POST
 * is the `placeOrder` actor provided by the screen (through the recorded Http port), and the
 * only timer is the named `resultHold` delay, driven by the clock given to `createActor`.
 */

/** Leverage above this needs the liquidation-risk confirmation (SPEC §9). */
export const RISK_LEVERAGE = 10;
/** How long a final result (filled / canceled / rejected) stays on the ticket before it resets. */
export const RESULT_HOLD_MS = 4000;

export type OrderSide = 'buy' | 'sell';
export type OrderType = 'limit' | 'market';
export type OrderStatus = 'pending' | 'filled' | 'canceled';

/** The instrument's contract rules the ticket validates against (SymbolInfo fields). */
export interface OrderRules {
  minOrderQuantity: number;
  maxOrderQuantity: number;
  qtyStep: number;
  minLever: number;
  maxLever: number;
  openingFeeRatio: number;
}

/** What the user typed. Prices and quantities stay strings until validation. */
export interface OrderDraft {
  side: OrderSide;
  type: OrderType;
  price: string;
  qty: string;
  leverage: number;
  /** Optional take-profit / stop-loss trigger prices attached to the opened position. */
  tp: string;
  sl: string;
}

/** Market facts at the moment of submitting (the UI knows them; the machine must not fetch). */
export interface OrderMarket {
  /** Available margin balance in the quote coin. */
  available: number;
  /** Latest price: what a market order is estimated to fill at. */
  lastPrice: number;
}

/** A validation failure: `key` is an i18n key (common: or trade: namespace), `value` its parameter. */
export interface OrderError {
  key:
    | 'limitPriceRequired'
    | 'qtyRequired'
    | 'minOrderQuantity'
    | 'maxOrderQuantity'
    | 'qtyStep'
    | 'leverageRange'
    | 'insufficientBalance'
    | 'tpInvalid'
    | 'slInvalid'
    | 'noPrice';
  value?: string;
}

/** The request the machine asks `placeOrder` to send. */
export interface PlaceOrderRequest {
  clientOrderId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  /** Limit price; absent for market orders. */
  price?: number;
  qty: number;
  leverage: number;
  tp?: number;
  sl?: number;
}

/** What the server said about a placed order (the POST answer or a user-socket order frame). */
export interface OrderAck {
  orderId: string;
  status: OrderStatus;
}

/** How a POST failed: a server answer (not retried) or a network failure (retry allowed). */
export type PlaceFailure = { kind: 'rejected'; msg: string } | { kind: 'network'; msg: string };

export interface OrderInput {
  symbol: string;
  rules: OrderRules;
  /** Draws a fresh client order id (the Random port). */
  newId: () => string;
  /** Initial draft values (e.g. leverage from the last order). */
  draft?: Partial<OrderDraft>;
}

export interface OrderContext {
  symbol: string;
  rules: OrderRules;
  newId: () => string;
  draft: OrderDraft;
  market: OrderMarket;
  error: OrderError | null;
  /** The id of the ticket being submitted; null while editing a new ticket. */
  clientOrderId: string | null;
  /** The request of the current ticket (kept for retries: same body, same id). */
  request: PlaceOrderRequest | null;
  orderId: string | null;
  /** A socket frame for this ticket that arrived before the POST answered. */
  earlyStatus: OrderStatus | null;
  failure: PlaceFailure | null;
  /** Number of POST attempts for the current ticket (1 + retries). */
  attempts: number;
}

export type OrderEvent =
  | { type: 'order.edit'; patch: Partial<OrderDraft> }
  | { type: 'order.rules'; rules: OrderRules; symbol: string }
  | { type: 'order.submit'; market: OrderMarket }
  | { type: 'order.confirm' }
  | { type: 'order.back' }
  | { type: 'order.retry' }
  | { type: 'order.frame'; clientOrderId: string; orderId: string; status: OrderStatus };

const STEP_EPS = 1e-9;

/** Parses a user-typed decimal; '' and garbage give null. */
export function parseDecimal(text: string): number | null {
  const s = text.trim().replace(/,/g, '');
  if (!/^\d*\.?\d+$|^\d+\.$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** True when `qty` is a whole multiple of `step` (up to float noise). */
export function isOnStep(qty: number, step: number): boolean {
  if (step <= 0) return true;
  const k = qty / step;
  return Math.abs(k - Math.round(k)) < STEP_EPS * Math.max(1, Math.abs(k));
}

/** The price an order is estimated at: its limit price, or the last price for a market order. */
export function estimatePrice(draft: OrderDraft, market: OrderMarket): number | null {
  if (draft.type === 'market') return market.lastPrice > 0 ? market.lastPrice : null;
  const p = parseDecimal(draft.price);
  return p !== null && p > 0 ? p : null;
}

/** Initial margin and opening fee for a draft (null when price or quantity is missing). */
export function estimateCost(draft: OrderDraft, market: OrderMarket, rules: OrderRules): { notional: number; margin: number; fee: number } | null {
  const price = estimatePrice(draft, market);
  const qty = parseDecimal(draft.qty);
  if (price === null || qty === null || qty <= 0 || draft.leverage <= 0) return null;
  const notional = price * qty;
  return { notional, margin: notional / draft.leverage, fee: notional * rules.openingFeeRatio };
}

/**
 * The first rule a draft breaks, in the order the user fixes them: price (SPEC §5 'Please enter
 * the limit order price!'), quantity present, minimum (SPEC §5 'Min order quantity:' + min),
 * maximum, step, leverage bounds, TP/SL on the right side of the price, then the balance
 * ('Insufficient Balance': margin + opening fee above the available balance). Pure.
 */
export function validateOrder(draft: OrderDraft, market: OrderMarket, rules: OrderRules): OrderError | null {
  if (draft.type === 'limit') {
    const p = parseDecimal(draft.price);
    if (p === null || p <= 0) return { key: 'limitPriceRequired' };
  }
  const qty = parseDecimal(draft.qty);
  if (qty === null || qty <= 0) return { key: 'qtyRequired' };
  if (qty < rules.minOrderQuantity - STEP_EPS) return { key: 'minOrderQuantity', value: String(rules.minOrderQuantity) };
  if (qty > rules.maxOrderQuantity + STEP_EPS) return { key: 'maxOrderQuantity', value: String(rules.maxOrderQuantity) };
  if (!isOnStep(qty, rules.qtyStep)) return { key: 'qtyStep', value: String(rules.qtyStep) };
  if (!Number.isInteger(draft.leverage) || draft.leverage < rules.minLever || draft.leverage > rules.maxLever) {
    return { key: 'leverageRange', value: `${rules.minLever}-${rules.maxLever}` };
  }
  const price = estimatePrice(draft, market);
  if (price === null) return { key: 'noPrice' };
  const long = draft.side === 'buy';
  if (draft.tp.trim() !== '') {
    const tp = parseDecimal(draft.tp);
    if (tp === null || tp <= 0 || (long ? tp <= price : tp >= price)) return { key: 'tpInvalid' };
  }
  if (draft.sl.trim() !== '') {
    const sl = parseDecimal(draft.sl);
    if (sl === null || sl <= 0 || (long ? sl >= price : sl <= price)) return { key: 'slInvalid' };
  }
  const cost = estimateCost(draft, market, rules);
  if (cost === null || cost.margin + cost.fee > market.available) return { key: 'insufficientBalance' };
  return null;
}

function buildRequest(ctx: OrderContext, clientOrderId: string): PlaceOrderRequest {
  const d = ctx.draft;
  const req: PlaceOrderRequest = {
    clientOrderId,
    symbol: ctx.symbol,
    side: d.side,
    type: d.type,
    qty: parseDecimal(d.qty) ?? 0,
    leverage: d.leverage,
  };
  if (d.type === 'limit') req.price = parseDecimal(d.price) ?? 0;
  const tp = d.tp.trim() === '' ? null : parseDecimal(d.tp);
  const sl = d.sl.trim() === '' ? null : parseDecimal(d.sl);
  if (tp !== null) req.tp = tp;
  if (sl !== null) req.sl = sl;
  return req;
}

const EMPTY_DRAFT: OrderDraft = { side: 'buy', type: 'limit', price: '', qty: '', leverage: 10, tp: '', sl: '' };

const placeNotProvided = fromPromise<OrderAck, PlaceOrderRequest>(async () => {
  throw { kind: 'network', msg: "orderMachine: actor 'placeOrder' not provided" } satisfies PlaceFailure;
});

/** Turns whatever `placeOrder` rejected with into a {@link PlaceFailure}. */
export function toFailure(e: unknown): PlaceFailure {
  if (typeof e === 'object' && e !== null && 'kind' in e && 'msg' in e) {
    const f = e as { kind: unknown; msg: unknown };
    if ((f.kind === 'network' || f.kind === 'rejected') && typeof f.msg === 'string') return { kind: f.kind, msg: f.msg };
  }
  return { kind: 'rejected', msg: e instanceof Error ? e.message || 'Error' : 'Error' };
}

const newTicket = { clientOrderId: null, request: null, orderId: null, earlyStatus: null, failure: null, attempts: 0 } as const;

export const orderMachine = setup({
  types: {
    context: {} as OrderContext,
    events: {} as OrderEvent,
    input: {} as OrderInput,
  },
  actors: { placeOrder: placeNotProvided },
  delays: { resultHold: RESULT_HOLD_MS },
  guards: {
    isInvalid: ({ context }) => validateOrder(context.draft, context.market, context.rules) !== null,
    isRisky: ({ context }) => context.draft.leverage > RISK_LEVERAGE,
    isMine: ({ context, event }) => event.type === 'order.frame' && event.clientOrderId === context.clientOrderId,
    isNetworkFailure: ({ context }) => context.failure?.kind === 'network',
  },
  actions: {
    applyPatch: assign({
      draft: ({ context, event }) => (event.type === 'order.edit' ? { ...context.draft, ...event.patch } : context.draft),
      error: null,
    }),
    setRules: assign(({ context, event }) =>
      event.type === 'order.rules'
        ? {
            rules: event.rules,
            symbol: event.symbol,
            draft: { ...context.draft, leverage: Math.min(event.rules.maxLever, Math.max(event.rules.minLever, context.draft.leverage)) },
          }
        : {},
    ),
    setMarket: assign({ market: ({ context, event }) => (event.type === 'order.submit' ? event.market : context.market) }),
    setError: assign({ error: ({ context }) => validateOrder(context.draft, context.market, context.rules) }),
    resetTicket: assign(() => ({ ...newTicket, error: null })),
    /** Draws the ticket's id once; retries and confirm/back keep it until the ticket is done. */
    prepareRequest: assign(({ context }) => {
      const id = context.clientOrderId ?? context.newId();
      return { clientOrderId: id, request: buildRequest(context, id) };
    }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1, failure: null }),
    takeAck: assign(({ event }) => {
      const ack = (event as unknown as { output: OrderAck }).output;
      return { orderId: ack.orderId };
    }),
    takeFrame: assign(({ event }) => (event.type === 'order.frame' ? { orderId: event.orderId, earlyStatus: event.status } : {})),
    takeFailure: assign({ failure: ({ event }) => toFailure((event as unknown as { error: unknown }).error) }),
  },
}).createMachine({
  id: 'order',
  context: ({ input }) => ({
    symbol: input.symbol,
    rules: input.rules,
    newId: input.newId,
    draft: { ...EMPTY_DRAFT, ...input.draft },
    market: { available: 0, lastPrice: 0 },
    error: null,
    ...newTicket,
  }),
  initial: 'editing',
  on: {
    'order.rules': { actions: 'setRules' },
  },
  states: {
    editing: {
      on: {
        'order.edit': { actions: 'applyPatch' },
        'order.submit': { target: 'validating', actions: 'setMarket' },
      },
    },
    validating: {
      always: [
        { guard: 'isInvalid', target: 'editing', actions: 'setError' },
        { guard: 'isRisky', target: 'confirming', actions: 'prepareRequest' },
        { target: 'submitting', actions: 'prepareRequest' },
      ],
    },
    confirming: {
      on: {
        'order.confirm': { target: 'submitting' },
        'order.back': { target: 'editing', actions: 'resetTicket' },
      },
    },
    submitting: {
      entry: 'countAttempt',
      on: { 'order.frame': { guard: 'isMine', actions: 'takeFrame' } },
      invoke: {
        src: 'placeOrder',
        input: ({ context }) => context.request as PlaceOrderRequest,
        onDone: [
          { guard: ({ event, context }) => event.output.status === 'filled' || context.earlyStatus === 'filled', target: 'filled', actions: 'takeAck' },
          { guard: ({ event, context }) => event.output.status === 'canceled' || context.earlyStatus === 'canceled', target: 'canceled', actions: 'takeAck' },
          { target: 'pending', actions: 'takeAck' },
        ],
        onError: { target: 'failed', actions: 'takeFailure' },
      },
    },
    failed: {
      always: { guard: ({ context }) => context.failure?.kind === 'rejected', target: 'rejected' },
      on: {
        'order.retry': { target: 'submitting' },
        // Clicking the place button again after a network error is a retry of the same ticket.
        'order.submit': { target: 'submitting' },
        'order.edit': { target: 'editing', actions: ['resetTicket', 'applyPatch'] },
        'order.frame': [
          // The POST reached the server after all: the socket tells us before any retry.
          { guard: ({ context, event }) => event.clientOrderId === context.clientOrderId && event.status === 'filled', target: 'filled', actions: 'takeFrame' },
          { guard: ({ context, event }) => event.clientOrderId === context.clientOrderId && event.status === 'canceled', target: 'canceled', actions: 'takeFrame' },
          { guard: 'isMine', target: 'pending', actions: 'takeFrame' },
        ],
      },
    },
    pending: {
      on: {
        'order.frame': [
          { guard: ({ context, event }) => event.clientOrderId === context.clientOrderId && event.status === 'filled', target: 'filled', actions: 'takeFrame' },
          { guard: ({ context, event }) => event.clientOrderId === context.clientOrderId && event.status === 'canceled', target: 'canceled', actions: 'takeFrame' },
        ],
        'order.edit': { target: 'editing', actions: ['resetTicket', 'applyPatch'] },
        'order.submit': { target: 'validating', actions: ['resetTicket', 'setMarket'] },
      },
    },
    filled: {
      after: { resultHold: { target: 'editing', actions: 'resetTicket' } },
      on: {
        'order.edit': { target: 'editing', actions: ['resetTicket', 'applyPatch'] },
        'order.submit': { target: 'validating', actions: ['resetTicket', 'setMarket'] },
      },
    },
    canceled: {
      after: { resultHold: { target: 'editing', actions: 'resetTicket' } },
      on: {
        'order.edit': { target: 'editing', actions: ['resetTicket', 'applyPatch'] },
        'order.submit': { target: 'validating', actions: ['resetTicket', 'setMarket'] },
      },
    },
    rejected: {
      after: { resultHold: { target: 'editing', actions: 'resetTicket' } },
      on: {
        'order.edit': { target: 'editing', actions: ['resetTicket', 'applyPatch'] },
        'order.submit': { target: 'validating', actions: ['resetTicket', 'setMarket'] },
      },
    },
  },
});

export type OrderStateName = 'editing' | 'validating' | 'confirming' | 'submitting' | 'failed' | 'pending' | 'filled' | 'canceled' | 'rejected';
