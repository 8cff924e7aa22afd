import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Level } from '../../src/protocol/market.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { createSimulator } from '../../server/market/simulator.ts';

const START = Date.UTC(2026, 4, 31, 23, 59, 30); // crosses a day and a month boundary
const PICK = INSTRUMENTS.filter((i) => ['BTCUSDT', 'DOGEUSDT', 'NGUSDT', 'DJIUSDT'].includes(i.info.symbol));

function checkSide(levels: Level[], desc: boolean): void {
  for (let i = 0; i < levels.length; i++) {
    const [p, q] = levels[i] ?? [0, 0];
    expect(p).toBeGreaterThan(0);
    expect(q).toBeGreaterThan(0);
    const prev = levels[i - 1];
    if (prev) expect(desc ? prev[0] > p : prev[0] < p).toBe(true);
  }
}

describe('simulator invariants (property)', () => {
  it('for any seed and advance schedule: never crossed, quantities >= 0, prices > 0, seq strictly increasing and chained', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(fc.integer({ min: 1, max: 3_000 }), { minLength: 1, maxLength: 25 }),
        (seed, gaps) => {
          const sim = createSimulator({ seed, startMs: START, instruments: PICK });
          const lastSeq = new Map<string, number>();
          const lastTradeId = new Map<string, number>();
          for (const s of PICK) lastSeq.set(s.info.symbol, sim.snapshot(s.info.symbol, 1)?.seq ?? -1);
          sim.subscribe((f) => {
            if (f.type === 'depth' && !f.snapshot) {
              expect(f.prevSeq).toBe(lastSeq.get(f.symbol));
              expect(f.firstSeq).toBe(f.prevSeq + 1);
              expect(f.lastSeq).toBeGreaterThanOrEqual(f.firstSeq);
              lastSeq.set(f.symbol, f.lastSeq);
              for (const [p, q] of [...f.bids, ...f.asks]) {
                expect(p).toBeGreaterThan(0);
                expect(q).toBeGreaterThanOrEqual(0);
              }
            } else if (f.type === 'trade') {
              expect(f.price).toBeGreaterThan(0);
              expect(f.qty).toBeGreaterThan(0);
              expect(f.id).toBeGreaterThan(lastTradeId.get(f.symbol) ?? 0);
              lastTradeId.set(f.symbol, f.id);
            } else if (f.type === 'kline') {
              expect(f.candle.l).toBeGreaterThan(0);
              expect(f.candle.h).toBeGreaterThanOrEqual(Math.max(f.candle.o, f.candle.c));
              expect(f.candle.l).toBeLessThanOrEqual(Math.min(f.candle.o, f.candle.c));
            }
          });
          let t = START;
          for (const g of gaps) {
            t += g;
            sim.advanceTo(t);
            for (const s of PICK) {
              const snap = sim.snapshot(s.info.symbol, 500);
              if (!snap) throw new Error('no snapshot');
              expect(snap.seq).toBe(lastSeq.get(s.info.symbol));
              checkSide(snap.bids, true);
              checkSide(snap.asks, false);
              const bid = snap.bids[0]?.[0] ?? 0;
              const ask = snap.asks[0]?.[0] ?? Infinity;
              expect(bid).toBeLessThan(ask);
            }
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
