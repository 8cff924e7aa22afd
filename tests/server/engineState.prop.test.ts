import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apply } from '../../server/engine/apply.ts';
import type { Command, FillEvent, Outcome, PostingEvent } from '../../server/engine/apply.ts';
import { loadState } from '../../server/engine/load.ts';
import { checkProjection, projectBatch, projectionMark } from '../../server/engine/projector.ts';
import { copyState, emptyState, positionKey, stateHash } from '../../server/engine/state.ts';
import type { EngineState } from '../../server/engine/state.ts';
import type { Db } from '../../server/db/connection.ts';
import { balanceKey, SYSTEM_ACCOUNT_ID } from '../../server/db/ledgerRule.ts';
import type { BalanceKey } from '../../server/db/ledgerRule.ts';
import { parseMinor } from '../../server/db/money.ts';
import type { Wallet } from '../../server/db/schema.ts';
import { Rejection } from '../../server/http/errors.ts';
import { INSTRUMENTS } from '../../server/market/instruments.ts';
import { createAccount } from '../../server/services/accounts.ts';
import { ControlledMarketSource } from '../../server/trading/controlledSource.ts';
import { TradingEngine } from '../../server/trading/engine.ts';
import { orderDto } from '../../server/trading/store.ts';
import type { OrderRow } from '../../server/trading/store.ts';
import { ESCROW_ACCOUNT_ID, frozenOf, transfer as sqlTransfer } from '../../server/wallet/wallet.ts';
import { convertQuote, createQuote, quoteDto } from '../../server/money/convert.ts';
import type { QuoteRow } from '../../server/money/convert.ts';
import { CONVERT_COINS, quoteBody } from '../../src/protocol/convert.ts';
import type { Quote } from '../../src/protocol/convert.ts';
import { CopyService } from '../../server/copy/service.ts';
import type { CopyOrderRow } from '../../server/copy/mirror.ts';
import type { CopyPositionRow, FollowRow } from '../../server/copy/settle.ts';
import { copyFollowBody } from '../../src/protocol/copy.ts';
import { Code } from '../../src/protocol/envelope.ts';
import { closePositionBody, editOrderBody, placeOrderBody, TRADE_MSG, tpslBody } from '../../src/protocol/trading.ts';
import type { Order } from '../../src/protocol/trading.ts';
import { ManualClock, T0 } from './harness.ts';
import { openTestDb } from './testDb.ts';

/**
 * The in-memory engine (server/engine/apply.ts) against the SQL engine (server/trading), on the
 * same generated commands: several users (one invited, so fees pay referral rebates), two symbols,
 * both contracts, every order kind with post-only / reduce-only / IOC / FOK, attached TP/SL,
 * idempotent replays of a clientOrderId, cancels, edits, closes, close-all, TP/SL, transfers in and
 * out of the futures wallets, thin books, and market moves that cross limits, trigger stops and
 * TP/SL and liquidate. The SQL side runs on a fresh real database per run (the SQL engine with a
 * ControlledMarketSource, as the trading tests drive it); the memory side is seeded with the same
 * balances. After EVERY command: the same answer (accepted, or refused with the same code and
 * message; the same order as the route returns), the same balances, open positions and orders.
 * After every run: the same fills and ledger postings, each balance = its seed + its postings,
 * no balance but the system's negative, every asset summing to zero; apply is deterministic
 * (the recorded commands replayed twice give the live state's hash) and a snapshot (structured
 * copy) taken midway plus the rest of the commands gives that hash too.
 */

const SYMBOLS = ['BTCUSDT', 'ETHUSDT'] as const;
const BASE: Record<(typeof SYMBOLS)[number], number> = { BTCUSDT: 60_000, ETHUSDT: 3_000 };
const INFOS = INSTRUMENTS.map((i) => i.info);
const ruleOf = (symbol: string) => {
  const r = INFOS.find((i) => i.symbol === symbol);
  if (!r) throw new Error(symbol);
  return r;
};
/** A price `bp` basis points from `ref`, on the symbol's tick grid. */
function priceAt(symbol: string, ref: number, bp: number): number {
  const r = ruleOf(symbol);
  const ticks = Math.max(1, Math.round((ref * (1 + bp / 10_000)) / r.tickSize));
  return Number((ticks * r.tickSize).toFixed(r.pricePrecision));
}
const qtyOf = (symbol: string, steps: number): number => {
  const r = ruleOf(symbol);
  return Number((steps * r.qtyStep).toFixed(r.qtyPrecision));
};

// ------------------------------------------------------------------ generated commands (abstract)

