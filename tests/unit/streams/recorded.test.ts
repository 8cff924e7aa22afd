import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMarketFixture, type MarketFixture } from '../../../src/protocol/fixture.ts';
import { initialOrderBook, reduceOrderBook, topOfBook, type OrderBookState } from '../../../src/streams/orderBook.ts';
import type { MarketFrame } from '../../../src/protocol/market.ts';

const load = (name: string): MarketFixture => parseMarketFixture(readFileSync(new URL(`../../../fixtures/market-data/${name}`, import.meta.url), 'utf8'));

interface ReplayOutcome {
  books: Map<string, OrderBookState>;
  checked: number;
  mismatches: string[];
  resyncs: string[];
}

/** Replays a fixture through one book per symbol, comparing top of book at every checkpoint. */
function replay(fixture: MarketFixture, drop?: (frame: MarketFrame, index: number) => boolean): ReplayOutcome {
  const books = new Map(fixture.header.symbols.map((s) => [s, initialOrderBook(s)]));
  const out: ReplayOutcome = { books, checked: 0, mismatches: [], resyncs: [] };
  let index = 0;
  for (const r of fixture.records) {
    if (r.kind === 'frame') {
      if (drop?.(r.frame, index++)) continue;
      if (r.frame.type !== 'depth') continue;
      const before = books.get(r.frame.symbol);
      if (!before) throw new Error(`symbol ${r.frame.symbol} not in header`);
      const after = reduceOrderBook(before, r.frame);
      if (after.status === 'resync' && before.status !== 'resync') out.resyncs.push(`${r.frame.symbol}@line ${r.line}: ${JSON.stringify(after.reason)}`);
      books.set(r.frame.symbol, after);
    } else {
      const book = books.get(r.check.symbol);
      if (!book || book.status !== 'live' || book.seq !== r.check.lastSeq) {
        if (!drop) out.mismatches.push(`line ${r.line}: book not at seq ${r.check.lastSeq} (status ${book?.status}, seq ${book?.seq})`);
        continue;
      }
      const top = topOfBook(book);
      out.checked++;
      if (JSON.stringify(top.bid) !== JSON.stringify(r.check.bestBid) || JSON.stringify(top.ask) !== JSON.stringify(r.check.bestAsk)) {
        out.mismatches.push(`line ${r.line} ${r.check.symbol}: got ${JSON.stringify(top)} want ${JSON.stringify(r.check)}`);
      }
    }
  }
  return out;
}

describe.each([
  ['binance-spot.jsonl', 26],
  ['binance-usdm.jsonl', 50],
])('recorded %s', (file, checkpoints) => {
  const fixture = load(file);

  it('rebuilds top of book matching every bookTicker checkpoint, with no gap reported', () => {
    const r = replay(fixture);
    expect(r.resyncs).toEqual([]);
    expect(r.mismatches).toEqual([]);
    expect(r.checked).toBe(checkpoints);
    for (const book of r.books.values()) {
      expect(book.status).toBe('live');
      expect(book.bids.length).toBeGreaterThan(0);
      expect(book.asks.length).toBeGreaterThan(0);
    }
  });

  it('reports a resync when one applied diff is deleted', () => {
    // Delete the second diff applied after a snapshot (lastSeq beyond the snapshot seq), so the
    // next diff of that symbol no longer chains.
    const frames = fixture.records.flatMap((r) => (r.kind === 'frame' ? [r.frame] : []));
    const snapSeq = new Map<string, number>();
    const applied = new Map<string, number[]>();
    frames.forEach((f, i) => {
      if (f.type !== 'depth') return;
      if (f.snapshot) snapSeq.set(f.symbol, f.seq);
      else if (f.lastSeq > (snapSeq.get(f.symbol) ?? Infinity)) applied.set(f.symbol, [...(applied.get(f.symbol) ?? []), i]);
    });
    const victim = [...applied.values()].find((list) => list.length >= 3)?.[1] ?? -1;
    expect(victim).toBeGreaterThan(0);
    const victimFrame = frames[victim];
    const r = replay(fixture, (_f, i) => i === victim);
    expect(r.resyncs.length).toBe(1);
    expect(r.resyncs[0]).toContain(victimFrame && 'symbol' in victimFrame ? victimFrame.symbol : '?');
    expect(r.resyncs[0]).toContain('"code":"gap"');
  });
});
