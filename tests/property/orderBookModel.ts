import fc from 'fast-check';
import type { DepthDiffFrame, DepthSnapshotFrame, Level } from '../../src/protocol/market.ts';

/**
 * A deliberately plain reference model of the order book semantics (docs/STREAMS.md), written
 * with Maps and full sorts, independent of the reducer's typed-array implementation.
 */
export interface RefLevel {
  qty: number;
  seq: number;
}

export class RefBook {
  status: 'idle' | 'pending' | 'live' | 'resync' = 'idle';
  seq = -1;
  awaiting = false;
  reasonCode: 'gap' | 'snapshotGap' | null = null;
  bids = new Map<number, RefLevel>();
  asks = new Map<number, RefLevel>();
  buffer: DepthDiffFrame[] = [];

  constructor(readonly symbol: string) {}

  bidLevels(): Level[] {
    return [...this.bids.entries()].sort((a, b) => b[0] - a[0]).map(([p, l]) => [p, l.qty]);
  }

  askLevels(): Level[] {
    return [...this.asks.entries()].sort((a, b) => a[0] - b[0]).map(([p, l]) => [p, l.qty]);
  }

  private set(side: Map<number, RefLevel>, levels: Level[], seq: number): void {
    for (const [p, q] of levels) {
      if (q === 0) side.delete(p);
      else side.set(p, { qty: q, seq });
    }
  }

  private uncross(): void {
    for (;;) {
      const bid = Math.max(...this.bids.keys());
      const ask = Math.min(...this.asks.keys());
      if (!(this.bids.size > 0 && this.asks.size > 0 && bid >= ask)) return;
      const b = this.bids.get(bid) as RefLevel;
      const a = this.asks.get(ask) as RefLevel;
      if (b.seq >= a.seq) this.asks.delete(ask);
      if (a.seq >= b.seq) this.bids.delete(bid);
    }
  }

  snapshot(f: DepthSnapshotFrame): void {
    if (f.symbol !== this.symbol) return;
    const buffered = this.buffer;
    this.bids = new Map();
    this.asks = new Map();
    this.set(this.bids, f.bids, f.seq);
    this.set(this.asks, f.asks, f.seq);
    this.uncross();
    this.status = 'live';
    this.seq = f.seq;
    this.awaiting = true;
    this.reasonCode = null;
    this.buffer = [];
    for (const d of buffered) if (d.lastSeq > f.seq) this.diff(d);
  }

  diff(f: DepthDiffFrame): void {
    if (f.symbol !== this.symbol) return;
    if (this.status !== 'live') {
      if (this.status === 'idle') this.status = 'pending';
      this.buffer.push(f);
      if (this.buffer.length > 1000) this.buffer.shift();
      return;
    }
    if (f.lastSeq <= this.seq) return;
    const connects = this.awaiting ? f.firstSeq <= this.seq + 1 || f.prevSeq <= this.seq : f.prevSeq === this.seq;
    if (!connects) {
      this.status = 'resync';
      this.reasonCode = this.awaiting ? 'snapshotGap' : 'gap';
      this.buffer = [f];
      return;
    }
    this.set(this.bids, f.bids, f.lastSeq);
    this.set(this.asks, f.asks, f.lastSeq);
    this.uncross();
    this.seq = f.lastSeq;
    this.awaiting = false;
  }
}

/** The exchange side: a continuously updated book producing diffs and snapshots. */
export class Exchange {
  book: RefBook;
  lastSeq: number;
  history: DepthDiffFrame[] = [];

  constructor(readonly symbol: string, startSeq: number) {
    this.book = new RefBook(symbol);
    this.lastSeq = startSeq;
    this.book.snapshot({ type: 'depth', symbol, snapshot: true, seq: startSeq, bids: [], asks: [], ts: 0 });
  }

  /** Produces the next diff: `jump` extra ids skipped (pu-chained feeds), `span` ids inside it. */
  next(bids: Level[], asks: Level[], span: number, jump: number): DepthDiffFrame {
    const firstSeq = this.lastSeq + 1 + jump;
    const frame: DepthDiffFrame = { type: 'depth', symbol: this.symbol, snapshot: false, firstSeq, lastSeq: firstSeq + span, prevSeq: this.lastSeq, bids, asks, ts: firstSeq };
    this.lastSeq = frame.lastSeq;
    this.book.diff(frame);
    this.history.push(frame);
    return frame;
  }

  snapshot(): DepthSnapshotFrame {
    return { type: 'depth', symbol: this.symbol, snapshot: true, seq: this.lastSeq, bids: this.book.bidLevels(), asks: this.book.askLevels(), ts: this.lastSeq };
  }
}

/** Prices on a small grid so updates collide; quantities are small integers, 0 removes. */
export const priceArb = (lo: number, hi: number): fc.Arbitrary<number> => fc.integer({ min: lo, max: hi }).map((x) => x / 2);
export const levelArb = (lo: number, hi: number): fc.Arbitrary<Level> =>
  fc.tuple(priceArb(lo, hi), fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50 }))).map(([p, q]): Level => [p, q]);
export const levelsArb = (lo: number, hi: number): fc.Arbitrary<Level[]> => fc.array(levelArb(lo, hi), { maxLength: 6 });
