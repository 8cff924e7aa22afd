import { sql } from 'kysely';
import type { SelectQueryBuilder, StringReference } from 'kysely';
import type { Page } from '../../src/protocol/envelope.ts';

/** What every paged list query carries (src/protocol pageQuerySchema). */
export interface PageRequest {
  page: number;
  pageSize: number;
}

/**
 * THE paged query: the total of the filtered `base`, then one page of it newest first (each
 * `newest` column descending, in order: put a unique id last so equal times keep a stable order),
 * `LIMIT pageSize OFFSET (page-1)*pageSize`, mapped to DTOs. `select` picks the columns (and
 * joins nothing: filters and joins belong in `base`, so the count and the rows see the same set).
 * Used by every paged list: vouchers, compensation, orders, fills, the ledger, login history,
 * deposits, withdrawals, the wallet history and the convert history.
 */
export async function pageOf<DB, TB extends keyof DB, O, R>(
  base: SelectQueryBuilder<DB, TB, object>,
  q: PageRequest,
  newest: readonly StringReference<DB, TB>[],
  select: (qb: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, O>,
  map: (row: O) => R,
): Promise<Page<R>> {
  const count = await base.select(sql<number | string>`count(*)`.as('n')).executeTakeFirst();
  let rows = select(base);
  for (const col of newest) rows = rows.orderBy(col, 'desc');
  const list = await rows.limit(q.pageSize).offset((q.page - 1) * q.pageSize).execute();
  return { list: list.map(map), total: Number((count as { n?: number | string } | undefined)?.n ?? 0), page: q.page, pageSize: q.pageSize };
}
