import type { FeatureDeps } from '../featureTypes.ts';
import type { Db } from '../db/connection.ts';
import type { Wallet } from '../db/schema.ts';
import { balanceOf } from '../wallet/wallet.ts';

/**
 * Accounts of the money feature. Deposits arrive from, and completed withdrawals leave to, the
 * system account (id 1, the outside world; the only account that may go negative), so every
 * asset still sums to zero. Withdrawal holds sit on {@link HOLD_ACCOUNT_ID} (created by migration
 * 0006) until the withdrawal completes or is released; its balance per coin equals the amount +
 * fee of the pending and processing withdrawals (property-tested) and never goes negative.
 */
export const HOLD_ACCOUNT_ID = 3;
/** Deposits are credited to, and withdrawals taken from, the fund wallet. */
export const MONEY_WALLET: Wallet = 'fund';

/** Publishes the balance of one wallet/coin after a change (no-op without a bus). */
export async function publishBalance(deps: Pick<FeatureDeps, 'bus'>, db: Db, userId: number, wallet: Wallet, coin: string): Promise<void> {
  if (!deps.bus) return;
  deps.bus.publish(userId, { type: 'balance', data: await balanceOf(db, userId, wallet, coin) });
}
