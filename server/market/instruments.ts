import type { AssetCategory, ContractKind, SymbolInfo } from '../../src/protocol/market.ts';

/**
 * A seeded instrument: the public {@link SymbolInfo} plus what the simulator needs to make it
 * move like the real thing. `startPrice` is where the live feed starts (history is generated
 * backwards from it); `annualVol` scales the random walk; `typicalQty` scales order and trade sizes.
 */
export interface InstrumentSeed {
  info: SymbolInfo;
  startPrice: number;
  /** Annualised volatility as a fraction (0.6 = 60 %). */
  annualVol: number;
  /** A typical resting order / trade size in base units (already a multiple of qtyStep). */
  typicalQty: number;
}

interface Row {
  base: string;
  name: string;
  category: AssetCategory;
  price: number;
  tick: number;
  step: number;
  maxLever: number;
  vol: number;
  hot?: boolean;
  kinds?: ContractKind[];
  maxQty?: number;
}

/** Number of decimals of a step such as 0.001 → 3 (steps are powers of ten, or 0.5/0.25-like values). */
export function decimalsOf(step: number): number {
  if (Number.isInteger(step)) return 0;
  const s = step.toString();
  const exp = /e-(\d+)$/.exec(s);
  if (exp?.[1] !== undefined) return Number(exp[1]);
  return s.split('.')[1]?.length ?? 0;
}

const ROWS: readonly Row[] = [
  // Major crypto
  { base: 'BTC', name: 'Bitcoin', category: 'crypto', price: 67_250, tick: 0.1, step: 0.001, maxLever: 125, vol: 0.55, hot: true, maxQty: 500 },
  { base: 'ETH', name: 'Ethereum', category: 'crypto', price: 3_480, tick: 0.01, step: 0.01, maxLever: 100, vol: 0.65, hot: true, maxQty: 5_000 },
  { base: 'SOL', name: 'Solana', category: 'crypto', price: 168.4, tick: 0.01, step: 0.1, maxLever: 50, vol: 0.85, hot: true },
  { base: 'BNB', name: 'BNB', category: 'crypto', price: 592.3, tick: 0.01, step: 0.01, maxLever: 50, vol: 0.55, hot: true },
  { base: 'XRP', name: 'XRP', category: 'crypto', price: 0.5234, tick: 0.0001, step: 1, maxLever: 50, vol: 0.75, hot: true },
  { base: 'DOGE', name: 'Dogecoin', category: 'crypto', price: 0.15123, tick: 0.00001, step: 1, maxLever: 50, vol: 0.9 },
  { base: 'ADA', name: 'Cardano', category: 'crypto', price: 0.4521, tick: 0.0001, step: 1, maxLever: 50, vol: 0.8 },
  { base: 'AVAX', name: 'Avalanche', category: 'crypto', price: 35.12, tick: 0.001, step: 0.1, maxLever: 50, vol: 0.9 },
  { base: 'LINK', name: 'Chainlink', category: 'crypto', price: 15.234, tick: 0.001, step: 0.1, maxLever: 50, vol: 0.85 },
  { base: 'DOT', name: 'Polkadot', category: 'crypto', price: 6.812, tick: 0.001, step: 0.1, maxLever: 50, vol: 0.8 },
  { base: 'LTC', name: 'Litecoin', category: 'crypto', price: 82.45, tick: 0.01, step: 0.01, maxLever: 50, vol: 0.7 },
  { base: 'TRX', name: 'TRON', category: 'crypto', price: 0.12345, tick: 0.00001, step: 1, maxLever: 25, vol: 0.5, kinds: ['perp'] },
  { base: 'TON', name: 'Toncoin', category: 'crypto', price: 6.921, tick: 0.001, step: 0.1, maxLever: 25, vol: 0.8, kinds: ['perp'] },
  // Commodities
  { base: 'XAU', name: 'Gold', category: 'commodity', price: 2_345.6, tick: 0.01, step: 0.01, maxLever: 50, vol: 0.15, hot: true, kinds: ['perp', 'std'] },
  { base: 'XAG', name: 'Silver', category: 'commodity', price: 29.512, tick: 0.001, step: 0.1, maxLever: 50, vol: 0.25, kinds: ['perp', 'std'] },
  { base: 'WTI', name: 'Crude Oil WTI', category: 'commodity', price: 78.34, tick: 0.01, step: 0.1, maxLever: 20, vol: 0.35, kinds: ['std'] },
  { base: 'NG', name: 'Natural Gas', category: 'commodity', price: 2.512, tick: 0.001, step: 1, maxLever: 20, vol: 0.6, kinds: ['std'] },
  // Stocks
  { base: 'AAPL', name: 'Apple', category: 'stock', price: 214.3, tick: 0.01, step: 0.01, maxLever: 20, vol: 0.25, hot: true, kinds: ['perp', 'std'] },
  { base: 'TSLA', name: 'Tesla', category: 'stock', price: 248.5, tick: 0.01, step: 0.01, maxLever: 20, vol: 0.55, kinds: ['perp', 'std'] },
  { base: 'NVDA', name: 'NVIDIA', category: 'stock', price: 124.6, tick: 0.01, step: 0.01, maxLever: 20, vol: 0.5, hot: true, kinds: ['perp', 'std'] },
  { base: 'MSFT', name: 'Microsoft', category: 'stock', price: 442.1, tick: 0.01, step: 0.01, maxLever: 20, vol: 0.22, kinds: ['perp', 'std'] },
  { base: 'AMZN', name: 'Amazon', category: 'stock', price: 186.9, tick: 0.01, step: 0.01, maxLever: 20, vol: 0.3, kinds: ['perp', 'std'] },
  { base: 'GOOG', name: 'Alphabet', category: 'stock', price: 178.2, tick: 0.01, step: 0.01, maxLever: 20, vol: 0.28, kinds: ['perp', 'std'] },
  { base: 'META', name: 'Meta Platforms', category: 'stock', price: 505.4, tick: 0.01, step: 0.01, maxLever: 20, vol: 0.38, kinds: ['perp', 'std'] },
  // Indices
  { base: 'SPX', name: 'S&P 500', category: 'index', price: 5_460.5, tick: 0.1, step: 0.01, maxLever: 50, vol: 0.14, kinds: ['perp', 'std'] },
  { base: 'NDX', name: 'Nasdaq 100', category: 'index', price: 19_720.3, tick: 0.1, step: 0.01, maxLever: 50, vol: 0.18, kinds: ['perp', 'std'] },
  { base: 'DJI', name: 'Dow Jones 30', category: 'index', price: 39_150, tick: 1, step: 0.01, maxLever: 50, vol: 0.13, kinds: ['std'] },
];

