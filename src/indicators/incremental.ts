/**
 * Incremental indicators (issue 30 point 5): a live tick changes only the last candle or appends
 * one, so the chart advances each indicator's state by one or two candles instead of recomputing
 * the history. Same numbers as the full recompute (`INDICATORS[name].compute`, the reference):
 * every step evaluates the same floating-point expressions in the same order on the same inputs
 * (tests/property/indicatorsIncremental.prop.test.ts compares them with `Object.is`).
 *
 * Each indicator has a step (state after candle i − 1 → state and outputs at candle i):
 * - recursive indicators (EMA, SMA, MACD, SAR, KDJ, RSI, DMIW) carry what the reference loop
 *   carries (EMA seeds and values, SAR's trend, KDJ's K and D, RSI's averages, Wilder's sums);
 * - windowed ones (MA, VOL, BOLL, BBI, BIAS, AO, CCI, BRAR) read their windows from the candles;
 * - lines with MAs of themselves (CR, PSY, VR, DMI) carry the line's last values.
 * Each step is O(window): flat in the length of the history.
 *
 * Pure: states are immutable values; `advanceIndicator` returns a new state.
 * Indices are absolute (counted from the first candle of the last reset), so when the candle
 * stream drops its oldest candle while appending one (its limit), the state goes on as if the
 * history were still there: the values equal the full recompute over every candle seen since the
 * reset, which is what the chart has drawn.
 */
import type { Candle } from '../protocol/market.ts';
import { INDICATORS, normalizeParams, type IndicatorName } from './registry.ts';
import { sarSeed, sarStep, type SarState } from './main.ts';
import { mean, safeRatio } from './series.ts';

type Values = readonly (number | null)[];
type Get = (i: number) => Candle;

/** One step: state after candle i − 1 → state after candle i, and the outputs at i. */
interface Machine<S> {
  init: S;
  /** How many of the last candles a reset steps over to build the state (default 2, all for recursive ones). */
  replay?: number;
  step: (s: S, get: Get, i: number) => [S, Values];
}

/** Raised by `get` when a candle a step needs is no longer held: the caller recomputes in full. */
class Gone extends Error {}

// ---------------------------------------------------------------------------------------------
// Recursive means (series.ts recursiveMean): seeded with the mean of the first n defined inputs.

interface RmState {
  readonly warm: readonly number[];
  readonly prev: number | null;
}
const RM0: RmState = { warm: [], prev: null };

function rmStep(s: RmState, x: number | null, n: number, alpha: number): [RmState, number | null] {
  if (x === null || n < 1) return [s, null];
  if (s.prev !== null) {
    const prev = alpha * x + (1 - alpha) * s.prev;
    return [{ warm: s.warm, prev }, prev];
  }
  const warm = [...s.warm, x];
  if (warm.length < n) return [{ warm, prev: null }, null];
  const prev = mean(warm);
  return [{ warm: [], prev }, prev];
}

function closeMeans(ns: readonly number[], alphaOf: (n: number, i: number) => number): Machine<readonly RmState[]> {
  return {
    init: ns.map(() => RM0),
    step: (s, get, i) => {
      const x = get(i).c;
      const next: RmState[] = [];
      const out: (number | null)[] = [];
      ns.forEach((n, k) => {
        const [st, v] = rmStep(s[k] ?? RM0, x, n, alphaOf(n, k));
        next.push(st);
        out.push(v);
      });
      return [next, out];
    },
  };
}

