import {
  CandlestickSeries,
  ColorType,
  createChart,
  HistogramSeries,
  LineSeries,
  type IChartApi,
  type ISeriesApi,
  type SeriesType,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef, useState } from 'react';
import type { Candle } from '../../../protocol/market.ts';
import { formatPrice } from '../../../format/number.ts';
import type { IndicatorName, MainIndicatorName, SubIndicatorName } from '../../../indicators/registry.ts';
import { diffCandles, indicatorLines, scanIndicators, toBar, toVolume, type ChartIndicators, type ChartPalette } from './chartData.ts';

/** Colours the chart needs from the theme (read from CSS variables by the caller). */
export interface ChartTheme {
  background: string;
  text: string;
  grid: string;
  border: string;
}

export interface CandleChartProps {
  candles: readonly Candle[];
  pricePrecision: number;
  tickSize: number;
  palette: ChartPalette;
  theme: ChartTheme;
  /** Overlays on the price pane (SPEC §9 main indicators). */
  main: readonly MainIndicatorName[];
  /** One oscillator in its own pane below (SPEC §9 sub indicators); VOL by default. */
  sub: SubIndicatorName | null;
  /** Increase to scroll back to the newest candle (after a symbol or interval switch). */
  resetKey: string;
}

type AnySeries = ISeriesApi<SeriesType>;
interface Overlay {
  name: IndicatorName;
  key: string;
  series: AnySeries;
}

const asTime = (s: number) => s as UTCTimestamp as Time;

/**
 * The price axis and labels of the candle series (issue 26 cosmetics): the instrument's precision
 * and tick, with thousands separators from the one formatting module ('67,531.50', not '67531.50').
 */
export function chartPriceFormat(pricePrecision: number, tickSize: number): { type: 'custom'; minMove: number; formatter: (price: number) => string } {
  return { type: 'custom', minMove: tickSize, formatter: (price: number) => formatPrice(price, pricePrecision) };
}

/**
 * The candle chart (lightweight-charts 5): candles on pane 0 with translucent volume bars at
 * its bottom, the chosen main indicators as overlays, and the chosen sub indicator in pane 1.
 *
 * Update path: a live kline that only changes or appends the last candle costs one
 * `series.update` per series (see {@link diffCandles}); indicator overlays advance incrementally
 * (src/indicators/incremental.ts, tens of microseconds on 1 500 candles, bench/chart.bench.ts) and
 * update their last points only. The caller coalesces frames to animation frames, so at most one
 * update runs per frame.
 */
