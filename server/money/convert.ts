import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { CONVERT_COINS, CONVERT_MSG, QUOTE_TTL_MS, RATE_DECIMALS } from '../../src/protocol/convert.ts';
import type { Conversion, ConvertAccount, ConvertCoin, convertHistoryQuery, Quote } from '../../src/protocol/convert.ts';
import { Code } from '../../src/protocol/envelope.ts';
import type { Page } from '../../src/protocol/envelope.ts';
import type { Db } from '../db/connection.ts';
import { SYSTEM_ACCOUNT_ID } from '../db/ledgerRule.ts';
import { decimalsOf, formatMinor, parseMinor, toMinor } from '../db/money.ts';
import { pageOf } from '../db/paged.ts';
import type { ConvertQuotesTable, Wallet } from '../db/schema.ts';
import type { FeatureDeps } from '../featureTypes.ts';
import { postLedger } from '../ledger/post.ts';
import type { MarketSource } from '../market/source.ts';
import { availableOf } from '../wallet/wallet.ts';
import { publishBalance } from './accounts.ts';
import { transact } from '../db/tx.ts';

/**
 * Instant convert (docs/WALLET.md). A quote reads the market engine's last prices (USDT = 1, BTC
 * and ETH from BTCUSDT / ETHUSDT), truncates the rate to RATE_DECIMALS (16, so even a BTC rate in
 * USDT keeps 9+ significant digits and truncation costs < 1e-7 of the amount) and computes the received
 * amount FROM that truncated rate (floored to the coin's decimals), so the two legs always match
 * the quote exactly. Converting checks, in one transaction: the quote is the caller's, unused,
 * and `now < expiresAt` (server clock); marks it filled (conditional on still unfilled, so a
 * double click converts once); and posts four entries through the one ledger write: the user's
 * EXCHANGE_DEDUCTION and EXCHANGE_RECEIVED against the system account (the platform's desk). Fee 0.
 */

export type QuoteRow = Selectable<ConvertQuotesTable>;
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);

export type Refusal = { ok: false; code: number; msg: string };

/** A scaled rate as a decimal string with RATE_DECIMALS decimals. */
export function formatRate(r: bigint): string {
  const s = r.toString().padStart(RATE_DECIMALS + 1, '0');
  return `${s.slice(0, -RATE_DECIMALS)}.${s.slice(-RATE_DECIMALS)}`;
}

/** Prices are on their tick (at most 8 decimals): scaled by 10^8 they are exact integers well below 2^53. */
const PRICE_SCALE = 100_000_000;

/** The last traded price of a symbol (the market source's ticker, or the in-memory engine's market). */
export type LastOf = (symbol: string) => number | undefined;

/** A coin's USDT price scaled by 10^8, or undefined without a market price. */
function scaledPrice(lastOf: LastOf, coin: ConvertCoin): bigint | undefined {
  if (coin === 'USDT') return BigInt(PRICE_SCALE);
  const last = lastOf(`${coin}USDT`);
  if (last === undefined || !Number.isFinite(last) || last <= 0) return undefined;
  return BigInt(Math.round(last * PRICE_SCALE));
}

/** Units of `to` per one `from` at the last prices `lastOf` gives, scaled, truncated. */
export function rateAt(lastOf: LastOf, from: ConvertCoin, to: ConvertCoin): bigint | undefined {
  const pf = scaledPrice(lastOf, from);
  const pt = scaledPrice(lastOf, to);
  if (pf === undefined || pt === undefined) return undefined;
  return (pf * RATE_SCALE) / pt;
}

/** Units of `to` per one `from`, scaled, truncated. */
export function quoteRate(source: MarketSource, from: ConvertCoin, to: ConvertCoin): bigint | undefined {
  return rateAt((symbol) => source.ticker(symbol)?.last, from, to);
}

/** The received amount in `to` minor units for `fromMinor` at a scaled rate (floored). */
export function receivedFor(fromMinor: bigint, rate: bigint, from: string, to: string): bigint {
  return (fromMinor * rate * 10n ** BigInt(decimalsOf(to))) / (RATE_SCALE * 10n ** BigInt(decimalsOf(from)));
}

