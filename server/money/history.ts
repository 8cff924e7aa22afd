import { sql } from 'kysely';
import type { z } from 'zod';
import type { Page } from '../../src/protocol/envelope.ts';
import type { HistoryRow, HistoryType, historyQuery } from '../../src/protocol/wallet.ts';
import type { Db } from '../db/connection.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import { pageOf } from '../db/paged.ts';

/**
 * The wallet history (/my/order/wallet-history): deposits, withdrawals and transfers of one user
 * as one UNION ALL, filtered (type, coin, status, time range) and paged newest first by the one
 * paged query. A transfer is its WALLET_TRANSFER_OUT ledger row joined to the IN row of the same ref.
 */
export function historyPage(db: Db, userId: number, q: z.output<typeof historyQuery>): Promise<Page<HistoryRow>> {
  const deposits = db
    .selectFrom('deposits')
    .where('user_id', '=', userId)
    .select([
      sql<string>`'deposit'`.as('type'), 'id', 'coin', 'network', 'amount', sql<string>`'0'`.as('fee'), sql<string>`status`.as('status'), 'txid', 'address',
      sql<string>`''`.as('from_wallet'), sql<string>`''`.as('to_wallet'), 'created_at', sql<string>`''`.as('note'),
    ]);
  const withdrawals = db
    .selectFrom('withdrawals')
    .where('user_id', '=', userId)
    .select([
      sql<string>`'withdrawal'`.as('type'), 'id', 'coin', 'network', 'amount', 'fee', sql<string>`status`.as('status'), 'txid', 'address',
      sql<string>`''`.as('from_wallet'), sql<string>`''`.as('to_wallet'), 'created_at', sql<string>`reason`.as('note'),
    ]);
  const transfers = db
    .selectFrom('ledger_entries as o')
    .innerJoin('ledger_entries as i', (j) => j.onRef('i.ref', '=', 'o.ref').on('i.type', '=', 'WALLET_TRANSFER_IN'))
    .where('o.user_id', '=', userId)
    .where('o.type', '=', 'WALLET_TRANSFER_OUT')
    .select([
      sql<string>`'transfer'`.as('type'), 'o.id as id', 'o.asset as coin', sql<string>`''`.as('network'), 'i.amount as amount', sql<string>`'0'`.as('fee'),
      sql<string>`'completed'`.as('status'), 'o.ref as txid', sql<string>`''`.as('address'), sql<string>`o.wallet`.as('from_wallet'), sql<string>`i.wallet`.as('to_wallet'), 'o.created_at as created_at', sql<string>`''`.as('note'),
    ]);
  let base = db.selectFrom(deposits.unionAll(withdrawals).unionAll(transfers).as('h'));
  if (q.type) base = base.where('h.type', '=', q.type);
  if (q.coin) base = base.where('h.coin', '=', q.coin);
  if (q.status) base = base.where('h.status', '=', q.status);
  if (q.from !== undefined) base = base.where('h.created_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('h.created_at', '<=', q.to);
  return pageOf(base, q, ['h.created_at', 'h.id'], (qb) => qb.selectAll(), (r): HistoryRow => ({
    type: r.type as HistoryType,
    id: r.id,
    coin: r.coin,
    network: r.network,
    amount: formatMinor(parseMinor(r.amount), r.coin),
    fee: formatMinor(parseMinor(r.fee), r.coin),
    status: r.status,
    txid: r.txid,
    address: r.address,
    from: r.from_wallet,
    to: r.to_wallet,
    time: r.created_at,
    ...(r.note ? { note: r.note } : {}),
  }));
}
