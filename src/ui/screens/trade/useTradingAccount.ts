import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ContractKind } from '../../../protocol/market.ts';
import type { Balance, Fill, LedgerEntry, Order, Position } from '../../../protocol/trading.ts';
import { useApi, useSession, useUserFrames } from '../../app/AppCoreProvider.tsx';
import { tradingApi, type TradingApi } from './tradingApi.ts';

/** The logged-in user's futures account as the trade screen shows it. */
export interface TradingAccount {
  api: TradingApi;
  loggedIn: boolean;
  balance: Balance | null;
  positions: Position[];
  openOrders: Order[];
  orderHistory: Order[];
  fills: Fill[];
  ledger: LedgerEntry[];
  /** Refetch everything (after an action whose socket frame may not cover every list). */
  refresh: () => void;
  /** Latest user-socket order frame, for the order machine. */
  lastOrderFrame: Order | null;
}

/** Replaces the item with the same id or prepends it; drops it when `keep` says no. */
export function upsert<T extends { id: string }>(list: readonly T[], item: T, keep: (t: T) => boolean = () => true): T[] {
  const rest = list.filter((x) => x.id !== item.id);
  return keep(item) ? [item, ...rest] : rest;
}

/** Whether an order belongs in the open-orders list (pending limit kinds of this contract). */
export const isOpenOrder = (o: Order, contract: ContractKind): boolean => o.status === 'pending' && o.contract === contract;

/**
 * Loads balance, positions, open orders and the histories from the trading REST API when a
 * session exists, then follows the user socket (src/protocol/trading.ts TradeUserFrame):
 * `order`, `position` (with `closed`) and `balance` frames update the live lists at once, and
 * an order frame refetches the histories (their rows are server-computed: fills, fees,
 * realized PnL, ledger entries).
 */
export function useTradingAccount(contract: ContractKind): TradingAccount {
  const session = useSession();
  const rawApi = useApi();
  const frames$ = useUserFrames();
  const api = useMemo(() => tradingApi(rawApi, contract), [rawApi, contract]);
  const loggedIn = session.loggedIn;
  const [balance, setBalance] = useState<Balance | null>(null);
  const [positions, setPositions] = useState<Position[]>([]);
  const [openOrders, setOpenOrders] = useState<Order[]>([]);
  const [orderHistory, setOrderHistory] = useState<Order[]>([]);
  const [fills, setFills] = useState<Fill[]>([]);
  const [ledger, setLedger] = useState<LedgerEntry[]>([]);
  const [lastOrderFrame, setLastOrderFrame] = useState<Order | null>(null);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);

  useEffect(() => {
    if (!loggedIn) {
      setBalance(null);
      setPositions([]);
      setOpenOrders([]);
      setOrderHistory([]);
      setFills([]);
      setLedger([]);
      return;
    }
    let live = true;
    const take = <T,>(p: Promise<T>, set: (v: T) => void) => p.then((v) => live && set(v), () => {});
    take(api.balance(), setBalance);
    take(api.positions(), setPositions);
    take(api.openOrders(), setOpenOrders);
    take(api.orderHistory(), setOrderHistory);
    take(api.fills(), setFills);
    take(api.ledger(), setLedger);
    return () => {
      live = false;
    };
  }, [api, loggedIn, tick]);

  useEffect(() => {
    if (!loggedIn) return;
    const sub = frames$.subscribe((f) => {
      const data = (f as { data?: unknown }).data;
      if (typeof data !== 'object' || data === null) return;
      if (f.type === 'order') {
        const o = data as Order;
        if (o.contract !== contract) return;
        setOpenOrders((l) => upsert(l, o, (x) => isOpenOrder(x, contract)));
        setLastOrderFrame(o);
        refresh();
      } else if (f.type === 'position') {
        const p = data as Position & { closed?: boolean };
        if (p.contract !== contract) return;
        setPositions((l) => upsert(l, p, (x) => !(x as Position & { closed?: boolean }).closed && x.qty > 0));
      } else if (f.type === 'balance') {
        const b = data as Balance;
        if (b.wallet === contract && b.coin === 'USDT') setBalance(b);
      }
    });
    return () => sub.unsubscribe();
  }, [frames$, loggedIn, contract, refresh]);

  return { api, loggedIn, balance, positions, openOrders, orderHistory, fills, ledger, refresh, lastOrderFrame };
}
