import { z } from 'zod';

/**
 * The one number rule of every request field that carries money, a price, a quantity or a
 * leverage (issue 29, docs/SECURITY.md "The number rule"). A field takes either a JSON number or a
 * string of plain decimal digits:
 *
 * - digits with an optional fraction: `12`, `0.5`, `60000.25` (not `.5`, `5.`, `1e3`, `0x10`,
 *   `1_000`, `Infinity`, `+5`); a minus sign only where the field says negative makes sense;
 * - surrounding blanks are dropped, nothing else is: no arrays (`[5]`), booleans, objects;
 * - a JSON number is read as the decimal it prints as (`0.0000001`, never rounded to a grid);
 * - at most {@link MAX_DECIMAL_CHARS} characters; a field the server computes with as a number
 *   (prices, quantities) at most {@link MAX_SIGNIFICANT_DIGITS} significant digits, so the value
 *   checked against the tick or step is exactly the one sent.
 *
 * Each field refuses with its own message (the SPEC §5 text where there is one). Range rules that
 * depend on the instrument (tick, step, min/max quantity, leverage range) stay with the server.
 */

/** Longest decimal text a field accepts. */
export const MAX_DECIMAL_CHARS = 40;
/** Significant digits a double holds exactly (DBL_DIG): a longer decimal would be silently rounded. */
export const MAX_SIGNIFICANT_DIGITS = 15;

const UNSIGNED = /^\d+(\.\d+)?$/;
const SIGNED = /^-?\d+(\.\d+)?$/;

/** A finite JS number as plain decimal text without an exponent (`1e-7` → `0.0000001`); null for NaN / ±Infinity. */
export function plainNumberText(n: number): string | null {
  if (!Number.isFinite(n)) return null;
  const s = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/i.exec(s);
  if (!m) return s;
  const [, sign = '', whole = '', frac = '', expText = '0'] = m;
  const exp = Number(expText);
  const digits = whole + frac;
  const point = whole.length + exp;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

export interface DecimalRule {
  /** A minus sign is allowed (default false: the field is never negative). */
  signed?: boolean;
  /** Zero is allowed (default false: amounts, prices and quantities are positive). */
  zero?: boolean;
}

/** The plain decimal text of a request value under the rule, or null when the value breaks it. */
export function decimalText(v: unknown, rule: DecimalRule = {}): string | null {
  let t: string | null;
  if (typeof v === 'string') t = v.trim();
  else if (typeof v === 'number') t = plainNumberText(v);
  else return null;
  if (t === null || t.length === 0 || t.length > MAX_DECIMAL_CHARS) return null;
  if (!(rule.signed ? SIGNED : UNSIGNED).test(t)) return null;
  const zero = /^-?0+(\.0+)?$/.test(t);
  if (zero && !rule.zero) return null;
  // '-0' is zero, not a negative amount.
  return zero ? t.replace(/^-/, '') : t;
}

/** Significant digits of a plain decimal ('0.00012' → 2, '60000.5' → 6). */
export function significantDigits(t: string): number {
  const digits = t.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  // Trailing zeros of the fraction carry nothing; those of a whole number are significant enough to keep.
  const frac = t.includes('.') ? t.replace(/^[^.]*\./, '') : '';
  const trailing = frac.length - frac.replace(/0+$/, '').length;
  return Math.max(0, digits.length - trailing);
}

/** A money / amount field: the plain decimal string (e.g. '100', '0.01'), refused with `msg`. */
export const decimalString = (msg: string, rule: DecimalRule = {}) =>
  z.union([z.string(), z.number()], { error: msg }).transform((v, ctx) => {
    const t = decimalText(v, rule);
    if (t === null) {
      ctx.addIssue({ code: 'custom', message: msg });
      return z.NEVER;
    }
    return t;
  });

/** A price or quantity field the server computes with as a number: plain decimal, at most 15 significant digits. */
export const decimalNumber = (msg: string, rule: DecimalRule = {}) =>
  z.union([z.string(), z.number()], { error: msg }).transform((v, ctx) => {
    const t = decimalText(v, rule);
    if (t === null || significantDigits(t) > MAX_SIGNIFICANT_DIGITS) {
      ctx.addIssue({ code: 'custom', message: msg });
      return z.NEVER;
    }
    return Number(t);
  });

/** An optional price (limit, trigger, TP, SL): absent, null or '' means none (null); otherwise {@link decimalNumber}. */
export const optionalDecimalNumber = (msg: string) =>
  z
    .union([z.string(), z.number(), z.null()], { error: msg })
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return null;
      const t = decimalText(v);
      if (t === null || significantDigits(t) > MAX_SIGNIFICANT_DIGITS) {
        ctx.addIssue({ code: 'custom', message: msg });
        return z.NEVER;
      }
      return Number(t);
    });

/** A whole number field (leverage): digits only, or an integral JSON number; no sign, fraction, exponent or hex. */
export const wholeNumber = (msg: string) =>
  z.union([z.string(), z.number()], { error: msg }).transform((v, ctx) => {
    const t = typeof v === 'number' ? (Number.isSafeInteger(v) ? String(v) : null) : v.trim();
    if (t === null || !/^\d{1,6}$/.test(t)) {
      ctx.addIssue({ code: 'custom', message: msg });
      return z.NEVER;
    }
    return Number(t);
  });
