import { balanceKey } from '../db/ledgerRule.ts';
import type { BalanceKey } from '../db/ledgerRule.ts';
import type { Wallet } from '../db/schema.ts';
import type { CopyOrderRow } from '../copy/mirror.ts';
import type { CopyPositionRow, FollowRow } from '../copy/settle.ts';
import type { QuoteRow } from '../money/convert.ts';
import type { OrderRow, PositionRow } from '../trading/store.ts';
import type { FillEvent, Outcome } from './apply.ts';

/**
 * The rows a batch of the engine's outcomes writes (server/engine/projector.ts), gathered apart from
 * the database code so the projector's thread (projectorWorker.ts) loads only this and its writer.
 */

export const PROJECTION_NAME = 'engine';

/** The ledger ref of the `n`th posting of the command at `seq` (when apply set none). */
export const postingRef = (seq: number, n: number): string => `J${seq}.${n}`;

/** The batch does not continue the projection: a seq is missing between the mark and the batch. */
export class ProjectionGapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProjectionGapError';
  }
}

/**
 * The outcomes of a batch still to write over a projection at `from`: those at or below the mark are
 * dropped (already written: a retry or a duplicate), the rest must continue it seq by seq, else
 * {@link ProjectionGapError} (nothing is written). The rule of both writers (projectBatch and the
 * SQLite thread's).
 */
export function outcomesPast(name: string, from: number, outcomes: readonly Outcome[]): Outcome[] {
  const todo = outcomes.filter((o) => o.seq > from);
  todo.forEach((o, i) => {
    if (o.seq !== from + 1 + i) throw new ProjectionGapError(`projection "${name}" is at seq ${from}: the batch has seq ${o.seq} where ${from + 1 + i} was due (a record is missing; nothing written)`);
  });
  return todo;
}

// ------------------------------------------------------------------ the rows of a batch (gathered, not decided)

type LedgerRow = { user_id: number; wallet: Wallet; asset: string; amount: string; balance_after: string; type: string; ref: string; created_at: number };
type BalanceRow = { user_id: number; wallet: Wallet; asset: string; amount: string; updated_at: number };
type RebateRow = {
  inviter_id: number; invitee_id: number; symbol: string; wallet: Wallet; asset: string; notional: string; fee: string; rebate: string; rate_bps: number; ledger_ref: string; created_at: number;
};
type InviteeSum = { inviter_id: number; volume: bigint; fees: bigint; rebate: bigint; updated_at: number };

export interface BatchRows {
  orders: Map<string, OrderRow>;
  positions: Map<string, PositionRow>;
  fills: FillEvent[];
  ledger: LedgerRow[];
  refs: Map<string, string>;
  balances: Map<BalanceKey, BalanceRow>;
  rebates: RebateRow[];
  invitees: Map<number, InviteeSum>;
  quotes: Map<string, QuoteRow>;
  follows: Map<number, FollowRow>;
  copyPositions: Map<string, CopyPositionRow>;
  copyOrders: CopyOrderRow[];
  jobs: Map<string, number>;
  traders: Map<number, boolean>;
}

/** The rows of a run of outcomes, in seq order (refusals write nothing); a row changed twice is kept as it was last. */
export function rowsOf(outcomes: readonly Outcome[]): BatchRows {
  const b: BatchRows = {
    orders: new Map(), positions: new Map(), fills: [], ledger: [], refs: new Map(), balances: new Map(), rebates: [], invitees: new Map(),
    quotes: new Map(), follows: new Map(), copyPositions: new Map(), copyOrders: [], jobs: new Map(), traders: new Map(),
  };
  for (const o of outcomes) {
    if (!o.ok) continue;
    const t = o.t;
    for (const r of o.orders) b.orders.set(r.id, r);
    for (const r of o.positions) b.positions.set(r.id, r);
    for (const f of o.fills) b.fills.push(f);
    const refs = o.postings.map((p, n) => p.ref ?? postingRef(o.seq, n));
    o.postings.forEach((p, n) => {
      const ref = refs[n] as string;
      b.ledger.push({ user_id: p.from.userId, wallet: p.from.wallet, asset: p.coin, amount: (-p.amount).toString(), balance_after: p.fromAfter.toString(), type: p.type, ref, created_at: t });
      b.ledger.push({ user_id: p.to.userId, wallet: p.to.wallet, asset: p.coin, amount: p.amount.toString(), balance_after: p.toAfter.toString(), type: p.inType ?? p.type, ref, created_at: t });
      if (p.symbol) b.refs.set(ref, p.symbol);
      b.balances.set(balanceKey(p.from.userId, p.from.wallet, p.coin), { user_id: p.from.userId, wallet: p.from.wallet, asset: p.coin, amount: p.fromAfter.toString(), updated_at: t });
      b.balances.set(balanceKey(p.to.userId, p.to.wallet, p.coin), { user_id: p.to.userId, wallet: p.to.wallet, asset: p.coin, amount: p.toAfter.toString(), updated_at: t });
    });
    for (const l of o.legs ?? []) {
      b.ledger.push({ user_id: l.userId, wallet: l.wallet, asset: l.asset, amount: l.amount.toString(), balance_after: l.after.toString(), type: l.type, ref: l.ref, created_at: t });
      if (l.symbol) b.refs.set(l.ref, l.symbol);
      b.balances.set(balanceKey(l.userId, l.wallet, l.asset), { user_id: l.userId, wallet: l.wallet, asset: l.asset, amount: l.after.toString(), updated_at: t });
    }
    for (const r of o.rebates) {
      b.rebates.push({
        inviter_id: r.inviterId, invitee_id: r.inviteeId, symbol: r.symbol, wallet: r.wallet, asset: r.asset, notional: r.notional.toString(), fee: r.fee.toString(), rebate: r.rebate.toString(),
        rate_bps: r.rateBps, ledger_ref: r.posting === null ? '' : (refs[r.posting] ?? ''), created_at: t,
      });
      const sum = b.invitees.get(r.inviteeId) ?? { inviter_id: r.inviterId, volume: 0n, fees: 0n, rebate: 0n, updated_at: t };
      b.invitees.set(r.inviteeId, { inviter_id: r.inviterId, volume: sum.volume + r.notional, fees: sum.fees + r.fee, rebate: sum.rebate + r.rebate, updated_at: t });
    }
    for (const q of o.quotes) b.quotes.set(q.quote_id, q);
    for (const f of o.follows) b.follows.set(f.id, f);
    for (const p of o.copyPositions) b.copyPositions.set(p.id, p);
    for (const c of o.copyOrders) b.copyOrders.push(c);
    for (const j of o.jobs) b.jobs.set(j.name, j.lastRun);
    for (const tr of o.traders) b.traders.set(tr.userId, tr.active);
  }
  return b;
}
