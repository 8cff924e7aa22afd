import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Candle, MarketFrame } from '../../../src/protocol/market.ts';
import { fixtureFrames, parseMarketFixture } from '../../../src/protocol/fixture.ts';
import { initialCandles, mergeCandleHistory, reduceCandles } from '../../../src/streams/candles.ts';
import { initialMarket, initialTicker, reduceMarket, reduceTicker, selectTopGainers, selectTopVolume } from '../../../src/streams/ticker.ts';
import { initialTrades, mergeTrades, reduceTrades } from '../../../src/streams/trades.ts';

const usdm = fixtureFrames(parseMarketFixture(readFileSync(new URL('../../../fixtures/market-data/binance-usdm.jsonl', import.meta.url), 'utf8')));
const candle = (t: number, c = 1): Candle => ({ t, o: c, h: c, l: c, c, v: 1 });
const kline = (t: number, c: number, closed = false): MarketFrame => ({ type: 'kline', symbol: 'X', interval: '1m', candle: candle(t, c), closed });

describe('candles', () => {
  it('replaces the forming candle, appends newer ones across a gap, ignores older', () => {
    let s = initialCandles('X', '1m', [candle(120_000), candle(0), candle(60_000)]);
    expect(s.items.map((c) => c.t)).toEqual([0, 60_000, 120_000]);
    s = reduceCandles(s, kline(120_000, 5));
    s = reduceCandles(s, kline(300_000, 6, true)); // 180k and 240k missing: gap kept, nothing invented
    const before = s;
    s = reduceCandles(s, kline(60_000, 9));
    expect(s).toBe(before);
    expect(s.items.map((c) => [c.t, c.c])).toEqual([[0, 1], [60_000, 1], [120_000, 5], [300_000, 6]]);
    expect(s.lastClosed).toBe(true);
    s = mergeCandleHistory(s, [candle(180_000, 7), candle(240_000, 8)]);
    expect(s.items.map((c) => c.t)).toEqual([0, 60_000, 120_000, 180_000, 240_000, 300_000]);
  });

  it('rebuilds the recorded kline_1m stream: one candle per open time, last update wins', () => {
    const klines = usdm.filter((f): f is Extract<MarketFrame, { type: 'kline' }> => f.type === 'kline' && f.symbol === 'CTKUSDT');
    const s = klines.reduce(reduceCandles, initialCandles('CTKUSDT', '1m'));
    const opens = [...new Set(klines.map((k) => k.candle.t))];
    expect(s.items.map((c) => c.t)).toEqual(opens);
    const lastOfFirst = klines.filter((k) => k.candle.t === opens[0]).at(-1);
    expect(s.items[0]).toEqual(lastOfFirst?.candle);
  });
});

describe('trades', () => {
  it('keeps the recorded aggTrades newest first, deduped, bounded', () => {
    const frames = usdm.filter((f) => f.type === 'trade' && f.symbol === 'SUSHIUSDT');
    const s = [...frames, ...frames].reduce(reduceTrades, initialTrades('SUSHIUSDT', 10));
    expect(s.items).toHaveLength(10);
    const ids = s.items.map((t) => t.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(10);
    expect(mergeTrades(s, s.items)).toBe(s);
  });
});

describe('tickers', () => {
  const t = (symbol: string, changePct: number, quoteVolume: number, ts = 1) => ({ symbol, last: 1, open: 1, high: 1, low: 1, volume: 1, quoteVolume, change: 0, changePct, ts });
  it('single ticker ignores older frames; market map sorts gainers and volume', () => {
    let one = reduceTicker(initialTicker('A'), { type: 'ticker', ...t('A', 1, 1, 5) });
    one = reduceTicker(one, { type: 'tickers', items: [t('A', 9, 9, 4)], ts: 4 });
    expect(one.ticker?.changePct).toBe(1);
    const m = reduceMarket(initialMarket(), { type: 'tickers', items: [t('A', 1, 30), t('B', 5, 10), t('C', -2, 20)], ts: 1 });
    expect(selectTopGainers(m, 2).map((x) => x.symbol)).toEqual(['B', 'A']);
    expect(selectTopVolume(m, 3).map((x) => x.symbol)).toEqual(['A', 'C', 'B']);
    expect(reduceMarket(m, { type: 'pong', ts: 1 })).toBe(m);
  });
});
