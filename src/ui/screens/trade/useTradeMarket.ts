import { useMemo } from 'react';
import type { ContractKind, KlineInterval, SymbolInfo } from '../../../protocol/market.ts';
import { initialCandles, type CandlesState } from '../../../streams/candles.ts';
import { initialOrderBook, type OrderBookState } from '../../../streams/orderBook.ts';
import { initialTicker, type TickerState } from '../../../streams/ticker.ts';
import { initialTrades, type TradesState } from '../../../streams/trades.ts';
import { useAppCore } from '../../app/AppCoreProvider.tsx';
import { useStream } from '../../hooks/useStream.ts';

/** Everything the trade screen shows about the market of one pair. */
export interface TradeMarketView {
  /** Instruments of this contract kind; null until loaded. */
  symbols: SymbolInfo[] | null;
  info: SymbolInfo | null;
  ticker: TickerState;
  book: OrderBookState;
  trades: TradesState;
  candles: CandlesState;
}

/** The market socket topics of one pair (docs/PROTOCOL.md), in the order the screen's readers open them. */
export function tradeTopics(symbol: string, interval: KlineInterval): string[] {
  const s = symbol.toLowerCase();
  return [`${s}@depth`, `${s}@trade`, `${s}@ticker`, `${s}@kline_${interval}`];
}

/**
 * The market streams of one pair, read from the core (src/core/marketStreams.ts: the book with
 * its resync machine, trades with their REST seed, the ticker, candles with their history, the
 * symbol list). Reading opens them; the core subscribes the topics (one subscribe for the four)
 * and loads the seeds. A value of another pair (the first render after a switch) is never shown.
 */
export function useTradeMarket(symbol: string, contract: ContractKind, interval: KlineInterval): TradeMarketView {
  const m = useAppCore().streams.market;
  // NOTE: the order of these reads is the order of the topics in the one subscribe message.
  const rawBook = useStream(useMemo(() => m.book$(symbol), [m, symbol]), initialOrderBook(symbol));
  const rawTrades = useStream(useMemo(() => m.trades$(symbol), [m, symbol]), initialTrades(symbol));
  const rawTicker = useStream(useMemo(() => m.ticker$(symbol), [m, symbol]), initialTicker(symbol));
  const rawCandles = useStream(useMemo(() => m.candles$(symbol, interval), [m, symbol, interval]), initialCandles(symbol, interval));
  const allSymbols = useStream(useMemo(() => m.symbols$(), [m]), null);
  const symbols = useMemo(() => allSymbols?.filter((s) => s.kinds.includes(contract)) ?? null, [allSymbols, contract]);
  const info = symbols?.find((s) => s.symbol === symbol) ?? null;
  return {
    symbols,
    info,
    book: rawBook.symbol === symbol ? rawBook : initialOrderBook(symbol),
    trades: rawTrades.symbol === symbol ? rawTrades : initialTrades(symbol),
    ticker: rawTicker.symbol === symbol ? rawTicker : initialTicker(symbol),
    candles: rawCandles.symbol === symbol && rawCandles.interval === interval ? rawCandles : initialCandles(symbol, interval),
  };
}
