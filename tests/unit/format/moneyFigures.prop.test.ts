import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBalance, formatRate, formatStatement } from '../../../src/format/number.ts';

/**
 * One rule per kind of money figure (issue 26, Minor 20), on exact decimal strings: BigInt checks,
 * never a float. A decimal string is drawn as an integer count of 10^-scale.
 */
const decimal = (scale: number) =>
  fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }).map((u) => {
    const neg = u < 0n;
    const s = (neg ? -u : u).toString().padStart(scale + 1, '0');
    return { units: u, scale, text: `${neg ? '-' : ''}${s.slice(0, -scale)}.${s.slice(-scale)}` };
  });

/** '10,993.87' → units at `scale` (exact). */
function unitsOf(shown: string, scale: number): bigint {
  const plain = shown.replace(/,/g, '');
  expect(plain).toMatch(/^-?\d+(\.\d+)?$/);
  const neg = plain.startsWith('-');
  const [i = '0', f = ''] = plain.replace('-', '').split('.');
  const u = BigInt(i + f.padEnd(scale, '0').slice(0, scale));
  expect(f.length).toBeLessThanOrEqual(scale);
  return neg ? -u : u;
}

const grouped = (shown: string) => expect(shown.replace(/^-/, '').split('.')[0]).toMatch(/^\d{1,3}(,\d{3})*$/);

describe('formatBalance: the coin display precision, rounded toward zero', () => {
  it('USDT: 2 decimals, never more than held (within one cent below), grouped', () => {
    fc.assert(
      fc.property(decimal(6), ({ units, text }) => {
        const shown = formatBalance(text, 'USDT');
        expect(shown).toMatch(/\.\d{2}$/);
        grouped(shown);
        const s = unitsOf(shown, 6);
        const abs = (x: bigint) => (x < 0n ? -x : x);
        expect(abs(s) <= abs(units)).toBe(true);
        expect(abs(units) - abs(s) < 10_000n).toBe(true);
        if (s === 0n) expect(shown.startsWith('-')).toBe(false);
      }),
    );
  });

  it('BTC: 8 decimals, exact at its minor unit', () => {
    fc.assert(
      fc.property(decimal(8), ({ units, text }) => {
        expect(unitsOf(formatBalance(text, 'BTC'), 8)).toBe(units);
      }),
    );
  });

  it('the example of the issue', () => {
    expect(formatBalance('10993.876544', 'USDT')).toBe('10,993.87');
    expect(formatBalance('0.00012345', 'BTC')).toBe('0.00012345');
  });
});

describe('formatStatement: fixed at the statement precision, half away from zero', () => {
  it('USDT: 4 decimals, within half a unit', () => {
    fc.assert(
      fc.property(decimal(6), ({ units, text }) => {
        const shown = formatStatement(text, 'USDT');
        expect(shown).toMatch(/\.\d{4}$/);
        grouped(shown);
        const d = unitsOf(shown, 6) - units;
        expect(d <= 50n && d >= -50n).toBe(true);
      }),
    );
  });

  it('referral volume and fees read alike', () => {
    expect([formatStatement('1234.5678', 'USDT'), formatStatement('0.617284', 'USDT')]).toEqual(['1,234.5678', '0.6173']);
  });
});

describe('formatRate: significant digits with separators', () => {
  it('at most 6 significant digits, within half a unit of the 6th, grouped', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 18n }), fc.integer({ min: 0, max: 16 }), (u, scale) => {
        const s = u.toString().padStart(scale + 1, '0');
        const text = `${s.slice(0, s.length - scale)}${scale > 0 ? `.${s.slice(-scale)}` : ''}`;
        const shown = formatRate(text);
        grouped(shown);
        const digits = shown.replace(/[,.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
        expect(digits.length).toBeLessThanOrEqual(6);
        // |shown − value| ≤ half a unit of the 6th significant digit, checked at a common scale
        const S = 30;
        const v = u * 10n ** BigInt(S - scale);
        const w = unitsOf(shown, S);
        const mag = BigInt(u.toString().length - scale - 6); // exponent of the 6th significant digit
        const unit = mag + BigInt(S) >= 0n ? 10n ** (mag + BigInt(S)) : 1n;
        const d = w - v;
        expect((d < 0n ? -d : d) * 2n <= unit).toBe(true);
      }),
    );
  });

  it('the examples of the issue', () => {
    expect(formatRate('67704')).toBe('67,704');
    expect(formatRate('0.0000147583177879')).toBe('0.0000147583');
    expect(formatRate(67704.123)).toBe('67,704.1');
  });
});
