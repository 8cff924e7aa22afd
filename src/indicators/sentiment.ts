/**
 * Sub-chart volume, sentiment and trend-strength indicators (SPEC §9): VOL, BRAR, CR, PSY,
 * VR, DMI (and DMI in Wilder's form, `dmiWilder`). Tongdaxin-style definitions (the ones Chinese-market exchange charts use); pure,
 * aligned with the candles, `null` during warm-up (series.ts). Ratios with a zero
 * denominator are 0 (`safeRatio`). Formulas and defaults: docs/INDICATORS.md.
 */
import type { Candle } from '../protocol/market.ts';
import { nulls, rollingMean, rollingSum, safeRatio, shift, zip, type Series } from './series.ts';

/** VOL: the volume bars plus moving averages of volume. */
export interface VolResult {
  volume: Series;
  /** One MA of volume per period, in the order given. */
  ma: Series[];
}

/** VOL with volume MAs, default 5/10. The volume series is defined from index 0. */
export function vol(candles: readonly Candle[], periods: readonly number[] = [5, 10]): VolResult {
  const volume = candles.map((x) => x.v);
  return { volume, ma: periods.map((n) => rollingMean(volume, n)) };
}

/**
 * Per-candle term that needs the previous candle; `null` at index 0. Keeps the "nulls are a
 * prefix" invariant that the rolling helpers rely on.
 */
function withPrevious(candles: readonly Candle[], fn: (cur: Candle, prev: Candle) => number): Series {
  const out = nulls(candles.length);
  for (let i = 1; i < candles.length; i++) out[i] = fn(candles[i] as Candle, candles[i - 1] as Candle);
  return out;
}

/** BRAR lines, both in percent. */
export interface BrarResult {
  br: Series;
  ar: Series;
}

/**
 * BRAR(n), default 26. AR = SUM(H − O, n) / SUM(O − L, n) · 100 (from index n − 1);
 * BR = SUM(MAX(0, H − C′), n) / SUM(MAX(0, C′ − L), n) · 100 with C′ the previous close
 * (from index n).
 */
export function brar(candles: readonly Candle[], n = 26): BrarResult {
  const ar = zip(
    rollingSum(
      candles.map((x) => x.h - x.o),
      n,
    ),
    rollingSum(
      candles.map((x) => x.o - x.l),
      n,
    ),
    (up, down) => safeRatio(up, down, 100),
  );
  const br = zip(
    rollingSum(
      withPrevious(candles, (x, p) => Math.max(0, x.h - p.c)),
      n,
    ),
    rollingSum(
      withPrevious(candles, (x, p) => Math.max(0, p.c - x.l)),
      n,
    ),
    (up, down) => safeRatio(up, down, 100),
  );
  return { br, ar };
}

/** CR line and its four forward-shifted MAs. */
export interface CrResult {
  cr: Series;
  /** MA(CR, m) shifted by floor(m / 2.5) + 1 candles, one per MA period. */
  ma: Series[];
}

/**
 * CR(n; m1..m4), default 26; 10/20/40/60. MID = REF((H + L) / 2, 1);
 * CR = SUM(MAX(0, H − MID), n) / SUM(MAX(0, MID − L), n) · 100 (from index n);
 * MAi = REF(MA(CR, mi), floor(mi / 2.5) + 1), the tongdaxin shift (5, 9, 17, 25 by default).
 */
export function cr(candles: readonly Candle[], n = 26, maPeriods: readonly number[] = [10, 20, 40, 60]): CrResult {
  const up = withPrevious(candles, (x, p) => Math.max(0, x.h - (p.h + p.l) / 2));
  const down = withPrevious(candles, (x, p) => Math.max(0, (p.h + p.l) / 2 - x.l));
  const line = zip(rollingSum(up, n), rollingSum(down, n), (u, d) => safeRatio(u, d, 100));
  return {
    cr: line,
    ma: maPeriods.map((m) => shift(rollingMean(line, m), Math.floor(m / 2.5) + 1)),
  };
}

/** PSY line and its MA, both in percent within [0, 100]. */
export interface PsyResult {
  psy: Series;
  psyma: Series;
}

/** PSY(n, m), default 12/6: PSY = COUNT(C > C′, n) / n · 100 (from index n); PSYMA = MA(PSY, m). */
export function psy(candles: readonly Candle[], n = 12, m = 6): PsyResult {
  const rises = withPrevious(candles, (x, p) => (x.c > p.c ? 1 : 0));
  const line = rollingSum(rises, n).map((s) => (s === null ? null : (s / n) * 100));
  return { psy: line, psyma: rollingMean(line, m) };
}

/** VR line and its MA. */
export interface VrResult {
  vr: Series;
  mavr: Series;
}

/**
 * VR(n, m), default 24/30 (tongdaxin): over n candles, TH = volume of up candles (C > C′),
 * TL = of down candles, TQ = of unchanged; VR = (2·TH + TQ) / (2·TL + TQ) · 100 (from index
 * n); MAVR = MA(VR, m).
 */