const KINDS = ['limitOpen', 'limitOpen', 'limitOpen', 'limitOpen', 'marketOpen', 'marketOpen', 'marketOpen', 'marketOpen', 'stopMarket', 'stopMarket', 'stopLimit', 'stopLimit', 'limitClose', 'marketClose', 'limitTakeProfit', 'limitStopLoss'] as const;
/** null `odds` times out of odds + 1. */
const rarely = <T>(a: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | null> => fc.oneof({ weight: odds, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: a });
const user = fc.integer({ min: 0, max: 2 });
const sym = fc.integer({ min: 0, max: 1 });
const bp = fc.integer({ min: -300, max: 300 });

type Gen =
  | { k: 'place'; u: number; s: number; kind: (typeof KINDS)[number]; side: 'buy' | 'sell'; bp: number; tbp: number; steps: number; lev: number; perp: boolean; tif: 'GTC' | 'IOC' | 'FOK'; post: boolean; reduce: boolean; tp: number | null; sl: number | null; reuse: number | null; mark: boolean }
  | { k: 'cancel'; u: number; pick: number }
  | { k: 'edit'; u: number; pick: number; bp: number | null; steps: number | null }
  | { k: 'close'; u: number; s: number; half: boolean; bp: number | null; cid: boolean }
  | { k: 'closeAll'; u: number; s: number | null }
  | { k: 'tpsl'; u: number; s: number; tp: number | null; sl: number | null }
  | { k: 'transfer'; u: number; out: boolean; std: boolean; amount: number }
  | { k: 'move'; s: number; bp: number; markBp: number }
  | { k: 'book'; s: number; levels: number }
  | { k: 'fees'; hours: number }
  | { k: 'quote'; u: number; from: number; to: number; steps: number; spot: boolean }
  | { k: 'convert'; u: number; pick: number }
  | { k: 'follow'; u: number; trader: number; fixed: boolean; ratio: string; fixedAmount: string; amount: number; perp: boolean; cap: boolean; stop: string | null }
  | { k: 'unfollow'; u: number; pick: number; close: boolean }
  | { k: 'copyClose'; u: number; pick: number }
  | { k: 'copyCheck' };

const gen: fc.Arbitrary<Gen> = fc.oneof(
  {
    weight: 16,
    arbitrary: fc.record({
      // A limit's distance from the last price, away from the market for most (they rest, and later moves fill them as maker).
      k: fc.constant('place' as const), u: user, s: sym, kind: fc.constantFrom(...KINDS), side: fc.constantFrom('buy' as const, 'sell' as const),
      bp: fc.integer({ min: -100, max: 300 }), tbp: fc.integer({ min: -200, max: 200 }), steps: fc.integer({ min: 1, max: 200 }), lev: fc.constantFrom(2, 5, 10, 20, 50, 100, 125), perp: fc.constantFrom(true, true, true, false), tif: fc.constantFrom('GTC' as const, 'GTC' as const, 'IOC' as const, 'FOK' as const),
      post: fc.constantFrom(false, false, false, false, false, true), reduce: fc.constantFrom(false, false, false, false, true),
      // TP / SL distances: mostly on the right side of the reference (the sign follows the side in step()).
      tp: rarely(fc.integer({ min: -50, max: 400 }), 3), sl: rarely(fc.integer({ min: -50, max: 400 }), 3),
      reuse: rarely(fc.nat(20), 6), mark: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('cancel' as const), u: user, pick: fc.nat(30) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('edit' as const), u: user, pick: fc.nat(30), bp: fc.option(bp), steps: fc.option(fc.integer({ min: 1, max: 400 })) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('close' as const), u: user, s: sym, half: fc.boolean(), bp: fc.option(bp, { freq: 3 }), cid: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('closeAll' as const), u: user, s: fc.option(sym) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('tpsl' as const), u: user, s: sym, tp: fc.option(fc.integer({ min: -50, max: 400 })), sl: fc.option(fc.integer({ min: -50, max: 400 })) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('transfer' as const), u: user, out: fc.boolean(), std: fc.boolean(), amount: fc.integer({ min: 1, max: 12_000 }) }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('move' as const), s: sym, bp: fc.integer({ min: -600, max: 600 }), markBp: fc.integer({ min: -30, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('book' as const), s: sym, levels: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('fees' as const), hours: fc.constantFrom(1, 8, 24, 50) }) },
  // Instant convert: USDT / BTC / ETH both ways, in the fund wallet (funded) or spot (empty at first); amounts down to too small to receive anything.
  {
    weight: 3,
    arbitrary: fc.record({ k: fc.constant('quote' as const), u: user, from: fc.constantFrom(0, 0, 0, 1, 2), to: fc.nat(2), steps: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 40_000 })), spot: fc.constantFrom(false, false, false, true) }),
  },
  // Mostly the newest quotes (some already used, expired after 8 s, or another user's).
  { weight: 3, arbitrary: fc.record({ k: fc.constant('convert' as const), u: user, pick: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat(6) }) }) },
  // Copy trading: user 0 is the lead trader (their fills are mirrored); users 1 and 2 follow them (user 0 following is refused: oneself; user 2 as a trader: not listed).
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('follow' as const), u: fc.constantFrom(1, 1, 2, 2, 0), trader: fc.constantFrom(0, 0, 0, 0, 2), fixed: fc.constantFrom(false, false, true),
      ratio: fc.constantFrom('0.5', '1', '2', '0.1', '3'), fixedAmount: fc.constantFrom('20', '100', '500', '0.01'), amount: fc.integer({ min: 50, max: 12_000 }), perp: fc.boolean(),
      cap: fc.constantFrom(false, false, true), stop: fc.constantFrom(null, null, '20', '300'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('unfollow' as const), u: user, pick: fc.nat(4), close: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('copyClose' as const), u: user, pick: fc.nat(4) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('copyCheck' as const) }) },
  // The lead trader's market orders (opens, adds, reduces, closes, flips) on BTCUSDT: what the follows mirror.
  {
    weight: 4,
    arbitrary: fc.record({ side: fc.constantFrom('buy' as const, 'sell' as const), steps: fc.integer({ min: 1, max: 150 }), close: fc.constantFrom(false, false, true), lev: fc.constantFrom(5, 10, 20) }).map(
      (l): Gen => ({ k: 'place', u: 0, s: 0, kind: l.close ? 'marketClose' : 'marketOpen', side: l.side, bp: 0, tbp: 0, steps: l.steps, lev: l.lev, perp: true, tif: 'GTC', post: false, reduce: l.close, tp: null, sl: null, reuse: null, mark: false }),
    ),
  },
);

// ------------------------------------------------------------------ the two engines on one command

/** What both engines answered, normalised (ids differ: the SQL engine's are random, the memory engine's derive from seq). */
type Answer = { ok: true; order?: unknown; orders?: unknown[]; quote?: unknown } | { ok: false; code: number; msg: string };

const GENERATED = /^(tp|sl|close|liquidation)-.*/;
function normOrder(o: Order): unknown {
  const { id: _id, positionId, clientOrderId, ...rest } = o;
  return { ...rest, clientOrderId: clientOrderId.replace(GENERATED, '$1-*'), hasPosition: positionId !== null };
}
function normRow(o: OrderRow): string {
  return JSON.stringify(normOrder(orderDto(o)));
}
function normFill(f: FillEvent): string {
  return JSON.stringify([f.user_id, f.symbol, f.contract, f.kind, f.side, f.price, f.qty, f.fee, f.realized_pnl, f.created_at, f.liquidity]);
}
const legs = (p: PostingEvent): string[] => [
  JSON.stringify([p.from.userId, p.from.wallet, p.coin, p.type, (-p.amount).toString()]),
  JSON.stringify([p.to.userId, p.to.wallet, p.coin, p.inType ?? p.type, p.amount.toString()]),
];

interface Run {
  db: Db;
  engine: TradingEngine;
  source: ControlledMarketSource;
  clock: ManualClock;
  users: number[];
  mem: EngineState;
  seed: EngineState;
  commands: { cmd: Command; seq: number; t: number }[];
  outcomes: Outcome[];
  cids: Map<number, string[]>;
  seq: number;
  ledgerFrom: number;
  /** Accepted quotes, newest first: [SQL quote id, memory quote id, owner]. */
  quotes: [string, string, number][];
  copy: CopyService;
  /** Accepted follows in order: [SQL follow id, memory follow id]. */
  follows: [number, number][];
}

