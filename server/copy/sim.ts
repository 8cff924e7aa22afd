import type { Db } from '../db/connection.ts';
import { toMinor } from '../db/money.ts';
import { adminCredit } from '../ledger/post.ts';
import { createPrng, hash32 } from '../market/prng.ts';
import { Rejection } from '../http/errors.ts';
import { scaled, unscaled } from '../trading/formulas.ts';
import type { TradingEngine } from '../trading/engine.ts';
import type { PlaceOrderParsed, Order } from '../../src/protocol/trading.ts';
import { floorToStep, stepUnits } from './mirror.ts';
import { transact } from '../db/tx.ts';

/**
 * The simulated lead traders (docs/COPY.md "Simulated traders"): a few accounts seeded on start so
 * the /copy list is alive on a fresh database. They trade perpetuals on the simulated market with
 * market orders, one round every {@link SIM_ROUND_MS} on the server clock (the feature job), their
 * choice drawn from a PRNG seeded by the trader and the round number, so a run is reproducible.
 * Their UIDs sit below the first user UID, outside the sign-up sequence.
 */

export const SIM_ROUND_MS = 20_000;

interface SimTrader {
  id: number;
  email: string;
  nickname: string;
  bio: string;
  symbols: readonly string[];
  /** Typical notional of one order, USDT. */
  size: number;
  leverage: number;
}

export const SIM_TRADERS: readonly SimTrader[] = [
  { id: 9_000_001, email: 'aurora@lead.riskfree.invalid', nickname: 'Aurora Quant', bio: 'Trend following on BTC with small, steady adds.', symbols: ['BTCUSDT'], size: 4000, leverage: 10 },
  { id: 9_000_002, email: 'whale@lead.riskfree.invalid', nickname: 'Blue Whale', bio: 'Large ETH swings, patient exits.', symbols: ['ETHUSDT'], size: 6000, leverage: 5 },
  { id: 9_000_003, email: 'kestrel@lead.riskfree.invalid', nickname: 'Kestrel Trend', bio: 'Momentum across SOL and BNB.', symbols: ['SOLUSDT', 'BNBUSDT'], size: 2500, leverage: 8 },
  { id: 9_000_004, email: 'sakura@lead.riskfree.invalid', nickname: 'Sakura Scalper', bio: 'Quick in-and-out scalps on BTC and ETH.', symbols: ['BTCUSDT', 'ETHUSDT'], size: 1500, leverage: 20 },
];

const SIM_BALANCE = '100000';

/** Creates the simulated traders once (user, 100 000 USDT perp, copy_traders row). Returns how many were created. */
export async function seedSimTraders(db: Db, now: number): Promise<number> {
  let created = 0;
  for (const t of SIM_TRADERS) {
    const exists = await db.selectFrom('users').select('id').where('id', '=', t.id).executeTakeFirst();
    if (exists) continue;
    await transact(db, async (trx) => {
      await trx
        .insertInto('users')
        .values({
          id: t.id, email: t.email, password_hash: '!', nickname: t.nickname, invite_code: `LEAD${String(t.id).slice(-4)}`, invited_by: null, avatar: null,
          kyc_status: 'verified', google_secret: null, google_pending_secret: null, withdraw_lock_until: 0, google_last_step: 0, role: 'user', created_at: now,
        })
        .execute();
      const r = await adminCredit(trx, t.id, 'perp', 'USDT', toMinor(SIM_BALANCE, 'USDT'), now);
      if (!r.ok) throw new Error(`sim trader credit refused: ${r.reason}`);
      await trx.insertInto('copy_traders').values({ user_id: t.id, nickname: t.nickname, bio: t.bio, simulated: 1, status: 'active', created_at: now }).execute();
    });
    created += 1;
  }
  return created;
}

