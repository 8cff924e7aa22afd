import type { Db } from '../db/connection.ts';
import { findUserByEmail } from '../db/repos/users.ts';
import { DEMO_ACCOUNT } from '../services/accounts.ts';
import { consumeVoucher, DAY_MS, ensureWelcomeVouchers, mergeVouchers } from './service.ts';
import type { VoucherKind } from '../../src/protocol/vouchers.ts';
import { transact } from '../db/tx.ts';

/**
 * Gives the demo account a believable set of vouchers next to its welcome pair, through the
 * service (so merged and used rows look exactly like real ones): usable loss protection of 50
 * (14 days), 100 (permanent) and 30 USDT (7 days); one 10 USDT voucher used on a compensation
 * order; one 25 USDT voucher that expired 2 days ago; speed 30 % (10 days); a 20 % and a 30 % speed
 * voucher merged into a 44 % one; and a 10 % speed voucher that expired. Idempotent: does nothing
 * if the demo is missing or already has seeded vouchers. One transaction.
 */
export async function seedVoucherDemo(db: Db, now: number): Promise<boolean> {
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  if (!demo) return false;
  return transact(db, async (trx) => {
    const any = await trx.selectFrom('vouchers').select('id').where('user_id', '=', demo.id).where('source', '=', 'seed').executeTakeFirst();
    if (any) return false;
    const ago = (days: number) => now - days * DAY_MS;
    await ensureWelcomeVouchers(trx, demo.id, ago(3));
    const give = async (kind: VoucherKind, value: string, createdDaysAgo: number, expiresAt: number | null, status: 'use' | 'expired' = 'use') => {
      const row = await trx
        .insertInto('vouchers')
        .values({ user_id: demo.id, kind, value, status, expires_at: expiresAt, source: 'seed', used_ref: null, merged_into: null, created_at: ago(createdDaysAgo), used_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    await give('lossProtection', '50000000', 16, now + 14 * DAY_MS);
    await give('lossProtection', '100000000', 40, null);
    await give('lossProtection', '30000000', 23, now + 7 * DAY_MS);
    await give('lossProtection', '25000000', 32, ago(2), 'expired');
    const used = await give('lossProtection', '10000000', 45, null);
    const order = await trx.selectFrom('compensation_orders').select('id').where('user_id', '=', demo.id).orderBy('id').executeTakeFirst();
    const r = await consumeVoucher(trx, { userId: demo.id, voucherId: used, kind: 'lossProtection', ref: `compensation:${order?.id ?? 1}`, now: ago(44) });
    if (!r.ok) throw new Error(`demo voucher seed: use refused (${r.msg})`);
    await give('speed', '30', 5, now + 10 * DAY_MS);
    await give('speed', '10', 60, ago(30), 'expired');
    const a = await give('speed', '20', 20, now + 20 * DAY_MS);
    const b = await give('speed', '30', 18, null);
    const m = await mergeVouchers(trx, { userId: demo.id, ids: [a, b], now: ago(6) });
    if (!m.ok) throw new Error(`demo voucher seed: merge refused (${m.msg})`);
    return true;
  });
}

