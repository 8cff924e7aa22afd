/**
 * The one number-formatting module (SPEC §9). Every screen formats prices, sizes, volumes and
 * percentages through these functions so rounding, separators and fallbacks agree everywhere.
 *
 * Invariants:
 * - Output never depends on the runtime locale: '.' decimal point, ',' thousands separator.
 * - Zero, -0 and invalid input (NaN, ±Infinity, null, undefined, '', non-numeric strings) format as
 *   zero with the requested decimals: '0.00' at the default of 2. A value that rounds to zero
 *   never shows a minus sign.
 * - Rounding is half away from zero on the decimal representation (1.005 → '1.01'), not the
 *   binary float (where `(1.005).toFixed(2)` gives '1.00').
 */

/** Anything a DTO or input field may hand us. */
export type NumberInput = number | string | null | undefined;

export const DEFAULT_DECIMALS = 2;
/** Largest decimals we format (Number#toFixed supports 100, prices never need more than this). */
const MAX_DECIMALS = 20;

/** Parses input to a finite number, or null when it is not one. '' and whitespace are invalid. */
export function toFiniteNumber(value: NumberInput): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value.replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

function clampDecimals(decimals: number): number {
  if (!Number.isFinite(decimals) || decimals < 0) return 0;
  return Math.min(MAX_DECIMALS, Math.floor(decimals));
}

/**
 * Rounds half away from zero at `decimals`, using the shortest decimal representation of the
 * float (so 1.005 rounds up as a human expects). Returns a plain decimal string without exponent
 * for |value| < 1e21.
 */
export function roundToString(value: number, decimals: number): string {
  const d = clampDecimals(decimals);
  const negative = value < 0;
  const abs = Math.abs(value);
  if (abs >= 1e21) return value.toFixed(d); // beyond toFixed's plain range: leave as JS prints it
  // Shift the decimal point in the string domain (shortest round-trip repr), round, shift back.
  const repr = String(abs);
  const e = repr.indexOf('e');
  const shifted = e < 0 ? Number(`${repr}e${d}`) : Number(`${repr.slice(0, e)}e${Number(repr.slice(e + 1)) + d}`);
  const rounded = Math.round(shifted);
  // Beyond 2^53 the shifted integer is inexact; toFixed on the original is then as good as it gets.
  const text = Number.isSafeInteger(rounded) ? (rounded / 10 ** d).toFixed(d) : abs.toFixed(d);
  const isZero = /^0(\.0*)?$/.test(text);
  return negative && !isZero ? `-${text}` : text;
}

