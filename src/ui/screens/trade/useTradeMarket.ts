import { useEffect, useMemo, useState } from 'react';
import { merge, Subject, type Observable } from 'rxjs';
import type { Candle, ContractKind, DepthSnapshot, KlineInterval, MarketFrame, SymbolInfo, Trade } from '../../../protocol/market.ts';
import { initialCandles, type CandlesState } from '../../../streams/candles.ts';
import { initialOrderBook, type OrderBookState } from '../../../streams/orderBook.ts';
import { initialTicker, type TickerState } from '../../../streams/ticker.ts';
import { initialTrades, mergeTrades, type TradesState } from '../../../streams/trades.ts';
import { candles$, orderBookStreams, ticker$, trades$ } from '../../../streams/wire.ts';
import { useApi, useMarketFrames, useMarketTopics } from '../../app/AppCoreProvider.tsx';
import { useFrameState } from './useFrameState.ts';

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

/** The market socket topics of one pair (docs/PROTOCOL.md). */
export function tradeTopics(symbol: string, interval: KlineInterval): string[] {
  const s = symbol.toLowerCase();
  return [`${s}@depth`, `${s}@trade`, `${s}@ticker`, `${s}@kline_${interval}`];
}

/** A REST depth snapshot as the socket's snapshot frame, so the same reducer applies it. */
export function snapshotFrame(d: DepthSnapshot): MarketFrame {
  return { type: 'depth', symbol: d.symbol, snapshot: true, seq: d.seq, bids: d.bids, asks: d.asks, ts: d.ts };
}

/**
 * Wires the market streams of one pair: symbols (filtered by contract kind), ticker, order book
 * (with resync: a gap fetches GET /market/depth and feeds it as a snapshot), latest trades
 * (REST seed + live), candles (REST history for the interval + live klines). Every view is
 * coalesced to animation frames.
 */
export function useTradeMarket(symbol: string, contract: ContractKind, interval: KlineInterval): TradeMarketView {
  const api = useApi();
  const frames$ = useMarketFrames() as Observable<MarketFrame>;
  useMarketTopics(tradeTopics(symbol, interval));

  const [symbols, setSymbols] = useState<SymbolInfo[] | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    api.get<SymbolInfo[]>('/market/symbols', undefined, ctrl.signal).then(
      (list) => setSymbols(list.filter((s) => s.kinds.includes(contract))),
      () => setSymbols((prev) => prev ?? []),
    );
    return () => ctrl.abort();
  }, [api, contract]);
  const info = symbols?.find((s) => s.symbol === symbol) ?? null;

  // Order book with REST re-snapshots injected on a gap.
  const book$ = useMemo(() => {
    const injected = new Subject<MarketFrame>();
    const { book$: shared, resync$ } = orderBookStreams(merge(frames$, injected), symbol);
    return { shared, resync$, injected };
  }, [frames$, symbol]);
  useEffect(() => {
    let live = true;
    const sub = book$.resync$.subscribe(() => {
      api.get<DepthSnapshot>('/market/depth', { symbol, limit: 100 }).then(
        (d) => live && book$.injected.next(snapshotFrame(d)),
        () => {},
      );
    });
    return () => {
      live = false;
      sub.unsubscribe();
    };
  }, [api, book$, symbol]);
  const rawBook = useFrameState<OrderBookState>(book$.shared, initialOrderBook(symbol));
  const book = rawBook.symbol === symbol ? rawBook : initialOrderBook(symbol);

  const rawTicker = useFrameState(useMemo(() => ticker$(frames$, symbol), [frames$, symbol]), initialTicker(symbol));
  const ticker = rawTicker.symbol === symbol ? rawTicker : initialTicker(symbol);

  // Trades: REST seed merged with live frames.
  const [seedTrades, setSeedTrades] = useState<readonly Trade[]>([]);
  useEffect(() => {
    let live = true;
    setSeedTrades([]);
    api.get<Trade[]>('/market/trades', { symbol, limit: 50 }).then((t) => live && setSeedTrades(t), () => {});
    return () => {
      live = false;
    };
  }, [api, symbol]);
  const liveTrades = useFrameState(useMemo(() => trades$(frames$, symbol), [frames$, symbol]), initialTrades(symbol));
  const trades = useMemo(() => {
    const liveOfPair = liveTrades.symbol === symbol ? liveTrades : initialTrades(symbol);
    return seedTrades.length === 0 ? liveOfPair : mergeTrades(liveOfPair, seedTrades);
  }, [liveTrades, seedTrades, symbol]);

  // Candles: history first, then live frames on top of it.
  const [history, setHistory] = useState<CandlesState>(() => initialCandles(symbol, interval));
  useEffect(() => {
    let live = true;
    setHistory(initialCandles(symbol, interval));
    api.get<Candle[]>('/market/klines', { symbol, interval, limit: 500 }).then((h) => live && setHistory(initialCandles(symbol, interval, h)), () => {});
    return () => {
      live = false;
    };
  }, [api, symbol, interval]);
  const candles = useFrameState(useMemo(() => candles$(frames$, history), [frames$, history]), history);

  return { symbols, info, ticker, book, trades, candles: candles.symbol === symbol && candles.interval === interval ? candles : history };
}
