import type { CopyFrameData } from '../../src/protocol/copy.ts';
import { formatScaled, SCALE } from '../../src/protocol/decimal.ts';
import type { Deposit, Withdrawal } from '../../src/protocol/wallet.ts';
import type { Db } from '../db/connection.ts';
import { parseMinor } from '../db/money.ts';
import type { MarketSource } from '../market/source.ts';
import { maintenanceMargin, notional, scaled } from '../trading/formulas.ts';
import type { ExecutedFill } from '../trading/settle.ts';
import type { UserFrame } from '../ws/userBus.ts';
import type { NoticeEvent } from './notifications.ts';

/**
 * Where notices come from (issue 26, Major 8): the frames this process publishes (withdrawals,
 * deposits, copy follows), the trading engine's committed fills (order filled, liquidation), a
 * periodic look at open positions (liquidation warning) and the password hooks. Each turns an
 * event into a {@link NoticeEvent} with a dedupe key that names the event once.
 */

/** A liquidation warning is due when the maintenance margin reaches this share (%) of the margin balance. */
export const LIQUIDATION_WARNING_PCT = 80;

/** Integer units at `dp` decimals as an exact decimal string. */
function unitsText(units: bigint, dp: number): string {
  return formatScaled(units * 10n ** BigInt(SCALE - dp), dp);
}

/** The first and last characters of an address (a notice or mail names it, not the whole of it). */
export function shortAddress(a: string): string {
  return a.length <= 14 ? a : `${a.slice(0, 6)}…${a.slice(-6)}`;
}

/** The notice a published frame means, or null (most frames mean none). Pure. */
export function noticeOfFrame(userId: number, frame: UserFrame): NoticeEvent | null {
  switch (frame.type) {
    case 'withdrawal': {
      const w = frame.data as Withdrawal;
      const params = { id: String(w.id), amount: w.amount, coin: w.coin, network: w.network, address: shortAddress(w.address), total: w.total };
      if (w.status === 'pending') return { userId, kind: 'withdrawalSubmitted', dedupe: `withdrawal-${w.id}-submitted`, params };
      if (w.status === 'processing') return { userId, kind: 'withdrawalApproved', dedupe: `withdrawal-${w.id}-approved`, params };
      if (w.status === 'rejected') return { userId, kind: 'withdrawalRejected', dedupe: `withdrawal-${w.id}-rejected`, params };
      return null;
    }
    case 'deposit': {
      const d = frame.data as Deposit;
      if (d.status !== 'credited') return null;
      return { userId, kind: 'depositCredited', dedupe: `deposit-${d.id}-credited`, params: { id: String(d.id), amount: d.amount, coin: d.coin, network: d.network } };
    }
    case 'copy': {
      const c = frame.data as CopyFrameData;
      if (c.event !== 'follow' || c.follow.status !== 'ended') return null;
      const f = c.follow;
      return { userId, kind: 'copyStopped', dedupe: `copy-${f.id}-ended`, params: { id: String(f.id), trader: f.traderNickname, reason: f.endReason ?? 'user' } };
    }
    default:
      return null;
  }
}

/**
 * The notices of one committed batch of fills: a liquidation for a liquidation fill, otherwise
 * "order filled" once the order is completely filled (a partial fill waits for the last one).
 */
export async function noticesOfFills(db: Db, source: MarketSource | undefined, fills: readonly ExecutedFill[]): Promise<NoticeEvent[]> {
  const out: NoticeEvent[] = [];
  const seen = new Set<string>();
  for (const f of fills) {
    if (seen.has(f.orderId)) continue;
    seen.add(f.orderId);
    const rules = source?.symbol(f.symbol);
    const qtyDp = rules?.qtyPrecision ?? 8;
    const priceDp = rules?.pricePrecision ?? 8;
    if (f.liquidation) {
      out.push({
        userId: f.userId, kind: 'liquidation', dedupe: `liquidation-${f.orderId}`,
        params: { orderId: f.orderId, symbol: f.symbol, side: f.side === 'sell' ? 'long' : 'short', qty: unitsText(f.qtyU, qtyDp), price: f.price.toFixed(priceDp) },
      });
      continue;
    }
    const o = await db.selectFrom('trade_orders').select(['id', 'status', 'client_order_id', 'side', 'executed_qty', 'avg_price', 'symbol']).where('id', '=', f.orderId).executeTakeFirst();
    if (!o || o.status !== 'filled' || o.client_order_id.startsWith('liquidation-')) continue;
    out.push({
      userId: f.userId, kind: 'orderFilled', dedupe: `order-${o.id}-filled`,
      params: { orderId: o.id, symbol: o.symbol, side: o.side, qty: o.executed_qty.toFixed(qtyDp), price: o.avg_price.toFixed(priceDp) },
    });
  }
  return out;
}

/**
 * Open positions whose maintenance margin is at least {@link LIQUIDATION_WARNING_PCT} % of their
 * margin balance (margin + unrealized PnL) at the source's mark price: one warning per position.
 * Exact: the comparison is in integer minor units.
 */
export async function liquidationWarnings(db: Db, source: MarketSource): Promise<NoticeEvent[]> {
  const rows = await db.selectFrom('trade_positions').select(['id', 'user_id', 'symbol', 'side', 'qty', 'cost', 'margin']).where('status', '=', 'open').execute();
  const out: NoticeEvent[] = [];
  for (const p of rows) {
    const rules = source.symbol(p.symbol);
    const mark = source.markPrice(p.symbol) ?? source.ticker(p.symbol)?.last;
    if (!rules || mark === undefined) continue;
    const qty = parseMinor(p.qty);
    const value = notional(rules, scaled(mark, rules.pricePrecision), qty);
    const cost = parseMinor(p.cost);
    const equity = parseMinor(p.margin) + (p.side === 'long' ? value - cost : cost - value);
    const maint = maintenanceMargin(rules, value);
    if (equity > 0n && maint * 100n < BigInt(LIQUIDATION_WARNING_PCT) * equity) continue;
    const risk = equity > 0n ? unitsText((maint * 10_000n) / equity, 2) : '100.00';
    out.push({
      userId: Number(p.user_id), kind: 'liquidationWarning', dedupe: `liquidation-warning-${p.id}`,
      params: { positionId: p.id, symbol: p.symbol, side: p.side, risk, mark: mark.toFixed(rules.pricePrecision) },
    });
  }
  return out;
}