async function sqlPositionId(r: Run, uid: number, symbol: string, contract: 'perp' | 'std'): Promise<string> {
  const p = await r.db.selectFrom('trade_positions').select('id').where('user_id', '=', uid).where('symbol', '=', symbol).where('contract', '=', contract).where('status', '=', 'open').executeTakeFirst();
  return p?.id ?? 'P-none';
}

/** Runs the SQL engine's operation and turns its result or Rejection into an Answer. */
async function sqlAnswer(fn: () => Promise<Order | Order[] | null>): Promise<Answer> {
  try {
    const r = await fn();
    if (r === null) return { ok: true };
    return Array.isArray(r) ? { ok: true, orders: r.map(normOrder) } : { ok: true, order: normOrder(r) };
  } catch (err) {
    if (err instanceof Rejection) return { ok: false, code: err.code, msg: err.message };
    throw err;
  }
}

/** A quote or a conversion as the route answers it, ids aside. */
function normQuote(q: Quote & { id?: number; time?: number }): unknown {
  const { quoteId: _q, id: _id, ...rest } = q;
  return rest;
}

function memAnswer(o: Outcome): Answer {
  if (!o.ok) return { ok: false, code: o.code, msg: o.msg };
  const res = o.result;
  if (res !== null && !Array.isArray(res) && 'quote_id' in res) {
    return { ok: true, quote: normQuote({ ...quoteDto(res), ...(res.filled_at === null ? {} : { time: res.filled_at }) }) };
  }
  if (res === null || (!Array.isArray(res) && !('kind' in res))) return { ok: true };
  return Array.isArray(res) ? { ok: true, orders: res.map((x) => normOrder(orderDto(x))) } : { ok: true, order: normOrder(orderDto(res)) };
}