export function quoteDto(r: QuoteRow): Quote {
  return {
    quoteId: r.quote_id,
    from: r.from_coin as ConvertCoin,
    to: r.to_coin as ConvertCoin,
    rate: formatRate(parseMinor(r.rate)),
    fromAmount: formatMinor(parseMinor(r.from_amount), r.from_coin),
    toAmount: formatMinor(parseMinor(r.to_amount), r.to_coin),
    fee: '0',
    account: r.account,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
  };
}

function conversionDto(r: QuoteRow): Conversion {
  return { ...quoteDto(r), id: r.id, time: r.filled_at ?? r.created_at };
}

/** Issues a quote locking the current rate for QUOTE_TTL_MS. */
export async function createQuote(
  deps: FeatureDeps,
  userId: number,
  b: { from: ConvertCoin; to: ConvertCoin; amount: string; account: ConvertAccount },
): Promise<{ ok: true; quote: Quote } | Refusal> {
  const source = deps.source;
  const terms = quoteTerms((symbol) => source?.ticker(symbol)?.last, b);
  if (!terms.ok) return terms;
  const funds = checkFunds(await availableOf(deps.db, userId, b.account, b.from), terms.give);
  if (funds) return funds;
  const { id: _id, ...values } = quoteRowOf(randomBytes(12).toString('hex'), userId, b, terms, deps.clock.now());
  const row = await deps.db.insertInto('convert_quotes').values(values).returningAll().executeTakeFirstOrThrow();
  return { ok: true, quote: quoteDto(row) };
}

export type QuoteInput = { from: ConvertCoin; to: ConvertCoin; amount: string; account: ConvertAccount };
export type QuoteTerms = { ok: true; rate: bigint; give: bigint; get: bigint };

/**
 * A quote's rate and its two exact legs, or the refusal (no price, no amount, too small), in the
 * route's order. Shared by the SQL route and the in-memory engine (server/engine/apply.ts, issue 28).
 */
export function quoteTerms(lastOf: LastOf, b: QuoteInput): QuoteTerms | Refusal {
  const rate = rateAt(lastOf, b.from, b.to);
  if (rate === undefined) return { ok: false, code: Code.badRequest, msg: CONVERT_MSG.noPrice };
  let give: bigint;
  try {
    give = toMinor(b.amount, b.from);
  } catch {
    return { ok: false, code: Code.badRequest, msg: CONVERT_MSG.amountRequired };
  }
  const get = receivedFor(give, rate, b.from, b.to);
  if (give <= 0n || get <= 0n) return { ok: false, code: Code.badRequest, msg: CONVERT_MSG.amountTooSmall };
  return { ok: true, rate, give, get };
}

/** The quote's funds check: the paying wallet's available covers the amount. */
export function checkFunds(available: bigint, give: bigint): Refusal | null {
  return available < give ? { ok: false, code: Code.badRequest, msg: CONVERT_MSG.insufficientBalance } : null;
}

/** The convert_quotes row of a new quote (`id` is the table's; the in-memory engine numbers it by seq). */
export function quoteRowOf(quoteId: string, userId: number, b: QuoteInput, terms: QuoteTerms, now: number, id = 0): QuoteRow {
  return {
    id, quote_id: quoteId, user_id: userId, from_coin: b.from, to_coin: b.to, account: b.account,
    rate: terms.rate.toString(), from_amount: terms.give.toString(), to_amount: terms.get.toString(),
    created_at: now, expires_at: now + QUOTE_TTL_MS, filled_at: null,
  };
}

/** Whether the caller's quote `q` (undefined: none of theirs) can be converted at `now`: the quote, or the refusal. */
export function checkConvert(q: QuoteRow | undefined, now: number): { ok: true; q: QuoteRow } | Refusal {
  if (!q) return { ok: false, code: Code.notFound, msg: CONVERT_MSG.quoteNotFound };
  if (q.filled_at !== null) return { ok: false, code: Code.conflict, msg: CONVERT_MSG.quoteUsed };
  if (now >= q.expires_at) return { ok: false, code: Code.badRequest, msg: CONVERT_MSG.quoteExpired };
  return { ok: true, q };
}

