import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Page } from '../../src/protocol/envelope.ts';
import { chainRule, CHAIN_RULES, MONEY_COINS, WALLET_MSG } from '../../src/protocol/wallet.ts';
import type { ChainRule, Deposit, DepositAddress, historyQuery, MoneyCoin, Network } from '../../src/protocol/wallet.ts';
import type { Db } from '../db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import { formatMinor, parseMinor, toMinor } from '../db/money.ts';
import { pageOf } from '../db/paged.ts';
import type { Selectable } from 'kysely';
import type { DepositsTable } from '../db/schema.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { move } from '../ledger/post.ts';
import { MONEY_WALLET, publishBalance } from './accounts.ts';
import { addressSecret, depositAddressFor } from './addresses.ts';
import { transact } from '../db/tx.ts';

/**
 * Deposits on the simulated chain (docs/WALLET.md). A transfer to a user's address is SEEN at
 * once (status confirming, 0 confirmations; or belowMinimum, recorded and never credited), gains
 * one confirmation per `blockMs` of the server clock as the money job runs, and at `confirmations`
 * is credited to the fund wallet (ledger DEPOSIT from the system account, ref deposit:<id>), in the
 * same transaction as its status change. Every step is pushed as a 'deposit' frame.
 */

export type DepositRow = Selectable<DepositsTable>;

/** The coin/network rule or the envelope message that refuses it (unknown coin vs a coin not on that network). */
export function ruleOrMessage(coin: string, network: string): ChainRule | string {
  if (!(MONEY_COINS as readonly string[]).includes(coin)) return WALLET_MSG.unknownCoin;
  return chainRule(coin, network) ?? WALLET_MSG.unknownNetwork;
}

export function depositDto(r: DepositRow): Deposit {
  return {
    id: r.id,
    coin: r.coin as MoneyCoin,
    network: r.network as Network,
    address: r.address,
    amount: formatMinor(parseMinor(r.amount), r.coin),
    txid: r.txid,
    status: r.status,
    confirmations: r.confirmations,
    required: r.required,
    time: r.created_at,
    creditedAt: r.credited_at,
  };
}

export async function depositAddress(db: Db, userId: number, rule: ChainRule): Promise<DepositAddress> {
  const address = depositAddressFor(await addressSecret(db), userId, rule.network, rule.format);
  return { coin: rule.coin, network: rule.network, address, minDeposit: rule.minDeposit, confirmations: rule.confirmations };
}

/** A transaction id in the network's usual shape. */
export function fakeTxid(rule: ChainRule): string {
  const hex = randomBytes(32).toString('hex');
  return rule.format === 'evm' ? `0x${hex}` : hex;
}

/**
 * The operator's simulated chain transfer of `amount` (a validated decimal) to the user's address:
 * recorded as seen now. Returns the row, or a message (bad amount for the coin's decimals).
 */
export async function sendDeposit(deps: FeatureDeps, userId: number, rule: ChainRule, amount: string): Promise<Deposit | string> {
  let minor: bigint;
  try {
    minor = toMinor(amount, rule.coin);
  } catch {
    return WALLET_MSG.depositAmountInvalid;
  }
  if (minor <= 0n) return WALLET_MSG.depositAmountInvalid;
  const { address } = await depositAddress(deps.db, userId, rule);
  const below = minor < toMinor(rule.minDeposit, rule.coin);
  const row = await deps.db
    .insertInto('deposits')
    .values({
      user_id: userId,
      coin: rule.coin,
      network: rule.network,
      address,
      amount: minor.toString(),
      txid: fakeTxid(rule),
      status: below ? 'belowMinimum' : 'confirming',
      confirmations: 0,
      required: rule.confirmations,
      created_at: deps.clock.now(),
      credited_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const dto = depositDto(row);
  deps.bus?.publish(userId, { type: 'deposit', data: dto });
  return dto;
}

/**
 * The chain step: counts the confirmations every confirming deposit has at `now` and credits
 * those that reached their requirement. Idempotent: a credit is conditional on status confirming.
 */
export async function advanceDeposits(deps: FeatureDeps, now: number): Promise<Deposit[]> {
  const changed: Deposit[] = [];
  const rows = await deps.db.selectFrom('deposits').selectAll().where('status', '=', 'confirming').orderBy('id').execute();
  for (const r of rows) {
    const rule = CHAIN_RULES.find((x) => x.coin === r.coin && x.network === r.network);
    if (!rule) continue;
    const conf = Math.min(r.required, Math.max(0, Math.floor((now - r.created_at) / rule.blockMs)));
    if (conf <= r.confirmations) continue;
    const done = conf >= r.required;
    const updated = await transact(deps.db, async (trx) => {
      const res = await trx
        .updateTable('deposits')
        .set(done ? { confirmations: conf, status: 'credited', credited_at: now } : { confirmations: conf })
        .where('id', '=', r.id)
        .where('status', '=', 'confirming')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return undefined;
      if (done) {
        const p = await move(trx, 'DEPOSIT', { userId: SYSTEM_ACCOUNT_ID, wallet: MONEY_WALLET }, { userId: r.user_id, wallet: MONEY_WALLET }, r.coin, parseMinor(r.amount), now, { ref: `deposit:${r.id}` });
        if (!p.ok) throw new Error(`DEPOSIT refused: ${p.reason}`);
      }
      return trx.selectFrom('deposits').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
    });
    if (!updated) continue;
    const dto = depositDto(updated);
    changed.push(dto);
    deps.bus?.publish(r.user_id, { type: 'deposit', data: dto });
    if (done) await publishBalance(deps, deps.db, r.user_id, MONEY_WALLET, r.coin);
  }
  return changed;
}

/** The caller's deposits, newest first, with the history filters that apply (coin, status, time). */
export function depositsPage(db: Db, userId: number, q: z.output<typeof historyQuery>): Promise<Page<Deposit>> {
  let base = db.selectFrom('deposits').where('user_id', '=', userId);
  if (q.coin) base = base.where('coin', '=', q.coin);
  if (q.status) base = base.where('status', '=', q.status as DepositRow['status']);
  if (q.from !== undefined) base = base.where('created_at', '>=', q.from);
  if (q.to !== undefined) base = base.where('created_at', '<=', q.to);
  return pageOf(base, q, ['created_at', 'id'], (qb) => qb.selectAll(), depositDto);
}