/** One generated command on both engines; returns both answers. */
async function step(r: Run, g: Gen): Promise<{ sql: Answer; mem: Answer } | null> {
  r.clock.advance(1_000 + (g.k === 'fees' ? g.hours * 3_600_000 : 0));
  const t = r.clock.now();
  const memApply = (cmd: Command): Answer => {
    r.seq += 1;
    const out = apply(r.mem, cmd, r.seq, t);
    r.commands.push({ cmd, seq: r.seq, t });
    r.outcomes.push(out);
    return memAnswer(out);
  };
  const uid = 'u' in g ? (r.users[g.u] as number) : 0;
  /** A clientOrderId of the user: mostly one of their pending orders (the states are equal, so both engines get the same). */
  const pickCid = (u: number, pick: number): string => {
    const pending = [...r.mem.orders.values()].filter((o) => o.user_id === u && o.status === 'pending' && !GENERATED.test(o.client_order_id)).map((o) => o.client_order_id);
    const known = cidsOf(u);
    if (pending.length > 0 && pick % 5 !== 0) return pending[pick % pending.length] as string;
    return known.length > 0 ? (known[pick % known.length] as string) : 'none';
  };
  const cidsOf = (u: number) => {
    let l = r.cids.get(u);
    if (!l) r.cids.set(u, (l = []));
    return l;
  };
  switch (g.k) {
    case 'place': {
      const symbol = SYMBOLS[g.s] as (typeof SYMBOLS)[number];
      const last = r.source.ticker(symbol)?.last ?? BASE[symbol];
      const known = cidsOf(uid);
      const clientOrderId = g.reuse !== null && known.length > 0 ? (known[g.reuse % known.length] as string) : `c${r.seq + 1}`;
      if (!known.includes(clientOrderId)) known.push(clientOrderId);
      const limitish = g.kind === 'limitOpen' || g.kind === 'limitClose' || g.kind === 'stopLimit' || g.kind === 'limitTakeProfit' || g.kind === 'limitStopLoss';
      const raw = {
        clientOrderId, symbol, contract: g.perp ? 'perp' : 'std', kind: g.kind, side: g.side, qty: qtyOf(symbol, g.steps), leverage: g.lev,
        price: limitish ? priceAt(symbol, last, g.side === 'buy' ? -g.bp : g.bp) : null,
        triggerPrice: g.kind === 'stopMarket' || g.kind === 'stopLimit' ? priceAt(symbol, last, g.tbp) : null, triggerBy: g.mark ? 'mark' : 'last',
        tp: g.tp === null ? null : priceAt(symbol, last, g.side === 'buy' ? g.tp : -g.tp), sl: g.sl === null ? null : priceAt(symbol, last, g.side === 'buy' ? -g.sl : g.sl),
        reduceOnly: g.reduce, postOnly: g.post, timeInForce: g.tif,
      };
      const body = placeOrderBody.parse(raw);
      const sql = await sqlAnswer(() => r.engine.placeOrder(uid, body));
      return { sql, mem: memApply({ type: 'place', userId: uid, body }) };
    }
    case 'cancel': {
      const by = { clientOrderId: pickCid(uid, g.pick) };
      const sql = await sqlAnswer(() => r.engine.cancelOrder(uid, by));
      return { sql, mem: memApply({ type: 'cancel', userId: uid, by }) };
    }
    case 'edit': {
      const cid = pickCid(uid, g.pick);
      const o = await r.db.selectFrom('trade_orders').selectAll().where('user_id', '=', uid).where('client_order_id', '=', cid).executeTakeFirst();
      const symbol = o?.symbol ?? 'BTCUSDT';
      const last = r.source.ticker(symbol)?.last ?? 1;
      const parsed = editOrderBody.safeParse({
        clientOrderId: cid,
        price: g.bp === null ? null : priceAt(symbol, last, g.bp),
        triggerPrice: o && o.trigger_price !== null && g.steps !== null && g.steps % 3 === 0 ? priceAt(symbol, last, (g.steps % 200) - 100) : null,
        ...(g.steps === null ? {} : { qty: qtyOf(symbol, g.steps) }),
      });
      if (!parsed.success) return null;
      const body = parsed.data;
      const sql = await sqlAnswer(() => r.engine.editOrder(uid, body));
      return { sql, mem: memApply({ type: 'edit', userId: uid, body }) };
    }
    case 'close': {
      const symbol = SYMBOLS[g.s] as string;
      const sqlId = await sqlPositionId(r, uid, symbol, 'perp');
      const memId = r.mem.positions.get(positionKey(uid, symbol, 'perp'))?.id ?? 'P-none';
      const pos = r.mem.positions.get(positionKey(uid, symbol, 'perp'));
      const rules = ruleOf(symbol);
      const half = pos && g.half ? Number(((Number(parseMinor(pos.qty)) / 2) * rules.qtyStep).toFixed(rules.qtyPrecision)) : undefined;
      const last = r.source.ticker(symbol)?.last ?? 1;
      const extra = {
        ...(half !== undefined && half >= rules.qtyStep ? { qty: half } : {}),
        price: g.bp === null ? null : priceAt(symbol, last, g.bp),
        ...(g.cid ? { clientOrderId: `x${r.seq + 1}` } : {}),
      };
      const sqlBody = closePositionBody.parse({ positionId: sqlId, ...extra });
      const memBody = closePositionBody.parse({ positionId: memId, ...extra });
      const sql = await sqlAnswer(() => r.engine.closePosition(uid, sqlBody));
      return { sql, mem: memApply({ type: 'close', userId: uid, body: memBody }) };
    }
    case 'closeAll': {
      const filter = g.s === null ? {} : { symbol: SYMBOLS[g.s] as string };
      const sql = await sqlAnswer(() => r.engine.closeAll(uid, filter));
      return { sql, mem: memApply({ type: 'closeAll', userId: uid, filter }) };
    }
    case 'tpsl': {
      const symbol = SYMBOLS[g.s] as string;
      const sqlId = await sqlPositionId(r, uid, symbol, 'perp');
      const memId = r.mem.positions.get(positionKey(uid, symbol, 'perp'))?.id ?? 'P-none';
      const mark = r.source.markPrice(symbol) ?? 1;
      const long = r.mem.positions.get(positionKey(uid, symbol, 'perp'))?.side !== 'short';
      const tp = g.tp === null ? null : priceAt(symbol, mark, long ? g.tp : -g.tp);
      const sl = g.sl === null ? null : priceAt(symbol, mark, long ? -g.sl : g.sl);
      const sql = await sqlAnswer(async () => {
        await r.engine.setTpsl(uid, tpslBody.parse({ positionId: sqlId, tp, sl }));
        return null;
      });
      return { sql, mem: memApply({ type: 'tpsl', userId: uid, body: tpslBody.parse({ positionId: memId, tp, sl }) }) };
    }
    case 'transfer': {
      const futures: Wallet = g.std ? 'std' : 'perp';
      const [from, to]: [Wallet, Wallet] = g.out ? [futures, 'fund'] : ['fund', futures];
      const amount = String(g.amount);
      const res = await sqlTransfer(r.db, uid, from, to, 'USDT', amount, t);
      const sql: Answer = res.ok ? { ok: true } : { ok: false, code: Code.badRequest, msg: res.reason === 'insufficient' ? TRADE_MSG.insufficientBalance : TRADE_MSG.transferAmountRequired };
      return { sql, mem: memApply({ type: 'transfer', userId: uid, from, to, coin: 'USDT', amount }) };
    }
    case 'move': {
      const symbol = SYMBOLS[g.s] as (typeof SYMBOLS)[number];
      const last = priceAt(symbol, r.source.ticker(symbol)?.last ?? BASE[symbol], g.bp);
      const mark = priceAt(symbol, last, g.markBp);
      r.source.setPrice(symbol, last, mark);
      await r.engine.idle();
      return { sql: { ok: true }, mem: memApply({ type: 'market', symbol, last, mark }) };
    }
    case 'fees': {
      // Funding / overnight boundaries passed: the SQL engine charges them, then checks the symbols with a position.
      await r.engine.runPeriodic();
      await r.engine.idle();
      return { sql: { ok: true }, mem: memApply({ type: 'periodic' }) };
    }
    case 'quote': {
      const from = CONVERT_COINS[g.from] as (typeof CONVERT_COINS)[number];
      // Mostly two different coins (the same one is refused by the route's schema before the engine).
      const to = CONVERT_COINS[g.to === g.from && g.steps % 7 !== 0 ? (g.to + 1) % 3 : g.to] as (typeof CONVERT_COINS)[number];
      const decimals = from === 'USDT' ? 2 : from === 'BTC' ? 6 : 5;
      const parsed = quoteBody.safeParse({ from, to, amount: (g.steps / 10 ** decimals).toFixed(decimals), account: g.spot ? 'spot' : 'fund' });
      if (!parsed.success) return null;
      const body = parsed.data;
      const deps = { db: r.db, clock: r.clock, source: r.source };
      const res = await createQuote(deps, uid, body);
      const sql: Answer = res.ok ? { ok: true, quote: normQuote(res.quote) } : { ok: false, code: res.code, msg: res.msg };
      const mem = memApply({ type: 'quote', userId: uid, body });
      const out = r.outcomes[r.outcomes.length - 1];
      if (res.ok && out?.ok) r.quotes.unshift([res.quote.quoteId, (out.result as QuoteRow).quote_id, uid]);
      return { sql, mem };
    }
    case 'convert': {
      const [sqlId, memId, owner] = r.quotes[g.pick % Math.max(1, r.quotes.length)] ?? ['none', 'none', uid];
      // Mostly the quote's owner; sometimes another user (not theirs: not found).
      const who = g.pick >= 5 ? uid : owner;
      const res = await convertQuote({ db: r.db, clock: r.clock, source: r.source }, who, sqlId);
      const sql: Answer = res.ok ? { ok: true, quote: normQuote(res.conversion) } : { ok: false, code: res.code, msg: res.msg };
      return { sql, mem: memApply({ type: 'convert', userId: who, quoteId: memId }) };
    }
    case 'follow': {
      const parsed = copyFollowBody.safeParse({
        traderId: r.users[g.trader], amount: String(g.amount), from: g.perp ? 'perp' : 'fund', mode: g.fixed ? 'fixed' : 'ratio', ratio: g.fixed ? null : g.ratio,
        fixedAmount: g.fixed ? g.fixedAmount : null, maxPerOrder: g.cap ? '1500' : null, stopLoss: g.stop,
      });
      if (!parsed.success) return null;
      const body = parsed.data;
      let sqlId = 0;
      const sql = await sqlAnswer(async () => {
        sqlId = (await r.copy.follow(uid, body)).id;
        return null;
      });
      const mem = memApply({ type: 'follow', userId: uid, body });
      const out = r.outcomes[r.outcomes.length - 1];
      if (sql.ok && out?.ok) r.follows.push([sqlId, (out.result as FollowRow).id]);
      return { sql, mem };
    }
    case 'unfollow': {
      const [sqlId, memId] = r.follows[r.follows.length - 1 - (g.pick % Math.max(1, r.follows.length))] ?? [0, 0];
      const sql = await sqlAnswer(async () => {
        await r.copy.unfollow(uid, sqlId, g.close);
        return null;
      });
      return { sql, mem: memApply({ type: 'unfollow', userId: uid, followId: memId, closePositions: g.close }) };
    }
    case 'copyClose': {
      // One of the user's open copied positions (the SQL one: the same follow, symbol and contract).
      const mine = [...r.mem.copyPositions.values()].filter((p) => p.user_id === uid).sort((a, b) => a.opened_at - b.opened_at || (a.id < b.id ? -1 : 1));
      const memPos = mine[g.pick % Math.max(1, mine.length)];
      const sqlFollow = r.follows.find(([, m]) => m === memPos?.follow_id)?.[0] ?? 0;
      const sqlPos = memPos
        ? await r.db.selectFrom('copy_positions').select('id').where('follow_id', '=', sqlFollow).where('symbol', '=', memPos.symbol).where('contract', '=', memPos.contract).where('status', '=', 'open').executeTakeFirst()
        : undefined;
      const sql = await sqlAnswer(async () => {
        await r.copy.closePosition(uid, sqlPos?.id ?? 'C-none');
        return null;
      });
      return { sql, mem: memApply({ type: 'copyClose', userId: uid, positionId: memPos?.id ?? 'C-none' }) };
    }
    case 'copyCheck': {
      const sql = await sqlAnswer(async () => {
        await r.copy.checkAll();
        return null;
      });
      return { sql, mem: memApply({ type: 'copyCheck' }) };
    }
    case 'book': {
      const symbol = SYMBOLS[g.s] as (typeof SYMBOLS)[number];
      const last = r.source.ticker(symbol)?.last ?? BASE[symbol];
      const level = (i: number, dir: 1 | -1): [number, number] => [priceAt(symbol, last, dir * 5 * i), qtyOf(symbol, 20 * (i + 1))];
      const bids = Array.from({ length: g.levels }, (_, i) => level(i, -1));
      const asks = Array.from({ length: g.levels }, (_, i) => level(i, 1));
      r.source.setBook(symbol, bids, asks);
      return { sql: { ok: true }, mem: memApply({ type: 'book', symbol, book: { bids, asks } }) };
    }
  }
}

