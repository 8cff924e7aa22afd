import type { Db } from '../connection.ts';
import { parseMinor } from '../money.ts';
import type { Wallet } from '../schema.ts';

/** Ledger entry types (SPEC §4). */
export const LEDGER_TYPES = [
  'ADMIN_ADJUST', 'ADMIN_DEDUCTION', 'CONTRACT_OPEN', 'CONTRACT_OPEN_FEE', 'CONTRACT_TRADE', 'CONTRACT_CANCEL',
  'CONTRACT_CLOSE', 'CONTRACT_CLOSE_FEE', 'CONTRACT_MARGIN_UNLOCK', 'WALLET_TRANSFER_OUT', 'WALLET_TRANSFER_IN',
  'EXCHANGE_DEDUCTION', 'EXCHANGE_RECEIVED', 'TRADE_COMMISSION', 'FUNDING_FEE', 'OVERNIGHT_FEE',
  // Beyond SPEC §4's list: the risk fund paying out a compensation order (withdraw).
  'COMPENSATION_PAYOUT',
  // Money in and out (docs/WALLET.md): a confirmed deposit, a withdrawal's hold, its release
  // (rejected / cancelled), and its completion (amount to the chain, fee to the platform).
  'DEPOSIT', 'WITHDRAW_HOLD', 'WITHDRAW_RELEASE', 'WITHDRAW', 'WITHDRAW_FEE',
] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

export interface BalanceRow {
  wallet: Wallet;
  asset: string;
  /** Minor units. */
  amount: bigint;
}

export async function balancesOf(db: Db, userId: number): Promise<BalanceRow[]> {
  const rows = await db
    .selectFrom('balances')
    .select(['wallet', 'asset', 'amount'])
    .where('user_id', '=', userId)
    .orderBy('wallet')
    .orderBy('asset')
    .execute();
  return rows.map((r) => ({ wallet: r.wallet, asset: r.asset, amount: parseMinor(r.amount) }));
}

/** Sum of the ledger amounts of one balance: equals the stored balance (invariant checked by the property tests). */
export async function ledgerSum(db: Db, userId: number, wallet: Wallet, asset: string): Promise<bigint> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select('amount')
    .where('user_id', '=', userId)
    .where('wallet', '=', wallet)
    .where('asset', '=', asset)
    .execute();
  return rows.reduce((s, r) => s + parseMinor(r.amount), 0n);
}
