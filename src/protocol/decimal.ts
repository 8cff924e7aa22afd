/**
 * Exact decimal-string arithmetic for the asset pages. Balances arrive as decimal strings
 * ('10000.000000'); sums, comparisons and 'Max' must not go through binary floats, or
 * 'Max' could offer 0.30000000000000004 and the client-side 'Insufficient Balance' check could
 * disagree with the server's exact check.
 *
 * Values are held as BigInt at a fixed scale of {@link SCALE} fractional digits. Input with more
 * digits is truncated toward zero (never rounded up, so a derived 'Max' never exceeds the
 * balance it came from).
 */

/** Fractional digits kept internally; more than any asset's precision (USDT 6, BTC 8). */
export const SCALE = 12;
/** Alias of {@link SCALE} for callers that turn a float price into a decimal string (`toFixed`). */
export const FACTOR_DIGITS = SCALE;
const FACTOR = 10n ** BigInt(SCALE);
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** A decimal string parsed to scaled units, or null when it is not a plain decimal. */
export function parseScaled(text: string): bigint | null {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const [, sign = '', whole = '', frac = ''] = m;
  if (whole === '' && frac === '') return null;
  const v = BigInt(whole === '' ? '0' : whole) * FACTOR + BigInt((frac.slice(0, SCALE).padEnd(SCALE, '0')) || '0');
  return sign === '-' ? -v : v;
}

/** Scaled units back to a plain decimal string with exactly `decimals` digits (truncated). */
export function formatScaled(v: bigint, decimals: number): string {
  const d = Math.max(0, Math.min(SCALE, Math.floor(decimals)));
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const whole = abs / FACTOR;
  const frac = (abs % FACTOR).toString().padStart(SCALE, '0').slice(0, d);
  const zero = whole === 0n && /^0*$/.test(frac);
  return `${neg && !zero ? '-' : ''}${whole.toString()}${d > 0 ? `.${frac}` : ''}`;
}

/** Sum of decimal strings; invalid entries count as zero. */
export function sumDecimals(values: readonly string[]): bigint {
  let s = 0n;
  for (const v of values) s += parseScaled(v) ?? 0n;
  return s;
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`; invalid strings compare as 0. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const x = parseScaled(a) ?? 0n;
  const y = parseScaled(b) ?? 0n;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Product of two scaled values, truncated toward zero. */
export function scaledMul(a: bigint, b: bigint): bigint {
  return (a * b) / FACTOR;
}

/** Scaled units to a JS number (display and valuation only, never for balance checks). */
export function scaledToNumber(v: bigint): number {
  return Number(formatScaled(v, SCALE));
}

/**
 * Keeps what the user types in an amount field a plain non-negative decimal with at most
 * `decimals` fractional digits: strips other characters, keeps the first dot, turns ',' into '.',
 * drops extra fraction digits. Returns the cleaned text ('' stays '').
 */
export function sanitizeAmountInput(text: string, decimals: number): string {
  const cleaned = text.replace(/,/g, '.').replace(/[^\d.]/g, '');
  const dot = cleaned.indexOf('.');
  if (dot < 0) return cleaned.replace(/^0+(?=\d)/, '');
  const whole = cleaned.slice(0, dot).replace(/^0+(?=\d)/, '');
  const frac = cleaned.slice(dot + 1).replace(/\./g, '');
  if (decimals <= 0) return whole;
  return `${whole === '' ? '0' : whole}.${frac.slice(0, decimals)}`;
}
