import { assign, fromPromise, setup } from 'xstate';
import { decimalsOf } from '../format/number.ts';
import { formatScaled, parseScaled, SCALE } from '../protocol/decimal.ts';
import { previewNetting, toUnits, type NetPreview, type NetSide } from '../protocol/netting.ts';
import type { TimeInForce, TriggerBy } from '../protocol/trading.ts';
import type { SymbolInfo } from '../protocol/market.ts';

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
/** The ticket's order types (issue 14): limit, market, and the two stop kinds of the server. */
export const ORDER_TYPES = ['limit', 'market', 'stopMarket', 'stopLimit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
export type OrderStatus = 'pending' | 'filled' | 'canceled';
export type { TimeInForce, TriggerBy };

/** The instrument's contract rules the ticket validates against (SymbolInfo fields). */
export interface OrderRules {
  minOrderQuantity: number;
  maxOrderQuantity: number;
  qtyStep: number;
  minLever: number;
  maxLever: number;
  openingFeeRatio: number;
  /** Price tick; prices off it are refused as the server does ('Price must be a multiple of'). Absent: not checked. */
  tickSize?: number;
  /** Decimals of prices / quantities; derived from tickSize / qtyStep when absent. */
  pricePrecision?: number;
  qtyPrecision?: number;
}

/** An instrument's ticket rules (the trade screen's, and the headless replay's ticket built from the recorded instrument list). */
export const orderRulesOf = (i: SymbolInfo): OrderRules => ({
  minOrderQuantity: i.minOrderQuantity,
  maxOrderQuantity: i.maxOrderQuantity,
  qtyStep: i.qtyStep,
  minLever: i.minLever,
  maxLever: i.maxLever,
  openingFeeRatio: i.openingFeeRatio,
  tickSize: i.tickSize,
  pricePrecision: i.pricePrecision,
  qtyPrecision: i.qtyPrecision,
});

/** What the user typed. Prices and quantities stay strings (exact decimals) all the way to the request. */
export interface OrderDraft {
  side: OrderSide;
  type: OrderType;
  /** Limit price (limit, stop-limit). */
  price: string;
  qty: string;
  leverage: number;
  /** Optional take-profit / stop-loss trigger prices attached to the opened position. */
  tp: string;
  sl: string;
  /** Stop kinds: the price that arms the order, and which price is watched. */
  triggerPrice: string;
  triggerBy: TriggerBy;
  /** Never increases the position (refused when it would). */
  reduceOnly: boolean;
  /** Limit (GTC) only: refused if it would take liquidity. */
  postOnly: boolean;
  /** Limit and stop-limit. */
  timeInForce: TimeInForce;
}

/** A decimal as the UI hands it over: a decimal string, or a number already on its grid (ticker prices). */
export type DecimalLike = string | number;

/** The open position of the ticket's symbol, as the netting preview reads it. */
export interface OrderPosition {
  side: NetSide;
  qty: DecimalLike;
}

/** Market facts at the moment of submitting (the UI knows them; the machine must not fetch). */
export interface OrderMarket {
  /** Available margin balance in the quote coin (the balance's decimal string). */
  available: DecimalLike;
  /** Latest price: what a market order is estimated to fill at (0 or '' when unknown). */
  lastPrice: DecimalLike;
  /** Mark price, for stops that trigger on the mark; absent or 0 when unknown. */
  markPrice?: DecimalLike | null;
  /** The open position of this symbol (null: none), for reduce-only and the margin estimate. */
  position?: OrderPosition | null;
}

/** A validation failure: `key` is an i18n key (common:, trade: or orderForm: namespace), `value` its parameter. */
export interface OrderError {
  key:
    | 'limitPriceRequired'
    | 'priceStep'
    | 'priceNotNumber'
    | 'pricePositive'
    | 'triggerPriceRequired'
    | 'qtyRequired'
    | 'minOrderQuantity'
    | 'maxOrderQuantity'
    | 'qtyStep'
    | 'leverageRange'
    | 'postOnlyLimitOnly'
    | 'wouldTriggerImmediately'
    | 'reduceOnlyWouldIncrease'
    | 'insufficientBalance'
    | 'tpInvalid'
    | 'slInvalid'
    | 'noPrice';
  value?: string;
}

/**
 * The request the machine asks `placeOrder` to send. Prices and quantities are canonical decimal
 * strings on the instrument's grid ('0.5', '60000.1'): exactly what the user typed, never a float.
 * Options are present only when they differ from the server's defaults.
 */
export interface PlaceOrderRequest {
  clientOrderId: string;
  symbol: string;
  side: OrderSide;
  type: OrderType;
  /** Limit price (limit, stop-limit). */
  price?: string;
  qty: string;
  leverage: number;
  tp?: string;
  sl?: string;
  /** Stop kinds. */
  triggerPrice?: string;
  triggerBy?: TriggerBy;
  reduceOnly?: true;
  postOnly?: true;
  /** Limit and stop-limit, when not GTC. */
  timeInForce?: Exclude<TimeInForce, 'GTC'>;
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

// ---------------------------------------------------------------- exact decimals

const PLAIN_DECIMAL = /^\d+(?:\.\d*)?$|^\.\d+$/;

/**
 * What the user typed as a canonical decimal string ('1,000.50' → '1000.5', '.5' → '0.5'), or
 * null when it is not a plain non-negative decimal. Commas are grouping separators. No float.
 */
export function canonicalDecimal(text: string): string | null {
  const s = text.trim().replace(/,/g, '');
  if (!PLAIN_DECIMAL.test(s)) return null;
  const [w = '', f = ''] = s.split('.');
  const whole = w.replace(/^0+(?=\d)/, '') || '0';
  const frac = f.replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

/** A rule or market number (a double that stands for a short decimal) as a decimal string. */
export function decimalOf(v: DecimalLike | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return canonicalDecimal(v);
  if (!Number.isFinite(v) || v < 0) return null;
  const s = String(v);
  return canonicalDecimal(/e/i.test(s) ? v.toFixed(SCALE) : s);
}

/** Scaled (10^-SCALE) units of a decimal-like value; null when absent or not a decimal. */
function scaledOf(v: DecimalLike | null | undefined): bigint | null {
  const d = decimalOf(v);
  return d === null ? null : parseScaled(d);
}

const dpOf = (given: number | undefined, step: number | undefined): number => given ?? decimalsOf(step ?? 0);
/** Decimals of the instrument's prices and quantities. */
export const pricePrecisionOf = (r: OrderRules): number => dpOf(r.pricePrecision, r.tickSize);
export const qtyPrecisionOf = (r: OrderRules): number => dpOf(r.qtyPrecision, r.qtyStep);

/** Parses a user-typed decimal to a number, for display only ('' and garbage give null). */
export function parseDecimal(text: string): number | null {
  const d = canonicalDecimal(text);
  return d === null ? null : Number(d);
}

/** True when `qty` is a whole multiple of `step`, exactly (both read as the decimals they stand for). */
export function isOnStep(qty: DecimalLike, step: DecimalLike): boolean {
  const q = scaledOf(qty);
  const s = scaledOf(step);
  if (q === null) return false;
  if (s === null || s <= 0n) return true;
  return q % s === 0n;
}

/** The typed value on the grid of `dp` decimals and `step`: its canonical string, or why not. */
function onGrid(text: string, dp: number, step: number | undefined): { ok: string } | { bad: 'empty' | 'nan' | 'zero' | 'step' } {
  if (text.trim() === '') return { bad: 'empty' };
  if (/^\s*[-−]/.test(text)) return { bad: 'zero' };
  const d = canonicalDecimal(text);
  if (d === null) return { bad: 'nan' };
  const sc = parseScaled(d) as bigint;
  if (sc <= 0n) return { bad: 'zero' };
  if (toUnits(d, dp) === null || (step !== undefined && !isOnStep(d, step))) return { bad: 'step' };
  return { ok: d };
}

// ---------------------------------------------------------------- derived values

/** Whether an order type has a limit price / a trigger price / a time in force. */
export const hasLimitPrice = (t: OrderType): boolean => t === 'limit' || t === 'stopLimit';
export const isStop = (t: OrderType): boolean => t === 'stopMarket' || t === 'stopLimit';
export const hasTimeInForce = hasLimitPrice;

/**
 * The price an order is estimated at, as a decimal string: its limit price (limit, stop-limit),
 * its trigger (stop-market) or the last price (market). Null when unknown or not a decimal.
 */
export function estimatePrice(draft: OrderDraft, market: OrderMarket): string | null {
  const text = draft.type === 'market' ? decimalOf(market.lastPrice) : draft.type === 'stopMarket' ? canonicalDecimal(draft.triggerPrice) : canonicalDecimal(draft.price);
  return text !== null && (parseScaled(text) as bigint) > 0n ? text : null;
}

/** What the order does to the position ('Reduces long 0.5 → 0.2'), from the shared netting code. */
export function previewOrder(draft: OrderDraft, position: OrderPosition | null | undefined, rules: OrderRules): NetPreview {
  const qty = canonicalDecimal(draft.qty);
  if (qty === null) return { kind: 'none' };
  return previewNetting(position ?? null, { side: draft.side, qty, reduceOnly: draft.reduceOnly }, qtyPrecisionOf(rules));
}

/** The opening part of an order in quantity (what needs margin): all of it unless it nets against the position. */
function openingScaled(draft: OrderDraft, qty: bigint, position: OrderPosition | null | undefined, rules: OrderRules): bigint {
  if (draft.reduceOnly) return 0n;
  const p = previewOrder(draft, position, rules);
  if (p.kind === 'reduce' || p.kind === 'close' || p.kind === 'refused') return 0n;
  if (p.kind === 'flip') return parseScaled(p.to) ?? qty;
  return qty;
}

/** Ceil of a / b for non-negative bigints. */
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/**
 * Initial margin of the opening part and the fee of the whole order, exactly (scaled decimals,
 * rounded up as the server rounds them), as decimal strings with 6 decimals; null when price or
 * quantity is missing.
 */
export function estimateCost(draft: OrderDraft, market: OrderMarket, rules: OrderRules): { notional: string; margin: string; fee: string; required: bigint } | null {
  const price = estimatePrice(draft, market);
  const qtyText = canonicalDecimal(draft.qty);
  if (price === null || qtyText === null || !Number.isInteger(draft.leverage) || draft.leverage <= 0) return null;
  const q = parseScaled(qtyText) as bigint;
  if (q <= 0n) return null;
  const p = parseScaled(price) as bigint;
  const one = parseScaled('1') as bigint;
  const notional = ceilDiv(p * q, one);
  const open = openingScaled(draft, q, market.position, rules);
  const margin = ceilDiv(ceilDiv(p * open, one), BigInt(draft.leverage));
  const feeRate = scaledOf(rules.openingFeeRatio) ?? 0n;
  const fee = ceilDiv(notional * feeRate, one);
  return { notional: formatScaled(notional, 6), margin: formatScaled(margin, 6), fee: formatScaled(fee, 6), required: margin + fee };
}

/**
 * `pct` % of the largest quantity the available balance opens at the draft's price and leverage
 * (margin + opening fee), floored to the quantity step, as a decimal string ('' when unknown or
 * zero). Exact: `available × L / (price × (1 + fee × L))` on scaled bigints.
 */
export function maxQtyFor(draft: OrderDraft, market: OrderMarket, rules: OrderRules, pct: number): string {
  const price = estimatePrice(draft, market);
  const a = scaledOf(market.available);
  const step = scaledOf(rules.qtyStep);
  if (price === null || a === null || a <= 0n || step === null || step <= 0n || !Number.isInteger(draft.leverage) || draft.leverage <= 0) return '';
  const one = parseScaled('1') as bigint;
  const p = parseScaled(price) as bigint;
  const f = scaledOf(rules.openingFeeRatio) ?? 0n;
  const lev = BigInt(draft.leverage);
  const q = (a * lev * one * one) / (p * (one + f * lev));
  const part = (q * BigInt(Math.max(0, Math.min(100, Math.round(pct))))) / 100n;
  const max = scaledOf(rules.maxOrderQuantity);
  const capped = max !== null && part > max ? max : part;
  const units = (capped / step) * step;
  return units > 0n ? (canonicalDecimal(formatScaled(units, SCALE)) ?? '') : '';
}

/**
 * The first rule a draft breaks, in the order the user fixes them, as the server checks them
 * (server/trading/orders.ts): limit price (SPEC §5 'Please enter the limit order price!') and its
 * tick, trigger price and its tick, quantity present, minimum (SPEC §5 'Min order quantity:' +
 * min), maximum, step, leverage bounds, post-only on a GTC limit only, a known reference price, a
 * stop not already triggered, reduce-only that would increase, TP/SL on the right side of the
 * reference price, then the balance ('Insufficient Balance': margin of the opening part + fee
 * above the available balance). Pure and exact: every comparison on scaled bigints.
 */
export function validateOrder(draft: OrderDraft, market: OrderMarket, rules: OrderRules): OrderError | null {
  const pp = pricePrecisionOf(rules);
  const qp = qtyPrecisionOf(rules);
  const tick = rules.tickSize !== undefined ? String(decimalOf(rules.tickSize) ?? '') : '';
  // A typed price says what is wrong with it (issue 26): missing, not a plain number ('1e5'), not above 0 ('-100'), off the tick.
  const priceError = (bad: 'empty' | 'nan' | 'zero' | 'step', required: 'limitPriceRequired' | 'triggerPriceRequired'): OrderError =>
    bad === 'step' ? { key: 'priceStep', value: tick } : bad === 'nan' ? { key: 'priceNotNumber' } : bad === 'zero' ? { key: 'pricePositive' } : { key: required };
  if (hasLimitPrice(draft.type)) {
    const g = onGrid(draft.price, pp, rules.tickSize);
    if ('bad' in g) return priceError(g.bad, 'limitPriceRequired');
  }
  if (isStop(draft.type)) {
    const g = onGrid(draft.triggerPrice, pp, rules.tickSize);
    if ('bad' in g) return priceError(g.bad, 'triggerPriceRequired');
  }
  const qtyText = canonicalDecimal(draft.qty);
  const q = qtyText === null ? null : (parseScaled(qtyText) as bigint);
  if (q === null || q <= 0n) return { key: 'qtyRequired' };
  const min = scaledOf(rules.minOrderQuantity) ?? 0n;
  const max = scaledOf(rules.maxOrderQuantity);
  if (q < min) return { key: 'minOrderQuantity', value: decimalOf(rules.minOrderQuantity) ?? String(rules.minOrderQuantity) };
  if (max !== null && q > max) return { key: 'maxOrderQuantity', value: decimalOf(rules.maxOrderQuantity) ?? String(rules.maxOrderQuantity) };
  if ('bad' in onGrid(draft.qty, qp, rules.qtyStep)) return { key: 'qtyStep', value: decimalOf(rules.qtyStep) ?? String(rules.qtyStep) };
  if (!Number.isInteger(draft.leverage) || draft.leverage < rules.minLever || draft.leverage > rules.maxLever) {
    return { key: 'leverageRange', value: `${rules.minLever}-${rules.maxLever}` };
  }
  if (draft.postOnly && (draft.type !== 'limit' || draft.timeInForce !== 'GTC')) return { key: 'postOnlyLimitOnly' };
  const price = estimatePrice(draft, market);
  if (price === null) return { key: 'noPrice' };
  if (isStop(draft.type)) {
    const trigger = parseScaled(canonicalDecimal(draft.triggerPrice) as string) as bigint;
    const ref = scaledOf(draft.triggerBy === 'mark' ? market.markPrice : market.lastPrice);
    if (ref !== null && ref > 0n && (draft.side === 'buy' ? ref >= trigger : ref <= trigger)) return { key: 'wouldTriggerImmediately' };
  }
  if (draft.reduceOnly && previewOrder(draft, market.position, rules).kind === 'refused') return { key: 'reduceOnlyWouldIncrease' };
  if (!draft.reduceOnly) {
    const ref = parseScaled(price) as bigint;
    const long = draft.side === 'buy';
    for (const [field, key] of [['tp', 'tpInvalid'], ['sl', 'slInvalid']] as const) {
      const text = draft[field];
      if (text.trim() === '') continue;
      const g = onGrid(text, pp, rules.tickSize);
      if ('bad' in g) return g.bad === 'step' ? { key: 'priceStep', value: tick } : { key };
      const v = parseScaled(g.ok) as bigint;
      const above = field === 'tp' ? long : !long;
      if (above ? v <= ref : v >= ref) return { key };
    }
  }
  const cost = estimateCost(draft, market, rules);
  const available = scaledOf(market.available) ?? 0n;
  if (cost === null || cost.required > available) return { key: 'insufficientBalance' };
  return null;
}

/**
 * The request of a valid draft: every price and quantity is the canonical form of what was typed
 * (so it reads back to exactly the typed decimal), options only where they apply.
 */
export function buildRequest(symbol: string, d: OrderDraft, clientOrderId: string): PlaceOrderRequest {
  const dec = (s: string): string => canonicalDecimal(s) ?? '';
  const req: PlaceOrderRequest = { clientOrderId, symbol, side: d.side, type: d.type, qty: dec(d.qty), leverage: d.leverage };
  if (hasLimitPrice(d.type)) req.price = dec(d.price);
  if (isStop(d.type)) {
    req.triggerPrice = dec(d.triggerPrice);
    req.triggerBy = d.triggerBy;
  }
  if (hasTimeInForce(d.type) && d.timeInForce !== 'GTC') req.timeInForce = d.timeInForce;
  if (d.reduceOnly) req.reduceOnly = true;
  else {
    if (d.tp.trim() !== '') req.tp = dec(d.tp);
    if (d.sl.trim() !== '') req.sl = dec(d.sl);
  }
  if (d.postOnly && d.type === 'limit') req.postOnly = true;
  return req;
}

/**
 * A patch as the form means it: post-only is a GTC limit option (choosing it sets GTC, choosing
 * IOC / FOK or a non-limit type clears it).
 */
export function applyDraftPatch(draft: OrderDraft, patch: Partial<OrderDraft>, rules?: Pick<OrderRules, 'minLever' | 'maxLever'> | null): OrderDraft {
  const next = { ...draft, ...patch };
  // Leverage is clamped to the instrument's range as it is typed (issue 26: 0, -5 or 500 were
  // kept and the margin previewed at 500x); a value that is not a number keeps the last one.
  if (patch.leverage !== undefined) {
    const typed = Math.round(patch.leverage);
    const lev = Number.isFinite(typed) ? typed : draft.leverage;
    next.leverage = rules ? Math.min(rules.maxLever, Math.max(rules.minLever, lev)) : lev;
  }
  if (patch.postOnly === true) next.timeInForce = 'GTC';
  else if (patch.timeInForce !== undefined && patch.timeInForce !== 'GTC') next.postOnly = false;
  if (patch.type !== undefined && patch.type !== 'limit') next.postOnly = false;
  return next;
}

/** Market facts as the machine keeps them: decimals as strings (numbers from old recordings are read as the decimals they print as). */
function normalizeMarket(m: OrderMarket): OrderMarket {
  const out: OrderMarket = { available: decimalOf(m.available) ?? '0', lastPrice: decimalOf(m.lastPrice) ?? '0' };
  if (m.markPrice !== undefined && m.markPrice !== null) out.markPrice = decimalOf(m.markPrice) ?? '0';
  if (m.position) out.position = { side: m.position.side, qty: decimalOf(m.position.qty) ?? '0' };
  return out;
}

export const EMPTY_DRAFT: OrderDraft = {
  side: 'buy',
  type: 'limit',
  price: '',
  qty: '',
  leverage: 10,
  tp: '',
  sl: '',
  triggerPrice: '',
  triggerBy: 'last',
  reduceOnly: false,
  postOnly: false,
  timeInForce: 'GTC',
};

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
      draft: ({ context, event }) => (event.type === 'order.edit' ? applyDraftPatch(context.draft, event.patch, context.rules) : context.draft),
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
    setMarket: assign({ market: ({ context, event }) => (event.type === 'order.submit' ? normalizeMarket(event.market) : context.market) }),
    setError: assign({ error: ({ context }) => validateOrder(context.draft, context.market, context.rules) }),
    resetTicket: assign(() => ({ ...newTicket, error: null })),
    /** Draws the ticket's id once; retries and confirm/back keep it until the ticket is done. */
    prepareRequest: assign(({ context }) => {
      const id = context.clientOrderId ?? context.newId();
      return { clientOrderId: id, request: buildRequest(context.symbol, context.draft, id) };
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
    market: { available: '0', lastPrice: '0' },
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