function roundTo(value: number, step: number): number {
  const d = decimalsOf(step);
  return Number((Math.round(value / step) * step).toFixed(d));
}

function toSeed(r: Row): InstrumentSeed {
  const pricePrecision = decimalsOf(r.tick);
  const qtyPrecision = decimalsOf(r.step);
  // About 2 000 USDT notional for a typical order; never below one step.
  const typicalQty = Math.max(r.step, roundTo(2_000 / r.price, r.step));
  const maxOrderQuantity = r.maxQty ?? roundTo(Math.max(1_000_000 / r.price, r.step * 1000), r.step);
  const isCrypto = r.category === 'crypto';
  return {
    startPrice: roundTo(r.price, r.tick),
    annualVol: r.vol,
    typicalQty,
    info: {
      symbol: `${r.base}USDT`,
      base: r.base,
      quote: 'USDT',
      name: r.name,
      category: r.category,
      kinds: r.kinds ?? ['perp', 'std'],
      tickSize: r.tick,
      qtyStep: r.step,
      pricePrecision,
      qtyPrecision,
      minOrderQuantity: r.step,
      maxOrderQuantity,
      openingFeeRatio: 0.0005,
      closingFeeRatio: 0.0005,
      makerFeeRatio: 0.0002,
      minLever: 1,
      maxLever: r.maxLever,
      mMarginRatio: r.maxLever >= 100 ? 0.004 : r.maxLever >= 50 ? 0.005 : 0.01,
      overnightFeeRatio: isCrypto ? 0.0003 : 0.0002,
      fundingRateRatio: 0.0001,
      hot: r.hot ?? false,
    },
  };
}

/**
 * The seeded instrument list, in display order (BTCUSDT first). The order is part of the
 * simulator's determinism: symbols are stepped in this order.
 */
export const INSTRUMENTS: readonly InstrumentSeed[] = ROWS.map(toSeed);

/** Looks an instrument up by its upper-case symbol, e.g. 'BTCUSDT'. */
export function findInstrument(symbol: string): InstrumentSeed | undefined {
  const s = symbol.toUpperCase();
  return INSTRUMENTS.find((i) => i.info.symbol === s);
}
