/**
 * Chart cost per streamed candle update (`npm run bench -- chart`).
 *
 * What one kline frame costs the trade screen's chart pipeline in JavaScript, on 1 500 candles
 * (the candle stream's limit): reduceCandles → diffCandles (decides `update` vs `setData`) → the
 * indicator points the chart updates (chartData.ts scanIndicators: each indicator advanced by one
 * or two candles, src/indicators/incremental.ts; the full-history recompute on every tick is
 * measured as the baseline). The stream is at its limit, so every new candle drops the oldest:
 * the candle series resets then, the indicators still advance incrementally.
 * Three selections: the default (MA overlay + VOL pane), all six main overlays + MACD, and the
 * heaviest single sub indicator set. Canvas painting by lightweight-charts is NOT included: it
 * needs a real browser (the e2e spec exercises it); the UI also coalesces frames to one render
 * per animation frame, so at most ~60 of these run per second whatever the frame rate.
 *
 * Figures: microseconds per update (median of batches) and updates per second.
 */
import { createPrng } from '../server/market/prng.ts';
import type { Candle, KlineFrame } from '../src/protocol/market.ts';
import { MAIN_INDICATORS, SUB_INDICATORS, type IndicatorName } from '../src/indicators/registry.ts';
import { initialCandles, reduceCandles, type CandlesState } from '../src/streams/candles.ts';
import { diffCandles, indicatorLines, scanIndicators, toBar, toVolume, type ChartIndicators } from '../src/ui/components/chart/chartData.ts';

type Figures = Record<string, number | string>;

const PALETTE = { up: '#2ebd85', down: '#f6465d', lines: ['#f0b90b', '#3b82f6', '#c084fc'] };
const N = 1500;

function history(rand: () => number): Candle[] {
  const out: Candle[] = [];
  let p = 65_000;
  for (let i = 0; i < N; i++) {
    const o = p;
    p = Math.max(1, p + (rand() - 0.5) * 200);
    out.push({ t: i * 60_000, o, h: Math.max(o, p) + rand() * 50, l: Math.min(o, p) - rand() * 50, c: p, v: 1 + rand() * 20 });
  }
  return out;
}

/** Live frames: 9 ticks of the forming candle, then a new one (a 1m candle ticking ~every 6 s). */
function frames(rand: () => number, start: Candle, count: number): KlineFrame[] {
  const out: KlineFrame[] = [];
  let c = { ...start };
  for (let i = 0; i < count; i++) {
    if (i % 10 === 9) c = { t: c.t + 60_000, o: c.c, h: c.c, l: c.c, c: c.c, v: 0 };
    const px = Math.max(1, c.c + (rand() - 0.5) * 40);
    c = { ...c, c: px, h: Math.max(c.h, px), l: Math.min(c.l, px), v: c.v + rand() };
    out.push({ type: 'kline', symbol: 'BTCUSDT', interval: '1m', candle: c, closed: false });
  }
  return out;
}

function perUpdate(selection: readonly IndicatorName[], fs: readonly KlineFrame[], seed: CandlesState, full = false): number[] {
  let state = seed;
  let acc: ChartIndicators = scanIndicators(null, { candles: seed.items, names: selection, palette: PALETTE });
  let sink = 0;
  const batch = 50;
  const micros: number[] = [];
  for (let b = 0; b + batch <= fs.length; b += batch) {
    const t0 = process.hrtime.bigint();
    for (let i = b; i < b + batch; i++) {
      const next = reduceCandles(state, fs[i] as KlineFrame);
      const change = diffCandles(state.items, next.items);
      state = next;
      const last = next.items[next.items.length - 1];
      if (change.kind === 'tail' && last) sink += toBar(last).close + (toVolume(last, PALETTE).value);
      if (full) {
        for (const name of selection) for (const line of indicatorLines(name, next.items, PALETTE)) sink += line.data.length;
        continue;
      }
      // What CandleChart does: the indicator accumulator advances each indicator by the tick.
      acc = scanIndicators(acc, { candles: next.items, names: selection, palette: PALETTE });
      const draw = acc.draw;
      if (draw.kind === 'tail') for (const pts of draw.points.values()) sink += pts.size;
      else if (draw.kind === 'full') for (const lines of draw.lines.values()) sink += lines.length;
    }
    micros.push(Number(process.hrtime.bigint() - t0) / 1000 / batch);
  }
  if (sink === 0) throw new Error('unreachable');
  return micros;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

/** Bench entry (see bench/run.ts). */
export async function run(): Promise<Figures> {
  const rand = createPrng(42).next; // deterministic random walk
  const hist = history(rand);
  const seed = initialCandles('BTCUSDT', '1m', hist);
  const last = hist[hist.length - 1] as Candle;
  const fs = frames(rand, last, 1000);
  const selections: Array<[string, readonly IndicatorName[]]> = [
    ['default (MA + VOL)', ['MA', 'VOL']],
    ['6 main + MACD', [...MAIN_INDICATORS, 'MACD']],
    ['candles only', []],
  ];
  const figures: Figures = {};
  perUpdate(['MA', 'VOL'], fs.slice(0, 200), seed); // warm-up
  for (const [label, sel] of selections) {
    const us = median(perUpdate(sel, fs, seed));
    figures[`us/update ${label}`] = Number(us.toFixed(1));
    figures[`updates/s ${label}`] = Math.round(1e6 / us);
  }
  // Baseline: recomputing every indicator over the full history on each tick (the naive way).
  figures['us/update 6 main + MACD, full recompute'] = Number(median(perUpdate([...MAIN_INDICATORS, 'MACD'], fs, seed, true)).toFixed(1));
  // The heaviest single sub indicator (what one pane costs at worst).
  let worst: [string, number] = ['', 0];
  for (const name of SUB_INDICATORS) {
    const us = median(perUpdate([name], fs.slice(0, 300), seed));
    if (us > worst[1]) worst = [name, us];
  }
  figures['heaviest sub indicator'] = worst[0];
  figures['us/update heaviest sub indicator'] = Number(worst[1].toFixed(1));
  figures['note'] = 'JS pipeline on 1500 candles; canvas paint excluded (browser only)';
  return figures;
}