/**
 * The convert's one posting (fee 0, exact): the user pays `from` to the system account
 * (EXCHANGE_DEDUCTION) and receives `to` from it (EXCHANGE_RECEIVED), both in the quote's account.
 * Legs in pairs (paid, received), so a posting of two-entry moves reads them as they are.
 */
export function convertLegs(q: QuoteRow): { userId: number; wallet: Wallet; asset: string; amount: bigint; type?: 'EXCHANGE_RECEIVED' }[] {
  const give = parseMinor(q.from_amount);
  const get = parseMinor(q.to_amount);
  return [
    { userId: q.user_id, wallet: q.account, asset: q.from_coin, amount: -give },
    { userId: SYSTEM_ACCOUNT_ID, wallet: q.account, asset: q.from_coin, amount: give },
    { userId: SYSTEM_ACCOUNT_ID, wallet: q.account, asset: q.to_coin, amount: -get, type: 'EXCHANGE_RECEIVED' },
    { userId: q.user_id, wallet: q.account, asset: q.to_coin, amount: get, type: 'EXCHANGE_RECEIVED' },
  ];
}

class Abort extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.msg);
  }
}

/** Converts a quote at exactly its rate, once, before it expires. */
export async function convertQuote(deps: FeatureDeps, userId: number, quoteId: string): Promise<{ ok: true; conversion: Conversion } | Refusal> {
  const now = deps.clock.now();
  const refuse = (code: number, msg: string): never => {
    throw new Abort({ ok: false, code, msg });
  };
  try {
    const row = await transact(deps.db, async (trx) => {
      const found = await trx.selectFrom('convert_quotes').selectAll().where('quote_id', '=', quoteId).where('user_id', '=', userId).executeTakeFirst();
      const checked = checkConvert(found, now);
      if (!checked.ok) return refuse(checked.code, checked.msg);
      const q = checked.q;
      const res = await trx.updateTable('convert_quotes').set({ filled_at: now }).where('id', '=', q.id).where('filled_at', 'is', null).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return refuse(Code.conflict, CONVERT_MSG.quoteUsed);
      const p = await postLedger(trx, { type: 'EXCHANGE_DEDUCTION', now, ref: `convert:${q.quote_id}`, entries: convertLegs(q) });
      if (!p.ok) return refuse(Code.badRequest, CONVERT_MSG.insufficientBalance);
      return trx.selectFrom('convert_quotes').selectAll().where('id', '=', q.id).executeTakeFirstOrThrow();
    });
    const dto = conversionDto(row);
    deps.bus?.publish(userId, { type: 'convert', data: dto });
    await publishBalance(deps, deps.db, userId, row.account, row.from_coin);
    await publishBalance(deps, deps.db, userId, row.account, row.to_coin);
    return { ok: true, conversion: dto };
  } catch (err) {
    if (err instanceof Abort) return err.refusal;
    throw err;
  }
}

/** The caller's filled converts, newest first, with filters. */
export function convertHistory(db: Db, userId: number, q: z.output<typeof convertHistoryQuery>): Promise<Page<Conversion>> {
  let base = db.selectFrom('convert_quotes').where('user_id', '=', userId).where('filled_at', 'is not', null);
  if (q.from) base = base.where('from_coin', '=', q.from);
  if (q.to) base = base.where('to_coin', '=', q.to);
  if (q.account) base = base.where('account', '=', q.account);
  if (q.start !== undefined) base = base.where('filled_at', '>=', q.start);
  if (q.end !== undefined) base = base.where('filled_at', '<=', q.end);
  return pageOf(base, q, ['filled_at', 'id'], (qb) => qb.selectAll(), conversionDto);
}

/** Every ordered pair of convertible coins with its live rate ('' when no price yet). */
export function convertPairs(source: MarketSource | undefined): { from: ConvertCoin; to: ConvertCoin; rate: string }[] {
  const out: { from: ConvertCoin; to: ConvertCoin; rate: string }[] = [];
  for (const from of CONVERT_COINS) {
    for (const to of CONVERT_COINS) {
      if (from === to) continue;
      const r = source ? quoteRate(source, from, to) : undefined;
      out.push({ from, to, rate: r === undefined ? '' : formatRate(r) });
    }
  }
  return out;
}