export function vr(candles: readonly Candle[], n = 24, m = 30): VrResult {
  const th = rollingSum(
    withPrevious(candles, (x, p) => (x.c > p.c ? x.v : 0)),
    n,
  );
  const tl = rollingSum(
    withPrevious(candles, (x, p) => (x.c < p.c ? x.v : 0)),
    n,
  );
  const tq = rollingSum(
    withPrevious(candles, (x, p) => (x.c === p.c ? x.v : 0)),
    n,
  );
  const line = nulls(candles.length);
  for (let i = 0; i < candles.length; i++) {
    const h = th[i];
    const l = tl[i];
    const q = tq[i];
    if (h === null || h === undefined || l === null || l === undefined || q === null || q === undefined) continue;
    line[i] = safeRatio(2 * h + q, 2 * l + q, 100);
  }
  return { vr: line, mavr: rollingMean(line, m) };
}

/** DMI lines, all in percent. */
export interface DmiResult {
  pdi: Series;
  mdi: Series;
  adx: Series;
  adxr: Series;
}

/**
 * DMI(n, m), default 14/6, tongdaxin form (plain sums, not Wilder's smoothing):
 * TR = MAX(H − L, |H − C′|, |L − C′|); +DM = H − H′ when it is > 0 and > L′ − L, else 0;
 * −DM = L′ − L when it is > 0 and > H − H′, else 0.
 * PDI = SUM(+DM, n) / SUM(TR, n) · 100, MDI likewise (from index n);
 * ADX = MA(|MDI − PDI| / (MDI + PDI) · 100, m) (from n + m − 1);
 * ADXR = (ADX + REF(ADX, m)) / 2 (from n + 2m − 1).
 */
export function dmi(candles: readonly Candle[], n = 14, m = 6): DmiResult {
  const tr = withPrevious(candles, (x, p) => Math.max(x.h - x.l, Math.abs(x.h - p.c), Math.abs(x.l - p.c)));
  const plusDm = withPrevious(candles, (x, p) => {
    const up = x.h - p.h;
    const down = p.l - x.l;
    return up > 0 && up > down ? up : 0;
  });
  const minusDm = withPrevious(candles, (x, p) => {
    const up = x.h - p.h;
    const down = p.l - x.l;
    return down > 0 && down > up ? down : 0;
  });
  const trSum = rollingSum(tr, n);
  const pdi = zip(rollingSum(plusDm, n), trSum, (d, t) => safeRatio(d, t, 100));
  const mdi = zip(rollingSum(minusDm, n), trSum, (d, t) => safeRatio(d, t, 100));
  const dx = zip(pdi, mdi, (p, q) => safeRatio(Math.abs(q - p), q + p, 100));
  const adx = rollingMean(dx, m);
  const adxr = zip(adx, shift(adx, m), (a, b) => (a + b) / 2);
  return { pdi, mdi, adx, adxr };
}

/**
 * DMI in Wilder's definition, exactly as TA-Lib's PLUS_DI / MINUS_DI / ADX / ADXR compute it (the
 * form TradingView and most Western charts show), period n (default 14), all in percent:
 * TR, +DM, −DM as in {@link dmi}; the three are Wilder-summed: the first sum is the plain sum of the
 * n − 1 terms after the first candle, then S = S − S / n + X for each later term.
 * PDI = 100 · S(+DM) / S(TR), MDI likewise (from index n); DX = 100 · |PDI − MDI| / (PDI + MDI);
 * ADX = the mean of the first n DX values (at index 2n − 1), then (ADX′ · (n − 1) + DX) / n;
 * ADXR = (ADX + ADX n − 1 candles earlier) / 2 (from index 3n − 2). Zero denominators give 0.
 */
export function dmiWilder(candles: readonly Candle[], n = 14): DmiResult {
  const len = candles.length;
  const pdi = nulls(len);
  const mdi = nulls(len);
  const adx = nulls(len);
  const adxr = nulls(len);
  if (n < 2) return { pdi, mdi, adx, adxr };
  let tr = 0;
  let plus = 0;
  let minus = 0;
  let dxSum = 0;
  let prevAdx = 0;
  for (let i = 1; i < len; i++) {
    const x = candles[i] as Candle;
    const p = candles[i - 1] as Candle;
    const t = Math.max(x.h - x.l, Math.abs(x.h - p.c), Math.abs(x.l - p.c));
    const up = x.h - p.h;
    const down = p.l - x.l;
    const pdm = up > 0 && up > down ? up : 0;
    const mdm = down > 0 && down > up ? down : 0;
    if (i < n) {
      tr += t;
      plus += pdm;
      minus += mdm;
      continue;
    }
    tr = tr - tr / n + t;
    plus = plus - plus / n + pdm;
    minus = minus - minus / n + mdm;
    const pv = safeRatio(plus, tr, 100);
    const mv = safeRatio(minus, tr, 100);
    pdi[i] = pv;
    mdi[i] = mv;
    const dx = safeRatio(Math.abs(pv - mv), pv + mv, 100);
    if (i < 2 * n - 1) {
      dxSum += dx;
      continue;
    }
    prevAdx = i === 2 * n - 1 ? (dxSum + dx) / n : (prevAdx * (n - 1) + dx) / n;
    adx[i] = prevAdx;
    const back = adx[i - (n - 1)];
    if (back !== null && back !== undefined) adxr[i] = (prevAdx + back) / 2;
  }
  return { pdi, mdi, adx, adxr };
}
