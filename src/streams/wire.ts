import { distinctUntilChanged, filter, map, scan, share, startWith, type Observable } from 'rxjs';
import type { MarketFrame } from '../protocol/market.ts';
import { reduceCandles, type CandlesState } from './candles.ts';
import { initialOrderBook, reduceOrderBook, type OrderBookState, type ResyncReason } from './orderBook.ts';
import { initialMarket, initialTicker, reduceMarket, reduceTicker, type MarketState, type TickerState } from './ticker.ts';
import { DEFAULT_TRADES_LIMIT, initialTrades, reduceTrades, type TradesState } from './trades.ts';

/**
 * Thin RxJS wiring of the pure reducers (filter → scan → distinct). No time-based operators here:
 * throttling to animation frames happens at the React edge (src/ui/hooks/useStream.ts), so a
 * headless replay runs these at full speed with identical results.
 *
 * Each function returns a cold observable: every subscription runs its own scan from the initial
 * state. Share at the edge (or use {@link orderBookStreams}) when several consumers need one book.
 */

/** The depth frames of one symbol. */
export function depthFrames$(frames$: Observable<MarketFrame>, symbol: string): Observable<Extract<MarketFrame, { type: 'depth' }>> {
  return frames$.pipe(filter((f): f is Extract<MarketFrame, { type: 'depth' }> => f.type === 'depth' && f.symbol === symbol));
}

/** The order book of one symbol; emits only when the book changed. */
export function orderBook$(frames$: Observable<MarketFrame>, symbol: string): Observable<OrderBookState> {
  return depthFrames$(frames$, symbol).pipe(scan(reduceOrderBook, initialOrderBook(symbol)), distinctUntilChanged());
}

/** What the socket machine receives when a book needs a fresh snapshot (resubscribe / refetch). */
export interface ResyncRequest {
  symbol: string;
  /** The book's seq when the gap was seen (last applied update). */
  seq: number;
  reason: ResyncReason;
}

/** One request each time a book enters 'resync' (not repeated while it stays there). */
export function resync$(book$: Observable<OrderBookState>): Observable<ResyncRequest> {
  return book$.pipe(
    map((s) => (s.status === 'resync' && s.reason ? s : null)),
    distinctUntilChanged((a, b) => a?.reason === b?.reason),
    filter((s): s is OrderBookState & { reason: ResyncReason } => s !== null),
    map((s) => ({ symbol: s.symbol, seq: s.seq, reason: s.reason })),
  );
}

/** A book and its resync requests sharing one reduction (one scan per subscription group). */
export function orderBookStreams(frames$: Observable<MarketFrame>, symbol: string): { book$: Observable<OrderBookState>; resync$: Observable<ResyncRequest> } {
  const book$ = orderBook$(frames$, symbol).pipe(share());
  return { book$, resync$: resync$(book$) };
}

/** The 24 h ticker of one symbol (from 'ticker' and 'tickers' frames). */
export function ticker$(frames$: Observable<MarketFrame>, symbol: string): Observable<TickerState> {
  return frames$.pipe(
    filter((f) => f.type === 'tickers' || (f.type === 'ticker' && f.symbol === symbol)),
    scan(reduceTicker, initialTicker(symbol)),
    distinctUntilChanged(),
  );
}

/** The all-market ticker map. */
export function market$(frames$: Observable<MarketFrame>): Observable<MarketState> {
  return frames$.pipe(
    filter((f) => f.type === 'tickers' || f.type === 'ticker'),
    scan(reduceMarket, initialMarket()),
    distinctUntilChanged(),
  );
}

/** Latest trades of one symbol, newest first. */
export function trades$(frames$: Observable<MarketFrame>, symbol: string, limit = DEFAULT_TRADES_LIMIT): Observable<TradesState> {
  return frames$.pipe(
    filter((f) => f.type === 'trade' && f.symbol === symbol),
    scan(reduceTrades, initialTrades(symbol, limit)),
    distinctUntilChanged(),
  );
}

/**
 * Candles seeded with REST history (`initialCandles(symbol, interval, rest)`) merged with live
 * kline frames of that symbol and interval. Emits the seeded history first.
 */
export function candles$(frames$: Observable<MarketFrame>, history: CandlesState): Observable<CandlesState> {
  const { symbol, interval } = history;
  return frames$.pipe(
    filter((f) => f.type === 'kline' && f.symbol === symbol && f.interval === interval),
    scan(reduceCandles, history),
    startWith(history),
    distinctUntilChanged(),
  );
}
