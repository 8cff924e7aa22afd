/**
 * Order book throughput and memory (`npm run bench -- orderBook`).
 *
 * - recorded: the converted Binance spot + USD-M fixtures replayed through reduceOrderBook in a
 *   loop (each pass rebuilds every book from its snapshot, so snapshot cost is included).
 * - synthetic: 1,000,000 diffs from a seeded PRNG (mulberry32): random-walk mid, 50–200 levels a
 *   side, 1–10 levels per diff, ~35 % removals; generated in chunks outside the timed section.
 * - baselines on the same data in the same run: a naive sorted-array book (linear search + splice,
 *   mutated in place, no sync checks) and ccxt's OrderBook when ccxt is installed.
 * - memory: heap delta for 100 books of 200 levels a side.
 *
 * Figures are level updates per second (levels carried by the applied diffs) and ratios.
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createPrng } from '../server/market/prng.ts';
import type { DepthDiffFrame, DepthFrame, DepthSnapshotFrame, Level } from '../src/protocol/market.ts';
import { fixtureFrames, parseMarketFixture } from '../src/protocol/fixture.ts';
import { initialOrderBook, reduceOrderBook, type OrderBookState } from '../src/streams/orderBook.ts';

type Figures = Record<string, number | string>;

/** The operations a book implementation must support for the comparison. */
interface BookImpl {
  name: string;
  create(snapshot: DepthSnapshotFrame): unknown;
  apply(book: unknown, diff: DepthDiffFrame): unknown;
}

const ours: BookImpl = {
  name: 'reduceOrderBook',
  create: (s) => reduceOrderBook(initialOrderBook(s.symbol), s),
  apply: (b, d) => reduceOrderBook(b as OrderBookState, d),
};

/** Naive reference: Level[] sorted best first, linear search, splice. Mutable, no sync checks. */
class NaiveBook {
  bids: Level[] = [];
  asks: Level[] = [];
  static set(side: Level[], price: number, qty: number, desc: boolean): void {
    const i = side.findIndex((l) => (desc ? l[0] <= price : l[0] >= price));
    if (i >= 0 && side[i]?.[0] === price) {
      if (qty === 0) side.splice(i, 1);
      else side[i] = [price, qty];
    } else if (qty !== 0) side.splice(i < 0 ? side.length : i, 0, [price, qty]);
  }
}
const naive: BookImpl = {
  name: 'naive sorted array',
  create: (s) => {
    const b = new NaiveBook();
    for (const [p, q] of s.bids) NaiveBook.set(b.bids, p, q, true);
    for (const [p, q] of s.asks) NaiveBook.set(b.asks, p, q, false);
    return b;
  },
  apply: (book, d) => {
    const b = book as NaiveBook;
    for (const [p, q] of d.bids) NaiveBook.set(b.bids, p, q, true);
    for (const [p, q] of d.asks) NaiveBook.set(b.asks, p, q, false);
    return b;
  },
};

interface CcxtSide {
  store(price: number, size: number): void;
}
interface CcxtBook {
  bids: CcxtSide;
  asks: CcxtSide;
}
type CcxtBookCtor = new (snapshot: { bids: Level[]; asks: Level[] }) => CcxtBook;

export async function loadCcxt(): Promise<BookImpl | string> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(/* @vite-ignore */ 'ccxt' as string)) as Record<string, unknown>;
  } catch {
    return 'ccxt not installed: npm i -D ccxt';
  }
  const root = (mod.default ?? mod) as Record<string, unknown>;
  const pro = root.pro as Record<string, unknown> | undefined;
  let Ctor = (pro?.OrderBook ?? root.OrderBook) as CcxtBookCtor | undefined;
  if (typeof Ctor !== 'function') {
    // NOTE: ccxt 4 keeps its websocket OrderBook out of the package's "exports"; load the module by file
    // URL (the same class ccxt.pro exchanges use for watchOrderBook).
    try {
      const ws = (await import(/* @vite-ignore */ new URL('../node_modules/ccxt/js/src/base/ws/OrderBook.js', import.meta.url).href)) as Record<string, unknown>;
      Ctor = ws.OrderBook as CcxtBookCtor | undefined;
    } catch {
      Ctor = undefined;
    }
  }
  if (typeof Ctor !== 'function') return 'ccxt installed but its OrderBook class was not found';
  return {
    name: 'ccxt OrderBook',
    create: (s) => new Ctor({ bids: s.bids, asks: s.asks }),
    apply: (book, d) => {
      const b = book as CcxtBook;
      for (const [p, q] of d.bids) b.bids.store(p, q);
      for (const [p, q] of d.asks) b.asks.store(p, q);
      return b;
    },
  };
}

