/**
 * Dates as the screens show and filter them, in the viewer's local time zone: one place for the
 * 'YYYY-MM-DD HH:mm:ss' stamp of every list and the local-day bounds of every date-range filter.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of a 'YYYY-MM-DD' day in ms, or undefined when the text is not a valid day. */
export function dayStartMs(day: string): number | undefined {
  const m = DAY.exec(day);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(y, mo - 1, d);
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d) return undefined;
  return date.getTime();
}

/** The last millisecond of a local day (the 'to' bound is inclusive of the whole day). */
export function dayEndMs(day: string): number | undefined {
  const m = DAY.exec(day);
  const start = dayStartMs(day);
  if (!m || start === undefined) return undefined;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1).getTime() - 1;
}

/** `YYYY-MM-DD HH:mm:ss` in the viewer's local time zone. */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
