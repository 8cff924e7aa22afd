import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addThousandsSeparators,
  decimalsOf,
  formatAbbreviated,
  formatNumber,
  formatPercent,
  formatPrice,
  klineColors,
  roundToString,
  trendClass,
  trendColor,
  trendCssVars,
  trendOf,
} from '../../../src/format/number.ts';

describe('formatNumber', () => {
  it('defaults to 2 decimals with thousands separators', () => {
    expect(formatNumber(1234567.891)).toBe('1,234,567.89');
    expect(formatNumber(-1234.5)).toBe('-1,234.50');
    expect(formatNumber('9876.5')).toBe('9,876.50');
    expect(formatNumber(1234.5, 2, { separators: false })).toBe('1234.50');
  });
  it.each([0, -0, NaN, Infinity, -Infinity, null, undefined, '', '  ', 'abc'])('shows 0.00 for zero or invalid %s', (v) => {
    expect(formatNumber(v as never)).toBe('0.00');
  });
  it('rounds half away from zero on the decimal value', () => {
    expect(formatNumber(1.005)).toBe('1.01');
    expect(formatNumber(2.675)).toBe('2.68');
    expect(formatNumber(-1.005)).toBe('-1.01');
    expect(formatNumber(-0.004)).toBe('0.00');
    expect(formatNumber(1e-7, 8)).toBe('0.00000010');
  });
  it('uses the symbol precision for prices', () => {
    expect(formatPrice(0.3513, 4)).toBe('0.3513');
    expect(formatPrice(43123.1, 1)).toBe('43,123.1');
    expect(formatPrice(43123, 0)).toBe('43,123');
  });
});

describe('formatAbbreviated', () => {
  it.each([
    [999, '999.00'],
    [1000, '1.00K'],
    [1234, '1.23K'],
    [999_999, '1.00M'],
    [1_500_000, '1.50M'],
    [2_345_600_000, '2.35B'],
    [5e12, '5,000.00B'],
    [-1234, '-1.23K'],
    [0, '0.00'],
    [NaN, '0.00'],
  ])('%s → %s', (v, want) => expect(formatAbbreviated(v)).toBe(want));
});

describe('formatPercent and trend helpers', () => {
  it('adds + to positive values only', () => {
    expect(formatPercent(1.5)).toBe('+1.50%');
    expect(formatPercent(-0.3)).toBe('-0.30%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(0.001)).toBe('0.00%');
    expect(formatPercent(undefined)).toBe('0.00%');
  });
  it('maps direction to class and colour with the SPEC defaults as fallbacks', () => {
    expect([trendOf(2), trendOf(-2), trendOf(0), trendOf('x')]).toEqual(['up', 'down', 'flat', 'flat']);
    expect(trendClass(1)).toBe('text-up');
    expect(trendClass(-1)).toBe('text-down');
    expect(trendColor(1)).toBe('var(--color-up, #28ba98)');
    expect(trendColor(-1)).toBe('var(--color-down, #F04A5A)');
  });
  it('kline colour settings swap for redUpGreenDown', () => {
    expect(klineColors('greenUpRedDown', 'fresh')).toEqual({ up: '#2ebd85', down: '#f6465d' });
    expect(klineColors('redUpGreenDown', 'cvd')).toEqual({ up: '#EC8D42', down: '#1F8DF9' });
    expect(trendCssVars({ up: 'a', down: 'b' })).toEqual({ '--color-up': 'a', '--color-down': 'b' });
  });
  it('decimalsOf steps', () => {
    expect([decimalsOf(0.001), decimalsOf(1e-8), decimalsOf(1.5e-7), decimalsOf(10), decimalsOf(0.5)]).toEqual([3, 8, 8, 0, 1]);
  });
});

describe('formatting properties', () => {
  const finite = fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true });
  it('formatNumber round-trips to within half a unit of the last decimal and has exactly d decimals', () => {
    fc.assert(
      fc.property(finite, fc.integer({ min: 0, max: 8 }), (v, d) => {
        const text = formatNumber(v, d);
        const parsed = Number(text.replace(/,/g, ''));
        expect(Math.abs(parsed - v)).toBeLessThanOrEqual(0.5 * 10 ** -d + Math.abs(v) * 1e-15);
        expect(text.split('.')[1]?.length ?? 0).toBe(d);
        expect(text).toMatch(/^-?\d{1,3}(,\d{3})*(\.\d+)?$/);
        expect(text.startsWith('-') && /^-0(\.0*)?$/.test(text)).toBe(false);
      }),
    );
  });
  it('separators never change the digits', () => {
    fc.assert(
      fc.property(finite, (v) => {
        const plain = roundToString(v, 2);
        expect(addThousandsSeparators(plain).replace(/,/g, '')).toBe(plain);
      }),
    );
  });
  it('abbreviations keep the magnitude: value ≈ mantissa × unit', () => {
    fc.assert(
      fc.property(finite, (v) => {
        const text = formatAbbreviated(v);
        const m = /^(-?[\d,]+\.\d{2})([KMB]?)$/.exec(text);
        expect(m, text).not.toBeNull();
        const unit = { '': 1, K: 1e3, M: 1e6, B: 1e9 }[(m?.[2] ?? '') as '' | 'K' | 'M' | 'B'];
        const mantissa = Number((m?.[1] ?? '0').replace(/,/g, ''));
        expect(Math.abs(mantissa * unit - v)).toBeLessThanOrEqual(0.005 * unit + 1e-9);
        if (unit !== 1e9) expect(Math.abs(mantissa)).toBeLessThan(1000);
      }),
    );
  });
  it('percent sign follows the rounded value', () => {
    fc.assert(
      fc.property(finite, (v) => {
        const text = formatPercent(v);
        const n = Number(text.replace(/[,%+]/g, ''));
        if (n > 0) expect(text.startsWith('+')).toBe(true);
        else expect(text.startsWith('+')).toBe(false);
      }),
    );
  });
});
