import type { Candle, DepthSnapshot, KlineInterval, MarketFrame, SymbolInfo, Ticker, Trade } from '../../src/protocol/market.ts';

/** Receives every frame a source emits, in order, synchronously from `advanceTo`. */
export type FrameListener = (frame: MarketFrame) => void;

/**
 * Where market data comes from: the seeded simulator or a recorded-feed player.
 *
 * Time only moves when `advanceTo(unixMs)` is called (the plugin calls it from a real interval,
 * tests call it directly), so a source is a pure function of its construction options and the
 * sequence of `advanceTo` times. Frames are delivered synchronously inside `advanceTo`, so a
 * snapshot taken between two calls is always consistent with the diffs that follow it:
 * the first depth diff after `snapshot(s).seq` has `prevSeq === seq`.
 */
export interface MarketSource {
  /** 'sim' or 'recorded': shown in logs and docs. */
  readonly kind: 'sim' | 'recorded';
  /** Every instrument, in display order. */
  symbols(): readonly SymbolInfo[];
  /** The instrument for an upper-case symbol, e.g. 'BTCUSDT'. */
  symbol(symbol: string): SymbolInfo | undefined;
  /** The top `limit` levels per side and the seq of the last diff they include. */
  snapshot(symbol: string, limit: number): DepthSnapshot | undefined;
  /** The latest trades, newest first. */
  recentTrades(symbol: string, limit: number): Trade[];
  /** Calendar-aligned candles in ascending open time (see `aggregateBars` for from/to/limit). */
  klines(symbol: string, interval: KlineInterval, from: number | undefined, to: number | undefined, limit: number): Candle[];
  /**
   * Candles from a source whose series lives in another process (a gateway's mirror of the
   * engine, server/broker/mirror.ts): the REST route awaits it instead of `klines` when present.
   */
  fetchKlines?(symbol: string, interval: KlineInterval, from: number | undefined, to: number | undefined, limit: number): Promise<Candle[]>;
  /**
   * Registers a listener for a market that started over (a gateway's mirror when a new engine
   * took over: sequence numbers restart); socket holders make their clients resubscribe.
   */
  onReset?(listener: () => void): () => void;
  /**
   * Holds `symbol` at `price` (a decimal string on the tick) until called again with null, which
   * lets it walk again: only the simulator has it, and only tests switch it on (MARKET_STEERING,
   * POST /api/dev/market/steer). Throws on an unknown symbol or a price off the tick.
   */
  steer?(symbol: string, price: string | null): void;
  /** 24 h tickers of every symbol, in display order. */
  tickers(): Ticker[];
  ticker(symbol: string): Ticker | undefined;
  /** Mark price (a smoothed mid): what the trading engine values positions with. */
  markPrice(symbol: string): number | undefined;
  /** Registers a frame listener; returns the unsubscribe function. */
  subscribe(listener: FrameListener): () => void;
  /** Moves the source's time forward to `unixMs`, emitting every frame due by then. Earlier times are ignored. */
  advanceTo(unixMs: number): void;
  /** The time the source has advanced to. */
  now(): number;
}

/** Market engine settings read from the environment (MARKET_SOURCE, MARKET_SEED, MARKET_SPEED, MARKET_FIXTURE). */
export interface MarketConfig {
  source: 'sim' | 'recorded';
  seed: number;
  /** Playback speed of the recorded feed (1 = real time). */
  speed: number;
  /** JSONL fixture the player streams (MARKET_FIXTURE); default fixtures/market-data/binance-usdm.jsonl (real Binance USD-M recording). */
  fixturePath: string;
}

/** Reads the market settings; throws on malformed values (a start-up programmer error). */
export function loadMarketConfig(env: NodeJS.ProcessEnv = process.env): MarketConfig {
  const source = (env.MARKET_SOURCE ?? 'sim').trim().toLowerCase();
  if (source !== 'sim' && source !== 'recorded') throw new Error(`Invalid MARKET_SOURCE: ${source} (sim|recorded)`);
  const seed = Number(env.MARKET_SEED ?? 42);
  if (!Number.isInteger(seed)) throw new Error(`Invalid MARKET_SEED: ${env.MARKET_SEED}`);
  const speed = Number(env.MARKET_SPEED ?? 1);
  if (!Number.isFinite(speed) || speed <= 0 || speed > 1000) throw new Error(`Invalid MARKET_SPEED: ${env.MARKET_SPEED}`);
  return { source, seed, speed, fixturePath: env.MARKET_FIXTURE ?? 'fixtures/market-data/binance-usdm.jsonl' };
}

/** Topic a frame is published on (docs/PROTOCOL.md), or null for frames that are replies, not publications. */
export function topicOf(frame: MarketFrame): string | null {
  switch (frame.type) {
    case 'depth':
      return `${frame.symbol.toLowerCase()}@depth`;
    case 'trade':
      return `${frame.symbol.toLowerCase()}@trade`;
    case 'ticker':
      return `${frame.symbol.toLowerCase()}@ticker`;
    case 'kline':
      return `${frame.symbol.toLowerCase()}@kline_${frame.interval}`;
    case 'tickers':
      return 'all@ticker';
    case 'pong':
    case 'error':
    case 'subscribed':
      return null;
  }
}
