import fc from 'fast-check';
import type { Ticker, TickersFrame } from '../../../src/protocol/market.ts';

/** A ticker of one of `symbols` with small prices, so frames often repeat or move a figure. */
export function tickerArb(symbols: readonly string[]): fc.Arbitrary<Ticker> {
  return fc.record({
    symbol: fc.constantFrom(...symbols),
    last: fc.integer({ min: 1, max: 20 }),
    open: fc.integer({ min: 1, max: 20 }),
    high: fc.constant(20),
    low: fc.constant(1),
    volume: fc.nat(),
    quoteVolume: fc.nat(),
    change: fc.constant(0),
    changePct: fc.double({ min: -50, max: 50, noNaN: true }),
    ts: fc.nat({ max: 50 }),
  });
}

/** Ticker frames of 1..`maxItems` tickers each, `minFrames`..`maxFrames` of them. */
export function tickerFramesArb(symbols: readonly string[], o: { maxItems: number; minFrames?: number; maxFrames: number }): fc.Arbitrary<TickersFrame[]> {
  return fc.array(
    fc.array(tickerArb(symbols), { minLength: 1, maxLength: o.maxItems }).map((items): TickersFrame => ({ type: 'tickers', items, ts: 0 })),
    { minLength: o.minFrames ?? 0, maxLength: o.maxFrames },
  );
}
