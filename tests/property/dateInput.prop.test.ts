import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayFormatOf, formatDayInput, parseDayInput } from '../../src/format/dateInput.ts';

/**
 * The date filters' day in the language's order (issue 26 cosmetics): every valid day written in a
 * language's order reads back as the same 'YYYY-MM-DD'; what is not a whole valid day reads as null.
 */

const LANGS = ['en', 'zh', 'hk', 'jp', 'ko'] as const;
const dayArb = fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

describe('day input in the language order', () => {
  it('format then parse is the identity for every language', () => {
    fc.assert(fc.property(dayArb, fc.constantFrom(...LANGS), (day, lang) => {
      expect(parseDayInput(formatDayInput(day, lang), lang)).toBe(day);
    }));
  });

  it('the placeholders are the languages’ own orders; the written day follows them', () => {
    expect(LANGS.map((l) => dayFormatOf(l).pattern)).toEqual(['mm/dd/yyyy', 'yyyy/mm/dd', 'dd/mm/yyyy', 'yyyy/mm/dd', 'yyyy. mm. dd.']);
    expect(formatDayInput('2026-11-27', 'jp')).toBe('2026/11/27');
    expect(formatDayInput('2026-11-27', 'ko')).toBe('2026. 11. 27.');
    expect(formatDayInput('2026-11-27', 'hk')).toBe('27/11/2026');
    expect(parseDayInput('2026.3.5', 'ko')).toBe('2026-03-05');
    expect(parseDayInput('2026-03-05', 'jp')).toBe('2026-03-05');
    expect(parseDayInput('  ', 'jp')).toBe('');
  });

  it('incomplete or impossible days are null', () => {
    for (const t of ['2026/11', '2026/02/30', '2026/13/01', '26/11/27', 'abc', '2026/11/27/1']) expect(parseDayInput(t, 'jp')).toBeNull();
    expect(parseDayInput('11/27/2026', 'jp')).toBeNull();
    fc.assert(fc.property(fc.string(), fc.constantFrom(...LANGS), (s, lang) => {
      const r = parseDayInput(s, lang);
      expect(r === null || r === '' || /^\d{4}-\d{2}-\d{2}$/.test(r)).toBe(true);
    }));
  });
});
