import type { SymbolInfo } from '../../../src/protocol/market.ts';

/** A USDT instrument with plain contract rules; `over` changes any field. Shared by the market tests. */
export function symbol(sym: string, over: Partial<SymbolInfo> = {}): SymbolInfo {
  return {
    symbol: sym,
    base: sym.replace(/USDT$/, ''),
    quote: 'USDT',
    name: sym,
    category: 'crypto',
    kinds: ['perp', 'std'],
    tickSize: 0.01,
    qtyStep: 0.001,
    pricePrecision: 2,
    qtyPrecision: 3,
    minOrderQuantity: 0.001,
    maxOrderQuantity: 100,
    openingFeeRatio: 0.0004,
    closingFeeRatio: 0.0004,
    minLever: 1,
    maxLever: 100,
    mMarginRatio: 0.005,
    overnightFeeRatio: 0,
    fundingRateRatio: 0.0001,
    hot: false,
    ...over,
  };
}
