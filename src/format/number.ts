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
