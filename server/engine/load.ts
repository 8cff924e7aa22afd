import type { Db } from '../db/connection.ts';
import { balanceKey } from '../db/ledgerRule.ts';
import { parseMinor } from '../db/money.ts';
import { admitRows } from './apply.ts';
import { emptyState } from './state.ts';
import type { EngineRules, EngineState, MarketQuote } from './state.ts';

/**
 * A first engine state read from the tables the SQL engine wrote (the switch's snapshot 0, issue
 * 28): every balance, every order (history too: clientOrderId idempotency and "not pending"
 * answers; pending ones in creation order), the open positions, the inviters, the periodic
 * fees' last boundaries, the convert quotes, the listed lead traders, the copy follows and the open copied positions. The market (prices, book) is the caller's: it comes from the market
 * source, not the database. Read-only.
 */
export async function loadState(db: Db, rules: readonly EngineRules[], market: ReadonlyMap<string, MarketQuote>): Promise<EngineState> {
  const s = emptyState(rules);
  for (const [symbol, q] of market) s.market.set(symbol, q);
  for (const b of await db.selectFrom('balances').selectAll().execute()) s.balances.set(balanceKey(b.user_id, b.wallet, b.asset), parseMinor(b.amount));
  for (const u of await db.selectFrom('users').select(['id', 'invited_by']).where('invited_by', 'is not', null).execute()) {
    if (u.invited_by !== null) s.inviters.set(u.id, u.invited_by);
  }
  for (const j of await db.selectFrom('trading_jobs').selectAll().execute()) {
    if (j.name === 'funding' || j.name === 'overnight') s.jobs.set(j.name, j.last_run);
  }
  for (const q of await db.selectFrom('convert_quotes').selectAll().orderBy('id').execute()) s.quotes.set(q.quote_id, q);
  for (const t of await db.selectFrom('copy_traders').select('user_id').where('status', '=', 'active').orderBy('user_id').execute()) s.traders.add(t.user_id);
  for (const f of await db.selectFrom('copy_follows').selectAll().orderBy('id').execute()) s.follows.set(f.id, f);
  for (const p of await db.selectFrom('copy_positions').selectAll().where('status', '=', 'open').orderBy('opened_at').execute()) s.copyPositions.set(p.id, p);
  const positions = await db.selectFrom('trade_positions').selectAll().where('status', '=', 'open').orderBy('opened_at').execute();
  const orders = await db.selectFrom('trade_orders').selectAll().orderBy('created_at').execute();
  admitRows(s, orders, positions);
  return s;
}
