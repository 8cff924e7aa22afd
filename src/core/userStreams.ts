import { Observable, type Subscription } from 'rxjs';
import type { ApiClient } from '../api/client.ts';
import type { InboundFrame } from '../machines/socketMachine.ts';
import type { ContractKind } from '../protocol/market.ts';
import type { Balance, Fill, LedgerEntry, Order, Position } from '../protocol/trading.ts';
import type { BalancesState, PositionsState } from '../streams/accountBooks.ts';
import { revaluePositions, type LivePosition } from '../streams/positionFigures.ts';
import { balancesBook, bookState, positionsBook, type AccountBook } from './accountBooks.ts';
import { tradingApi, type HistoryList, type TradingApi } from './tradingApi.ts';
import type { Page } from '../protocol/envelope.ts';

/**
 * The user side of the core (docs/ARCHITECTURE.md "The core's streams"):
 *
 * - **Frame state** (hashed by replay), from the user socket: the latest balance per
 *   `wallet:coin`, open positions by id (a `closed` frame removes one and lists it in
 *   `closedPositions`), the latest order frame per id, and the account features' server truth
 *   (KYC status, compensation orders, vouchers) from their frames AND from the answers of their
 *   REST calls ({@link UserStreams.observeAnswer}, fed by the core's Http tap).
 * - **Readers**: `trading$(contract)` is the trade screen's account (balance, positions, open
 *   orders, histories): loaded from REST while a session exists, followed live by the frames,
 *   reloaded after an order frame and on `refreshTrading` (reloads asked for in one synchronous
 *   run are one reload). Its positions are valued at the live mark of their symbol
 *   (`UserStreamsDeps.mark$`, src/streams/positionFigures.ts): the server sends a position frame
 *   only when the position changes, so its own mark would freeze (issue 26).
 * - **Account books** (hashed while a reader holds them): `balances` (every wallet and coin) and
 *   `positions` (both contracts) for the assets pages and the dashboard, loaded on their first
 *   reader and kept live by `balance` / `position` frames (src/core/accountBooks.ts; the ordering
 *   rule of a frame racing the snapshot is in src/streams/accountBooks.ts).
 */
export interface UserStreams {
  trading$(contract: ContractKind): Observable<TradingAccountState>;
  /** Reloads every reader's lists of `contract` (after an action whose frame may not cover every list). */
  refreshTrading(contract: ContractKind): void;
  /** Loads the next page (50 rows) of a history list of every reader of `contract` (issue 14). */
  loadMoreTrading(contract: ContractKind, list: HistoryList): void;
  tradingApi(contract: ContractKind): TradingApi;
  balances: AccountBook<BalancesState>;
  positions: AccountBook<PositionsState>;
  /** A 200 answer of a REST call: the account features' answers update their server truth. */
  observeAnswer(method: string, path: string, data: unknown): void;
  state(): Record<string, unknown>;
  violations(): string[];
  stop(): void;
}

/** The logged-in user's futures account of one contract kind, as the trade screen shows it. */
export interface TradingAccountState {
  loggedIn: boolean;
  balance: Balance | null;
  /** Open positions of the contract, valued at the live mark (uPnL, return, margin ratio, distance to liquidation). */
  positions: LivePosition[];
  openOrders: Order[];
  orderHistory: Order[];
  fills: Fill[];
  ledger: LedgerEntry[];
  /** Latest user-socket order frame of this contract, for the order ticket. */
  lastOrderFrame: Order | null;
  /** Whether a history list has rows beyond those loaded (a 'Load more' button); absent = no. */
  more?: Partial<Record<HistoryList, boolean>>;
}

/** Replaces the item with the same id or prepends it; drops it when `keep` says no. */
export function upsert<T extends { id: string }>(list: readonly T[], item: T, keep: (t: T) => boolean = () => true): T[] {
  const rest = list.filter((x) => x.id !== item.id);
  return keep(item) ? [item, ...rest] : rest;
}