// ------------------------------------------------------------------ comparisons

async function sqlBalances(db: Db): Promise<Map<string, bigint>> {
  const rows = await db.selectFrom('balances').selectAll().execute();
  const out = new Map<string, bigint>();
  for (const b of rows) if (parseMinor(b.amount) !== 0n) out.set(`${b.user_id}|${b.wallet}|${b.asset}`, parseMinor(b.amount));
  return out;
}
function memBalances(s: EngineState): Map<string, bigint> {
  return new Map([...s.balances].filter(([, v]) => v !== 0n));
}
const sorted = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const posView = (p: { user_id: number; symbol: string; contract: string; side: string; qty: string; cost: string; margin: string; leverage: number; realized_pnl: string; opened_at: number; updated_at: number }) =>
  JSON.stringify([p.user_id, p.symbol, p.contract, p.side, p.qty, p.cost, p.margin, p.leverage, p.realized_pnl, p.opened_at, p.updated_at]);

async function compareState(r: Run, where: string): Promise<void> {
  expect(sorted(memBalances(r.mem)), `${where}: balances`).toEqual(sorted(await sqlBalances(r.db)));
  const sqlPos = (await r.db.selectFrom('trade_positions').selectAll().where('status', '=', 'open').execute()).map(posView).sort();
  expect([...r.mem.positions.values()].map(posView).sort(), `${where}: open positions`).toEqual(sqlPos);
  // Frozen (locked margin) per user and wallet: as server/wallet/wallet.ts derives it from the tables.
  const sqlFrozen = new Map<string, bigint>();
  for (const u of r.users) for (const [w, v] of await frozenOf(r.db, u)) if (v !== 0n) sqlFrozen.set(`${u}|${w}|USDT`, v);
  expect(sorted(r.mem.frozen), `${where}: frozen`).toEqual(sorted(sqlFrozen));
  // The escrow holds exactly the users' frozen, per wallet.
  const frozenByWallet = new Map<string, bigint>();
  for (const [k, v] of r.mem.frozen) frozenByWallet.set(k.split('|')[1] ?? '', (frozenByWallet.get(k.split('|')[1] ?? '') ?? 0n) + v);
  for (const w of ['perp', 'std'] as const) expect(r.mem.balances.get(balanceKey(ESCROW_ACCOUNT_ID, w, 'USDT')) ?? 0n, `${where}: escrow ${w}`).toBe(frozenByWallet.get(w) ?? 0n);
  const sqlOrders = (await r.db.selectFrom('trade_orders').selectAll().execute()).map(normRow).sort();
  expect([...r.mem.orders.values()].map(normRow).sort(), `${where}: orders`).toEqual(sqlOrders);
  const quoteView = (q: QuoteRow) => JSON.stringify([q.user_id, q.from_coin, q.to_coin, q.account, q.rate, q.from_amount, q.to_amount, q.created_at, q.expires_at, q.filled_at]);
  const sqlQuotes = (await r.db.selectFrom('convert_quotes').selectAll().execute()).map(quoteView).sort();
  expect([...r.mem.quotes.values()].map(quoteView).sort(), `${where}: convert quotes`).toEqual(sqlQuotes);
  const followView = (f: FollowRow) =>
    JSON.stringify([f.user_id, f.trader_id, f.status, f.end_reason, f.mode, f.ratio_ppb, f.fixed_amount, f.max_per_order, f.stop_loss, f.source_wallet, f.invested, f.cash, f.realized_pnl, f.fees, f.created_at, f.ended_at]);
  expect([...r.mem.follows.values()].map(followView).sort(), `${where}: copy follows`).toEqual((await r.db.selectFrom('copy_follows').selectAll().execute()).map(followView).sort());
  const copyPosView = (p: CopyPositionRow) => JSON.stringify([p.user_id, p.trader_id, p.symbol, p.contract, p.side, p.qty, p.cost, p.margin, p.leverage, p.realized_pnl, p.opened_at, p.updated_at]);
  const sqlCopyPos = (await r.db.selectFrom('copy_positions').selectAll().where('status', '=', 'open').execute()).map(copyPosView).sort();
  expect([...r.mem.copyPositions.values()].map(copyPosView).sort(), `${where}: open copied positions`).toEqual(sqlCopyPos);
}

