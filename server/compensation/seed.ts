import type { Db } from '../db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import { findUserByEmail } from '../db/repos/users.ts';
import { toMinor } from '../db/money.ts';
import { DEMO_ACCOUNT } from '../services/accounts.ts';
import { move } from '../ledger/post.ts';
import { DAY_MS } from './rules.ts';
import { activateOrder, runCompensationJobs, syncCompensation, withdrawCompensation } from './service.ts';
import { transact } from '../db/tx.ts';

/** A past realised loss of the demo: the close PnL and its closing fee, as the trading engine books them. */
async function pastLoss(trx: Db, userId: number, pnl: string, fee: string, at: number): Promise<void> {
  const perp = { userId, wallet: 'perp' as const };
  const system = { userId: SYSTEM_ACCOUNT_ID, wallet: 'perp' as const };
  for (const [type, amount] of [['CONTRACT_CLOSE', pnl], ['CONTRACT_CLOSE_FEE', fee]] as const) {
    const r = await move(trx, type, perp, system, 'USDT', toMinor(amount, 'USDT'), at, { symbol: 'BTCUSDT' });
    if (!r.ok) throw new Error(`demo compensation seed: ${type} refused (${r.reason})`);
  }
}

/**
 * Gives the demo account a believable compensation history, through the service functions at
 * past times: one order claimed 49 days ago, fully paid and withdrawn (a COMPENSATION_PAYOUT in
 * the ledger), one claimed 11 days ago and partly paid (inCompensation), and one fresh loss not
 * claimed yet (notActive). Idempotent: does nothing if the demo is missing or already has orders.
 * One transaction, so a failure leaves nothing half-seeded.
 */
export async function seedCompensationDemo(db: Db, now: number): Promise<boolean> {
  const demo = await findUserByEmail(db, DEMO_ACCOUNT.email);
  if (!demo) return false;
  return transact(db, async (trx) => {
    const any = await trx.selectFrom('compensation_orders').select('id').where('user_id', '=', demo.id).executeTakeFirst();
    if (any) return false;
    const ago = (days: number, hours = 0) => now - days * DAY_MS - hours * 3_600_000;
    const claim = async (at: number) => {
      const row = await syncCompensation(trx, demo.id, at);
      if (!row || !(await activateOrder(trx, row, BigInt(row.amount), at))) throw new Error('demo compensation seed: no order to claim');
      return row;
    };
    // 1. completed: lost 412.50 fifty days ago, claimed the next day, paid over 30 days, withdrawn.
    await pastLoss(trx, demo.id, '410.45', '2.05', ago(50));
    const first = await claim(ago(49));
    await runCompensationJobs(trx, ago(18, 12));
    const w = await withdrawCompensation(trx, { userId: demo.id, id: first.id, now: ago(18) });
    if (!w.ok) throw new Error(`demo compensation seed: withdraw refused (${w.msg})`);
    // 2. inCompensation: lost 236.80 twelve days ago, claimed the next day, paid daily since.
    await pastLoss(trx, demo.id, '235.62', '1.18', ago(12));
    await claim(ago(11, 2));
    await runCompensationJobs(trx, now);
    // 3. notActive: lost 158.40 two days ago, waiting to be claimed.
    await pastLoss(trx, demo.id, '157.61', '0.79', ago(2));
    await syncCompensation(trx, demo.id, ago(2));
    return true;
  });
}