/** Whether an order belongs in the open-orders list (pending limit kinds of this contract). */
export const isOpenOrder = (o: Order, contract: ContractKind): boolean => o.status === 'pending' && o.contract === contract;

const HISTORY_LISTS: readonly HistoryList[] = ['orderHistory', 'fills', 'ledger'];

/** The account as loaded, positions as the server sent them. */
type RawAccount = Omit<TradingAccountState, 'positions'> & { positions: readonly Position[] };

const EMPTY_ACCOUNT: RawAccount = { loggedIn: false, balance: null, positions: [], openOrders: [], orderHistory: [], fills: [], ledger: [], lastOrderFrame: null };

export interface UserStreamsDeps {
  frames$: Observable<InboundFrame>;
  api: ApiClient;
  /** The session token as it changes (null when logged out); emits the current one on subscribe. */
  token$: Observable<string | null>;
  defer?: (fn: () => void) => void;
  /** A symbol's mark price as it moves (null while unknown); without it positions keep the server's mark. */
  mark$?: (symbol: string) => Observable<number | null>;
}

type Dto = Record<string, unknown>;

export function createUserStreams(deps: UserStreamsDeps): UserStreams {
  const balances = new Map<string, Dto>();
  const positions = new Map<string, Dto>();
  const closedPositions: string[] = [];
  const orders = new Map<string, Dto>();
  let kyc: Dto | null = null;
  const compensation = new Map<number, Dto>();
  const vouchers = new Map<number, Dto>();
  let rejected = 0;
  const defer = deps.defer ?? ((fn: () => void) => queueMicrotask(fn));

  /** Keeps one account-feature DTO; false when it does not have the shape its kind needs. */
  const account = (kind: 'kyc' | 'compensation' | 'voucher', data: unknown): boolean => {
    if (typeof data !== 'object' || data === null) return false;
    const d = data as Dto;
    if (kind === 'kyc') {
      if (typeof d.status !== 'string') return false;
      kyc = d;
      return true;
    }
    if (typeof d.id !== 'number' || typeof d.status !== 'string') return false;
    (kind === 'compensation' ? compensation : vouchers).set(d.id, d);
    return true;
  };

  const frameState = (f: InboundFrame): void => {
    const d = (f as { data?: unknown }).data;
    switch (f.type) {
      case 'position': {
        const p = d as Dto | null | undefined;
        if (!p || typeof p !== 'object' || typeof p.id !== 'string') {
          rejected += 1;
          return;
        }
        if (p.closed === true) {
          if (positions.delete(p.id)) closedPositions.push(p.id);
        } else positions.set(p.id, p);
        return;
      }
      case 'order': {
        const o = d as Dto | null | undefined;
        if (!o || typeof o !== 'object' || (typeof o.id !== 'string' && typeof o.id !== 'number')) {
          rejected += 1;
          return;
        }
        orders.set(String(o.id), o);
        return;
      }
      case 'kyc':
      case 'compensation':
      case 'voucher':
        if (!account(f.type, d)) rejected += 1;
        return;
      case 'balance':
        if (typeof d !== 'object' || d === null) {
          rejected += 1;
          return;
        }
        balances.set(`${String((d as Dto).wallet)}:${String((d as Dto).coin)}`, d as Dto);
        return;
      default:
        return;
    }
  };

  // ---- trading account readers ----------------------------------------------------------------
  type Reader = { contract: ContractKind; reload(): void; frame(f: InboundFrame): void; more(list: HistoryList): void };
  const readers = new Set<Reader>();
  const apis = new Map<ContractKind, TradingApi>();
  const apiOf = (contract: ContractKind): TradingApi => {
    let a = apis.get(contract);
    if (!a) apis.set(contract, (a = tradingApi(deps.api, contract)));
    return a;
  };

  const balancesOwned = balancesBook({ api: deps.api, frames$: deps.frames$, defer });
  const positionsOwned = positionsBook({ api: deps.api, frames$: deps.frames$, defer });

  const subs = [
    deps.frames$.subscribe((f) => {
      frameState(f);
      for (const r of [...readers]) r.frame(f);
    }),
  ];

  const trading$ = (contract: ContractKind) =>
    new Observable<TradingAccountState>((sub) => {
      const api = apiOf(contract);
      // `s.positions` holds the server's DTOs; what goes out is them valued at the live marks.
      let s: RawAccount = EMPTY_ACCOUNT;
      let token: string | null = null;
      let generation = 0;
      let reloadQueued = false;
      const marks: Record<string, number | undefined> = {};
      const markSubs = new Map<string, Subscription>();
      let valued: Parameters<typeof revaluePositions>[2];
      const emit = () => {
        const out = revaluePositions(s.positions, marks, valued);
        valued = { positions: s.positions, marks: { ...marks }, out };
        sub.next({ ...s, positions: out });
      };
      /** Follows the mark of every symbol with a position, and only those. */
      const followMarks = () => {
        const mark$ = deps.mark$;
        if (!mark$) return;
        const wanted = new Set(s.positions.map((p) => p.symbol));
        for (const [symbol, m] of markSubs) {
          if (wanted.has(symbol)) continue;
          m.unsubscribe();
          markSubs.delete(symbol);
          delete marks[symbol];
        }
        for (const symbol of wanted) {
          if (markSubs.has(symbol)) continue;
          let first = true;
          markSubs.set(
            symbol,
            mark$(symbol).subscribe((m) => {
              const next = m ?? undefined;
              if (marks[symbol] === next) return;
              marks[symbol] = next;
              if (!first) emit();
            }),
          );
          first = false;
        }
      };
      const set = (patch: Partial<RawAccount>) => {
        s = { ...s, ...patch };
        if (patch.positions) followMarks();
        emit();
      };
      const load = () => {
        reloadQueued = false;
        const gen = ++generation;
        if (token === null) return;
        const take = <T,>(p: Promise<T>, key: keyof TradingAccountState) => p.then((v) => gen === generation && set({ [key]: v } as Partial<TradingAccountState>), () => {});
        take(api.balance(), 'balance');
        take(api.positions(), 'positions');
        take(api.openOrders(), 'openOrders');
        for (const list of HISTORY_LISTS) {
          const n = pages[list];
          Promise.all(Array.from({ length: n }, (_, i) => api.historyPage(list, i + 1))).then(
            (answers) => gen === generation && setList(list, answers, null),
            () => {},
          );
        }
      };
      /** The history rows of a page answer (a bare array counts as the only page). */
      const rowsOf = (a: Page<unknown> | unknown[]) => (Array.isArray(a) ? { list: a, total: a.length } : { list: a.list, total: a.total });
      const setList = (list: HistoryList, answers: (Page<unknown> | unknown[])[], prev: readonly unknown[] | null) => {
        const seen = new Set<unknown>();
        const rows: unknown[] = [];
        const add = (xs: readonly unknown[]) => {
          for (const x of xs) {
            const id = (x as { id?: unknown }).id;
            if (seen.has(id)) continue;
            seen.add(id);
            rows.push(x);
          }
        };
        let total = 0;
        if (prev) add(prev);
        for (const a of answers) {
          const r = rowsOf(a);
          total = Math.max(total, r.total);
          add(r.list);
        }
        set({ [list]: rows, more: { ...s.more, [list]: rows.length < total } } as Partial<TradingAccountState>);
      };
      const pages: Record<HistoryList, number> = { orderHistory: 1, fills: 1, ledger: 1 };
      const reader: Reader = {
        contract,
        more(list) {
          if (token === null || !s.more?.[list]) return;
          pages[list] += 1;
          const gen = generation;
          api.historyPage(list, pages[list]).then(
            (a) => gen === generation && setList(list, [a], s[list]),
            () => {
              pages[list] -= 1;
            },
          );
        },
        reload() {
          if (reloadQueued) return;
          reloadQueued = true;
          defer(load);
        },
        frame(f) {
          if (token === null) return;
          const data = (f as { data?: unknown }).data;
          if (typeof data !== 'object' || data === null) return;
          if (f.type === 'order') {
            const o = data as Order;
            if (o.contract !== contract) return;
            set({ openOrders: upsert(s.openOrders, o, (x) => isOpenOrder(x, contract)), lastOrderFrame: o });
            reader.reload();
          } else if (f.type === 'position') {
            const p = data as Position & { closed?: boolean };
            if (p.contract !== contract) return;
            set({ positions: upsert(s.positions, p, (x) => !(x as Position & { closed?: boolean }).closed && x.qty > 0) });
          } else if (f.type === 'balance') {
            const b = data as Balance;
            if (b.wallet === contract && b.coin === 'USDT') set({ balance: b });
          }
        },
      };
      readers.add(reader);
      emit();
      const tokenSub = deps.token$.subscribe((t) => {
        const was = token !== null;
        token = t;
        if (t === null) {
          generation += 1;
          pages.orderHistory = pages.fills = pages.ledger = 1;
          if (was || s.loggedIn) set({ ...EMPTY_ACCOUNT, lastOrderFrame: s.lastOrderFrame });
        } else if (!was) {
          set({ loggedIn: true });
          load();
        }
      });
      return () => {
        generation += 1;
        readers.delete(reader);
        tokenSub.unsubscribe();
        for (const m of markSubs.values()) m.unsubscribe();
        markSubs.clear();
      };
    });

  return {
    trading$,
    refreshTrading(contract) {
      for (const r of readers) if (r.contract === contract) r.reload();
    },
    loadMoreTrading(contract, list) {
      for (const r of readers) if (r.contract === contract) r.more(list);
    },
    tradingApi: apiOf,
    balances: balancesOwned,
    positions: positionsOwned,
    observeAnswer(method, path, data) {
      const list = (data as { list?: unknown } | null)?.list;
      switch (path) {
        case '/kyc/status':
        case '/kyc/submit':
          account('kyc', data);
          return;
        case '/compensation/orders':
          if (Array.isArray(list)) for (const o of list) account('compensation', o);
          return;
        case '/compensation/claim':
        case '/compensation/boost':
        case '/compensation/withdraw':
          account('compensation', data);
          return;
        case '/vouchers':
          if (Array.isArray(list)) for (const v of list) account('voucher', v);
          return;
        case '/vouchers/merge':
          account('voucher', data);
          return;
        default:
          return;
      }
    },
    state: () => ({
      balances: Object.fromEntries(balances),
      positions: Object.fromEntries(positions),
      // a copy: a state taken at one record must not grow with later closes (the inspector keeps them)
      closedPositions: [...closedPositions],
      orders: orders.size > 0 ? Object.fromEntries(orders) : undefined,
      rejected,
      // undefined fields are left out of the hash: logs without these features hash as before
      kyc: kyc ?? undefined,
      compensation: compensation.size > 0 ? Object.fromEntries(compensation) : undefined,
      vouchers: vouchers.size > 0 ? Object.fromEntries(vouchers) : undefined,
      balanceBook: bookState(balancesOwned.current()),
      positionBook: bookState(positionsOwned.current()),
    }),
    violations() {
      const out: string[] = [];
      for (const [k, b] of balances) {
        for (const field of ['available', 'frozen', 'total']) {
          const v = Number(b[field]);
          if (b[field] !== undefined && (!Number.isFinite(v) || v < 0)) out.push(`balance ${k} ${field} is ${String(b[field])}`);
        }
      }
      return out;
    },
    stop() {
      for (const s of subs) s.unsubscribe();
      readers.clear();
    },
  };
}
