/**
 * The indicator registry: one generic description per SPEC §9 indicator, so the trade chart
 * can list, configure, compute and draw any of them without knowing their formulas.
 *
 * Contract for the chart:
 * - `compute(candles, params)` returns one series per entry of `outputs`, keyed by
 *   `output.key`, each exactly `candles.length` long, `null` before `output.warmup(params)`
 *   and a finite number from there on (checked by tests/property/indicators.prop.test.ts).
 * - Params are integers in the units an exchange settings dialog shows (SAR's 2/2/20 mean
 *   0.02/0.02/0.2); out-of-range or non-integer values are clamped/rounded by
 *   {@link normalizeParams}, which `compute` applies itself.
 * - Live updates: `compute` is the reference; the chart advances indicators candle by candle
 *   with the bit-identical steps of incremental.ts (docs/INDICATORS.md "Live updates").
 */
import type { Candle } from '../protocol/market.ts';
import { bbi, boll, ema, ma, sar, sma } from './main.ts';
import { ao, bias, cci, kdj, macd, rsi } from './oscillators.ts';
import { brar, cr, dmi, dmiWilder, psy, vol, vr } from './sentiment.ts';
import type { Series } from './series.ts';

export const MAIN_INDICATORS = ['MA', 'EMA', 'SMA', 'SAR', 'BOLL', 'BBI'] as const;
export const SUB_INDICATORS = ['VOL', 'MACD', 'KDJ', 'RSI', 'BIAS', 'BRAR', 'CCI', 'DMI', 'DMIW', 'CR', 'PSY', 'VR', 'AO'] as const;
export type MainIndicatorName = (typeof MAIN_INDICATORS)[number];
export type SubIndicatorName = (typeof SUB_INDICATORS)[number];
export type IndicatorName = MainIndicatorName | SubIndicatorName;

/** Main indicators share the price pane; each sub indicator gets its own pane below. */
export type IndicatorKind = 'main' | 'sub';

/** How a series is drawn. `histogram` bars are coloured by sign (MACD) or by rise (VOL, AO). */
export type SeriesStyle = 'line' | 'histogram' | 'dots';

/**
 * What a series is measured in. `price` series scale with prices (and use the instrument's
 * price precision), `volume` with volumes, `ratio` series are dimensionless (percentages,
 * oscillator indexes) and do not change when all prices are scaled.
 */
export type SeriesUnit = 'price' | 'volume' | 'ratio';

/** One configurable integer parameter. */
export interface IndicatorParam {
  key: string;
  default: number;
  min: number;
  max: number;
}

/** One output series of an indicator. */
export interface IndicatorOutputSpec {
  /** Key of the series in the `compute` result; stable whatever the params. */
  key: string;
  /** Legend label for the given (normalised) params, e.g. `MA5`. */
  label: (params: readonly number[]) => string;
  style: SeriesStyle;
  unit: SeriesUnit;
  /** Index of the first defined value for the given (normalised) params. */
  warmup: (params: readonly number[]) => number;
}

/** Result of `compute`: one aligned series per output key. */
export type IndicatorOutput = Readonly<Record<string, Series>>;

/** A generic, data-only description of an indicator plus its pure computation. */
export interface IndicatorDefinition {
  name: IndicatorName;
  kind: IndicatorKind;
  /** English long name, for tooltips; the chart translates it by `name` if it wants. */
  title: string;
  params: readonly IndicatorParam[];
  outputs: readonly IndicatorOutputSpec[];
  compute: (candles: readonly Candle[], params?: readonly number[]) => IndicatorOutput;
}

/** Clamps each param into its range and rounds it; missing ones take the default. */
export function normalizeParams(specs: readonly IndicatorParam[], params?: readonly number[]): number[] {
  return specs.map((spec, i) => {
    const raw = params?.[i];
    if (raw === undefined || !Number.isFinite(raw)) return spec.default;
    return Math.min(spec.max, Math.max(spec.min, Math.round(raw)));
  });
}

const period = (key: string, def: number, max = 500): IndicatorParam => ({ key, default: def, min: 1, max });
const p = (params: readonly number[], i: number): number => params[i] ?? 0;
const at =
  (n: number) =>
  (): number =>
    n;