function macdMachine(fast: number, slow: number, signal: number): Machine<readonly [RmState, RmState, RmState]> {
  return {
    init: [RM0, RM0, RM0],
    step: ([f, sl, sg], get, i) => {
      const x = get(i).c;
      const [f2, fv] = rmStep(f, x, fast, 2 / (fast + 1));
      const [s2, sv] = rmStep(sl, x, slow, 2 / (slow + 1));
      const dif = fv !== null && sv !== null ? fv - sv : null;
      const [g2, dea] = rmStep(sg, dif, signal, 2 / (signal + 1));
      return [[f2, s2, g2], [dif, dea, dif !== null && dea !== null ? dif - dea : null]];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// SAR (main.ts sar): the same step as the full series (sarSeed, sarStep).

function sarMachine(start: number, stepAf: number, max: number): Machine<SarState | null> {
  return {
    init: null,
    step: (s, get, i) => {
      if (i === 0) return [null, [null]];
      const [next, out] = sarStep(s ?? sarSeed(get(0), get(1), start), get(i), start, stepAf, max);
      return [next, [out]];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// KDJ (oscillators.ts kdj): K and D, seeded at 50; the n-candle high and low are re-read.

function kdjMachine(n: number, m1: number, m2: number): Machine<readonly [number, number]> {
  return {
    init: [50, 50],
    step: ([prevK, prevD], get, i) => {
      if (n < 1 || i < n - 1) return [[prevK, prevD], [null, null, null]];
      const hs: number[] = [];
      const ls: number[] = [];
      for (let j = i - n + 1; j <= i; j++) {
        const c = get(j);
        hs.push(c.h);
        ls.push(c.l);
      }
      const hi = Math.max(...hs);
      const lo = Math.min(...ls);
      const close = get(i).c;
      const rsv = hi === lo ? 50 : ((close - lo) / (hi - lo)) * 100;
      const k = ((m1 - 1) * prevK + rsv) / m1;
      const d = ((m2 - 1) * prevD + k) / m2;
      return [[k, d], [k, d, 3 * k - 2 * d]];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// RSI (oscillators.ts rsiSeries): Wilder-smoothed gains and losses per period.

function rsiMachine(ns: readonly number[]): Machine<readonly (readonly [number, number])[]> {
  return {
    init: ns.map(() => [0, 0] as const),
    step: (s, get, i) => {
      const next: (readonly [number, number])[] = [];
      const out: (number | null)[] = [];
      const price = get(i).c;
      ns.forEach((n, k) => {
        let [gain, loss] = s[k] ?? [0, 0];
        if (n < 1 || i < n) {
          next.push([gain, loss]);
          out.push(null);
          return;
        }
        if (i === n) {
          gain = 0;
          loss = 0;
          for (let j = 1; j <= n; j++) {
            const ch = get(j).c - get(j - 1).c;
            if (ch > 0) gain += ch;
            else loss -= ch;
          }
          gain /= n;
          loss /= n;
        } else {
          const ch = price - get(i - 1).c;
          gain = (gain * (n - 1) + (ch > 0 ? ch : 0)) / n;
          loss = (loss * (n - 1) + (ch < 0 ? -ch : 0)) / n;
        }
        next.push([gain, loss]);
        out.push(gain + loss <= 1e-9 * Math.abs(price) ? 50 : (100 * gain) / (gain + loss));
      });
      return [next, out];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// DMIW (sentiment.ts dmiWilder): Wilder's sums, the DX warm-up sum, ADX and its last n − 1 values.

interface DmiwState {
  readonly tr: number;
  readonly plus: number;
  readonly minus: number;
  readonly dxSum: number;
  readonly prevAdx: number;
  /** ADX at the previous n − 1 candles (oldest first), for ADXR. */
  readonly adx: readonly (number | null)[];
}

function dmiwMachine(n: number): Machine<DmiwState> {
  const nothing: Values = [null, null, null, null];
  return {
    init: { tr: 0, plus: 0, minus: 0, dxSum: 0, prevAdx: 0, adx: [] },
    step: (s, get, i) => {
      const remember = (st: DmiwState, a: number | null): DmiwState => ({ ...st, adx: [...st.adx, a].slice(-(n - 1)) });
      if (n < 2) return [s, nothing];
      if (i === 0) return [remember(s, null), nothing];
      const x = get(i);
      const p = get(i - 1);
      const t = Math.max(x.h - x.l, Math.abs(x.h - p.c), Math.abs(x.l - p.c));
      const up = x.h - p.h;
      const down = p.l - x.l;
      const pdm = up > 0 && up > down ? up : 0;
      const mdm = down > 0 && down > up ? down : 0;
      if (i < n) return [remember({ ...s, tr: s.tr + t, plus: s.plus + pdm, minus: s.minus + mdm }, null), nothing];
      const tr = s.tr - s.tr / n + t;
      const plus = s.plus - s.plus / n + pdm;
      const minus = s.minus - s.minus / n + mdm;
      const pv = safeRatio(plus, tr, 100);
      const mv = safeRatio(minus, tr, 100);
      const dx = safeRatio(Math.abs(pv - mv), pv + mv, 100);
      if (i < 2 * n - 1) return [remember({ ...s, tr, plus, minus, dxSum: s.dxSum + dx }, null), [pv, mv, null, null]];
      const adx = i === 2 * n - 1 ? (s.dxSum + dx) / n : (s.prevAdx * (n - 1) + dx) / n;
      const back = s.adx.length >= n - 1 ? (s.adx[s.adx.length - (n - 1)] ?? null) : null;
      const next = remember({ ...s, tr, plus, minus, prevAdx: adx }, adx);
      return [next, [pv, mv, adx, back === null ? null : (adx + back) / 2]];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Plain windows read straight from the candles (series.ts rolling: the window summed oldest first
// from 0, then divided by its length), for the chart's default selection: MA, VOL, BOLL, BBI.

function windowSum(get: Get, i: number, n: number, f: (c: Candle) => number): number {
  let s = 0;
  for (let j = i - n + 1; j <= i; j++) s += f(get(j));
  return s;
}

const close = (c: Candle): number => c.c;
const volume = (c: Candle): number => c.v;

function windowMean(get: Get, i: number, n: number, f: (c: Candle) => number): number | null {
  return n >= 1 && i >= n - 1 ? windowSum(get, i, n, f) / n : null;
}

function meansMachine(ns: readonly number[], f: (c: Candle) => number, withValue: boolean): Machine<null> {
  return {
    init: null,
    step: (_s, get, i) => {
      const out = ns.map((n) => windowMean(get, i, n, f));
      return [null, withValue ? [f(get(i)), ...out] : out];
    },
  };
}

function bollMachine(n: number, k: number): Machine<null> {
  return {
    init: null,
    step: (_s, get, i) => {
      const m = windowMean(get, i, n, close);
      if (m === null) return [null, [null, null, null]];
      let ss = 0;
      for (let j = i - n + 1; j <= i; j++) {
        const v = get(j).c;
        ss += (v - m) * (v - m);
      }
      const sd = Math.sqrt(ss / n);
      return [null, [m + k * sd, m, m - k * sd]];
    },
  };
}

function bbiMachine(ns: readonly number[]): Machine<null> {
  return {
    init: null,
    step: (_s, get, i) => {
      if (ns.length === 0) return [null, [null]];
      let s = 0;
      for (const n of ns) {
        const v = windowMean(get, i, n, close);
        if (v === null) return [null, [null]];
        s += v;
      }
      return [null, [s / ns.length]];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Lines of sums over the previous candle (sentiment.ts CR, PSY, VR, BRAR) and their MAs: the line
// at the new candle from its n-candle sums, the MAs from the line's recent values carried in the
// state (oldest first, the last `keep`).

/** SUM(f(candle, previous), n) at i, summed oldest first; null before index n (its warm-up). */
function prevSum(get: Get, i: number, n: number, f: (x: Candle, p: Candle) => number): number | null {
  if (n < 1 || i < n) return null;
  let s = 0;
  for (let j = i - n + 1; j <= i; j++) s += f(get(j), get(j - 1));
  return s;
}

/** MA(line, m) at `end` from the carried values; `from` = the line's first defined index. */
function bufferMean(buf: readonly (number | null)[], i: number, end: number, m: number, from: number): number | null {
  if (m < 1 || end - m + 1 < from || i - (end - m + 1) >= buf.length) return null;
  let s = 0;
  for (let x = end - m + 1; x <= end; x++) s += buf[buf.length - 1 - (i - x)] as number;
  return s / m;
}

function lineMachine(keep: number, line: (get: Get, i: number) => number | null, rest: (buf: readonly (number | null)[], i: number) => Values): Machine<readonly (number | null)[]> {
  return {
    init: [],
    replay: keep + 1,
    step: (buf, get, i) => {
      const v = line(get, i);
      const next = [...buf, v].slice(-Math.max(1, keep));
      return [next, [v, ...rest(next, i)]];
    },
  };
}

function crMachine(n: number, ms: readonly number[]): Machine<readonly (number | null)[]> {
  const lag = ms.map((m) => Math.floor(m / 2.5) + 1);
  const up = (x: Candle, p: Candle) => Math.max(0, x.h - (p.h + p.l) / 2);
  const down = (x: Candle, p: Candle) => Math.max(0, (p.h + p.l) / 2 - x.l);
  return lineMachine(
    Math.max(...ms.map((m, q) => m + (lag[q] ?? 0))),
    (get, i) => {
      const u = prevSum(get, i, n, up);
      const d = prevSum(get, i, n, down);
      return u === null || d === null ? null : safeRatio(u, d, 100);
    },
    (buf, i) => ms.map((m, q) => bufferMean(buf, i, i - (lag[q] ?? 0), m, n)),
  );
}

function psyMachine(n: number, m: number): Machine<readonly (number | null)[]> {
  return lineMachine(
    m,
    (get, i) => {
      const s = prevSum(get, i, n, (x, p) => (x.c > p.c ? 1 : 0));
      return s === null ? null : (s / n) * 100;
    },
    (buf, i) => [bufferMean(buf, i, i, m, n)],
  );
}

function vrMachine(n: number, m: number): Machine<readonly (number | null)[]> {
  return lineMachine(
    m,
    (get, i) => {
      const h = prevSum(get, i, n, (x, p) => (x.c > p.c ? x.v : 0));
      const l = prevSum(get, i, n, (x, p) => (x.c < p.c ? x.v : 0));
      const q = prevSum(get, i, n, (x, p) => (x.c === p.c ? x.v : 0));
      return h === null || l === null || q === null ? null : safeRatio(2 * h + q, 2 * l + q, 100);
    },
    (buf, i) => [bufferMean(buf, i, i, m, n)],
  );
}

function brarMachine(n: number): Machine<null> {
  return {
    init: null,
    step: (_s, get, i) => {
      const up = prevSum(get, i, n, (x, p) => Math.max(0, x.h - p.c));
      const down = prevSum(get, i, n, (x, p) => Math.max(0, p.c - x.l));
      const br = up === null || down === null ? null : safeRatio(up, down, 100);
      const ar = n >= 1 && i >= n - 1 ? safeRatio(windowSum(get, i, n, (x) => x.h - x.o), windowSum(get, i, n, (x) => x.o - x.l), 100) : null;
      return [null, [br, ar]];
    },
  };
}

// DMI (sentiment.ts dmi): PDI / MDI from n-candle sums; ADX = MA(DX, m) from the recent DX values,
// ADXR = (ADX + ADX m candles back) / 2 from the recent ADX values.
interface DmiState {
  readonly dx: readonly (number | null)[];
  readonly adx: readonly (number | null)[];
}

function dmiMachine(n: number, m: number): Machine<DmiState> {
  const tr = (x: Candle, p: Candle) => Math.max(x.h - x.l, Math.abs(x.h - p.c), Math.abs(x.l - p.c));
  const plusDm = (x: Candle, p: Candle) => {
    const up = x.h - p.h;
    const down = p.l - x.l;
    return up > 0 && up > down ? up : 0;
  };
  const minusDm = (x: Candle, p: Candle) => {
    const up = x.h - p.h;
    const down = p.l - x.l;
    return down > 0 && down > up ? down : 0;
  };
  return {
    init: { dx: [], adx: [] },
    replay: 2 * m + 2,
    step: (s, get, i) => {
      const t = prevSum(get, i, n, tr);
      const pSum = prevSum(get, i, n, plusDm);
      const mSum = prevSum(get, i, n, minusDm);
      const pdi = t === null || pSum === null ? null : safeRatio(pSum, t, 100);
      const mdi = t === null || mSum === null ? null : safeRatio(mSum, t, 100);
      const dx = pdi === null || mdi === null ? null : safeRatio(Math.abs(mdi - pdi), mdi + pdi, 100);
      const dxs = [...s.dx, dx].slice(-Math.max(1, m));
      const adx = bufferMean(dxs, i, i, m, n);
      const adxs = [...s.adx, adx].slice(-(m + 1));
      const back = m <= i && adxs.length > m ? (adxs[adxs.length - 1 - m] ?? null) : null;
      return [{ dx: dxs, adx: adxs }, [pdi, mdi, adx, adx === null || back === null ? null : (adx + back) / 2]];
    },
  };
}

// ---------------------------------------------------------------------------------------------
// BIAS, AO, CCI (oscillators.ts): windows of a per-candle value.

function biasMachine(ns: readonly number[]): Machine<null> {
  return {
    init: null,
    step: (_s, get, i) => {
      const c = get(i).c;
      return [null, ns.map((n) => {
        const m = windowMean(get, i, n, close);
        return m === null ? null : safeRatio(c - m, m, 100);
      })];
    },
  };
}

function aoMachine(fast: number, slow: number): Machine<null> {
  const median = (x: Candle) => (x.h + x.l) / 2;
  return {
    init: null,
    step: (_s, get, i) => {
      const f = windowMean(get, i, fast, median);
      const sl = windowMean(get, i, slow, median);
      return [null, [f === null || sl === null ? null : f - sl]];
    },
  };
}

function cciMachine(n: number): Machine<null> {
  const tp = (x: Candle) => (x.h + x.l + x.c) / 3;
  return {
    init: null,
    step: (_s, get, i) => {
      const m = windowMean(get, i, n, tp);
      if (m === null) return [null, [null]];
      let dev = 0;
      for (let j = i - n + 1; j <= i; j++) dev += Math.abs(tp(get(j)) - m);
      dev /= n;
      if (dev <= Math.abs(m) * 1e-12) return [null, [0]];
      return [null, [(tp(get(i)) - m) / (0.015 * dev)]];
    },
  };
}

const at = (ps: readonly number[], i: number): number => ps[i] ?? 0;

function machineFor(name: IndicatorName, ps: readonly number[]): Machine<unknown> {
  switch (name) {
    case 'EMA':
      return closeMeans(ps, (n) => 2 / (n + 1)) as Machine<unknown>;
    case 'SMA': {
      const n = at(ps, 0);
      const m = Math.min(at(ps, 1), n);
      return closeMeans([n], () => m / n) as Machine<unknown>;
    }
    case 'MACD':
      return macdMachine(at(ps, 0), at(ps, 1), at(ps, 2)) as Machine<unknown>;
    case 'SAR':
      return sarMachine(at(ps, 0) / 100, at(ps, 1) / 100, at(ps, 2) / 100) as Machine<unknown>;
    case 'KDJ':
      return kdjMachine(at(ps, 0), at(ps, 1), at(ps, 2)) as Machine<unknown>;
    case 'RSI':
      return rsiMachine(ps) as Machine<unknown>;
    case 'DMIW':
      return dmiwMachine(at(ps, 0)) as Machine<unknown>;
    case 'MA':
      return meansMachine(ps, close, false) as Machine<unknown>;
    case 'VOL':
      return meansMachine(ps, volume, true) as Machine<unknown>;
    case 'BOLL':
      return bollMachine(at(ps, 0), at(ps, 1)) as Machine<unknown>;
    case 'BBI':
      return bbiMachine(ps) as Machine<unknown>;
    case 'CR':
      return crMachine(at(ps, 0), ps.slice(1)) as Machine<unknown>;
    case 'PSY':
      return psyMachine(at(ps, 0), at(ps, 1)) as Machine<unknown>;
    case 'VR':
      return vrMachine(at(ps, 0), at(ps, 1)) as Machine<unknown>;
    case 'BRAR':
      return brarMachine(at(ps, 0)) as Machine<unknown>;
    case 'BIAS':
      return biasMachine(ps) as Machine<unknown>;
    case 'AO':
      return aoMachine(at(ps, 0), at(ps, 1)) as Machine<unknown>;
    case 'CCI':
      return cciMachine(at(ps, 0)) as Machine<unknown>;
    case 'DMI':
      return dmiMachine(at(ps, 0), at(ps, 1)) as Machine<unknown>;
  }
}

/** Machines whose state depends on every earlier candle: folded over the whole list on a reset. */
const RECURSIVE: ReadonlySet<IndicatorName> = new Set(['EMA', 'SMA', 'MACD', 'SAR', 'KDJ', 'RSI', 'DMIW']);

// ---------------------------------------------------------------------------------------------
// The live state of one indicator over a candle list.

/** How the candle list changed, by item identity (the candle reducer replaces only what changes). */
export type LiveChange =
  | { kind: 'none' }
  | { kind: 'reset' }
  /** The last candle replaced (`appended` 0), or 1 appended (the previous last kept or replaced),
   * with the oldest candle `dropped` (0 or 1) when the list is at its limit. */
  | { kind: 'tail'; appended: 0 | 1; dropped: 0 | 1; lastChanged: boolean };

/** Classifies `prev` → `next`: O(n) pointer comparisons, once per frame for every indicator. */
export function liveChange(prev: readonly Candle[], next: readonly Candle[]): LiveChange {
  if (prev === next) return { kind: 'none' };
  if (prev.length === 0 || next.length === 0) return { kind: 'reset' };
  const same = (from: number, to: number, shift: number): boolean => {
    for (let i = from; i < to; i++) if (next[i] !== prev[i + shift]) return false;
    return true;
  };
  const pl = prev.length;
  const lastOf = (xs: readonly Candle[], i: number) => xs[i] as Candle;
  if (next.length === pl && same(0, pl - 1, 0)) {
    const a = lastOf(prev, pl - 1);
    const b = lastOf(next, pl - 1);
    if (a === b) return { kind: 'none' };
    return a.t === b.t ? { kind: 'tail', appended: 0, dropped: 0, lastChanged: true } : { kind: 'reset' };
  }
  const dropped = next.length === pl + 1 ? 0 : next.length === pl && pl >= 2 ? 1 : -1;
  if (dropped < 0 || !same(0, pl - 1 - dropped, dropped)) return { kind: 'reset' };
  const a = lastOf(prev, pl - 1);
  const b = lastOf(next, pl - 1 - dropped);
  if (a.t !== b.t) return { kind: 'reset' };
  return { kind: 'tail', appended: 1, dropped: dropped as 0 | 1, lastChanged: a !== b };
}

/** One indicator's live state. Immutable; build with {@link startIndicator}. */
export interface IndicatorState {
  readonly name: IndicatorName;
  readonly params: readonly number[];
  /** Output keys, in the registry's order. */
  readonly keys: readonly string[];
  readonly candles: readonly Candle[];
  /** Absolute index of `candles[0]`. */
  readonly offset: number;
  /** Machine state after the second-to-last and after the last candle. */
  readonly before: unknown;
  readonly after: unknown;
  /** Outputs at the second-to-last and the last candle (`null` when there is none). */
  readonly prevValues: Values;
  readonly lastValues: Values;
  readonly machine: Machine<unknown>;
}

/** The values an update changed: the outputs of the last `count` candles, oldest first. */
export interface IndicatorTail {
  /** Candles whose outputs changed (the last `values.length` of the list). */
  readonly values: readonly Values[];
  /** Outputs of the candle before them (for "rising" colours), or nulls. */
  readonly before: Values;
}

/**
 * The state over `candles` (a reset). Recursive machines are folded over the whole list (O(n)),
 * windowed ones over the last candles their state holds (two, or CR's line window).
 */
export function startIndicator(name: IndicatorName, candles: readonly Candle[], params?: readonly number[]): IndicatorState {
  const def = INDICATORS[name];
  const ps = normalizeParams(def.params, params);
  const machine = machineFor(name, ps);
  const keys = def.outputs.map((o) => o.key);
  const nothing = keys.map(() => null);
  const get: Get = (i) => candles[i] as Candle;
  let before: unknown = machine.init;
  let after: unknown = machine.init;
  let prevValues: Values = nothing;
  let lastValues: Values = nothing;
  const from = RECURSIVE.has(name) ? 0 : Math.max(0, candles.length - (machine.replay ?? 2));
  for (let i = from; i < candles.length; i++) {
    before = after;
    prevValues = lastValues;
    [after, lastValues] = machine.step(after, get, i);
  }
  return { name, params: ps, keys, candles, offset: 0, before, after, prevValues, lastValues, machine };
}

/**
 * Advances the state to `candles` after a {@link liveChange} of kind `tail`: one step when the
 * last candle was replaced, one or two when one was appended. `null` when the change is not a
 * live tail or a candle a step needs is gone: the caller starts again ({@link startIndicator}).
 */
export function advanceIndicator(st: IndicatorState, candles: readonly Candle[], change: LiveChange): { state: IndicatorState; tail: IndicatorTail } | null {
  if (change.kind !== 'tail') return null;
  const offset = st.offset + change.dropped;
  const get: Get = (i) => {
    const c = candles[i - offset];
    if (c === undefined) throw new Gone();
    return c;
  };
  const last = offset + candles.length - 1;
  try {
    if (change.appended === 0) {
      const [after, lastValues] = st.machine.step(st.before, get, last);
      return { state: { ...st, candles, offset, after, lastValues }, tail: { values: [lastValues], before: st.prevValues } };
    }
    let before = st.after;
    let prevValues = st.lastValues;
    const values: Values[] = [];
    if (change.lastChanged) {
      [before, prevValues] = st.machine.step(st.before, get, last - 1);
      values.push(prevValues);
    }
    const [after, lastValues] = st.machine.step(before, get, last);
    values.push(lastValues);
    return {
      state: { ...st, candles, offset, before, after, prevValues, lastValues },
      tail: { values, before: change.lastChanged ? st.prevValues : prevValues },
    };
  } catch (e) {
    if (e instanceof Gone) return null;
    throw e;
  }
}