// ---- data ----
export function recordedDepth(): DepthFrame[] {
  const out: DepthFrame[] = [];
  for (const file of ['binance-spot.jsonl', 'binance-usdm.jsonl']) {
    const text = readFileSync(new URL(`../fixtures/market-data/${file}`, import.meta.url), 'utf8');
    for (const f of fixtureFrames(parseMarketFixture(text))) if (f.type === 'depth') out.push(f);
  }
  return out;
}

/** Synthetic feed: prices in ticks of 0.1 around a random-walk mid; bids below, asks above. */
export class SyntheticFeed {
  private rnd: () => number;
  private midTicks = 500_000; // 50,000.0
  private seq = 1;
  constructor(seed: number) {
    this.rnd = createPrng(seed).next;
  }
  private price(ticks: number): number {
    return Math.round(ticks) / 10;
  }
  snapshot(levels: number): DepthSnapshotFrame {
    const bids: Level[] = [];
    const asks: Level[] = [];
    for (let i = 1; i <= levels; i++) {
      bids.push([this.price(this.midTicks - i), 1 + Math.floor(this.rnd() * 100)]);
      asks.push([this.price(this.midTicks + i), 1 + Math.floor(this.rnd() * 100)]);
    }
    return { type: 'depth', symbol: 'SYN', snapshot: true, seq: this.seq, bids, asks, ts: 0 };
  }
  /** Next diff; returns the number of levels it carries through `count`. */
  diff(): DepthDiffFrame {
    if (this.rnd() < 0.05) this.midTicks += this.rnd() < 0.5 ? -1 : 1;
    const n = 1 + Math.floor(this.rnd() * 10);
    const bids: Level[] = [];
    const asks: Level[] = [];
    for (let i = 0; i < n; i++) {
      const offset = 1 + Math.floor(this.rnd() * this.rnd() * 180); // denser near the mid, <= 180 levels a side
      const qty = this.rnd() < 0.35 ? 0 : 1 + Math.floor(this.rnd() * 100);
      if (this.rnd() < 0.5) bids.push([this.price(this.midTicks - offset), qty]);
      else asks.push([this.price(this.midTicks + offset), qty]);
    }
    const prevSeq = this.seq;
    this.seq += 1 + n;
    return { type: 'depth', symbol: 'SYN', snapshot: false, firstSeq: prevSeq + 1, lastSeq: this.seq, prevSeq, bids, asks, ts: this.seq };
  }
}

// ---- runs ----
function levelCount(d: DepthDiffFrame): number {
  return d.bids.length + d.asks.length;
}

/** Replays the recorded frames `passes` times; returns level updates per second. */
function runRecorded(impl: BookImpl, frames: DepthFrame[], minMs: number): number {
  let levels = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    const books = new Map<string, unknown>();
    const pending = new Map<string, DepthDiffFrame[]>();
    for (const f of frames) {
      if (f.snapshot) {
        let b = impl.create(f);
        for (const d of pending.get(f.symbol) ?? []) if (d.lastSeq > f.seq) b = impl.apply(b, d);
        books.set(f.symbol, b);
        continue;
      }
      const b = books.get(f.symbol);
      if (b === undefined) pending.set(f.symbol, [...(pending.get(f.symbol) ?? []), f]);
      else books.set(f.symbol, impl.apply(b, f));
      levels += levelCount(f);
    }
    elapsed = performance.now() - started;
  }
  return (levels / elapsed) * 1000;
}

const SYNTHETIC_DIFFS = 1_000_000;
const CHUNK = 100_000;