async function compareHistory(r: Run): Promise<void> {
  const sqlFills = (await r.db.selectFrom('trade_fills').selectAll().execute()).map((f) => normFill(f)).sort();
  const memFills = r.outcomes.flatMap((o) => (o.ok ? o.fills : [])).map(normFill).sort();
  expect(memFills, 'fills').toEqual(sqlFills);
  const sqlLedger = (await r.db.selectFrom('ledger_entries').selectAll().where('id', '>', r.ledgerFrom).execute())
    .map((e) => JSON.stringify([e.user_id, e.wallet, e.asset, e.type, e.amount]))
    .sort();
  const memPostings = r.outcomes.flatMap((o) => (o.ok ? o.postings : []));
  expect(memPostings.flatMap(legs).sort(), 'ledger postings').toEqual(sqlLedger);
  const sqlRebates = (await r.db.selectFrom('referral_rebates').selectAll().execute()).map((x) => JSON.stringify([x.inviter_id, x.invitee_id, x.symbol, x.wallet, x.notional, x.fee, x.rebate])).sort();
  const memRebates = r.outcomes.flatMap((o) => (o.ok ? o.rebates : [])).map((x) => JSON.stringify([x.inviterId, x.inviteeId, x.symbol, x.wallet, String(x.notional), String(x.fee), String(x.rebate)])).sort();
  expect(memRebates, 'referral rebates').toEqual(sqlRebates);
  const copyOrderView = (o: CopyOrderRow) =>
    JSON.stringify([o.user_id, o.trader_id, o.position_id !== null, o.leader_order_id !== null, o.symbol, o.side, o.action, o.qty, o.price, o.fee, o.realized_pnl, o.status, o.reason, o.created_at]);
  const sqlCopyOrders = (await r.db.selectFrom('copy_orders').selectAll().execute()).map(copyOrderView).sort();
  expect(r.outcomes.flatMap((o) => (o.ok ? o.copyOrders : [])).map(copyOrderView).sort(), 'copy orders').toEqual(sqlCopyOrders);
  // Each balance is its seed plus its postings; money never negative (but the system's); each asset sums to zero.
  const expectBal = new Map<BalanceKey, bigint>(r.seed.balances);
  for (const p of memPostings) {
    const kf = balanceKey(p.from.userId, p.from.wallet, p.coin);
    const kt = balanceKey(p.to.userId, p.to.wallet, p.coin);
    expect(p.amount > 0n).toBe(true);
    expectBal.set(kf, (expectBal.get(kf) ?? 0n) - p.amount);
    expectBal.set(kt, (expectBal.get(kt) ?? 0n) + p.amount);
  }
  expect(sorted(new Map([...expectBal].filter(([, v]) => v !== 0n)))).toEqual(sorted(memBalances(r.mem)));
  const perAsset = new Map<string, bigint>();
  for (const [k, v] of r.mem.balances) {
    const [u, , asset = ''] = k.split('|');
    if (Number(u) !== SYSTEM_ACCOUNT_ID) expect(v >= 0n, `${k} not negative`).toBe(true);
    perAsset.set(asset, (perAsset.get(asset) ?? 0n) + v);
  }
  for (const total of perAsset.values()) expect(total).toBe(0n);
}

/**
 * The memory engine's outcomes projected (in batches of 7 commands) into a database seeded like the
 * SQL engine's: every table the SQL engine wrote, the same rows (ids aside), each ledger row with
 * the same balance after and pair; every balance = its ledger sum.
 */
async function compareProjection(r: Run, pdb: Db, ledgerFrom: number): Promise<void> {
  for (let i = 0; i < r.outcomes.length; i += 7) await projectBatch(pdb, r.outcomes.slice(i, i + 7));
  expect((await projectionMark(pdb)).seq).toBe(r.seq);
  expect(sorted(await sqlBalances(pdb)), 'projected balances').toEqual(sorted(await sqlBalances(r.db)));
  const rows = async (d: Db) => {
    const orders = (await d.selectFrom('trade_orders').selectAll().execute()).map(normRow).sort();
    const positions = (await d.selectFrom('trade_positions').selectAll().execute()).map((p) => `${posView(p)}|${p.status}|${p.closed_at}`).sort();
    const fills = (await d.selectFrom('trade_fills').selectAll().execute()).map((f) => normFill(f)).sort();
    const from = d === pdb ? ledgerFrom : r.ledgerFrom;
    const ledger = (await d.selectFrom('ledger_entries as e').leftJoin('ledger_refs as f', 'f.ref', 'e.ref').select(['e.id', 'e.user_id', 'e.wallet', 'e.asset', 'e.type', 'e.amount', 'e.balance_after', 'e.created_at', 'f.symbol']).where('e.id', '>', from).execute())
      .map((e) => JSON.stringify([e.user_id, e.wallet, e.asset, e.type, e.amount, e.balance_after, e.created_at, e.symbol ?? '']))
      .sort();
    const rebates = (await d.selectFrom('referral_rebates').selectAll().execute())
      .map((x) => JSON.stringify([x.inviter_id, x.invitee_id, x.symbol, x.wallet, x.asset, x.notional, x.fee, x.rebate, x.rate_bps, x.ledger_ref !== '', x.created_at]))
      .sort();
    const invitees = (await d.selectFrom('referral_invitees').selectAll().execute()).map((x) => JSON.stringify(x)).sort();
    const quotes = (await d.selectFrom('convert_quotes').selectAll().execute()).map((q) => JSON.stringify([q.user_id, q.from_coin, q.to_coin, q.account, q.rate, q.from_amount, q.to_amount, q.created_at, q.expires_at, q.filled_at])).sort();
    const follows = (await d.selectFrom('copy_follows').selectAll().execute()).map((f) => JSON.stringify({ ...f, id: 0 })).sort();
    const copyPositions = (await d.selectFrom('copy_positions').selectAll().execute()).map((p) => JSON.stringify({ ...p, id: 0, follow_id: 0 })).sort();
    const copyOrders = (await d.selectFrom('copy_orders').selectAll().execute())
      .map((o) => JSON.stringify([o.user_id, o.trader_id, o.position_id !== null, o.leader_order_id !== null, o.symbol, o.side, o.action, o.qty, o.price, o.fee, o.realized_pnl, o.status, o.reason, o.created_at]))
      .sort();
    const jobs = (await d.selectFrom('trading_jobs').selectAll().execute()).map((j) => JSON.stringify(j)).sort();
    return { orders, positions, fills, ledger, rebates, invitees, quotes, follows, copyPositions, copyOrders, jobs };
  };
  const [mine, theirs] = [await rows(pdb), await rows(r.db)];
  for (const k of Object.keys(theirs) as (keyof typeof theirs)[]) expect(mine[k], `projected ${k}`).toEqual(theirs[k]);
  expect(await checkProjection(pdb, { seq: r.seq, balances: r.mem.balances })).toEqual({ ok: true, seq: r.seq, problems: [] });
}

function replayHash(seed: EngineState, commands: Run['commands']): string {
  const s = copyState(seed);
  for (const c of commands) apply(s, c.cmd, c.seq, c.t);
  return stateHash(s);
}

