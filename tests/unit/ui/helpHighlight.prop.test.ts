import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightParts } from '../../../src/ui/screens/help-center/highlight.ts';

/**
 * The help search's marked term (issue 26): over texts and terms from a small alphabet (so terms
 * occur often, overlapping and in both cases) with the characters a pattern would read specially.
 */
const alphabet = fc.constantFrom('a', 'A', 'b', 'B', '.', '*', '(', '[', '\\', '$', '<', ' ', '語');
const text = fc.array(alphabet, { maxLength: 30 }).map((cs) => cs.join(''));
const term = fc.array(alphabet, { minLength: 1, maxLength: 3 }).map((cs) => cs.join('')).filter((q) => q.trim() !== '');
const lower = (s: string) => s.toLowerCase();

describe('highlightParts', () => {
  it('gives back the text, marks exactly the occurrences of the term, leftmost first and never overlapping', () => {
    fc.assert(
      fc.property(text, term, (t, q0) => {
        const q = q0.trim();
        const parts = highlightParts(t, q0);
        expect(parts.map((p) => p.text).join('')).toBe(t);
        // Expected hits by a plain scan of the lower-cased text (these characters lower-case one to one).
        const want: number[] = [];
        for (let i = 0; i + q.length <= t.length; ) {
          if (lower(t.slice(i, i + q.length)) === lower(q)) {
            want.push(i);
            i += q.length;
          } else i += 1;
        }
        const got: number[] = [];
        let at = 0;
        for (const p of parts) {
          if (p.hit) got.push(at);
          expect(p.text.length).toBeGreaterThan(0);
          at += p.text.length;
        }
        expect(got).toEqual(want);
        for (const p of parts) if (p.hit) expect(lower(p.text)).toBe(lower(q));
      }),
    );
  });

  it('marks nothing for a blank term', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('', ' ', '  '), (t, q) => {
        expect(highlightParts(t, q).some((p) => p.hit)).toBe(false);
      }),
    );
  });
});
