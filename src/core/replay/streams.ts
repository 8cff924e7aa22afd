import type { InboundFrame } from '../../machines/socketMachine.ts';
import type { DepthSnapshot, KlineInterval, MarketFrame } from '../../protocol/market.ts';
import { KLINE_INTERVALS } from '../../protocol/market.ts';
import { initialCandles, reduceCandles, type CandlesState } from '../../streams/candles.ts';
import { initialOrderBook, reduceOrderBook, sideLevels, topOfBook, type OrderBookState } from '../../streams/orderBook.ts';
import { initialMarket, reduceMarket, type MarketState } from '../../streams/ticker.ts';
import { initialTrades, reduceTrades, type TradesState } from '../../streams/trades.ts';

/**
 * The headless stand-in for the screens' stream wiring during replay: every market frame goes
 * through the same pure reducers the UI uses (order book per symbol, the all-market ticker map,
 * latest trades per symbol, candles per symbol and interval), and the user socket's balance frames
 * are kept per wallet and coin. Like useTradeMarket, a recorded GET /market/depth answer is fed to
 * the book as a snapshot (that is how a gap resyncs), so a gap-and-resync log ends live.
 *
 * Frames that do not have the shape their `type` promises are counted in `rejected` and never
 * reach a reducer (the reducers trust their input; the socket layer only checks `type`).
 */
export class StreamModel {
  readonly books = new Map<string, OrderBookState>();
  readonly trades = new Map<string, TradesState>();
  readonly candles = new Map<string, CandlesState>();
  market: MarketState = initialMarket();
  /** Latest balance frame per `wallet:coin` (decimal strings as sent). */
  readonly balances = new Map<string, Record<string, unknown>>();
  /** Open positions by id from `position` frames (a frame with `closed: true` removes it: closed or liquidated). */
  readonly positions = new Map<string, Record<string, unknown>>();
  /** Position ids closed so far, in order (a liquidation shows here and in `positions` no more). */
  readonly closedPositions: string[] = [];
  /**
   * The account features as the server last told them (REST answers and user frames): the KYC
   * status, compensation orders by id, vouchers by id. Absent from `state()` until first seen, so
   * logs without these features hash as before.
   */
  kyc: Record<string, unknown> | null = null;
  readonly compensation = new Map<number, Record<string, unknown>>();
  readonly vouchers = new Map<number, Record<string, unknown>>();
  rejected = 0;
  frames = 0;

  /** Feeds one parsed market socket frame. */
  marketFrame(f: InboundFrame): void {
    this.frames += 1;
    if (!isMarketFrame(f)) {
      if (f.type === 'depth' || f.type === 'trade' || f.type === 'kline' || f.type === 'ticker' || f.type === 'tickers') this.rejected += 1;
      return;
    }
    this.apply(f);
  }

  private apply(f: MarketFrame): void {
    switch (f.type) {
      case 'depth': {
        const book = this.books.get(f.symbol) ?? initialOrderBook(f.symbol);
        this.books.set(f.symbol, reduceOrderBook(book, f));
        return;
      }
      case 'trade': {
        const tr = this.trades.get(f.symbol) ?? initialTrades(f.symbol);
        this.trades.set(f.symbol, reduceTrades(tr, f));
        return;
      }
      case 'kline': {
        const key = `${f.symbol}@${f.interval}`;
        const c = this.candles.get(key) ?? initialCandles(f.symbol, f.interval);
        this.candles.set(key, reduceCandles(c, f));
        return;
      }
      case 'ticker':
      case 'tickers':
        this.market = reduceMarket(this.market, f);
        return;
      default:
        return;
    }
  }

  /** Feeds one parsed user socket frame: balances and positions (what the invariants look at). */
  userFrame(f: InboundFrame): void {
    this.frames += 1;
    if (f.type === 'position') {
      const p = f.data as Record<string, unknown> | null | undefined;
      if (!p || typeof p !== 'object' || typeof p.id !== 'string') {
        this.rejected += 1;
        return;
      }
      if (p.closed === true) {
        if (this.positions.delete(p.id)) this.closedPositions.push(p.id);
      } else this.positions.set(p.id, p);
      return;
    }
    if (f.type === 'kyc' || f.type === 'compensation' || f.type === 'voucher') {
      if (!this.account(f.type, f.data)) this.rejected += 1;
      return;
    }
    if (f.type !== 'balance') return;
    const d = f.data;
    if (typeof d !== 'object' || d === null) {
      this.rejected += 1;
      return;
    }
    const b = d as Record<string, unknown>;
    this.balances.set(`${String(b.wallet)}:${String(b.coin)}`, b);
  }

  /** Keeps one account-feature DTO; false when it does not have the shape its kind needs. */
  private account(kind: 'kyc' | 'compensation' | 'voucher', data: unknown): boolean {
    if (typeof data !== 'object' || data === null) return false;
    const d = data as Record<string, unknown>;
    if (kind === 'kyc') {
      if (typeof d.status !== 'string') return false;
      this.kyc = d;
      return true;
    }
    if (typeof d.id !== 'number' || typeof d.status !== 'string') return false;
    (kind === 'compensation' ? this.compensation : this.vouchers).set(d.id, d);
    return true;
  }