export function CandleChart(props: CandleChartProps) {
  const { candles, pricePrecision, tickSize, palette, theme, main, sub, resetKey } = props;
  const host = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const candleRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volumeRef = useRef<ISeriesApi<'Histogram'> | null>(null);
  const overlays = useRef<Overlay[]>([]);
  const candlesRef = useRef(candles);
  candlesRef.current = candles;
  const [overlayVersion, setOverlayVersion] = useState(0);
  const prevCandles = useRef<readonly Candle[]>([]);

  // Create once; destroy on unmount.
  useEffect(() => {
    const el = host.current;
    // NOTE: without ResizeObserver (jsdom) there is no layout and no canvas to draw on: the
    // chart is left out and the rest of the screen still works (charts are tested in Playwright).
    if (!el || typeof ResizeObserver === 'undefined') return;
    // The axes and labels in the app's own font stack (theme.css --font), not the library's default
    // (which ends in the browser's generic sans-serif: Arial → Liberation Sans on some Linux machines,
    // DejaVu on others, so the same chart drew differently per machine).
    const fontFamily = getComputedStyle(el).getPropertyValue('--font').trim() || undefined;
    const chart = createChart(el, { autoSize: true, layout: { fontFamily }, timeScale: { timeVisible: true, secondsVisible: false }, rightPriceScale: { borderVisible: false } });
    chartRef.current = chart;
    candleRef.current = chart.addSeries(CandlestickSeries, { priceLineVisible: true });
    volumeRef.current = chart.addSeries(HistogramSeries, { priceScaleId: 'vol', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
    chart.priceScale('vol').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    return () => {
      chart.remove();
      chartRef.current = null;
      candleRef.current = null;
      volumeRef.current = null;
      overlays.current = [];
      prevCandles.current = [];
    };
  }, []);

  // Theme and colours.
  useEffect(() => {
    chartRef.current?.applyOptions({
      layout: { background: { type: ColorType.Solid, color: theme.background }, textColor: theme.text, panes: { separatorColor: theme.border } },
      grid: { vertLines: { color: theme.grid }, horzLines: { color: theme.grid } },
    });
    candleRef.current?.applyOptions({
      upColor: palette.up,
      downColor: palette.down,
      borderUpColor: palette.up,
      borderDownColor: palette.down,
      wickUpColor: palette.up,
      wickDownColor: palette.down,
      priceFormat: chartPriceFormat(pricePrecision, tickSize),
    });
    prevCandles.current = []; // volume colours depend on the palette: redraw in full
  }, [theme, palette, pricePrecision, tickSize]);

  // Candles and volume: incremental when possible.
  useEffect(() => {
    const cs = candleRef.current;
    const vs = volumeRef.current;
    if (!cs || !vs) return;
    const change = diffCandles(prevCandles.current, candles);
    prevCandles.current = candles;
    if (change.kind === 'none') return;
    if (change.kind === 'tail') {
      for (const c of candles.slice(candles.length - change.count)) {
        const b = toBar(c);
        cs.update({ ...b, time: asTime(b.time) });
        const v = toVolume(c, palette);
        vs.update({ ...v, time: asTime(v.time) });
      }
      return;
    }
    cs.setData(candles.map((c) => { const b = toBar(c); return { ...b, time: asTime(b.time) }; }));
    vs.setData(candles.map((c) => { const v = toVolume(c, palette); return { ...v, time: asTime(v.time) }; }));
  }, [candles, palette, theme]);

  useEffect(() => {
    chartRef.current?.timeScale().scrollToRealTime();
  }, [resetKey]);

  // Indicators: series are rebuilt when the selection or colours change ...
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    for (const o of overlays.current) chart.removeSeries(o.series);
    overlays.current = [];
    while (chart.panes().length > 1) chart.removePane(chart.panes().length - 1);
    const add = (name: IndicatorName, pane: number) => {
      for (const line of indicatorLines(name, candlesRef.current, palette)) {
        const color = palette.lines[line.colorIndex % palette.lines.length] ?? theme.text;
        const common = { priceLineVisible: false, lastValueVisible: false, title: line.label };
        const series: AnySeries =
          line.style === 'histogram'
            ? chart.addSeries(HistogramSeries, common, pane)
            : chart.addSeries(
                LineSeries,
                line.style === 'dots'
                  ? { ...common, color, lineVisible: false, pointMarkersVisible: true, pointMarkersRadius: 1.5, crosshairMarkerVisible: false }
                  : { ...common, color, lineWidth: 1, crosshairMarkerVisible: false },
                pane,
              );
        overlays.current.push({ name, key: line.key, series });
      }
    };
    // The VOL pane already shows the volume: no second copy under the candles.
    volumeRef.current?.applyOptions({ visible: sub !== 'VOL' });
    for (const name of main) add(name, 0);
    if (sub) {
      add(sub, 1);
      chart.panes()[0]?.setStretchFactor(3);
      chart.panes()[1]?.setStretchFactor(1);
    }
    setOverlayVersion((v) => v + 1);
  }, [main, sub, palette, theme]);

  // ... and their data refreshed on every candle change through the pure indicator accumulator
  // (chartData.ts scanIndicators): a live tick advances each indicator by one or two candles and
  // updates only those points; a new selection, palette or candle list sets every series in full.
  const indicators = useRef<ChartIndicators | null>(null);
  const indicatorVersion = useRef(-1);
  useEffect(() => {
    const names = [...new Set(overlays.current.map((o) => o.name))];
    const prev = indicatorVersion.current === overlayVersion ? indicators.current : null;
    const acc = scanIndicators(prev, { candles, names, palette });
    indicators.current = acc;
    indicatorVersion.current = overlayVersion;
    const draw = acc.draw;
    if (draw.kind === 'none') return;
    for (const o of overlays.current) {
      if (draw.kind === 'tail') {
        for (const p of draw.points.get(o.name)?.get(o.key) ?? []) o.series.update({ ...p, time: asTime(p.time) });
        continue;
      }
      const line = draw.lines.get(o.name)?.find((l) => l.key === o.key);
      if (line) o.series.setData(line.data.map((p) => ({ ...p, time: asTime(p.time) })));
    }
  }, [candles, palette, overlayVersion]);

  return <div ref={host} className="rf-chart" data-testid="candle-chart" />;
}
