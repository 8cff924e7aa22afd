import type { Selectable } from 'kysely';
import type { Db } from '../db/connection.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import type { CopyApplicationsTable, CopyOrdersTable } from '../db/schema.ts';
import { entryPrice, PPB, pnl, scaled, unscaled } from '../trading/formulas.ts';
import type { Rules } from '../trading/formulas.ts';
import type { CopyApplication, CopyEndReason, CopyFollow, CopyOrder, CopyPosition, CopySkipReason } from '../../src/protocol/copy.ts';
import { followEquity } from './mirror.ts';
import type { CopyPositionRow, FollowRow } from './settle.ts';

/** Rows → DTOs (the only place copy minor units become decimal strings). */

export interface Market {
  rules(symbol: string): Rules | undefined;
  markPrice(symbol: string): number | undefined;
}

const usdt = (m: bigint | string): string => formatMinor(typeof m === 'string' ? parseMinor(m) : m, 'USDT');

/** A ratio in parts per billion as a decimal string ('500000000' → '0.5'). */
export function ratioText(ppb: string | null): string | null {
  if (ppb === null) return null;
  const v = BigInt(ppb);
  const whole = v / PPB;
  const frac = (v % PPB).toString().padStart(9, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}

export async function nicknameOf(db: Db, traderId: number): Promise<string> {
  const t = await db.selectFrom('copy_traders').select('nickname').where('user_id', '=', traderId).executeTakeFirst();
  return t?.nickname ?? `Trader${String(traderId).slice(-4)}`;
}

export function followDto(f: FollowRow, positions: readonly CopyPositionRow[], nickname: string, m: Market): CopyFollow {
  const open = positions.filter((p) => p.status === 'open' && p.follow_id === f.id);
  const eq = followEquity(f, open, (s) => m.rules(s), (s) => m.markPrice(s));
  return {
    id: f.id,
    traderId: f.trader_id,
    traderNickname: nickname,
    status: f.status,
    endReason: (f.end_reason as CopyEndReason | null) ?? null,
    mode: f.mode,
    ratio: ratioText(f.ratio_ppb),
    fixedAmount: f.fixed_amount === null ? null : usdt(f.fixed_amount),
    maxPerOrder: f.max_per_order === null ? null : usdt(f.max_per_order),
    stopLoss: f.stop_loss === null ? null : usdt(f.stop_loss),
    from: f.source_wallet,
    invested: usdt(f.invested),
    cash: usdt(f.cash),
    margin: usdt(eq.margin),
    unrealizedPnl: usdt(eq.upnl),
    realizedPnl: usdt(f.realized_pnl),
    fees: usdt(f.fees),
    openPositions: open.length,
    createdAt: f.created_at,
    endedAt: f.ended_at,
  };
}

export function positionDto(p: CopyPositionRow, nickname: string, kept: boolean, m: Market): CopyPosition {
  const rules = m.rules(p.symbol);
  const mark = m.markPrice(p.symbol);
  const qtyU = parseMinor(p.qty);
  const cost = parseMinor(p.cost);
  const upnl = rules && mark !== undefined && p.status === 'open' ? pnl(rules, p.side, cost, qtyU, scaled(mark, rules.pricePrecision)) : 0n;
  return {
    id: p.id,
    followId: p.follow_id,
    traderId: p.trader_id,
    traderNickname: nickname,
    symbol: p.symbol,
    contract: p.contract,
    side: p.side,
    qty: rules ? unscaled(qtyU, rules.qtyPrecision) : 0,
    entryPrice: rules && qtyU > 0n ? entryPrice(rules, cost, qtyU) : 0,
    markPrice: mark ?? 0,
    leverage: p.leverage,
    margin: usdt(p.margin),
    unrealizedPnl: usdt(upnl),
    realizedPnl: usdt(p.realized_pnl),
    status: p.status,
    kept,
    openedAt: p.opened_at,
  };
}

export function copyOrderDto(r: Selectable<CopyOrdersTable>): CopyOrder {
  return {
    id: r.id,
    followId: r.follow_id,
    traderId: r.trader_id,
    symbol: r.symbol,
    side: r.side,
    action: r.action,
    qty: r.qty,
    price: r.price,
    fee: usdt(r.fee),
    realizedPnl: usdt(r.realized_pnl),
    status: r.status,
    reason: (r.reason as CopySkipReason | null) ?? null,
    time: r.created_at,
  };
}

export function applicationDto(r: Selectable<CopyApplicationsTable>): CopyApplication {
  return { id: r.id, nickname: r.nickname, experience: r.experience, status: r.status, reason: r.reason, createdAt: r.created_at, reviewedAt: r.reviewed_at };
}