/** Places one market order for a lead trader through the engine (the dev endpoint and the simulation). */
export function traderOrder(engine: TradingEngine, traderId: number, o: { symbol: string; side: 'buy' | 'sell'; qty: number; kind: 'marketOpen' | 'marketClose'; leverage: number }, tag: string): Promise<Order> {
  const body: PlaceOrderParsed = {
    clientOrderId: tag, symbol: o.symbol, contract: 'perp', kind: o.kind, side: o.side, qty: o.qty, leverage: o.leverage, price: null, tp: null, sl: null,
    reduceOnly: o.kind === 'marketClose', postOnly: false, timeInForce: 'GTC', triggerPrice: null, triggerBy: 'last',
  };
  return engine.placeOrder(traderId, body);
}

/** One decision of one simulated trader in round `round`: open, add, reduce, close or wait. */
async function simStep(engine: TradingEngine, t: SimTrader, round: number): Promise<void> {
  const rnd = createPrng(hash32(`${t.id}:${round}`));
  const symbol = t.symbols[rnd.int(t.symbols.length)] ?? 'BTCUSDT';
  const rules = engine.rules(symbol);
  const price = engine.lastPrice(symbol);
  if (!rules || price === undefined || price <= 0) return;
  const positions = await engine.positions(t.id, { symbol, contract: 'perp' });
  const pos = positions[0];
  const step = stepUnits(rules);
  const lot = (frac: number): number => {
    const u = floorToStep(scaled((t.size * frac) / price, rules.qtyPrecision), step);
    return unscaled(u > step ? u : step, rules.qtyPrecision);
  };
  const roll = rnd.next();
  const tag = `sim-${t.id}-${round}`;
  if (!pos) {
    if (roll < 0.6) await traderOrder(engine, t.id, { symbol, side: rnd.next() < 0.5 ? 'buy' : 'sell', qty: lot(0.6 + rnd.next() * 0.8), kind: 'marketOpen', leverage: t.leverage }, tag);
    return;
  }
  const closeSide = pos.side === 'long' ? 'sell' : 'buy';
  if (roll < 0.25) {
    await traderOrder(engine, t.id, { symbol, side: pos.side === 'long' ? 'buy' : 'sell', qty: lot(0.3 + rnd.next() * 0.5), kind: 'marketOpen', leverage: t.leverage }, tag);
  } else if (roll < 0.5) {
    const qtyU = scaled(pos.qty, rules.qtyPrecision);
    const half = floorToStep(qtyU / 2n, step);
    if (half > 0n) await traderOrder(engine, t.id, { symbol, side: closeSide, qty: unscaled(half, rules.qtyPrecision), kind: 'marketClose', leverage: pos.leverage }, tag);
  } else if (roll < 0.7) {
    await traderOrder(engine, t.id, { symbol, side: closeSide, qty: pos.qty, kind: 'marketClose', leverage: pos.leverage }, tag);
  }
}

/** Runs every simulated trader's decision for each round due since the last one (at most one catch-up round). */
export async function runSimRound(db: Db, engine: TradingEngine, now: number, force = false): Promise<number> {
  const row = await db.selectFrom('copy_jobs').select('last_run').where('name', '=', 'sim').executeTakeFirst();
  const round = Math.floor(now / SIM_ROUND_MS);
  const last = row?.last_run ?? -1;
  if (!force && round <= last) return 0;
  const next = force ? Math.max(round, last + 1) : round;
  await db.insertInto('copy_jobs').values({ name: 'sim', last_run: next }).onConflict((oc) => oc.column('name').doUpdateSet({ last_run: next })).execute();
  let placed = 0;
  for (const t of SIM_TRADERS) {
    const exists = await db.selectFrom('copy_traders').select('status').where('user_id', '=', t.id).executeTakeFirst();
    if (exists?.status !== 'active') continue;
    try {
      await simStep(engine, t, next);
      placed += 1;
    } catch (err) {
      // A refused order (balance, price) is part of trading; anything else is a bug.
      if (!(err instanceof Rejection)) throw err;
    }
  }
  return placed;
}