function runSynthetic(impls: BookImpl[]): { perSecond: Map<string, number>; avgLevelsPerSide: number; levelsPerDiff: number } {
  const feeds = impls.map(() => new SyntheticFeed(42));
  const books = impls.map((impl, i) => impl.create((feeds[i] as SyntheticFeed).snapshot(100)));
  const ms = impls.map(() => 0);
  let levels = 0;
  for (let done = 0; done < SYNTHETIC_DIFFS; done += CHUNK) {
    const chunks = feeds.map((feed) => Array.from({ length: CHUNK }, () => feed.diff()));
    if (impls.length > 0) levels += (chunks[0] ?? []).reduce((n, d) => n + levelCount(d), 0);
    impls.forEach((impl, i) => {
      const chunk = chunks[i] ?? [];
      let b = books[i];
      const t0 = performance.now();
      for (const d of chunk) b = impl.apply(b, d);
      ms[i] = (ms[i] ?? 0) + performance.now() - t0;
      books[i] = b;
    });
  }
  const final = books[0] as OrderBookState;
  if (final.status !== 'live') throw new Error(`synthetic feed desynced: ${JSON.stringify(final.reason)}`);
  const perSecond = new Map(impls.map((impl, i) => [impl.name, (levels / (ms[i] ?? 1)) * 1000]));
  return { perSecond, avgLevelsPerSide: (final.bids.length + final.asks.length) / 2, levelsPerDiff: levels / SYNTHETIC_DIFFS };
}

/**
 * Retained heap per book: build 100 books, then measure what dropping them frees (both readings
 * after full collections), so unrelated garbage freed meanwhile cannot skew the figure.
 */
function heapPerBook(impl: BookImpl): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const feed = new SyntheticFeed(7);
  const snaps = Array.from({ length: 100 }, () => feed.snapshot(200));
  // Typed-array backing stores live outside the JS heap: count them too.
  const used = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const settle = (): number => {
    for (let i = 0; i < 3; i++) gc();
    return used();
  };
  const books: unknown[] = snaps.map((s) => impl.create(s));
  const held = settle();
  if (books.length !== 100) throw new Error('unreachable');
  books.length = 0; // drop every book
  const freed = settle();
  return (held - freed) / 100;
}

const round = (n: number): number => Math.round(n);
const ratio = (a: number | undefined, b: number | undefined): number | string => (a && b ? Number((a / b).toFixed(2)) : 'n/a');

/** Bench entry (see bench/run.ts). */
export async function run(): Promise<Figures> {
  const ccxt = await loadCcxt();
  const impls: BookImpl[] = [ours, naive, ...(typeof ccxt === 'string' ? [] : [ccxt])];
  if (typeof ccxt === 'string') console.log(`ccxt comparison skipped: ${ccxt}`);
  const frames = recordedDepth();
  const figures: Figures = {};

  for (const impl of impls) runRecorded(impl, frames, 150); // warm-up
  const recorded = new Map(impls.map((impl) => [impl.name, runRecorded(impl, frames, 1000)]));
  const synthetic = runSynthetic(impls);

  for (const impl of impls) {
    figures[`recorded updates/s ${impl.name}`] = round(recorded.get(impl.name) ?? 0);
    figures[`synthetic updates/s ${impl.name}`] = round(synthetic.perSecond.get(impl.name) ?? 0);
  }
  figures['synthetic avg levels/side at end'] = Math.round(synthetic.avgLevelsPerSide);
  figures['synthetic levels/diff'] = Number(synthetic.levelsPerDiff.toFixed(2));
  figures['ratio recorded ours/naive'] = ratio(recorded.get(ours.name), recorded.get(naive.name));
  figures['ratio synthetic ours/naive'] = ratio(synthetic.perSecond.get(ours.name), synthetic.perSecond.get(naive.name));
  if (typeof ccxt === 'string') {
    figures['ccxt'] = `skipped: ${ccxt}`;
  } else {
    figures['ratio recorded ours/ccxt'] = ratio(recorded.get(ours.name), recorded.get(ccxt.name));
    figures['ratio synthetic ours/ccxt'] = ratio(synthetic.perSecond.get(ours.name), synthetic.perSecond.get(ccxt.name));
  }
  figures['heap bytes/book (200 levels/side) ours'] = round(heapPerBook(ours));
  figures['heap bytes/book (200 levels/side) naive'] = round(heapPerBook(naive));
  const syn = synthetic.perSecond.get(ours.name) ?? 0;
  figures['target >= 1,000,000 updates/s (synthetic)'] = syn >= 1_000_000 ? 'met' : 'NOT met';
  return figures;
}
