import { createHash } from 'node:crypto';
import type { BalanceKey } from '../db/ledgerRule.ts';
import type { Rules } from '../trading/formulas.ts';
import type { QuoteRow } from '../money/convert.ts';
import type { CopyPositionRow, FollowRow } from '../copy/settle.ts';
import type { OrderRow, PositionRow } from '../trading/store.ts';

/**
 * The in-memory engine's state (issue 28 step 1, docs/SCALING.md): plain data that
 * {@link ./apply.ts} changes, one command at a time, with no database, clock or randomness.
 *
 * Everything is a `Map` (or a plain record) whose iteration order is the order of insertion, and
 * insertion happens only in `apply`, so the same commands give the same state in the same order;
 * {@link stateHash} sorts every key anyway, so the hash does not depend on that order. Rows keep
 * the SQL engine's row shapes (server/trading/store.ts `OrderRow` / `PositionRow`) so the pure
 * functions of server/trading (dueStep, orderDto, positionDto, the formulas) read them as they are,
 * and the projector can write them as they are. Rows are never changed in place: a change is a new
 * object put in the map (so a step can see the row as it was when the step began, as the SQL
 * engine's reads do, and an undo can put the old object back).
 */

/** The market as the engine last saw it: the prices it decides on and the book takers walk. */
export interface MarketQuote {
  last: number;
  mark: number;
  book: { bids: [number, number][]; asks: [number, number][] };
}

/** Contract rules as the market source states them (`kinds`: the contracts the symbol is listed for). */
export type EngineRules = Rules & { kinds?: readonly string[] };

export type OrderSide = 'buy' | 'sell';

export interface EngineState {
  /** Contract rules by symbol. */
  rules: Map<string, EngineRules>;
  /** Prices and book by symbol (set by `market` commands). */
  market: Map<string, MarketQuote>;
  /**
   * Every balance the engine moves, minor units, keyed as the ledger keys them
   * (`user|wallet|asset`): users' futures and fund wallets, the escrow (locked margins) and the
   * system account (fees, PnL counter-party). `available` is this; `frozen` is derived (the margins
   * of a user's pending orders and open positions), as server/wallet/wallet.ts derives it.
   */
  balances: Map<BalanceKey, bigint>;
  /**
   * A user's `frozen` by wallet and coin (`user|wallet|asset`, minor units, no zero entries): the
   * margin locked by their pending orders and open positions, kept as they change (what
   * server/wallet/wallet.ts frozenOf sums from the tables). Invariant: per wallet, the escrow's
   * balance is the sum of every user's frozen there.
   */
  frozen: Map<BalanceKey, bigint>;
  /** Every order by id (terminal ones too: cancel / edit of a filled order answer "not pending"). */
  orders: Map<string, OrderRow>;
  /** `user|clientOrderId` → order id: placement is idempotent by it. */
  clientIds: Map<string, string>;
  /** Pending orders by symbol and side: order id → creation ordinal (the market checks run in creation order). */
  pending: Map<string, Record<OrderSide, Map<string, number>>>;
  /** Pending orders by the position they refer to (position id → order ids): TP/SL, closes. */
  byPosition: Map<string, Set<string>>;
  /** Open positions by `user|symbol|contract` (one-way: at most one per key), in opening order. */
  positions: Map<string, PositionRow>;
  /** Open position id → its key in `positions`. */
  positionIds: Map<string, string>;
  /** The last boundary each periodic fee was charged for (`funding`: perp, every 8 h; `overnight`: std, daily), as trading_jobs holds it. */
  jobs: Map<'funding' | 'overnight', number>;
  /** Invitee → inviter (the referral rebate of every fee, docs/REFERRAL.md). */
  inviters: Map<number, number>;
  /**
   * Convert quotes by quote id (server/money/convert.ts rows): open ones until converted or
   * expired; used and expired ones too, so a second convert answers "used" / "expired" as the
   * SQL route does.
   */
  quotes: Map<string, QuoteRow>;
  /** Lead traders listed for copying (copy_traders with status active). */
  traders: Set<number>;
  /** Copy follows by id (copy_follows rows; ended ones too: a kept position still closes into its follow). */
  follows: Map<number, FollowRow>;
  /** Open copied positions by id (copy_positions rows, in the copy wallets). */
  copyPositions: Map<string, CopyPositionRow>;
  /** The next creation ordinal of an order. */
  nextOrdinal: number;
}

export function emptyState(rules: readonly EngineRules[] = []): EngineState {
  return {
    rules: new Map(rules.map((r) => [r.symbol, r])),
    market: new Map(),
    balances: new Map(),
    frozen: new Map(),
    orders: new Map(),
    clientIds: new Map(),
    pending: new Map(),
    byPosition: new Map(),
    positions: new Map(),
    positionIds: new Map(),
    jobs: new Map(),
    inviters: new Map(),
    quotes: new Map(),
    traders: new Set(),
    follows: new Map(),
    copyPositions: new Map(),
    nextOrdinal: 1,
  };
}

export const positionKey = (userId: number, symbol: string, contract: string): string => `${userId}|${symbol}|${contract}`;
export const clientKey = (userId: number, clientOrderId: string): string => `${userId}|${clientOrderId}`;

/**
 * Ids are derived from the command's sequence number: `O<seq>.<n>` / `P<seq>.<n>` / `Q<seq>.<n>` / `C<seq>.<n>` (orders, positions, convert quotes, copied positions; a follow's numeric id is its seq), n counting the
 * ids one command creates (a replay gives the same ids).
 */
export function idOf(prefix: 'O' | 'P' | 'Q' | 'C', seq: number, n: number): string {
  return `${prefix}${seq}.${n}`;
}

/** A structured copy (a snapshot: nothing shared with the live state). */
export function copyState(s: EngineState): EngineState {
  return structuredClone(s);
}

/** Plain JSON with every object's keys sorted, Maps as sorted [key, value] pairs and bigints as `"<n>n"`. */
export function canonical(v: unknown): string {
  return JSON.stringify(toCanonical(v));
}

function toCanonical(v: unknown): unknown {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Map) {
    const entries = [...v.entries()].map(([k, x]) => [typeof k === 'bigint' ? `${k}n` : k, toCanonical(x)] as [unknown, unknown]);
    return entries.sort(([a], [b]) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
  }
  if (v instanceof Set) return [...v].map(toCanonical).sort();
  if (Array.isArray(v)) return v.map(toCanonical);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(o).sort()) if (o[k] !== undefined) out[k] = toCanonical(o[k]);
    return out;
  }
  return v;
}

/** SHA-256 (hex) of the canonical serialisation: equal states, equal hashes, whatever their insertion order. */
export function stateHash(s: EngineState): string {
  return createHash('sha256').update(canonical(s)).digest('hex');
}
