import type { FeatureDeps } from '../featureTypes.ts';
import { advanceDeposits } from './deposits.ts';
import { advanceWithdrawals } from './withdrawals.ts';

/** The chain simulator's tick: fine enough for 3 s blocks. */
export const MONEY_JOB_MS = 1_000;

/** One step of the simulated chain at `now`: deposit confirmations and credits, withdrawal completions. */
export async function runMoneyJobs(deps: FeatureDeps, now: number): Promise<void> {
  await advanceDeposits(deps, now);
  await advanceWithdrawals(deps, now);
}
