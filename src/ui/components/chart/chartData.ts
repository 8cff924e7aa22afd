import type { Candle } from '../../../protocol/market.ts';
import { INDICATORS, type IndicatorName, type SeriesStyle } from '../../../indicators/registry.ts';
import { advanceIndicator, liveChange, startIndicator, type IndicatorState, type IndicatorTail } from '../../../indicators/incremental.ts';

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
 * The chart's indicator accumulator (issue 30 point 5), a pure scan over candle lists: a live tick
 * advances each indicator's state by one or two candles (src/indicators/incremental.ts, O(window),
 * the same numbers as the full recompute) and yields only the changed points; anything else (a
 * new selection or palette, a symbol switch, a history merge) yields every line in full.
 */
export interface ChartIndicators {
  readonly candles: readonly Candle[];
  readonly names: readonly IndicatorName[];
  readonly palette: ChartPalette;
  readonly states: ReadonlyMap<IndicatorName, IndicatorState>;
  /** What the chart draws for this step. */
  readonly draw:
    | { kind: 'none' }
    | { kind: 'full'; lines: ReadonlyMap<IndicatorName, IndicatorLine[]> }
    | { kind: 'tail'; points: ReadonlyMap<IndicatorName, ReadonlyMap<string, ValuePoint[]>> };
}

export interface ChartIndicatorsInput {
  candles: readonly Candle[];
  names: readonly IndicatorName[];
  palette: ChartPalette;
}

function sameNames(a: readonly IndicatorName[], b: readonly IndicatorName[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

export function scanIndicators(acc: ChartIndicators | null, input: ChartIndicatorsInput): ChartIndicators {
  const { candles, names, palette } = input;
  const full = (): ChartIndicators => ({
    candles,
    names,
    palette,
    states: new Map(names.map((n) => [n, startIndicator(n, candles)])),
    draw: { kind: 'full', lines: new Map(names.map((n) => [n, indicatorLines(n, candles, palette)])) },
  });
  if (acc === null || acc.palette !== palette || !sameNames(acc.names, names)) return full();
  const change = liveChange(acc.candles, candles);
  if (change.kind === 'none') return { ...acc, draw: { kind: 'none' } };
  const states = new Map<IndicatorName, IndicatorState>();
  const points = new Map<IndicatorName, Map<string, ValuePoint[]>>();
  for (const name of names) {
    const st = acc.states.get(name);
    const next = st ? advanceIndicator(st, candles, change) : null;
    if (!next) return full();
    states.set(name, next.state);
    points.set(name, tailPoints(name, next.state.keys, next.tail, candles, palette));
  }
  return { candles, names, palette, states, draw: { kind: 'tail', points } };
}

/** The chart points of an indicator update, coloured as {@link indicatorLines} colours them. */
function tailPoints(name: IndicatorName, keys: readonly string[], tail: IndicatorTail, candles: readonly Candle[], palette: ChartPalette): Map<string, ValuePoint[]> {
  const def = INDICATORS[name];
  const first = candles.length - tail.values.length;
  const out = new Map<string, ValuePoint[]>();
  keys.forEach((key, k) => {
    const style = def.outputs[k]?.style;
    let prev = tail.before[k] ?? null;
    const pts: ValuePoint[] = [];
    tail.values.forEach((vals, j) => {
      const v = vals[k];
      const c = candles[first + j];
      if (v === null || v === undefined || c === undefined) return;
      const p: ValuePoint = { time: toChartTime(c.t), value: v };
      if (style === 'histogram') {
        const rising = name === 'MACD' ? v >= 0 : name === 'VOL' ? c.c >= c.o : prev === null || v >= prev;
        p.color = withAlpha(rising ? palette.up : palette.down, 0.7);
      }
      pts.push(p);
      prev = v;
    });
    out.set(key, pts);
  });
  return out;
}
