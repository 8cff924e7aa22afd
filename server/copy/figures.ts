import type { Db } from '../db/connection.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import { entryPrice, pnl, scaled, unscaled } from '../trading/formulas.ts';
import type { CopyLeadPosition, CopySort, CopyTrader } from '../../src/protocol/copy.ts';
import type { Market } from './views.ts';

/**
 * A lead trader's figures, from their own futures trades on this platform (docs/COPY.md "Figures"):
 * - PnL(d): Σ (realized PnL − fee) of their fills in the last d days (7, 30, 90);
 * - return(d): PnL(d) / (equity now − PnL(d)) × 100, equity = their std + perp balances plus the
 *   margin of their open positions (the capital they had d days ago, as far as trading goes);
 * - win rate: closing fills with a profit / closing fills, 90 days;
 * - followers: active copies; assets under copy: their cash + the margin of their open copied positions;
 * - series: the cumulative PnL after each fill of the last 30 days (at most 40 points), from 0, and
 *   the time of each point (seriesTimes; the first is the first fill's);
 * - historyDays: days since their first fill here ({@link historyDays}).
 */

export const DAY_MS = 86_400_000;
const SERIES_POINTS = 40;

const usdt = (m: bigint): string => formatMinor(m, 'USDT');

/** `part / whole × 100` with 2 decimals, exact (0 when whole ≤ 0). */
export function percent(part: bigint, whole: bigint): string {
  if (whole <= 0n) return '0.00';
  const neg = part < 0n;
  const a = neg ? -part : part;
  const hundredths = (a * 10_000n) / whole;
  const s = `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;
  return neg && hundredths > 0n ? `-${s}` : s;
}

/**
 * Days of trading history: from the trader's first fill here to `now`, whole days rounded up (a
 * trader who started an hour ago has 1), 0 without a fill. A 30D figure of a trader with 7 days or
 * less of history is the 7D figure again: the page shows such a window as not covered yet.
 */
export function historyDays(firstFillAt: number | null, now: number): number {
  if (firstFillAt === null || firstFillAt === undefined) return 0;
  const span = Math.max(0, now - Number(firstFillAt));
  return Math.max(1, Math.ceil(span / DAY_MS));
}

export async function traderFigures(db: Db, traderId: number, row: { nickname: string; bio: string; simulated: number; created_at: number }, now: number): Promise<CopyTrader> {
  const from90 = now - 90 * DAY_MS;
  const fills = await db
    .selectFrom('trade_fills')
    .select(['realized_pnl', 'fee', 'created_at', 'kind'])
    .where('user_id', '=', traderId)
    .where('created_at', '>=', from90)
    .orderBy('id')
    .execute();
  const pnlSince = (t: number) => fills.filter((f) => f.created_at >= t).reduce((s, f) => s + parseMinor(f.realized_pnl) - parseMinor(f.fee), 0n);
  const pnl7 = pnlSince(now - 7 * DAY_MS);
  const pnl30 = pnlSince(now - 30 * DAY_MS);
  const pnl90 = pnlSince(from90);
  const closing = fills.filter((f) => parseMinor(f.realized_pnl) !== 0n);
  const wins = closing.filter((f) => parseMinor(f.realized_pnl) > 0n).length;
  const balances = await db.selectFrom('balances').select('amount').where('user_id', '=', traderId).where('wallet', 'in', ['perp', 'std']).execute();
  const margins = await db.selectFrom('trade_positions').select('margin').where('user_id', '=', traderId).where('status', '=', 'open').execute();
  const equity = balances.reduce((s, b) => s + parseMinor(b.amount), 0n) + margins.reduce((s, m) => s + parseMinor(m.margin), 0n);
  const follows = await db.selectFrom('copy_follows').select(['id', 'cash']).where('trader_id', '=', traderId).where('status', '=', 'active').execute();
  let aum = follows.reduce((s, f) => s + parseMinor(f.cash), 0n);
  if (follows.length > 0) {
    const pm = await db.selectFrom('copy_positions').select('margin').where('follow_id', 'in', follows.map((f) => f.id)).where('status', '=', 'open').execute();
    aum += pm.reduce((s, p) => s + parseMinor(p.margin), 0n);
  }
  const recent = fills.filter((f) => f.created_at >= now - 30 * DAY_MS);
  const cumulative: bigint[] = [0n];
  const times: number[] = [recent[0]?.created_at ?? now];
  let acc = 0n;
  for (const f of recent) {
    acc += parseMinor(f.realized_pnl) - parseMinor(f.fee);
    cumulative.push(acc);
    times.push(f.created_at);
  }
  const pick = <T>(xs: readonly T[], fallback: T): T[] =>
    xs.length <= SERIES_POINTS ? [...xs] : Array.from({ length: SERIES_POINTS }, (_, i) => xs[Math.round((i * (xs.length - 1)) / (SERIES_POINTS - 1))] ?? fallback);
  const series = pick(cumulative, 0n);
  const first = await db.selectFrom('trade_fills').select((eb) => eb.fn.min<number>('created_at').as('t')).where('user_id', '=', traderId).executeTakeFirst();
  return {
    id: traderId,
    nickname: row.nickname,
    bio: row.bio,
    simulated: row.simulated === 1,
    roi7: percent(pnl7, equity - pnl7),
    roi30: percent(pnl30, equity - pnl30),
    roi90: percent(pnl90, equity - pnl90),
    pnl7: usdt(pnl7),
    pnl30: usdt(pnl30),
    pnl90: usdt(pnl90),
    winRate: percent(BigInt(wins), BigInt(closing.length)),
    followers: follows.length,
    aum: usdt(aum),
    series: series.map(usdt),
    seriesTimes: pick(times, now),
    historyDays: historyDays(first?.t ?? null, now),
    since: row.created_at,
  };
}

export async function listTraders(db: Db, now: number, sort: CopySort, q: string | undefined): Promise<CopyTrader[]> {
  let query = db.selectFrom('copy_traders').selectAll().where('status', '=', 'active');
  // Case-insensitive on both databases (SQLite's LIKE folds ASCII case, PostgreSQL's does not): lower() both sides.
  if (q) query = query.where((eb) => eb(eb.fn('lower', ['nickname']), 'like', `%${q.replace(/[%_\\]/g, '').toLowerCase()}%`));
  const rows = await query.orderBy('user_id').execute();
  const out: CopyTrader[] = [];
  for (const r of rows) out.push(await traderFigures(db, r.user_id, r, now));
  const key = (t: CopyTrader): number => Number(sort === 'followers' ? t.followers : sort === 'pnl30' ? t.pnl30 : sort === 'aum' ? t.aum : t[sort]);
  return out.sort((a, b) => key(b) - key(a) || a.id - b.id);
}

export async function leadPositions(db: Db, traderId: number, m: Market): Promise<CopyLeadPosition[]> {
  const rows = await db.selectFrom('trade_positions').selectAll().where('user_id', '=', traderId).where('status', '=', 'open').orderBy('opened_at', 'desc').execute();
  const out: CopyLeadPosition[] = [];
  for (const p of rows) {
    const rules = m.rules(p.symbol);
    if (!rules) continue;
    const mark = m.markPrice(p.symbol) ?? 0;
    const qtyU = parseMinor(p.qty);
    const cost = parseMinor(p.cost);
    out.push({
      symbol: p.symbol, contract: p.contract, side: p.side, qty: unscaled(qtyU, rules.qtyPrecision), entryPrice: entryPrice(rules, cost, qtyU), markPrice: mark,
      leverage: p.leverage, unrealizedPnl: usdt(pnl(rules, p.side, cost, qtyU, scaled(mark, rules.pricePrecision))), openedAt: p.opened_at,
    });
  }
  return out;
}
