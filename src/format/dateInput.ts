/**
 * A day typed in the language's own order (issue 26 cosmetics: Chromium's native date input shows
 * 'mm/dd/yyyy' whatever the page language, since it follows the browser's UI locale, not `lang`):
 * the history screens' date filters show and read days as the language writes them and hand the
 * filter the same 'YYYY-MM-DD' day the native input gave. English keeps the native input, whose
 * 'mm/dd/yyyy' is its own order.
 */

type Part = 'y' | 'm' | 'd';

interface DayFormat {
  order: readonly [Part, Part, Part];
  /** The placeholder and the way a day is written back. */
  pattern: string;
}

const FORMATS: Readonly<Record<string, DayFormat>> = {
  en: { order: ['m', 'd', 'y'], pattern: 'mm/dd/yyyy' },
  zh: { order: ['y', 'm', 'd'], pattern: 'yyyy/mm/dd' },
  hk: { order: ['d', 'm', 'y'], pattern: 'dd/mm/yyyy' },
  jp: { order: ['y', 'm', 'd'], pattern: 'yyyy/mm/dd' },
  ko: { order: ['y', 'm', 'd'], pattern: 'yyyy. mm. dd.' },
};

/** The language's day format (English's for an unknown language). */
export function dayFormatOf(lang: string): DayFormat {
  return FORMATS[lang] ?? (FORMATS.en as DayFormat);
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;

function validDay(y: number, m: number, d: number): boolean {
  if (y < 1000 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A 'YYYY-MM-DD' day written in the language's order ('2026/11/27', '2026. 11. 27.', '27/11/2026'); '' for ''. */
export function formatDayInput(iso: string, lang: string): string {
  const m = ISO.exec(iso);
  if (!m) return '';
  const parts: Record<Part, string> = { y: m[1] ?? '', m: m[2] ?? '', d: m[3] ?? '' };
  const f = dayFormatOf(lang);
  let i = 0;
  return f.pattern.replace(/yyyy|mm|dd/g, () => parts[f.order[i++] ?? 'y']);
}

/**
 * The 'YYYY-MM-DD' day of a typed text in the language's order (any of '/', '.', '-', spaces
 * between the numbers; a trailing '.' allowed), '' for an empty text, null while it is not a whole,
 * valid day.
 */
export function parseDayInput(text: string, lang: string): string | null {
  const t = text.trim();
  if (t === '') return '';
  const nums = t.split(/[\s./-]+/).filter((s) => s !== '');
  if (nums.length !== 3 || nums.some((n) => !/^\d+$/.test(n))) return null;
  const f = dayFormatOf(lang);
  const v: Record<Part, string> = { y: '', m: '', d: '' };
  f.order.forEach((p, i) => {
    v[p] = nums[i] ?? '';
  });
  if (v.y.length !== 4 || v.m.length > 2 || v.d.length > 2) return null;
  const [y, mo, d] = [Number(v.y), Number(v.m), Number(v.d)];
  if (!validDay(y, mo, d)) return null;
  return `${v.y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}
