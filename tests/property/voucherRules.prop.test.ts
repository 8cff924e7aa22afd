import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canTransition, effectiveStatus, isUsable, mergeExpiry, mergeLossProtection, mergeResult, mergeSpeed, SPEED_MAX_PERCENT, SPEED_MIN_PERCENT } from '../../server/vouchers/rules.ts';
import { mergePreview, sumUsdt, VOUCHER_STATUSES } from '../../src/protocol/vouchers.ts';
import { formatMinor } from '../../server/db/money.ts';

/** Properties of the pure voucher rules (server/vouchers/rules.ts). */

const percent = fc.integer({ min: SPEED_MIN_PERCENT, max: SPEED_MAX_PERCENT });
const percents = fc.array(percent, { minLength: 2, maxLength: 10 });
const minor = fc.bigInt({ min: 1n, max: 10n ** 15n });
const expiry = fc.option(fc.integer({ min: 0, max: 4_000_000_000_000 }), { nil: null });
const status = fc.constantFrom(...VOUCHER_STATUSES);

/** The reference: 1 − Π(1 − p/100) with exact rationals (numerator over 100^n), floored, capped. */
function referenceSpeed(ps: number[]): number {
  let num = 1n;
  let den = 1n;
  for (const p of ps) {
    num *= BigInt(100 - p);
    den *= 100n;
  }
  // percent = 100 × (den − num) / den, floored
  const floored = Number((100n * (den - num)) / den);
  return Math.min(SPEED_MAX_PERCENT, floored);
}

describe('merge rules', () => {
  it('loss protection: a merge conserves the value exactly', () => {
    fc.assert(
      fc.property(fc.array(minor, { minLength: 2, maxLength: 10 }), (vs) => {
        const sum = vs.reduce((a, b) => a + b, 0n);
        expect(mergeLossProtection(vs)).toBe(sum);
        const r = mergeResult('lossProtection', vs.map((v) => ({ kind: 'lossProtection', value: v.toString(), expiresAt: null })));
        expect(BigInt(r.value)).toBe(sum);
      }),
    );
  });

  it('speed: never above 90, never below the largest input, equal to the exact formula', () => {
    fc.assert(
      fc.property(percents, (ps) => {
        const m = mergeSpeed(ps);
        expect(m).toBeLessThanOrEqual(SPEED_MAX_PERCENT);
        expect(m).toBeGreaterThanOrEqual(Math.max(...ps));
        expect(Number.isInteger(m)).toBe(true);
        expect(m).toBe(referenceSpeed(ps));
      }),
    );
  });

  it('speed: the order of the inputs does not matter, and adding a voucher never lowers it', () => {
    fc.assert(
      fc.property(percents, percent, (ps, extra) => {
        expect(mergeSpeed([...ps].reverse())).toBe(mergeSpeed(ps));
        expect(mergeSpeed([...ps, extra])).toBeGreaterThanOrEqual(mergeSpeed(ps));
      }),
    );
  });

  it('known values: 20 % + 30 % = 44 %, 50 % + 50 % = 75 %, 70 % + 80 % caps at 90 %', () => {
    expect(mergeSpeed([20, 30])).toBe(44);
    expect(mergeSpeed([50, 50])).toBe(75);
    expect(mergeSpeed([70, 80])).toBe(90);
    expect(mergeSpeed([10, 10, 10])).toBe(27); // 1 − 0.729 = 27.1 %
  });

  it('expiry: the earliest among the inputs; permanent only if every input is', () => {
    fc.assert(
      fc.property(fc.array(expiry, { minLength: 2, maxLength: 10 }), (es) => {
        const e = mergeExpiry(es);
        const dated = es.filter((x): x is number => x !== null);
        if (dated.length === 0) expect(e).toBeNull();
        else expect(e).toBe(Math.min(...dated));
      }),
    );
  });
});

describe('the screen preview agrees with the server merge', () => {
  it('loss protection and speed, for any inputs', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(minor, expiry), { minLength: 2, maxLength: 10 }), percents, (lps, ps) => {
        const server = mergeResult('lossProtection', lps.map(([v, e]) => ({ kind: 'lossProtection', value: v.toString(), expiresAt: e })));
        const client = mergePreview(lps.map(([v, e]) => ({ kind: 'lossProtection', value: formatMinor(v, 'USDT'), expiresAt: e })));
        expect(client).toEqual({ value: formatMinor(BigInt(server.value), 'USDT'), expiresAt: server.expiresAt });
        const sServer = mergeResult('speed', ps.map((p) => ({ kind: 'speed', value: String(p), expiresAt: null })));
        expect(mergePreview(ps.map((p) => ({ kind: 'speed', value: String(p), expiresAt: null })))).toEqual(sServer);
      }),
    );
  });

  it('sumUsdt is exact', () => {
    expect(sumUsdt(['20.000000', '12.345678', '0.000001'])).toBe('32.345679');
    expect(sumUsdt(['0.5', '0.25'])).toBe('0.750000');
    expect(sumUsdt([])).toBe('0.000000');
  });
});

describe('status rules', () => {
  it('an expired voucher is never usable, and `use` is shown only while usable', () => {
    fc.assert(
      fc.property(status, expiry, fc.integer({ min: 0, max: 4_000_000_000_000 }), (s, e, now) => {
        const eff = effectiveStatus(s, e, now);
        if (e !== null && e <= now) expect(isUsable(s, e, now)).toBe(false);
        if (eff === 'use') expect(s === 'use' && (e === null || e > now)).toBe(true);
        if (s !== 'use') expect(eff).toBe(s);
      }),
    );
  });

  it('once expired, it stays expired at every later time', () => {
    fc.assert(
      fc.property(expiry, fc.integer({ min: 0, max: 2_000_000_000_000 }), fc.integer({ min: 0, max: 2_000_000_000_000 }), (e, t, dt) => {
        if (effectiveStatus('use', e, t) === 'expired') expect(effectiveStatus('use', e, t + dt)).toBe('expired');
      }),
    );
  });

  it('statuses only move forward: use → used | merged | expired, nothing leaves a terminal status', () => {
    fc.assert(
      fc.property(status, status, (from, to) => {
        expect(canTransition(from, to)).toBe(from === 'use' && to !== 'use');
      }),
    );
  });
});
