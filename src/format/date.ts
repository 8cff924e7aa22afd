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

const HOUR_MS = 3_600_000;

/**
 * Time left until the next periodic charge after `ts` (Unix ms, the market's clock from the ticker
 * frame, so no timer is needed): funding every 8 h at 00:00, 08:00 and 16:00 UTC, the overnight fee
 * daily at 00:00 UTC (docs/TRADING.md). At a boundary exactly, the next one (a full period).
 */
export function untilNextCharge(ts: number, periodHours: 8 | 24): number {
  const period = periodHours * HOUR_MS;
  if (!Number.isFinite(ts)) return 0;
  const rem = ((ts % period) + period) % period;
  return period - rem;
}

/** `HH:MM:SS` of a duration (ms, floored to the second); negative or invalid reads 00:00:00. */
export function formatCountdown(ms: number): string {
  const s = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / 1000) : 0;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(Math.floor(s / 3600))}:${p(Math.floor((s % 3600) / 60))}:${p(s % 60)}`;
}
