import type { ApiClient } from '../api/client.ts';
import { ApiError, NetworkError } from '../api/client.ts';
import type { OrderAck, PlaceFailure, PlaceOrderRequest } from '../machines/orderMachine.ts';
import type { Page } from '../protocol/envelope.ts';
import type { ContractKind } from '../protocol/market.ts';
import { TRADING_PATHS, type Balance, type ClosePositionBody, type Fill, type LedgerEntry, type Order, type PlaceOrderBody, type Position } from '../protocol/trading.ts';

/**
 * The trade screen's calls to the trading REST API (src/protocol/trading.ts, docs/TRADING.md),
 * bound to the recorded ApiClient. Paths in TRADING_PATHS start with /api; the client adds it.
 *
 * Place, cancel, edit and close (`placeOrder`, `cancelOrder`, `editOrder`, `closePosition`,
 * `closePositionWith`) go over the user socket while it is open and its server announced those
 * methods, and over HTTP otherwise: the core's ApiClient routes them (src/core/tradingSocket.ts,
 * issue 28), and a socket answer is the same envelope as the route's, so what these functions
 * resolve or reject with (OrderAck, PlaceFailure, ApiError, NetworkError) does not depend on the
 * door. A socket that closes before the answer is a network failure, never a second send: the
 * order machine's retry posts the same clientOrderId, which the server answers with the order it
 * already has.
 */

/** TRADING_PATHS without the /api prefix the ApiClient adds itself. */
const path = (p: string) => p.replace(/^\/api/, '');

/** How many history rows the screen loads (one page, newest first). */
export const HISTORY_PAGE_SIZE = 50;

/** The account panel's paged histories. */
export type HistoryList = 'orderHistory' | 'fills' | 'ledger';

/** The fields of POST /trade/order/edit a user changes, as typed (decimal strings): limit price, trigger price (stops), size. */
export interface OrderPatch {
  price?: string;
  triggerPrice?: string;
  qty?: string;
}
const HISTORY_PATHS = { orderHistory: 'orderHistory', fills: 'fills', ledger: 'ledger' } as const;

/** The rows of a paged answer (`Page.list`), or the answer itself when the call is not paged. */
export function listOf<T>(data: Page<T> | T[]): T[] {
  return Array.isArray(data) ? data : data.list;
}

/** Rejections of `placeOrder` as the order machine expects them (network failures may be retried). */
export function placeFailure(e: unknown): PlaceFailure {
  if (e instanceof NetworkError) return { kind: 'network', msg: e.message || 'Error' };
  if (e instanceof ApiError) return { kind: 'rejected', msg: e.msg };
  const msg = typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string' ? (e as { msg: string }).msg : 'Error';
  return { kind: 'rejected', msg };
}

/** The order kind the server knows for each ticket type. */
const KIND_OF: Record<PlaceOrderRequest['type'], PlaceOrderBody['kind']> = { limit: 'limitOpen', market: 'marketOpen', stopMarket: 'stopMarket', stopLimit: 'stopLimit' };

/**
 * The POST body of a ticket's order from the machine's request. Prices and quantities go as the
 * decimal strings the machine built (the server reads them exactly); options only when set.
 */
export function placeOrderBodyOf(req: PlaceOrderRequest, contract: ContractKind): PlaceOrderBody {
  const body: PlaceOrderBody = {
    clientOrderId: req.clientOrderId,
    symbol: req.symbol,
    contract,
    kind: KIND_OF[req.type],
    side: req.side,
    qty: req.qty,
    leverage: req.leverage,
  };
  if (req.price !== undefined && (req.type === 'limit' || req.type === 'stopLimit')) body.price = req.price;
  if (req.triggerPrice !== undefined) body.triggerPrice = req.triggerPrice;
  if (req.triggerBy !== undefined) body.triggerBy = req.triggerBy;
  if (req.timeInForce !== undefined) body.timeInForce = req.timeInForce;
  if (req.reduceOnly) body.reduceOnly = true;
  if (req.postOnly) body.postOnly = true;
  if (req.tp !== undefined) body.tp = req.tp;
  if (req.sl !== undefined) body.sl = req.sl;
  return body;
}