  /**
   * A recorded REST answer: GET /market/depth becomes a snapshot of that symbol's book; the
   * account features' answers (KYC status, compensation orders and actions, vouchers) update
   * their server-truth view.
   */
  httpAnswer(method: string, path: string, data: unknown): void {
    const list = (data as { list?: unknown } | null)?.list;
    switch (path) {
      case '/kyc/status':
      case '/kyc/submit':
        this.account('kyc', data);
        return;
      case '/compensation/orders':
        if (Array.isArray(list)) for (const o of list) this.account('compensation', o);
        return;
      case '/compensation/claim':
      case '/compensation/boost':
      case '/compensation/withdraw':
        this.account('compensation', data);
        return;
      case '/vouchers':
        if (Array.isArray(list)) for (const v of list) this.account('voucher', v);
        return;
      case '/vouchers/merge':
        this.account('voucher', data);
        return;
      default:
        break;
    }
    if (method !== 'GET' || path !== '/market/depth' || typeof data !== 'object' || data === null) return;
    const d = data as Partial<DepthSnapshot>;
    if (typeof d.symbol !== 'string' || typeof d.seq !== 'number' || !isLevels(d.bids) || !isLevels(d.asks)) return;
    if (!this.books.has(d.symbol)) return; // no screen showed this book
    this.apply({ type: 'depth', symbol: d.symbol, snapshot: true, seq: d.seq, bids: d.bids, asks: d.asks, ts: typeof d.ts === 'number' ? d.ts : 0 });
  }

  /** Plain, hashable view: sorted by key, books as level arrays. */
  state(): Record<string, unknown> {
    const books: Record<string, unknown> = {};
    for (const [s, b] of this.books) {
      books[s] = { status: b.status, seq: b.seq, reason: b.reason, buffered: b.buffer.length, ts: b.ts, bids: sideLevels(b.bids), asks: sideLevels(b.asks) };
    }
    return {
      books,
      tickers: this.market.items,
      trades: Object.fromEntries([...this.trades].map(([s, t]) => [s, t.items])),
      candles: Object.fromEntries([...this.candles].map(([k, c]) => [k, { items: c.items, lastClosed: c.lastClosed }])),
      balances: Object.fromEntries(this.balances),
      positions: Object.fromEntries(this.positions),
      closedPositions: this.closedPositions,
      rejected: this.rejected,
      // undefined fields are left out of the hash: logs without these features hash as before
      kyc: this.kyc ?? undefined,
      compensation: this.compensation.size > 0 ? Object.fromEntries(this.compensation) : undefined,
      vouchers: this.vouchers.size > 0 ? Object.fromEntries(this.vouchers) : undefined,
    };
  }

  /**
   * Invariant violations visible now: a live book that is crossed (best bid >= best ask), a
   * negative level quantity, or a balance field below zero.
   */
  violations(): string[] {
    const out: string[] = [];
    for (const [s, b] of this.books) {
      const { bid, ask } = topOfBook(b);
      if (b.status === 'live' && bid && ask && bid[0] >= ask[0]) out.push(`book ${s} crossed: bid ${bid[0]} >= ask ${ask[0]}`);
      for (const [p, q] of [...sideLevels(b.bids), ...sideLevels(b.asks)]) if (!(q > 0)) out.push(`book ${s} shows level ${p} with quantity ${q}`);
    }
    for (const [k, b] of this.balances) {
      for (const field of ['available', 'frozen', 'total']) {
        const v = Number(b[field]);
        if (b[field] !== undefined && (!Number.isFinite(v) || v < 0)) out.push(`balance ${k} ${field} is ${String(b[field])}`);
      }
    }
    return out;
  }
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isLevels = (v: unknown): v is [number, number][] => Array.isArray(v) && v.every((l) => Array.isArray(l) && l.length === 2 && isNum(l[0]) && isNum(l[1]) && l[1] >= 0);
const isTicker = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Record<string, unknown>;
  return typeof t.symbol === 'string' && isNum(t.last) && isNum(t.ts);
};

/** Cheap structural check of a frame against its `type` (the hot path cannot afford zod). */
export function isMarketFrame(f: InboundFrame): f is InboundFrame & MarketFrame {
  const r = f as Record<string, unknown>;
  switch (f.type) {
    case 'depth':
      if (typeof r.symbol !== 'string' || !isLevels(r.bids) || !isLevels(r.asks) || !isNum(r.ts)) return false;
      return r.snapshot === true ? Number.isInteger(r.seq) : r.snapshot === false && Number.isInteger(r.firstSeq) && Number.isInteger(r.lastSeq) && Number.isInteger(r.prevSeq);
    case 'trade':
      return typeof r.symbol === 'string' && Number.isInteger(r.id) && isNum(r.price) && isNum(r.qty) && (r.side === 'buy' || r.side === 'sell') && isNum(r.ts);
    case 'ticker':
      return isTicker(r);
    case 'tickers':
      return Array.isArray(r.items) && r.items.every(isTicker) && isNum(r.ts);
    case 'kline': {
      const c = r.candle as Record<string, unknown> | null | undefined;
      return typeof r.symbol === 'string' && KLINE_INTERVALS.includes(r.interval as KlineInterval) && typeof r.closed === 'boolean' && !!c && isNum(c.t) && isNum(c.o) && isNum(c.h) && isNum(c.l) && isNum(c.c) && isNum(c.v);
    }
    default:
      return false;
  }
}