// ------------------------------------------------------------------ the property

const seen = { funding: 0, overnight: 0, tpsl: 0, maker: 0, fills: 0, liquidations: 0, refusals: 0, triggers: 0, rebates: 0, canceledByCheck: 0, converts: 0, copied: 0, copySkipped: 0, copyLiquidated: 0, followEnded: 0, stopped: 0 };

let projDir = '';
beforeAll(() => {
  projDir = mkdtempSync(join(tmpdir(), 'rf-engine-projection-'));
});
afterAll(() => rmSync(projDir, { recursive: true, force: true }));
let projRuns = 0;

async function runOnce(gens: Gen[]): Promise<void> {
  const testDb = await openTestDb();
  const db = testDb.db;
  const projPath = join(projDir, `p${(projRuns += 1)}`);
  mkdirSync(projPath);
  const proj = await openTestDb(projPath);
  const clock = new ManualClock(T0);
  const source = new ControlledMarketSource(INFOS, T0);
  const engine = new TradingEngine({ db, clock, source, onError: (e) => { throw e; } });
  try {
    for (const s of SYMBOLS) source.setPrice(s, BASE[s]);
    await engine.start({ periodicMs: 0 });
    const mk = async (name: string, invitedBy: number | null) => (await createAccount(db, { email: `${name}@example.com`, passwordHash: '!', invitedBy, now: clock.now() })).id;
    const a = await mk('a', null);
    const users = [a, await mk('b', a), await mk('c', null), await mk('d', null)];
    // The memory engine's seed: the same rules, prices, balances and inviters as the database.
    const seed = emptyState(SYMBOLS.map((s) => ruleOf(s)));
    for (const s of SYMBOLS) seed.market.set(s, { last: BASE[s], mark: BASE[s], book: { bids: [[BASE[s], 1000]], asks: [[BASE[s], 1000]] } });
    for (const b of await db.selectFrom('balances').selectAll().execute()) seed.balances.set(balanceKey(b.user_id, b.wallet, b.asset), parseMinor(b.amount));
    for (const u of await db.selectFrom('users').select(['id', 'invited_by']).execute()) if (u.invited_by !== null) seed.inviters.set(u.id, u.invited_by);
    for (const j of await db.selectFrom('trading_jobs').selectAll().execute()) seed.jobs.set(j.name as 'funding' | 'overnight', j.last_run);
    // User 0 is a listed lead trader; the SQL copy service mirrors their fills as the server wires it.
    await db.insertInto('copy_traders').values({ user_id: a, nickname: 'Lead a', bio: '', simulated: 0, status: 'active', created_at: clock.now() }).execute();
    seed.traders.add(a);
    const copy = new CopyService(db, engine, undefined);
    engine.onFills(copy.onFills);
    const maxLedger = await db.selectFrom('ledger_entries').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst();
    const r: Run = { db, engine, source, clock, users, mem: copyState(seed), seed, commands: [], outcomes: [], cids: new Map(), seq: 0, ledgerFrom: Number(maxLedger?.m ?? 0), quotes: [], copy, follows: [] };
    // The projector's database: the same accounts, created the same way (so the same ids and starting ledger).
    for (const [i, name] of ['a', 'b', 'c', 'd'].entries()) await createAccount(proj.db, { email: `${name}@example.com`, passwordHash: '!', invitedBy: i === 1 ? a : null, now: T0 });
    await proj.db.insertInto('copy_traders').values({ user_id: a, nickname: 'Lead a', bio: '', simulated: 0, status: 'active', created_at: T0 }).execute();
    for (const j of await db.selectFrom('trading_jobs').selectAll().execute()) await proj.db.insertInto('trading_jobs').values(j).execute();
    const projLedgerFrom = Number((await proj.db.selectFrom('ledger_entries').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0);
    await compareState(r, 'seed');
    for (const [i, g] of gens.entries()) {
      const answers = await step(r, g);
      if (!answers) continue;
      const where = `#${i} ${JSON.stringify(g)}`;
      expect(answers.mem, `${where}: answer`).toEqual(answers.sql);
      if (!answers.mem.ok) seen.refusals += 1;
      await compareState(r, where);
    }
    await compareHistory(r);
    // The projector (server/engine/projector.ts) writes the memory engine's outcomes into tables equal to the SQL engine's.
    await compareProjection(r, proj.db, projLedgerFrom);
    // A first state loaded from the tables the SQL engine wrote (server/engine/load.ts) is the live state, ids aside.
    const loaded = await loadState(db, SYMBOLS.map((sym) => ruleOf(sym)), r.mem.market);
    await compareState({ ...r, mem: loaded }, 'loaded from the tables');
    expect(loaded.jobs).toEqual(r.mem.jobs);
    expect(sorted(new Map([...loaded.inviters].map(([k, v]) => [String(k), v])))).toEqual(sorted(new Map([...r.mem.inviters].map(([k, v]) => [String(k), v]))));
    const pendingOf = (st: EngineState) => [...st.pending.values()].reduce((n, bySide) => n + bySide.buy.size + bySide.sell.size, 0);
    expect(pendingOf(loaded)).toBe(pendingOf(r.mem));
    expect([...loaded.byPosition.values()].reduce((n, set) => n + set.size, 0)).toBe([...r.mem.byPosition.values()].reduce((n, set) => n + set.size, 0));
    // Deterministic: the recorded commands replayed (twice) give the live state's hash.
    const live = stateHash(r.mem);
    expect(replayHash(seed, r.commands)).toBe(live);
    expect(replayHash(seed, r.commands)).toBe(live);
    // A snapshot (structured copy) midway + the rest of the commands = all of them.
    const half = Math.floor(r.commands.length / 2);
    const s = copyState(seed);
    for (const c of r.commands.slice(0, half)) apply(s, c.cmd, c.seq, c.t);
    const snap = copyState(s);
    for (const c of r.commands.slice(half)) apply(snap, c.cmd, c.seq, c.t);
    expect(stateHash(snap)).toBe(live);
    for (const o of r.outcomes) {
      if (!o.ok) continue;
      seen.fills += o.fills.length;
      seen.maker += o.fills.filter((f) => f.liquidity === 'maker').length;
      seen.tpsl += o.fills.filter((f) => f.kind === 'limitTakeProfit' || f.kind === 'limitStopLoss').length;
      seen.liquidations += o.fills.filter((f) => f.kind === 'liquidation').length;
      seen.rebates += o.rebates.length;
      seen.funding += o.postings.filter((p) => p.type === 'FUNDING_FEE').length;
      seen.overnight += o.postings.filter((p) => p.type === 'OVERNIGHT_FEE').length;
      seen.triggers += o.orders.filter((x) => x.triggered_at !== null && x.triggered_at === o.t).length;
      seen.canceledByCheck += o.orders.filter((x) => x.cancel_reason === 'insufficientBalance' || x.cancel_reason === 'rejected').length;
      seen.converts += o.quotes.filter((q) => q.filled_at !== null).length;
      seen.copied += o.copyOrders.filter((c) => c.status === 'filled').length;
      seen.copySkipped += o.copyOrders.filter((c) => c.status === 'skipped').length;
      seen.copyLiquidated += o.copyPositions.filter((p) => p.status === 'liquidated').length;
      seen.followEnded += o.follows.filter((f) => f.status === 'ended' && f.ended_at === o.t).length;
      seen.stopped += o.follows.filter((f) => f.end_reason === 'stopLoss' && f.ended_at === o.t).length;
    }
  } finally {
    await engine.stop();
    await testDb.close();
    await proj.close();
  }
}

describe('in-memory engine = SQL engine (differential property, issue 28)', () => {
  it('same answers, balances, positions, orders, fills and postings on generated command sequences; deterministic; snapshot + rest = all', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(gen, { minLength: 20, maxLength: 60, size: 'medium' }), async (gens) => {
        await runOnce(gens);
      }),
      { numRuns: Number(process.env.ENGINE_PROP_RUNS ?? 15) },
    );
    // The runs compared executions and refusals (the rarer paths are pinned by the fixed example below).
    expect(seen.fills).toBeGreaterThan(0);
    expect(seen.refusals).toBeGreaterThan(0);
    // Converts and copies happen in some runs; the fixed sequences below pin them.
  }, 120_000);

  it('a fixed sequence reaching the rarer paths: maker fill, stop trigger, TP/SL, referral rebate, liquidation, funding and overnight fees', async () => {
    for (const k of Object.keys(seen) as (keyof typeof seen)[]) seen[k] = 0;
    await runOnce([
      { k: 'place', u: 1, s: 0, kind: 'marketOpen', side: 'buy', bp: 0, tbp: 0, steps: 300, lev: 125, perp: true, tif: 'GTC', post: false, reduce: false, tp: null, sl: null, reuse: null, mark: false },
      { k: 'place', u: 2, s: 0, kind: 'limitOpen', side: 'buy', bp: 100, tbp: 0, steps: 50, lev: 10, perp: true, tif: 'GTC', post: false, reduce: false, tp: 200, sl: 300, reuse: null, mark: false },
      { k: 'place', u: 3, s: 0, kind: 'stopMarket', side: 'sell', bp: 0, tbp: -80, steps: 40, lev: 20, perp: true, tif: 'GTC', post: false, reduce: false, tp: null, sl: null, reuse: null, mark: false },
      { k: 'move', s: 0, bp: -150, markBp: 0 },
      { k: 'tpsl', u: 2, s: 0, tp: 100, sl: 100 },
      { k: 'move', s: 0, bp: 120, markBp: 0 },
      { k: 'place', u: 0, s: 1, kind: 'marketOpen', side: 'sell', bp: 0, tbp: 0, steps: 100, lev: 10, perp: true, tif: 'GTC', post: false, reduce: false, tp: null, sl: null, reuse: null, mark: false },
      { k: 'transfer', u: 2, out: false, std: true, amount: 5000 },
      { k: 'place', u: 2, s: 1, kind: 'marketOpen', side: 'buy', bp: 0, tbp: 0, steps: 100, lev: 10, perp: false, tif: 'GTC', post: false, reduce: false, tp: null, sl: null, reuse: null, mark: false },
      { k: 'fees', hours: 24 },
      { k: 'quote', u: 0, from: 0, to: 1, steps: 123_456, spot: false },
      { k: 'convert', u: 0, pick: 0 },
      { k: 'convert', u: 0, pick: 0 },
      { k: 'quote', u: 1, from: 1, to: 2, steps: 1, spot: false },
    ]);
    expect(seen).toMatchObject({ maker: 1, liquidations: 1, triggers: 1, tpsl: 1 });
    // 24 h later: three funding boundaries on each perp position, one overnight charge on the std long.
    expect(seen.funding % 3).toBe(0);
    expect(seen.funding).toBeGreaterThan(0);
    expect(seen.overnight).toBe(1);
    expect(seen.rebates).toBeGreaterThan(0);
    expect(seen.converts).toBe(1);
  }, 60_000);

  it('a fixed copy-trading sequence: ratio and fixed follows mirror opens, adds, reduces and closes; a stop ends a follow; a kept position closes later; a copy is liquidated', async () => {
    for (const k of Object.keys(seen) as (keyof typeof seen)[]) seen[k] = 0;
    const lead = (side: 'buy' | 'sell', steps: number, close = false): Gen => ({
      k: 'place', u: 0, s: 0, kind: close ? 'marketClose' : 'marketOpen', side, bp: 0, tbp: 0, steps, lev: 20, perp: true, tif: 'GTC', post: false, reduce: close, tp: null, sl: null, reuse: null, mark: false,
    });
    await runOnce([
      { k: 'follow', u: 1, trader: 0, fixed: false, ratio: '0.5', fixedAmount: '20', amount: 4000, perp: false, cap: false, stop: null },
      { k: 'follow', u: 2, trader: 0, fixed: true, ratio: '1', fixedAmount: '500', amount: 3000, perp: true, cap: false, stop: '300' },
      { k: 'follow', u: 0, trader: 0, fixed: false, ratio: '1', fixedAmount: '20', amount: 100, perp: false, cap: false, stop: null },
      lead('buy', 100),
      lead('buy', 50),
      lead('sell', 60),
      { k: 'move', s: 0, bp: -250, markBp: 0 },
      { k: 'copyCheck' },
      { k: 'unfollow', u: 1, pick: 0, close: false },
      { k: 'unfollow', u: 1, pick: 1, close: false },
      { k: 'move', s: 0, bp: -300, markBp: 0 },
      { k: 'copyCheck' },
      { k: 'copyClose', u: 1, pick: 0 },
      { k: 'follow', u: 1, trader: 0, fixed: false, ratio: '2', fixedAmount: '20', amount: 6000, perp: false, cap: true, stop: null },
      lead('sell', 200),
      lead('buy', 100, true),
    ]);
    expect(seen.copied).toBeGreaterThan(3);
    expect(seen).toMatchObject({ copyLiquidated: 1, stopped: 1 });
  }, 60_000);
});