/** The trading calls of one contract kind (its wallet is the contract kind: perp or std). */
export function tradingApi(api: ApiClient, contract: ContractKind) {
  const list = { contract, page: 1, pageSize: HISTORY_PAGE_SIZE };
  return {
    async placeOrder(req: PlaceOrderRequest, signal?: AbortSignal): Promise<OrderAck> {
      try {
        const o = await api.post<Order>(path(TRADING_PATHS.placeOrder), placeOrderBodyOf(req, contract), signal ? { signal } : {});
        return { orderId: String(o.id), status: o.status };
      } catch (e) {
        throw placeFailure(e);
      }
    },
    /** The USDT balance of the contract's wallet (zero when the wallet has none yet). */
    async balance(): Promise<Balance> {
      const all = await api.get<Balance[]>(path(TRADING_PATHS.balances), { wallet: contract });
      return all.find((b) => b.wallet === contract && b.coin === 'USDT') ?? { wallet: contract, coin: 'USDT', available: '0', frozen: '0', total: '0' };
    },
    positions: () => api.get<Page<Position> | Position[]>(path(TRADING_PATHS.positions), { contract }).then(listOf),
    openOrders: () => api.get<Page<Order> | Order[]>(path(TRADING_PATHS.openOrders), list).then(listOf),
    orderHistory: () => api.get<Page<Order> | Order[]>(path(TRADING_PATHS.orderHistory), list).then(listOf),
    fills: () => api.get<Page<Fill> | Fill[]>(path(TRADING_PATHS.fills), list).then(listOf),
    ledger: () => api.get<Page<LedgerEntry> | LedgerEntry[]>(path(TRADING_PATHS.ledger), { wallet: contract, page: 1, pageSize: HISTORY_PAGE_SIZE }).then(listOf),
    cancelOrder: (orderId: string) => api.post<Order>(path(TRADING_PATHS.cancelOrder), { orderId }),
    closePosition: (positionId: string, clientOrderId: string) => api.post<Order>(path(TRADING_PATHS.closePosition), { positionId, clientOrderId }),
    setTpSl: (positionId: string, tp: number | string | null, sl: number | string | null, signal?: AbortSignal) =>
      api.post<Position>(path(TRADING_PATHS.tpsl), { positionId, tp, sl }, signal ? { signal } : {}),
    /** Market close (no price) or limit close (price) of `qty` (default the whole position); decimal strings. */
    closePositionWith: (req: { positionId: string; clientOrderId: string; qty?: string; price?: string }, signal?: AbortSignal) => {
      const body: ClosePositionBody = { positionId: req.positionId, clientOrderId: req.clientOrderId };
      if (req.qty !== undefined) body.qty = req.qty;
      if (req.price !== undefined) body.price = req.price;
      return api.post<Order>(path(TRADING_PATHS.closePosition), body, signal ? { signal } : {});
    },
    /** Market-closes every open position of this contract kind. */
    closeAll: (signal?: AbortSignal) => api.post<Order[]>(path(TRADING_PATHS.closeAll), { contract }, signal ? { signal } : {}),
    /** Changes a pending order's price and/or quantity in place (decimal strings). */
    editOrder: (orderId: string, patch: OrderPatch) => api.post<Order>(path(TRADING_PATHS.editOrder), { orderId, ...patch }),
    /** One page of a history list (newest first) with its total. */
    historyPage: (list: HistoryList, page: number) => {
      const q = list === 'ledger' ? { wallet: contract, page, pageSize: HISTORY_PAGE_SIZE } : { contract, page, pageSize: HISTORY_PAGE_SIZE };
      return api.get<Page<Order | Fill | LedgerEntry>>(path(TRADING_PATHS[HISTORY_PATHS[list]]), q);
    },
  };
}

export type TradingApi = ReturnType<typeof tradingApi>;
export type { Balance, Fill, LedgerEntry, Order, Position };
