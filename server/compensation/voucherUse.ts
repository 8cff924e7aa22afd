import type { Voucher, VoucherKind } from '../../src/protocol/vouchers.ts';
import { VOUCHER_MSG } from '../../src/protocol/vouchers.ts';
import type { Db } from '../db/connection.ts';
import { formatMinor, parseMinor } from '../db/money.ts';

/**
 * TEMPORARY stand-in for server/vouchers/service.ts `consumeVoucher` (same signature) until the
 * vouchers feature lands; replaced by a re-export then.
 */
export async function consumeVoucher(
  db: Db,
  a: { userId: number; voucherId: number; kind: VoucherKind; ref: string; now: number },
): Promise<{ ok: true; voucher: Voucher } | { ok: false; msg: string }> {
  const row = await db.selectFrom('vouchers').selectAll().where('id', '=', a.voucherId).where('user_id', '=', a.userId).executeTakeFirst();
  if (!row) return { ok: false, msg: VOUCHER_MSG.notFound };
  if (row.kind !== a.kind) return { ok: false, msg: VOUCHER_MSG.wrongKind };
  if (row.status !== 'use' || (row.expires_at !== null && Number(row.expires_at) <= a.now)) return { ok: false, msg: VOUCHER_MSG.notUsable };
  const res = await db
    .updateTable('vouchers')
    .set({ status: 'used', used_ref: a.ref, used_at: a.now })
    .where('id', '=', row.id)
    .where('status', '=', 'use')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return { ok: false, msg: VOUCHER_MSG.notUsable };
  return {
    ok: true,
    voucher: {
      id: row.id,
      kind: row.kind,
      value: row.kind === 'lossProtection' ? formatMinor(parseMinor(row.value), 'USDT') : row.value,
      status: 'used',
      expiresAt: row.expires_at === null ? null : Number(row.expires_at),
      source: row.source,
      usedRef: a.ref,
      mergedInto: row.merged_into,
      createdAt: Number(row.created_at),
      usedAt: a.now,
    },
  };
}
