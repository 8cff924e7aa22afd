import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnv1a64, fnv1a64Reference, hashState, stableStringify } from '../../../src/ports/stateHash.ts';

/** Reorders every object's keys (deeply) with a seed-driven permutation. */
function shuffleKeys(v: unknown, seed: number): unknown {
  if (Array.isArray(v)) return v.map((x, i) => shuffleKeys(x, seed + i));
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    entries.sort((a, b) => ((a[0].length * 31 + seed) % 7) - ((b[0].length * 31 + seed) % 7) || (seed % 2 ? 1 : -1));
    return Object.fromEntries(entries.map(([k, x]) => [k, shuffleKeys(x, seed + 1)]));
  }
  return v;
}

describe('stateHash', () => {
  it('the fast FNV-1a 64 equals the BigInt definition', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => fnv1a64(s) === fnv1a64Reference(s)));
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c'); // published FNV-1a 64 test vector
  });

  it('key order never changes the serialisation; values do', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 1000 }), (v, seed) => {
        expect(stableStringify(shuffleKeys(v, seed))).toBe(stableStringify(v));
        expect(hashState(shuffleKeys(v, seed))).toBe(hashState(v));
      }),
    );
    expect(hashState({ a: 1 })).not.toBe(hashState({ a: 2 }));
  });

  it('JSON values serialise as JSON with sorted keys', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(JSON.parse(stableStringify(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
    expect(stableStringify({ b: [1, { d: 1, c: undefined }], a: null })).toBe('{"a":null,"b":[1,{"d":1}]}');
  });

  it('containers and odd numbers have one stable form', () => {
    expect(stableStringify(new Map([['b', 1], ['a', 2]]))).toBe(stableStringify(new Map([['a', 2], ['b', 1]])));
    expect(stableStringify(new Set([2, 1]))).toBe(stableStringify(new Set([1, 2])));
    expect(stableStringify([NaN, -0, Infinity])).toBe('["NaN",0,"Infinity"]');
    expect(stableStringify(new Float64Array([1.5, 2]))).toBe('[1.5,2]');
  });
});
