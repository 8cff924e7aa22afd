import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DepthDiffFrame, DepthSnapshot, MarketFrame } from '../../src/protocol/market.ts';
import { marketFrameSchema } from '../../src/protocol/market.ts';
import { parseMarketFixture } from '../../src/protocol/fixture.ts';
import { MarketPlayer } from '../../server/market/player.ts';

const fixture = parseMarketFixture(readFileSync('fixtures/market-data/binance-usdm.jsonl', 'utf8'));
const START = 1_800_000_000_000;

function play(until: number, step: number, speed = 1): { player: MarketPlayer; frames: MarketFrame[]; initial: Map<string, DepthSnapshot> } {
  const player = new MarketPlayer({ fixture, startMs: START, speed });
  const initial = new Map<string, DepthSnapshot>();
  for (const s of player.symbols()) {
    const snap = player.snapshot(s.symbol, 10_000);
    if (snap) initial.set(s.symbol, snap);
  }
  const frames: MarketFrame[] = [];
  player.subscribe((f) => frames.push(f));
  for (let t = START + step; t <= until; t += step) player.advanceTo(t);
  return { player, frames, initial };
}

describe('recorded-feed player', () => {
  it('re-bases the recording to the start time and loops with one unbroken depth chain per symbol', () => {
    const passes = 3;
    const { player, frames, initial } = play(START + passes * 32_000, 250, 1);
    expect(player.symbols().map((s) => s.symbol)).toEqual(fixture.header.symbols);
    const books = new Map<string, { seq: number; bids: Map<number, number>; asks: Map<number, number> }>();
    for (const s of player.symbols()) {
      const snap = initial.get(s.symbol);
      books.set(s.symbol, { seq: snap?.seq ?? -1, bids: new Map(snap?.bids), asks: new Map(snap?.asks) });
    }
    let lastTs = 0;
    for (const f of frames) {
      expect(marketFrameSchema.safeParse(f).success).toBe(true);
      if ('ts' in f) {
        expect(f.ts).toBeGreaterThanOrEqual(START);
        expect(f.ts).toBeGreaterThanOrEqual(lastTs - 1000);
        lastTs = Math.max(lastTs, f.ts);
      }
      if (f.type !== 'depth' || f.snapshot) continue;
      const d: DepthDiffFrame = f;
      const b = books.get(d.symbol);
      if (!b) throw new Error(d.symbol);
      expect(d.prevSeq).toBe(b.seq);
      for (const [p, q] of d.bids) {
        if (q === 0) b.bids.delete(p);
        else b.bids.set(p, q);
      }
      for (const [p, q] of d.asks) {
        if (q === 0) b.asks.delete(p);
        else b.asks.set(p, q);
      }
      b.seq = d.lastSeq;
    }
    // Snapshot at start + every diff (across loops) must give the server's book.
    for (const [symbol, b] of books) {
      const snap = player.snapshot(symbol, 10_000);
      expect(b.seq).toBe(snap?.seq);
      expect([...b.bids].sort((x, y) => y[0] - x[0])).toEqual(snap?.bids);
      expect([...b.asks].sort((x, y) => x[0] - y[0])).toEqual(snap?.asks);
    }
    const trades = frames.filter((f) => f.type === 'trade');
    const perPass = fixture.records.filter((r) => r.kind === 'frame' && r.frame.type === 'trade').length;
    expect(trades.length).toBeGreaterThanOrEqual(perPass * (passes - 1));
    expect(frames.filter((f) => f.type === 'tickers').length).toBeGreaterThanOrEqual(passes * 30);
  });

  it('plays faster at a higher speed and is deterministic', () => {
    const slow = play(START + 10_000, 100, 1).frames.filter((f) => f.type === 'trade').length;
    const fast = play(START + 10_000, 100, 4).frames.filter((f) => f.type === 'trade').length;
    expect(fast).toBeGreaterThan(slow);
    const a = JSON.stringify(play(START + 40_000, 333, 2).frames);
    const b = JSON.stringify(play(START + 40_000, 333, 2).frames);
    expect(a).toBe(b);
  });

  it('builds candles from the replayed trades', () => {
    const { player, frames } = play(START + 120_000, 500, 1);
    const sym = 'SUSHIUSDT';
    const trades = frames.filter((f): f is Extract<MarketFrame, { type: 'trade' }> => f.type === 'trade' && f.symbol === sym);
    const candles = player.klines(sym, '1m', undefined, undefined, 10);
    expect(candles.length).toBeGreaterThan(0);
    const total = candles.reduce((s, c) => s + c.v, 0);
    expect(total).toBeCloseTo(trades.reduce((s, t) => s + t.qty, 0), 6);
    for (const c of candles) {
      const inBucket = trades.filter((t) => t.ts >= c.t && t.ts < c.t + 60_000);
      expect(c.o).toBe(inBucket[0]?.price);
      expect(c.c).toBe(inBucket[inBucket.length - 1]?.price);
    }
  });
});
