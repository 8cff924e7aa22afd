import type { Bar } from './candles.ts';
import type { Prng } from './prng.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** How far back each history layer reaches, in days before today's 00:00 UTC. */
export const HISTORY_LAYERS = {
  /** 1m bars from yesterday 00:00 to the history end: 1 440 to 2 880 candles. */
  minuteDays: 1,
  /** 15m bars for the 29 days before that. */
  quarterDays: 30,
  /** 1h bars back to 200 days. */
  hourDays: 200,
  /** 1d bars back to about 8 years (1w and 1M charts). */
  dayDays: 3000,
} as const;

export interface HistoryParams {
  /** Minute-aligned end of history (exclusive): the live feed starts here. */
  end: number;
  /** Price (in ticks) the history must end at: the close of the last bar. */
  endPriceTicks: number;
  annualVol: number;
  /** Typical trade size in quantity steps (scales volumes). */
  typicalSteps: number;
  prng: Prng;
}

/**
 * Generates history bars, oldest first, by a random walk run backwards from the end price,
 * so the last bar closes exactly at the live start price and charts are full from the first
 * second. The walk is mean-reverting in log space towards the end price (so eight years back
 * stays plausible) and switches between calm and busy regimes.
 *
 * Layers get finer towards the present (1d, 1h, 15m, 1m) and meet on UTC day boundaries,
 * which is what `aggregateBars` relies on to serve every interval from one array.
 */
export function generateHistory(p: HistoryParams): Bar[] {
  const today = Math.floor(p.end / DAY) * DAY;
  const segments: { from: number; to: number; dur: number }[] = [
    { from: today - HISTORY_LAYERS.dayDays * DAY, to: today - HISTORY_LAYERS.hourDays * DAY, dur: DAY },
    { from: today - HISTORY_LAYERS.hourDays * DAY, to: today - HISTORY_LAYERS.quarterDays * DAY, dur: HOUR },
    { from: today - HISTORY_LAYERS.quarterDays * DAY, to: today - HISTORY_LAYERS.minuteDays * DAY, dur: 15 * MINUTE },
    { from: today - HISTORY_LAYERS.minuteDays * DAY, to: p.end, dur: MINUTE },
  ];
  const logEnd = Math.log(p.endPriceTicks);
  const reversed: Bar[] = [];
  let close = p.endPriceTicks;
  let regime = 1;
  for (let s = segments.length - 1; s >= 0; s--) {
    const seg = segments[s];
    if (seg === undefined) continue;
    const sigma = p.annualVol * Math.sqrt(seg.dur / YEAR);
    const kappa = 0.02 * Math.sqrt(seg.dur / DAY);
    const volumeScale = p.typicalSteps * 25 * (seg.dur / MINUTE);
    for (let t = seg.to - seg.dur; t >= seg.from; t -= seg.dur) {
      if (p.prng.next() < 0.01) regime = [0.6, 1, 1.8][p.prng.int(3)] ?? 1;
      const logClose = Math.log(close);
      const r = sigma * regime * p.prng.normal() + kappa * (logEnd - logClose);
      const open = Math.max(1, Math.round(close * Math.exp(r)));
      const top = Math.max(open, close);
      const bottom = Math.min(open, close);
      const high = Math.max(top, Math.round(top * Math.exp(Math.abs(p.prng.normal()) * sigma * regime * 0.5)));
      const low = Math.max(1, Math.min(bottom, Math.round(bottom * Math.exp(-Math.abs(p.prng.normal()) * sigma * regime * 0.5))));
      const v = Math.max(1, Math.round(volumeScale * regime * Math.exp(0.4 * p.prng.normal())));
      reversed.push({ t, dur: seg.dur, o: open, h: high, l: low, c: close, v });
      close = open;
    }
  }
  return reversed.reverse();
}
