import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalsOf, toMinor } from '../../server/db/money.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { quoteRate, receivedFor } from '../../server/money/convert.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { CONVERT_COINS } from '../../src/protocol/convert.ts';

/**
 * The convert arithmetic is exact integer math: for any tick-aligned prices and amount, the
 * received amount never exceeds the exact value pF/pT × amount, and falls short of it by less
 * than 1e-7 of it plus one minor unit of the received coin (0 fee means no hidden spread).
 */
describe('convert rate', () => {
  it('received ≤ exact and > exact × (1 − 1e-7) − 1 minor unit', () => {
    const source = new ControlledMarketSource(INSTRUMENTS.map((i) => i.info), 0);
    fc.assert(
      fc.property(
        fc.integer({ min: 100_000, max: 200_000_000 }), // BTC price in 0.1 ticks: 10 000 .. 20 000 000
        fc.integer({ min: 1_000, max: 1_000_000 }), // ETH price in 0.01 ticks: 10 .. 10 000
        fc.constantFrom(...CONVERT_COINS),
        fc.constantFrom(...CONVERT_COINS),
        fc.integer({ min: 1, max: 1_000_000 }),
        (btcTicks, ethTicks, from, to, units) => {
          fc.pre(from !== to);
          source.setPrice('BTCUSDT', btcTicks / 10);
          source.setPrice('ETHUSDT', ethTicks / 100);
          const rate = quoteRate(source, from, to);
          expect(rate).toBeDefined();
          const amount = toMinor(String(units), from);
          const got = receivedFor(amount, rate as bigint, from, to);
          // Exact value as a fraction: amount × pF / pT in `to` minor units, prices in 1e-2 USDT cents (×1000 for BTC ticks).
          const price = (c: string): bigint => (c === 'USDT' ? 1000n : c === 'BTC' ? BigInt(btcTicks) * 100n : BigInt(ethTicks) * 10n);
          const num = amount * price(from) * 10n ** BigInt(decimalsOf(to));
          const den = price(to) * 10n ** BigInt(decimalsOf(from));
          expect(got * den <= num).toBe(true);
          // got > exact − exact/1e7 − 1  ⇔  (got + 1) × den × 1e7 > num × (1e7 − 1)
          expect((got + 1n) * den * 10_000_000n > num * 9_999_999n).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