/** Inserts ',' every three digits in the integer part of a plain decimal string. */
export function addThousandsSeparators(text: string): string {
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const dot = body.indexOf('.');
  const int = dot < 0 ? body : body.slice(0, dot);
  const frac = dot < 0 ? '' : body.slice(dot);
  if (!/^\d+$/.test(int)) return text;
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${frac}`;
}

export interface FormatOptions {
  /** Thousands separators; default true. */
  separators?: boolean;
}

/** Fixed decimals with thousands separators: formatNumber(1234.5) → '1,234.50'. */
export function formatNumber(value: NumberInput, decimals: number = DEFAULT_DECIMALS, options: FormatOptions = {}): string {
  const n = toFiniteNumber(value) ?? 0;
  const text = roundToString(n, decimals);
  return options.separators === false ? text : addThousandsSeparators(text);
}

/** A price at the symbol's price precision (SymbolInfo.pricePrecision). */
export function formatPrice(value: NumberInput, pricePrecision: number): string {
  return formatNumber(value, pricePrecision);
}

/** A quantity at the symbol's quantity precision (SymbolInfo.qtyPrecision). */
export function formatQty(value: NumberInput, qtyPrecision: number): string {
  return formatNumber(value, qtyPrecision);
}

const UNITS: readonly { size: number; suffix: string }[] = [
  { size: 1e9, suffix: 'B' },
  { size: 1e6, suffix: 'M' },
  { size: 1e3, suffix: 'K' },
];

/**
 * Abbreviated volume/amount: K at 1e3, M at 1e6, B at 1e9, with 2 decimals by default
 * (1234 → '1.23K', 1_500_000 → '1.50M'); below 1000 it is formatNumber. A value that rounds up to
 * the next unit moves to it (999_999 → '1.00M', not '1000.00K'). Beyond B it keeps B with separators.
 */
export function formatAbbreviated(value: NumberInput, decimals: number = DEFAULT_DECIMALS): string {
  const n = toFiniteNumber(value) ?? 0;
  const abs = Math.abs(n);
  const sign = n < 0 ? '-' : '';
  const plain = roundToString(abs, decimals);
  if (Number(plain) < 1e3) return Number(plain) === 0 ? plain : `${sign}${plain}`;
  for (let i = UNITS.length - 1; i >= 0; i--) {
    const unit = UNITS[i];
    if (!unit) continue;
    const scaled = roundToString(abs / unit.size, decimals);
    const bigger = UNITS[i - 1];
    if (Number(scaled) < 1e3 || !bigger) return `${sign}${addThousandsSeparators(scaled)}${unit.suffix}`;
  }
  return `${sign}${plain}`; // unreachable: the loop always returns at 'B'
}

/**
 * A percentage value (1.5 means 1.5 %) with '+' on positive values: '+1.50%', '-0.30%', '0.00%'.
 * The sign follows the rounded value, so 0.001 shows '0.00%' without '+'.
 */
export function formatPercent(value: NumberInput, decimals: number = DEFAULT_DECIMALS): string {
  const text = addThousandsSeparators(roundToString(toFiniteNumber(value) ?? 0, decimals));
  const positive = !text.startsWith('-') && !/^0(\.0*)?$/.test(text);
  return `${positive ? '+' : ''}${text}%`;
}

export type Trend = 'up' | 'down' | 'flat';

/** Direction of a change; invalid and zero are 'flat'. */
export function trendOf(value: NumberInput): Trend {
  const n = toFiniteNumber(value) ?? 0;
  return n > 0 ? 'up' : n < 0 ? 'down' : 'flat';
}

/** CSS custom properties the kline colour setting overrides page-wide (buy/up and sell/down). */
export const UP_COLOR_VAR = '--color-up';
export const DOWN_COLOR_VAR = '--color-down';
/** SPEC §9 defaults: green for up, red for down. */
export const DEFAULT_UP_COLOR = '#28ba98';
export const DEFAULT_DOWN_COLOR = '#F04A5A';

/** Class names for up/down text; styles map them to the CSS variables above. */
export const TREND_CLASS: Readonly<Record<Trend, string>> = { up: 'text-up', down: 'text-down', flat: '' };

/** Class for a signed change: 'text-up', 'text-down' or '' (flat). */
export function trendClass(value: NumberInput): string {
  return TREND_CLASS[trendOf(value)];
}

/**
 * A CSS colour for a signed change: `var(--color-up, #28ba98)`; the variables are set by the kline
 * colour setting, the fallbacks are the SPEC defaults. Flat is `inherit`.
 */
export function trendColor(value: NumberInput): string {
  const t = trendOf(value);
  if (t === 'up') return `var(${UP_COLOR_VAR}, ${DEFAULT_UP_COLOR})`;
  if (t === 'down') return `var(${DOWN_COLOR_VAR}, ${DEFAULT_DOWN_COLOR})`;
  return 'inherit';
}

export type KlineColorMode = 'greenUpRedDown' | 'redUpGreenDown';
export type KlineColorStyle = 'fresh' | 'traditional' | 'cvd';

const KLINE_STYLES: Readonly<Record<KlineColorStyle, { up: string; down: string }>> = {
  fresh: { up: '#2ebd85', down: '#f6465d' },
  traditional: { up: '#74A700', down: '#E50370' },
  cvd: { up: '#1F8DF9', down: '#EC8D42' },
};

/** Up/down colours of a kline colour setting (SPEC §4); redUpGreenDown swaps them. */
export function klineColors(mode: KlineColorMode, style: KlineColorStyle): { up: string; down: string } {
  const c = KLINE_STYLES[style];
  return mode === 'greenUpRedDown' ? { ...c } : { up: c.down, down: c.up };
}

/** The CSS variables to put on the root element for a kline colour setting. */
export function trendCssVars(colors: { up: string; down: string }): Record<string, string> {
  return { [UP_COLOR_VAR]: colors.up, [DOWN_COLOR_VAR]: colors.down };
}

/** Decimals of a step such as a tick size: 0.001 → 3, 1e-8 → 8, 10 → 0. */
export function decimalsOf(step: number): number {
  if (!Number.isFinite(step) || step <= 0) return 0;
  const text = String(step);
  const exp = /e-(\d+)$/.exec(text);
  if (exp) {
    const mantissa = text.slice(0, text.indexOf('e'));
    const dot = mantissa.indexOf('.');
    return Number(exp[1]) + (dot < 0 ? 0 : mantissa.length - dot - 1);
  }
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

// ---------------------------------------------------------------------------------------------
// Money figures (issue 26, Minor 20): one rule per kind of figure, on exact decimal strings (never
// a binary float for an amount).
// - a balance (what is held: total, available, frozen, equity, margin): the coin's display
//   precision, rounded DOWN (toward zero), so a balance never reads more than is there;
// - a statement amount (volumes, fees and rebates of the referral programme): the coin's statement
//   precision, fixed, so a column lines up and a small fee or rebate still shows;
// - a rate (1 BTC = 67,704.1 USDT, 1 USDT = 0.0000147583 BTC): significant digits, separators.
// ---------------------------------------------------------------------------------------------

/** Display precision of a balance per coin (USDT / USD 2, crypto 8). */
export function balanceDecimals(coin: string): number {
  return coin === 'USDT' || coin === 'USD' ? 2 : 8;
}

/** Precision of statement amounts per coin (USDT 4, crypto 8). */
export function statementDecimals(coin: string): number {
  return coin === 'USDT' || coin === 'USD' ? 4 : 8;
}

/** Significant digits of a shown rate. */
export const RATE_SIGNIFICANT = 6;

/** A finite number or decimal string as a plain decimal string (no exponent, no separators), or null. */
function plainDecimal(value: NumberInput): string | null {
  if (typeof value === 'string') {
    const s = value.trim().replace(/,/g, '');
    if (/^[-+]?(\d+\.?\d*|\.\d+)$/.test(s)) return s.replace(/^\+/, '');
  }
  const n = toFiniteNumber(value);
  if (n === null) return null;
  const r = String(n);
  if (!/e/i.test(r)) return r;
  // exponent form: shift the point in the string domain
  const [mant = '0', expText = '0'] = r.split(/e/i);
  const neg = mant.startsWith('-');
  const [i = '0', f = ''] = mant.replace('-', '').split('.');
  const exp = Number(expText);
  const digits = i + f;
  const point = i.length + exp;
  const body = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return neg ? `-${body}` : body;
}

/** Splits a plain decimal string into sign, integer digits and fraction digits. */
function parts(text: string): { neg: boolean; int: string; frac: string } {
  const neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  const [int = '', frac = ''] = body.split('.');
  return { neg, int: int.replace(/^0+(?=\d)/, '') || '0', frac };
}

/** A balance: the coin's display precision, rounded toward zero, separators ('10,993.876544' USDT → '10,993.87'). */
export function formatBalance(amount: NumberInput, coin: string): string {
  const d = balanceDecimals(coin);
  const plain = plainDecimal(amount);
  if (plain === null) return formatNumber(0, d);
  const { neg, int, frac } = parts(plain);
  const cut = frac.slice(0, d).padEnd(d, '0');
  const text = d > 0 ? `${int}.${cut}` : int;
  const zero = /^0(\.0*)?$/.test(text);
  return addThousandsSeparators(neg && !zero ? `-${text}` : text);
}

/** A statement amount (volume, fee, rebate): fixed at the coin's statement precision, half away from zero, separators. */
export function formatStatement(amount: NumberInput, coin: string): string {
  const d = statementDecimals(coin);
  const plain = plainDecimal(amount);
  if (plain === null) return formatNumber(0, d);
  const { neg, int, frac } = parts(plain);
  const units = BigInt(int + frac.slice(0, d).padEnd(d, '0')) + ((frac[d] ?? '0') >= '5' ? 1n : 0n);
  const s = units.toString().padStart(d + 1, '0');
  const text = d > 0 ? `${s.slice(0, -d)}.${s.slice(-d)}` : s;
  return addThousandsSeparators(neg && units !== 0n ? `-${text}` : text);
}

/**
 * A rate: `sig` significant digits (half away from zero), trailing zeros dropped, separators:
 * 67704.12 → '67,704.1', 0.0000147583177879 → '0.0000147583', 1 → '1'.
 */
export function formatRate(value: NumberInput, sig: number = RATE_SIGNIFICANT): string {
  const plain = plainDecimal(value);
  if (plain === null) return '0';
  const { neg, int, frac } = parts(plain);
  const digits = (int + frac).replace(/^0+/, '');
  if (digits === '' || /^0*$/.test(digits)) return '0';
  // position of the decimal point relative to the first significant digit
  const lead = (int + frac).length - (int + frac).replace(/^0+/, '').length;
  const point = int.length - lead; // digits before the point, counted from the first significant one
  const keep = Math.max(1, sig);
  let kept = BigInt(digits.slice(0, keep).padEnd(keep, '0'));
  if ((digits[keep] ?? '0') >= '5') kept += 1n;
  let ks = kept.toString();
  let p = point;
  if (ks.length > keep) { p += 1; ks = ks.slice(0, keep); } // 999999.5 → 1000000
  const body = p <= 0 ? `0.${'0'.repeat(-p)}${ks}` : p >= ks.length ? ks + '0'.repeat(p - ks.length) : `${ks.slice(0, p)}.${ks.slice(p)}`;
  const trimmed = body.includes('.') ? body.replace(/\.?0+$/, '') : body;
  return addThousandsSeparators(neg ? `-${trimmed}` : trimmed);
}
