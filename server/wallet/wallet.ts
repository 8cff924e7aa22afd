import type { Db } from '../db/connection.ts';
import { pageOf } from '../db/paged.ts';
import { balanceMinor, ledgerAuthorityOf, move } from '../ledger/post.ts';
import { formatMinor, parseMinor, toMinor } from '../db/money.ts';
import type { Wallet } from '../db/schema.ts';
import { WALLETS } from '../../src/protocol/trading.ts';
import type { z } from 'zod';
import type { ledgerQuery } from '../../src/protocol/trading.ts';
import type { Balance, LedgerEntry, LedgerEntryType } from '../../src/protocol/trading.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import { transact } from '../db/tx.ts';

/**
 * Wallets on top of the double-entry ledger (every write through server/ledger/post.ts).
 *
 * A user's balance row is what they can spend (`available`). Margin locked by pending open
 * orders and open positions is moved to the escrow account ({@link ESCROW_ACCOUNT_ID}) through
 * the ledger (CONTRACT_OPEN), so it cannot be spent twice, and the user's `frozen` is the sum of
 * those margins read from their orders and positions. Invariant (property-tested): the escrow's
 * balance per wallet/coin equals the sum of every user's frozen there, and is never negative.
 */
export const ESCROW_ACCOUNT_ID = 2;
/** The coins every user sees, even at zero. */
export const LISTED_COINS = ['USDT'] as const;

/** Frozen (locked margin) of one user per futures wallet, in minor units: every pending order's lock (0 for those that lock none) and every open position's margin. */
export async function frozenOf(db: Db, userId: number): Promise<Map<Wallet, bigint>> {
  // The memory engine's state, not the rows it writes behind (they may lag its answer).
  const authority = ledgerAuthorityOf(db);
  if (authority?.frozenOf) return authority.frozenOf(userId);
  const out = new Map<Wallet, bigint>();
  const orders = await db
    .selectFrom('trade_orders')
    .select(['contract', 'margin'])
    .where('user_id', '=', userId)
    .where('status', '=', 'pending')
    .execute();
  const positions = await db
    .selectFrom('trade_positions')
    .select(['contract', 'margin'])
    .where('user_id', '=', userId)
    .where('status', '=', 'open')
    .execute();
  for (const r of [...orders, ...positions]) out.set(r.contract, (out.get(r.contract) ?? 0n) + parseMinor(r.margin));
  return out;
}

function dto(wallet: Wallet, coin: string, available: bigint, frozen: bigint): Balance {
  return {
    wallet,
    coin,
    available: formatMinor(available, coin),
    frozen: formatMinor(frozen, coin),
    total: formatMinor(available + frozen, coin),
  };
}

/** Every wallet × coin of a user (listed coins always present), wallets in SPEC order. Futures margins are USDT. */
export async function balancesView(db: Db, userId: number): Promise<Balance[]> {
  // The memory engine holds every balance (server/ledger/post.ts): its state, not the rows it writes behind.
  const authority = ledgerAuthorityOf(db);
  const rows = authority
    ? authority.balancesOf(userId).map((b) => ({ wallet: b.wallet, asset: b.asset, amount: b.amount.toString() }))
    : await db.selectFrom('balances').select(['wallet', 'asset', 'amount']).where('user_id', '=', userId).execute();
  const frozen = await frozenOf(db, userId);
  const coins = new Set<string>([...LISTED_COINS, ...rows.map((r) => r.asset)]);
  const out: Balance[] = [];
  for (const wallet of WALLETS) {
    for (const coin of [...coins].sort()) {
      const row = rows.find((r) => r.wallet === wallet && r.asset === coin);
      const f = coin === 'USDT' ? (frozen.get(wallet) ?? 0n) : 0n;
      out.push(dto(wallet, coin, row ? parseMinor(row.amount) : 0n, f));
    }
  }
  return out;
}

/** One wallet's balance DTO (what a `balance` socket frame carries). */
export async function balanceOf(db: Db, userId: number, wallet: Wallet, coin: string): Promise<Balance> {
  const amount = await balanceMinor(db, userId, wallet, coin);
  const f = coin === 'USDT' ? ((await frozenOf(db, userId)).get(wallet) ?? 0n) : 0n;
  return dto(wallet, coin, amount, f);
}

/** The spendable balance in minor units (inside the trading engine's batch, the balance its postings already know). */
export function availableOf(db: Db, userId: number, wallet: Wallet, coin: string): Promise<bigint> {
  return balanceMinor(db, userId, wallet, coin);
}

export type TransferOutcome = { ok: true; from: Balance; to: Balance } | { ok: false; reason: 'insufficient' | 'badAmount' };

/**
 * Moves `amount` (a validated decimal string) between two of the user's wallets as one posting
 * of two entries, typed WALLET_TRANSFER_OUT (the source) and WALLET_TRANSFER_IN (the target): the
 * pair shares one ref, so both rows are written in one transaction or neither is.
 */
export async function transfer(db: Db, userId: number, from: Wallet, to: Wallet, coin: string, amount: string, now: number): Promise<TransferOutcome> {
  let minor: bigint;
  try {
    minor = toMinor(amount, coin);
  } catch {
    return { ok: false, reason: 'badAmount' };
  }
  if (minor <= 0n) return { ok: false, reason: 'badAmount' };
  return transact(db, async (trx) => {
    const out = await move(trx, 'WALLET_TRANSFER_OUT', { userId, wallet: from }, { userId, wallet: to }, coin, minor, now, { inType: 'WALLET_TRANSFER_IN' });
    if (!out.ok) return { ok: false, reason: 'insufficient' } as const;
    return { ok: true, from: await balanceOf(trx, userId, from, coin), to: await balanceOf(trx, userId, to, coin) } as const;
  });
}

/** The caller's transaction history, newest first, filtered and paged. */
export async function ledgerPage(db: Db, userId: number, q: z.output<typeof ledgerQuery>): Promise<Page<LedgerEntry>> {
  let base = db
    .selectFrom('ledger_entries as e')
    .leftJoin('ledger_refs as r', 'r.ref', 'e.ref')
    .where('e.user_id', '=', userId);
  if (q.wallet) base = base.where('e.wallet', '=', q.wallet);
  if (q.coin) base = base.where('e.asset', '=', q.coin);
  if (q.type) base = base.where('e.type', '=', q.type);
  if (q.symbol) base = base.where('r.symbol', '=', q.symbol);
  if (q.from !== undefined) base = base.where('e.created_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('e.created_at', '<=', q.to);
  return pageOf(
    base,
    q,
    ['e.id'],
    (qb) => qb.select(['e.id', 'e.wallet', 'e.asset', 'e.type', 'e.amount', 'e.balance_after', 'e.ref', 'e.created_at', 'r.symbol']),
    (r): LedgerEntry => ({
      id: r.id,
      wallet: r.wallet,
      coin: r.asset,
      type: r.type as LedgerEntryType,
      amount: formatMinor(parseMinor(r.amount), r.asset),
      balanceAfter: formatMinor(parseMinor(r.balance_after), r.asset),
      ref: r.ref,
      symbol: r.symbol ?? '',
      time: r.created_at,
    }),
  );
}