interface Draft {
  name: IndicatorName;
  kind: IndicatorKind;
  title: string;
  params: readonly IndicatorParam[];
  outputs: readonly IndicatorOutputSpec[];
  run: (candles: readonly Candle[], params: readonly number[]) => Series[];
}

function define(d: Draft): IndicatorDefinition {
  return {
    name: d.name,
    kind: d.kind,
    title: d.title,
    params: d.params,
    outputs: d.outputs,
    compute: (candles, params) => {
      const series = d.run(candles, normalizeParams(d.params, params));
      const out: Record<string, Series> = {};
      d.outputs.forEach((o, i) => {
        out[o.key] = series[i] ?? [];
      });
      return out;
    },
  };
}

/** n outputs named `<prefix><i+1>`, each one an MA-like line over param i with warm-up `lag(param)`. */
function perPeriod(prefix: string, label: string, count: number, unit: SeriesUnit, lag: (n: number) => number) {
  return Array.from(
    { length: count },
    (_, i): IndicatorOutputSpec => ({
      key: `${prefix}${i + 1}`,
      label: (ps) => `${label}${p(ps, i)}`,
      style: 'line',
      unit,
      warmup: (ps) => lag(p(ps, i)),
    }),
  );
}

const defs: IndicatorDefinition[] = [
  define({
    name: 'MA',
    kind: 'main',
    title: 'Moving Average',
    params: [period('period1', 5), period('period2', 10), period('period3', 30), period('period4', 60)],
    outputs: perPeriod('ma', 'MA', 4, 'price', (n) => n - 1),
    run: (c, ps) => ma(c, ps),
  }),
  define({
    name: 'EMA',
    kind: 'main',
    title: 'Exponential Moving Average',
    params: [period('period1', 6), period('period2', 12), period('period3', 20)],
    outputs: perPeriod('ema', 'EMA', 3, 'price', (n) => n - 1),
    run: (c, ps) => ema(c, ps),
  }),
  define({
    name: 'SMA',
    kind: 'main',
    title: 'Smoothed Moving Average SMA(N, M)',
    params: [period('n', 12), period('m', 2)],
    outputs: [{ key: 'sma', label: (ps) => `SMA${p(ps, 0)}`, style: 'line', unit: 'price', warmup: (ps) => p(ps, 0) - 1 }],
    run: (c, ps) => [sma(c, p(ps, 0), Math.min(p(ps, 1), p(ps, 0)))],
  }),
  define({
    name: 'SAR',
    kind: 'main',
    title: 'Parabolic Stop and Reverse',
    params: [
      { key: 'start', default: 2, min: 1, max: 100 },
      { key: 'step', default: 2, min: 1, max: 100 },
      { key: 'max', default: 20, min: 1, max: 100 },
    ],
    outputs: [{ key: 'sar', label: (ps) => `SAR(${ps.join(',')})`, style: 'dots', unit: 'price', warmup: at(1) }],
    run: (c, ps) => [sar(c, p(ps, 0) / 100, p(ps, 1) / 100, p(ps, 2) / 100)],
  }),
  define({
    name: 'BOLL',
    kind: 'main',
    title: 'Bollinger Bands',
    params: [period('n', 20), { key: 'k', default: 2, min: 1, max: 10 }],
    outputs: (['upper', 'middle', 'lower'] as const).map(
      (key): IndicatorOutputSpec => ({
        key,
        label: () => key.toUpperCase(),
        style: 'line',
        unit: 'price',
        warmup: (ps) => p(ps, 0) - 1,
      }),
    ),
    run: (c, ps) => {
      const r = boll(c, p(ps, 0), p(ps, 1));
      return [r.upper, r.middle, r.lower];
    },
  }),
  define({
    name: 'BBI',
    kind: 'main',
    title: 'Bull and Bear Index',
    params: [period('period1', 3), period('period2', 6), period('period3', 12), period('period4', 24)],
    outputs: [{ key: 'bbi', label: () => 'BBI', style: 'line', unit: 'price', warmup: (ps) => Math.max(...ps) - 1 }],
    run: (c, ps) => [bbi(c, ps)],
  }),
  define({
    name: 'VOL',
    kind: 'sub',
    title: 'Volume',
    params: [period('period1', 5), period('period2', 10)],
    outputs: [
      { key: 'volume', label: () => 'VOLUME', style: 'histogram', unit: 'volume', warmup: at(0) },
      ...perPeriod('ma', 'MA', 2, 'volume', (n) => n - 1),
    ],
    run: (c, ps) => {
      const r = vol(c, ps);
      return [r.volume, ...r.ma];
    },
  }),
  define({
    name: 'MACD',
    kind: 'sub',
    title: 'Moving Average Convergence Divergence',
    params: [period('fast', 12), period('slow', 26), period('signal', 9)],
    outputs: [
      { key: 'dif', label: () => 'DIF', style: 'line', unit: 'price', warmup: (ps) => Math.max(p(ps, 0), p(ps, 1)) - 1 },
      {
        key: 'dea',
        label: () => 'DEA',
        style: 'line',
        unit: 'price',
        warmup: (ps) => Math.max(p(ps, 0), p(ps, 1)) + p(ps, 2) - 2,
      },
      {
        key: 'macd',
        label: () => 'MACD',
        style: 'histogram',
        unit: 'price',
        warmup: (ps) => Math.max(p(ps, 0), p(ps, 1)) + p(ps, 2) - 2,
      },
    ],
    run: (c, ps) => {
      const r = macd(c, p(ps, 0), p(ps, 1), p(ps, 2));
      return [r.dif, r.dea, r.macd];
    },
  }),
  define({
    name: 'KDJ',
    kind: 'sub',
    title: 'Stochastic KDJ',
    params: [period('n', 9), period('m1', 3), period('m2', 3)],
    outputs: (['k', 'd', 'j'] as const).map(
      (key): IndicatorOutputSpec => ({
        key,
        label: () => key.toUpperCase(),
        style: 'line',
        unit: 'ratio',
        warmup: (ps) => p(ps, 0) - 1,
      }),
    ),
    run: (c, ps) => {
      const r = kdj(c, p(ps, 0), p(ps, 1), p(ps, 2));
      return [r.k, r.d, r.j];
    },
  }),
  define({
    name: 'RSI',
    kind: 'sub',
    title: 'Relative Strength Index',
    params: [period('period1', 6), period('period2', 12), period('period3', 24)],
    outputs: perPeriod('rsi', 'RSI', 3, 'ratio', (n) => n),
    run: (c, ps) => rsi(c, ps),
  }),
  define({
    name: 'BIAS',
    kind: 'sub',
    title: 'Bias Ratio',
    params: [period('period1', 6), period('period2', 12), period('period3', 24)],
    outputs: perPeriod('bias', 'BIAS', 3, 'ratio', (n) => n - 1),
    run: (c, ps) => bias(c, ps),
  }),
  define({
    name: 'BRAR',
    kind: 'sub',
    title: 'Sentiment Indicator BR/AR',
    params: [period('n', 26)],
    outputs: [
      { key: 'br', label: () => 'BR', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) },
      { key: 'ar', label: () => 'AR', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) - 1 },
    ],
    run: (c, ps) => {
      const r = brar(c, p(ps, 0));
      return [r.br, r.ar];
    },
  }),
  define({
    name: 'CCI',
    kind: 'sub',
    title: 'Commodity Channel Index',
    params: [period('n', 14)],
    outputs: [{ key: 'cci', label: () => 'CCI', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) - 1 }],
    run: (c, ps) => [cci(c, p(ps, 0))],
  }),
  define({
    name: 'DMI',
    kind: 'sub',
    title: 'Directional Movement Index',
    params: [period('n', 14), period('m', 6)],
    outputs: [
      { key: 'pdi', label: () => 'PDI', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) },
      { key: 'mdi', label: () => 'MDI', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) },
      { key: 'adx', label: () => 'ADX', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) + p(ps, 1) - 1 },
      { key: 'adxr', label: () => 'ADXR', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) + 2 * p(ps, 1) - 1 },
    ],
    run: (c, ps) => {
      const r = dmi(c, p(ps, 0), p(ps, 1));
      return [r.pdi, r.mdi, r.adx, r.adxr];
    },
  }),
  define({
    name: 'DMIW',
    kind: 'sub',
    title: "Directional Movement Index (Wilder's, as TA-Lib and TradingView)",
    params: [{ key: 'n', default: 14, min: 2, max: 500 }],
    outputs: [
      { key: 'pdi', label: () => '+DI', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) },
      { key: 'mdi', label: () => '−DI', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) },
      { key: 'adx', label: () => 'ADX', style: 'line', unit: 'ratio', warmup: (ps) => 2 * p(ps, 0) - 1 },
      { key: 'adxr', label: () => 'ADXR', style: 'line', unit: 'ratio', warmup: (ps) => 3 * p(ps, 0) - 2 },
    ],
    run: (c, ps) => {
      const r = dmiWilder(c, p(ps, 0));
      return [r.pdi, r.mdi, r.adx, r.adxr];
    },
  }),
  define({
    name: 'CR',
    kind: 'sub',
    title: 'Energy Indicator CR',
    params: [period('n', 26), period('ma1', 10), period('ma2', 20), period('ma3', 40), period('ma4', 60)],
    outputs: [
      { key: 'cr', label: () => 'CR', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) },
      ...Array.from(
        { length: 4 },
        (_, i): IndicatorOutputSpec => ({
          key: `ma${i + 1}`,
          label: (ps) => `MA${p(ps, i + 1)}`,
          style: 'line',
          unit: 'ratio',
          warmup: (ps) => p(ps, 0) + p(ps, i + 1) - 1 + Math.floor(p(ps, i + 1) / 2.5) + 1,
        }),
      ),
    ],
    run: (c, ps) => {
      const r = cr(c, p(ps, 0), ps.slice(1));
      return [r.cr, ...r.ma];
    },
  }),
  define({
    name: 'PSY',
    kind: 'sub',
    title: 'Psychological Line',
    params: [period('n', 12), period('m', 6)],
    outputs: [
      { key: 'psy', label: () => 'PSY', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) },
      { key: 'psyma', label: () => 'PSYMA', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) + p(ps, 1) - 1 },
    ],
    run: (c, ps) => {
      const r = psy(c, p(ps, 0), p(ps, 1));
      return [r.psy, r.psyma];
    },
  }),
  define({
    name: 'VR',
    kind: 'sub',
    title: 'Volume Ratio',
    params: [period('n', 24), period('m', 30)],
    outputs: [
      { key: 'vr', label: () => 'VR', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) },
      { key: 'mavr', label: () => 'MAVR', style: 'line', unit: 'ratio', warmup: (ps) => p(ps, 0) + p(ps, 1) - 1 },
    ],
    run: (c, ps) => {
      const r = vr(c, p(ps, 0), p(ps, 1));
      return [r.vr, r.mavr];
    },
  }),
  define({
    name: 'AO',
    kind: 'sub',
    title: 'Awesome Oscillator',
    params: [period('fast', 5), period('slow', 34)],
    outputs: [
      {
        key: 'ao',
        label: () => 'AO',
        style: 'histogram',
        unit: 'price',
        warmup: (ps) => Math.max(p(ps, 0), p(ps, 1)) - 1,
      },
    ],
    run: (c, ps) => [ao(c, p(ps, 0), p(ps, 1))],
  }),
];

/** Every SPEC §9 indicator by name; `Object.values` lists main ones first, in SPEC order. */
export const INDICATORS: Readonly<Record<IndicatorName, IndicatorDefinition>> = Object.fromEntries(
  defs.map((d) => [d.name, d]),
) as Record<IndicatorName, IndicatorDefinition>;

/** Computes one indicator by name with the given (or default) params. */
export function computeIndicator(
  name: IndicatorName,
  candles: readonly Candle[],
  params?: readonly number[],
): IndicatorOutput {
  return INDICATORS[name].compute(candles, params);
}
