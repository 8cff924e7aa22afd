import type { Wallet } from './schema.ts';

/**
 * The ledger rule, pure so it can be property-tested without a database.
 *
 * A posting is a set of legs (signed minor-unit deltas). It is accepted only if
 *  1. every leg is non-zero,
 *  2. per asset the legs sum to zero (double entry: money moves, it is never created), and
 *  3. no balance of a non-system account ends below zero.
 * The system account (id 1) is the counter-party of admin credits and may go negative;
 * so, for every asset, the sum of all balances is always 0.
 */
export const SYSTEM_ACCOUNT_ID = 1;

export interface Leg {
  userId: number;
  wallet: Wallet;
  asset: string;
  /** Signed delta in minor units. */
  amount: bigint;
}

export type BalanceKey = `${number}|${Wallet}|${string}`;

export function balanceKey(userId: number, wallet: Wallet, asset: string): BalanceKey {
  return `${userId}|${wallet}|${asset}`;
}

export type PostingResult =
  | { ok: true; balances: Map<BalanceKey, bigint>; after: bigint[] }
  | { ok: false; reason: 'empty' | 'zeroLeg' | 'unbalanced' | 'insufficient' };

/**
 * Applies `legs` to `balances` (missing keys are 0). Returns a new map and the balance after
 * each leg, in leg order; the input map is not modified, so a rejected posting changes nothing.
 */
export function applyPosting(balances: ReadonlyMap<BalanceKey, bigint>, legs: readonly Leg[]): PostingResult {
  if (legs.length === 0) return { ok: false, reason: 'empty' };
  const sums = new Map<string, bigint>();
  for (const l of legs) {
    if (l.amount === 0n) return { ok: false, reason: 'zeroLeg' };
    sums.set(l.asset, (sums.get(l.asset) ?? 0n) + l.amount);
  }
  for (const s of sums.values()) if (s !== 0n) return { ok: false, reason: 'unbalanced' };
  const next = new Map(balances);
  const after: bigint[] = [];
  for (const l of legs) {
    const k = balanceKey(l.userId, l.wallet, l.asset);
    const v = (next.get(k) ?? 0n) + l.amount;
    next.set(k, v);
    after.push(v);
  }
  for (const l of legs) {
    if (l.userId !== SYSTEM_ACCOUNT_ID && (next.get(balanceKey(l.userId, l.wallet, l.asset)) ?? 0n) < 0n) {
      return { ok: false, reason: 'insufficient' };
    }
  }
  return { ok: true, balances: next, after };
}
