import { COPY_MSG } from '../../../protocol/copy.ts';
import type { TFunction } from 'i18next';

/** The translation of a server / validation message of copy trading (COPY_MSG), or the text as sent. */
export function copyMsg(t: TFunction, msg: string | null | undefined): string {
  if (!msg) return '';
  if (msg === 'Invalid amount') return t('copy:msg_invalidAmount');
  for (const [k, v] of Object.entries(COPY_MSG)) {
    // The fixed-amount floor depends on the trader's market: the server puts it after the message.
    if (k === 'fixedTooSmall' && msg.startsWith(v)) return t('copy:msg_fixedTooSmall', { min: msg.slice(v.length), defaultValue: msg });
    if (msg === v || (k === 'amountTooSmall' && msg.startsWith(v))) return t(`copy:msg_${k}`, { defaultValue: msg });
  }
  return msg;
}

/** Decimal string → number for display only (never for money arithmetic). */
export const shown = (s: string | number): number => (typeof s === 'number' ? s : Number(s));

/** 'up' / 'down' / '' class for a signed decimal string. */
export function trendClass(s: string | number): string {
  const n = shown(s);
  return n > 0 ? 'cp-up' : n < 0 ? 'cp-down' : '';
}

/** '+12.34%' style percent of a decimal string. */
export function pct(s: string): string {
  const n = shown(s);
  return `${n > 0 ? '+' : ''}${n.toFixed(2)}%`;
}

/** Signed amount with 2 decimals and thousands separators. */
export function signedUsdt(s: string): string {
  const n = shown(s);
  const abs = Math.abs(n).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${n > 0 ? '+' : n < 0 ? '-' : ''}${abs}`;
}

export function usdt(s: string): string {
  return shown(s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Where {@link sparkPoints} puts the value 0 (y in the same box), or null when 0 is outside the values' range or the line is flat. */
export function sparkZeroY(values: readonly number[], h: number, pad = 2): number | null {
  if (values.length === 0) return null;
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (max === min || min > 0 || max < 0) return null;
  return pad + (h - 2 * pad) * (max / (max - min));
}

/** Points of an SVG polyline for `values` in a `w`×`h` box (flat line when all equal). */
export function sparkPoints(values: readonly number[], w: number, h: number, pad = 2): string {
  if (values.length === 0) return '';
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const n = values.length;
  return values
    .map((v, i) => {
      const x = n === 1 ? w / 2 : pad + (i * (w - 2 * pad)) / (n - 1);
      const y = max === min ? h / 2 : pad + (h - 2 * pad) * (1 - (v - min) / span);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

/** The figure windows of a trader page, in days, shortest first. */
export const FIGURE_WINDOWS = [7, 30, 90] as const;

/**
 * Whether the `days` window says something the shorter one does not (issue 26, Minor 19): the
 * shortest always does; a longer one once the trader's history is longer than the previous window
 * (with 7 days of history or less, the 30D and 90D figures are the 7D figure again). A figure from
 * before `historyDays` existed (an old recording) counts as covered.
 */
export function windowCovered(days: number, historyDays: number | undefined): boolean {
  const i = FIGURE_WINDOWS.findIndex((d) => d === days);
  if (i <= 0 || historyDays === undefined) return true;
  return historyDays > (FIGURE_WINDOWS[i - 1] ?? 0);
}

/**
 * The value labels of a PnL chart's y axis: the highest and lowest value, and 0 when it lies
 * strictly between them, each with its y in the same box as {@link sparkPoints} (top first). One
 * label for a flat line.
 */
export function sparkYTicks(values: readonly number[], h: number, pad = 2): { value: number; y: number }[] {
  if (values.length === 0) return [];
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (max === min) return [{ value: max, y: h / 2 }];
  const yOf = (v: number) => pad + (h - 2 * pad) * (1 - (v - min) / (max - min));
  const ticks = [{ value: max, y: yOf(max) }];
  if (min < 0 && max > 0) ticks.push({ value: 0, y: yOf(0) });
  ticks.push({ value: min, y: yOf(min) });
  return ticks;
}
