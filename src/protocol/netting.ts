import { plainNumberText } from './numberRule.ts';
/**
 * One-way position netting, shared by the server (which executes it) and the order form (which
 * shows what an order will do before it is sent): the same pure code answers both, so the preview
 * 'Reduces long 0.5 → 0.2' is exactly what the engine then books.
 *
 * One-way mode (as Binance USDⓈ-M one-way mode): a user holds at most one position per symbol and
 * contract. An order on the position's side increases it; on the other side it reduces it, closes
 * it exactly, or closes it and opens the other side with the rest. A reduce-only order never
 * increases nor flips: it is refused when there is nothing to reduce and capped at the position size.
 *
 * Quantities are exact: integer units of 10^-qtyPrecision (bigint) inside, decimal strings at the
 * edge. Nothing here passes through a binary float.
 */

export type NetSide = 'long' | 'short';
export type NetOrderSide = 'buy' | 'sell';

/** What an order does to the position, in quantity units. `closeQty + openQty` is the executed quantity. */
export type NetUnits =
  | { kind: 'open'; side: NetSide; closeQty: 0n; openQty: bigint; from: 0n; to: bigint }
  | { kind: 'increase'; side: NetSide; closeQty: 0n; openQty: bigint; from: bigint; to: bigint }
  | { kind: 'reduce'; side: NetSide; closeQty: bigint; openQty: 0n; from: bigint; to: bigint }
  | { kind: 'close'; side: NetSide; closeQty: bigint; openQty: 0n; from: bigint; to: 0n }
  | { kind: 'flip'; side: NetSide; toSide: NetSide; closeQty: bigint; openQty: bigint; from: bigint; to: bigint }
  /** Reduce-only with no position, or on the position's own side: refused (it would increase). */
  | { kind: 'refused'; reason: 'reduceOnly' };

/** The side an order on `side` opens or increases. */
export function sideOf(orderSide: NetOrderSide): NetSide {
  return orderSide === 'buy' ? 'long' : 'short';
}

/**
 * Nets an order of `qty` units on `orderSide` against the open position (null: none).
 * Invariants (property-tested): closeQty ≤ position qty; for a reduce-only order openQty = 0 and
 * `to` ≤ `from`; a flip's closeQty equals the whole position.
 */
export function netUnits(position: { side: NetSide; qty: bigint } | null, orderSide: NetOrderSide, qty: bigint, reduceOnly = false): NetUnits {
  const dir = sideOf(orderSide);
  if (qty <= 0n) throw new Error('netUnits: quantity must be positive');
  if (!position || position.qty === 0n) {
    if (reduceOnly) return { kind: 'refused', reason: 'reduceOnly' };
    return { kind: 'open', side: dir, closeQty: 0n, openQty: qty, from: 0n, to: qty };
  }
  if (position.side === dir) {
    if (reduceOnly) return { kind: 'refused', reason: 'reduceOnly' };
    return { kind: 'increase', side: dir, closeQty: 0n, openQty: qty, from: position.qty, to: position.qty + qty };
  }
  if (qty < position.qty) return { kind: 'reduce', side: position.side, closeQty: qty, openQty: 0n, from: position.qty, to: position.qty - qty };
  if (qty === position.qty || reduceOnly) return { kind: 'close', side: position.side, closeQty: position.qty, openQty: 0n, from: position.qty, to: 0n };
  return { kind: 'flip', side: position.side, toSide: dir, closeQty: position.qty, openQty: qty - position.qty, from: position.qty, to: qty - position.qty };
}

/** A decimal string or a JSON number → integer units at `dp` decimals; null when not a decimal or off the grid. */
export function toUnits(v: string | number, dp: number): bigint | null {
  let s: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null;
    // The shortest decimal that reads back as the same double (the decimal the sender meant), written
    // out without an exponent: 1e-10 is '0.0000000001' and off a 0.01 grid, never rounded onto it.
    const plain = plainNumberText(v);
    if (plain === null) return null;
    s = plain;
  } else s = v.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) return null;
  const [, sign = '', whole = '0', frac0 = ''] = m;
  const frac = frac0.replace(/0+$/, '');
  if (frac.length > dp) return null;
  const u = BigInt(whole) * 10n ** BigInt(dp) + BigInt(frac.padEnd(dp, '0') || '0');
  return sign === '-' ? -u : u;
}

/** Integer units at `dp` decimals → a decimal string without trailing zeros ('0.5', '12'). */
export function fromUnits(u: bigint, dp: number): string {
  const neg = u < 0n;
  const abs = (neg ? -u : u).toString().padStart(dp + 1, '0');
  const whole = abs.slice(0, abs.length - dp);
  const frac = dp > 0 ? abs.slice(abs.length - dp).replace(/0+$/, '') : '';
  return `${neg ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/** {@link NetUnits} with quantities as decimal strings: what the order form shows. */
export type NetPreview =
  | { kind: 'open' | 'increase' | 'reduce' | 'close'; side: NetSide; from: string; to: string }
  | { kind: 'flip'; side: NetSide; toSide: NetSide; from: string; to: string }
  | { kind: 'refused'; reason: 'reduceOnly' }
  /** The quantity is empty, not a number, or off the instrument's step: nothing to preview. */
  | { kind: 'none' };

/**
 * What an order will do to the position, for the form: e.g. a sell of '0.3' against a long of 0.5
 * → `{kind:'reduce', side:'long', from:'0.5', to:'0.2'}`; a sell of '0.8' → `{kind:'flip', side:'long',
 * toSide:'short', from:'0.5', to:'0.3'}`. Same arithmetic as the server ({@link netUnits}).
 */
export function previewNetting(
  position: { side: NetSide; qty: string | number } | null,
  order: { side: NetOrderSide; qty: string | number; reduceOnly?: boolean },
  qtyPrecision: number,
): NetPreview {
  const q = toUnits(order.qty, qtyPrecision);
  const pq = position ? toUnits(position.qty, qtyPrecision) : 0n;
  if (q === null || q <= 0n || pq === null || pq < 0n) return { kind: 'none' };
  const n = netUnits(position && pq > 0n ? { side: position.side, qty: pq } : null, order.side, q, order.reduceOnly ?? false);
  if (n.kind === 'refused') return n;
  const from = fromUnits(n.from, qtyPrecision);
  const to = fromUnits(n.to, qtyPrecision);
  if (n.kind === 'flip') return { kind: 'flip', side: n.side, toSide: n.toSide, from, to };
  return { kind: n.kind, side: n.side, from, to };
}

/**
 * English templates of the preview line (the UI translates them; `{side}`, `{toSide}`, `{from}`,
 * `{to}` are filled from the {@link NetPreview}).
 */
export const NETTING_MSG = {
  open: 'Opens {side} {to}',
  increase: 'Increases {side} {from} → {to}',
  reduce: 'Reduces {side} {from} → {to}',
  close: 'Closes {side} {from}',
  flip: 'Flips to {toSide} {to}',
  refused: 'Reduce-only: nothing to reduce on this side',
} as const;

/** The preview as an English line from {@link NETTING_MSG} ('' for `none`). */
export function describeNetting(p: NetPreview): string {
  if (p.kind === 'none') return '';
  if (p.kind === 'refused') return NETTING_MSG.refused;
  const fill = (t: string) => t.replace('{side}', p.side).replace('{from}', p.from).replace('{to}', p.to).replace('{toSide}', p.kind === 'flip' ? p.toSide : '');
  return fill(NETTING_MSG[p.kind]);
}
