import type { Query } from '../../../api/client.ts';
import { dayEndMs, dayStartMs } from '../../../format/date.ts';
import { LEDGER_ENTRY_TYPES, ORDER_KINDS, TRADING_PATHS, type LedgerEntryType, type OrderKind, type TradeOrderStatus } from '../../../protocol/trading.ts';

/**
 * The futures-orders page's tabs and filters, turned into the REST calls of src/protocol/trading.ts.
 * Pure, so the mapping (which filter goes to which endpoint, empty filters dropped, the date range
 * as local-day bounds) is property-tested without a DOM.
 */
export const ORDER_TABS = ['open', 'history', 'trades', 'ledger'] as const;
export type OrderTab = (typeof ORDER_TABS)[number];

/** Rows per page on every tab. */
export const HISTORY_PAGE_SIZE = 10;

export interface HistoryFilters {
  /** '' = both contracts. On the ledger tab it selects the wallet (perp / std). */
  contract: '' | 'perp' | 'std';
  /** '' = every pair. */
  symbol: string;
  /** Order kind ('' = all); trades also know 'liquidation'. Ignored on the ledger tab. */
  kind: '' | OrderKind | 'liquidation';
  /** Order status, history tab only. */
  status: '' | TradeOrderStatus;
  /** Ledger entry type, ledger tab only. */
  ledgerType: '' | LedgerEntryType;
  /** Local calendar days 'YYYY-MM-DD' ('' = open-ended). */
  from: string;
  to: string;
}

export const EMPTY_FILTERS: HistoryFilters = { contract: '', symbol: '', kind: '', status: '', ledgerType: '', from: '', to: '' };

const PATH: Readonly<Record<OrderTab, string>> = {
  open: TRADING_PATHS.openOrders,
  history: TRADING_PATHS.orderHistory,
  trades: TRADING_PATHS.fills,
  ledger: TRADING_PATHS.ledger,
};

/** Kind filters each tab offers. */
export function kindOptions(tab: OrderTab): readonly (OrderKind | 'liquidation')[] {
  if (tab === 'trades') return [...ORDER_KINDS, 'liquidation'];
  if (tab === 'ledger') return [];
  return ORDER_KINDS;
}

export const LEDGER_TYPES: readonly LedgerEntryType[] = LEDGER_ENTRY_TYPES;

/**
 * The GET path (without the /api base) and query for one page of a tab. Only filters that the
 * endpoint understands are sent, and empty ones are omitted.
 */
export function historyRequest(tab: OrderTab, f: HistoryFilters, page: number, pageSize = HISTORY_PAGE_SIZE): { path: string; query: Query } {
  const query: Query = { page, pageSize };
  if (f.symbol) query.symbol = f.symbol;
  if (tab === 'ledger') {
    if (f.contract) query.wallet = f.contract;
    if (f.ledgerType) query.type = f.ledgerType;
  } else {
    if (f.contract) query.contract = f.contract;
    if (f.kind && (kindOptions(tab) as readonly string[]).includes(f.kind)) query.type = f.kind;
    if (tab === 'history' && f.status) query.status = f.status;
  }
  const from = dayStartMs(f.from);
  const to = dayEndMs(f.to);
  if (from !== undefined) query.from = from;
  if (to !== undefined) query.to = to;
  return { path: PATH[tab].replace(/^\/api/, ''), query };
}
