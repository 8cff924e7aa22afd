import type { Candle } from '../../../protocol/market.ts';
import { INDICATORS, type IndicatorName, type SeriesStyle } from '../../../indicators/registry.ts';

/**
 * Pure conversions from candles and indicator outputs to lightweight-charts data. Kept apart
 * from the React component so they are tested in node (the chart itself needs a real canvas).
 * Times are UTC seconds (lightweight-charts' `UTCTimestamp`); candles carry unix ms.
 */

export interface BarPoint {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

export interface ValuePoint {
  time: number;
  value: number;
  color?: string;
}

/** One drawable line or histogram of an indicator. */
export interface IndicatorLine {
  key: string;
  label: string;
  style: SeriesStyle;
  /** Index of the output within its indicator: picks the line colour from the palette. */
  colorIndex: number;
  data: ValuePoint[];
}

/** Colours for up/down bars and the indicator lines (cycled). */
export interface ChartPalette {
  up: string;
  down: string;
  lines: readonly string[];
}

/** Candle open time (ms) → chart time (s). */
export const toChartTime = (ms: number): number => Math.floor(ms / 1000);

export function toBar(c: Candle): BarPoint {
  return { time: toChartTime(c.t), open: c.o, high: c.h, low: c.l, close: c.c };
}

/** Volume bars coloured by the candle's direction, translucent so they sit behind the price. */
export function toVolume(c: Candle, palette: ChartPalette): ValuePoint {
  return { time: toChartTime(c.t), value: c.v, color: withAlpha(c.c >= c.o ? palette.up : palette.down, 0.45) };
}

/** `#rrggbb` + alpha → `rgba(...)`; anything else is returned unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(color.trim());
  if (!m || m[1] === undefined) return color;
  const n = parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/**
 * The drawable lines of one indicator over `candles` with default parameters: warm-up nulls are
 * dropped (lightweight-charts wants no holes at the start), histograms are coloured by sign
 * (MACD) or by rise against the previous value (VOL, AO).
 */
export function indicatorLines(name: IndicatorName, candles: readonly Candle[], palette: ChartPalette): IndicatorLine[] {
  const def = INDICATORS[name];
  const out = def.compute(candles);
  const params = def.params.map((p) => p.default);
  return def.outputs.map((spec, i) => {
    const series = out[spec.key] ?? [];
    const data: ValuePoint[] = [];
    let prev: number | null = null;
    for (let j = 0; j < series.length; j++) {
      const v = series[j];
      const c = candles[j];
      if (v === null || v === undefined || c === undefined) continue;
      const p: ValuePoint = { time: toChartTime(c.t), value: v };
      if (spec.style === 'histogram') {
        const rising = name === 'MACD' ? v >= 0 : name === 'VOL' ? c.c >= c.o : prev === null || v >= prev;
        p.color = withAlpha(rising ? palette.up : palette.down, 0.7);
      }
      data.push(p);
      prev = v;
    }
    return { key: spec.key, label: spec.label(params), style: spec.style, colorIndex: i, data };
  });
}

/**
 * How a candle list changed from the previous render: `tail` means only the last `count`
 * candles are new or changed (push them in order with `series.update`), `reset` means the
 * whole list must be set again.
 */
export type CandleChange = { kind: 'none' } | { kind: 'reset' } | { kind: 'tail'; count: 1 | 2 };

/**
 * Compares two candle arrays by item identity (the candle reducer replaces only the items it
 * changes): same length and only the last item replaced → tail 1; one candle appended, with
 * the previous last candle kept or replaced at the same open time (its final tick may be
 * coalesced into the same frame) → tail 1 or 2; anything else (symbol or interval switch,
 * history merge, trimming, an older candle changed) → reset. O(n) pointer comparisons.
 */
export function diffCandles(prev: readonly Candle[], next: readonly Candle[]): CandleChange {
  if (prev === next) return { kind: 'none' };
  if (prev.length === 0 || next.length === 0) return { kind: 'reset' };
  const sameUpTo = (n: number) => {
    for (let i = 0; i < n; i++) if (prev[i] !== next[i]) return false;
    return true;
  };
  if (next.length === prev.length) {
    if (!sameUpTo(prev.length - 1)) return { kind: 'reset' };
    const a = prev[prev.length - 1];
    const b = next[next.length - 1];
    if (a === b) return { kind: 'none' };
    return a?.t === b?.t ? { kind: 'tail', count: 1 } : { kind: 'reset' };
  }
  if (next.length === prev.length + 1 && sameUpTo(prev.length - 1)) {
    const a = prev[prev.length - 1];
    const b = next[prev.length - 1];
    if (a === b) return { kind: 'tail', count: 1 };
    return a?.t === b?.t ? { kind: 'tail', count: 2 } : { kind: 'reset' };
  }
  return { kind: 'reset' };
}

/**
 * Candles an incremental indicator update looks back over. Windowed indicators (MA, BOLL, KDJ,
 * CCI, ...) only need their period, so they come out exact; recursive ones (EMA, MACD, SAR, RSI's
 * smoothing) forget their start geometrically, and after 500 candles the difference to a
 * full-history computation is far below the price tick (property-tested in tradeData.test.ts).
 */
export const INDICATOR_TAIL_WINDOW = 500;

/**
 * The points of the last `count` candles of every output of an indicator, computed over the
 * last {@link INDICATOR_TAIL_WINDOW} candles only: what a live tick needs (`series.update`),
 * at a fraction of the cost of recomputing 1 500 candles.
 */
export function indicatorTail(name: IndicatorName, candles: readonly Candle[], count: number, palette: ChartPalette): Map<string, ValuePoint[]> {
  const window = candles.length > INDICATOR_TAIL_WINDOW ? candles.slice(candles.length - INDICATOR_TAIL_WINDOW) : candles;
  const from = toChartTime(candles[Math.max(0, candles.length - count)]?.t ?? 0);
  const out = new Map<string, ValuePoint[]>();
  for (const line of indicatorLines(name, window, palette)) out.set(line.key, line.data.filter((p) => p.time >= from));
  return out;
}
