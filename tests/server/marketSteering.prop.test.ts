import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarketFrame } from '../../src/protocol/market.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { createSimulator } from '../../server/market/simulator.ts';

const START = Date.UTC(2026, 5, 1, 9, 30, 0);
const PICK = INSTRUMENTS.filter((i) => ['BTCUSDT', 'ETHUSDT'].includes(i.info.symbol));
const BTC = PICK.find((i) => i.info.symbol === 'BTCUSDT')?.info;
if (BTC === undefined) throw new Error('BTCUSDT missing from INSTRUMENTS');

/** `ticks` BTCUSDT ticks as the decimal string a test sends. */
const price = (ticks: number) => (ticks * BTC.tickSize).toFixed(BTC.pricePrecision);

describe('a steered simulator (MARKET_STEERING)', () => {
  it('holds the symbol exactly at the steered price: last, mark and one print there, an uncrossed book, no other trade; the walk resumes on release', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.array(fc.integer({ min: 300_000, max: 900_000 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        (seed, targets, heldSeconds) => {
          const sim = createSimulator({ seed, startMs: START, instruments: PICK });
          const frames: MarketFrame[] = [];
          sim.subscribe((f) => frames.push(f));
          let t = START;
          for (const target of targets) {
            frames.length = 0;
            sim.steer('BTCUSDT', price(target));
            t += heldSeconds * 1000;
            sim.advanceTo(t);
            const trades = frames.filter((f) => f.type === 'trade' && f.symbol === 'BTCUSDT');
            expect(trades.map((f) => (f.type === 'trade' ? f.price : 0))).toEqual([Number(price(target))]);
            expect(sim.ticker('BTCUSDT')?.last).toBe(Number(price(target)));
            expect(sim.markPrice('BTCUSDT')).toBe(Number(price(target)));
            const book = sim.snapshot('BTCUSDT', 5);
            const bid = book?.bids[0]?.[0] ?? 0;
            const ask = book?.asks[0]?.[0] ?? 0;
            expect(bid).toBeLessThan(ask);
            expect(bid).toBeLessThanOrEqual(Number(price(target)));
            expect(ask).toBeGreaterThanOrEqual(Number(price(target)));
            // The other symbol keeps walking.
            expect(frames.some((f) => f.type === 'depth' && f.symbol === 'ETHUSDT')).toBe(true);
          }
          sim.steer('BTCUSDT', null);
          frames.length = 0;
          sim.advanceTo(t + 60_000);
          expect(frames.filter((f) => f.type === 'trade' && f.symbol === 'BTCUSDT').length).toBeGreaterThan(1);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('refuses a price off the tick, not positive, or not a plain decimal, and an unknown symbol', () => {
    const sim = createSimulator({ seed: 1, startMs: START, instruments: PICK });
    for (const bad of ['67000.05', '0', '-100', '1e5', '0x10', '']) expect(() => sim.steer('BTCUSDT', bad), bad).toThrow();
    expect(() => sim.steer('NOPEUSDT', '1')).toThrow(/Unknown symbol/);
    expect(() => sim.steer('BTCUSDT', '67000.1')).not.toThrow();
  });
});

describe('MARKET_STEERING in the config', () => {
  it('is off unless asked for, and refused at start under NODE_ENV=production', async () => {
    const { loadConfig } = await import('../../server/config.ts');
    expect(loadConfig({}).marketSteering).toBe(false);
    expect(loadConfig({ MARKET_STEERING: '1' }).marketSteering).toBe(true);
    expect(() => loadConfig({ MARKET_STEERING: '1', NODE_ENV: 'production' })).toThrow(/refused under NODE_ENV=production/);
  });
});
