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
import type { ConvertQuotesTable } from '../db/schema.ts';
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

/** A coin's USDT price scaled by 10^8, or undefined without a market price. */
function scaledPrice(source: MarketSource, coin: ConvertCoin): bigint | undefined {
  if (coin === 'USDT') return BigInt(PRICE_SCALE);
  const last = source.ticker(`${coin}USDT`)?.last;
  if (last === undefined || !Number.isFinite(last) || last <= 0) return undefined;
  return BigInt(Math.round(last * PRICE_SCALE));
}

/** Units of `to` per one `from`, scaled, truncated. */
export function quoteRate(source: MarketSource, from: ConvertCoin, to: ConvertCoin): bigint | undefined {
  const pf = scaledPrice(source, from);
  const pt = scaledPrice(source, to);
  if (pf === undefined || pt === undefined) return undefined;
  return (pf * RATE_SCALE) / pt;
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
  if (!deps.source) return { ok: false, code: Code.badRequest, msg: CONVERT_MSG.noPrice };
  const rate = quoteRate(deps.source, b.from, b.to);
  if (rate === undefined) return { ok: false, code: Code.badRequest, msg: CONVERT_MSG.noPrice };
  let fromMinor: bigint;
  try {
    fromMinor = toMinor(b.amount, b.from);
  } catch {
    return { ok: false, code: Code.badRequest, msg: CONVERT_MSG.amountRequired };
  }
  const toMinorAmt = receivedFor(fromMinor, rate, b.from, b.to);
  if (fromMinor <= 0n || toMinorAmt <= 0n) return { ok: false, code: Code.badRequest, msg: CONVERT_MSG.amountTooSmall };
  if ((await availableOf(deps.db, userId, b.account, b.from)) < fromMinor) return { ok: false, code: Code.badRequest, msg: CONVERT_MSG.insufficientBalance };
  const now = deps.clock.now();
  const row = await deps.db
    .insertInto('convert_quotes')
    .values({
      quote_id: randomBytes(12).toString('hex'), user_id: userId, from_coin: b.from, to_coin: b.to, account: b.account,
      rate: rate.toString(), from_amount: fromMinor.toString(), to_amount: toMinorAmt.toString(),
      created_at: now, expires_at: now + QUOTE_TTL_MS, filled_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ok: true, quote: quoteDto(row) };
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
      const q = await trx.selectFrom('convert_quotes').selectAll().where('quote_id', '=', quoteId).where('user_id', '=', userId).executeTakeFirst();
      if (!q) return refuse(Code.notFound, CONVERT_MSG.quoteNotFound);
      if (q.filled_at !== null) return refuse(Code.conflict, CONVERT_MSG.quoteUsed);
      if (now >= q.expires_at) return refuse(Code.badRequest, CONVERT_MSG.quoteExpired);
      const res = await trx.updateTable('convert_quotes').set({ filled_at: now }).where('id', '=', q.id).where('filled_at', 'is', null).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return refuse(Code.conflict, CONVERT_MSG.quoteUsed);
      const give = parseMinor(q.from_amount);
      const get = parseMinor(q.to_amount);
      const p = await postLedger(trx, {
        type: 'EXCHANGE_DEDUCTION',
        now,
        ref: `convert:${q.quote_id}`,
        entries: [
          { userId, wallet: q.account, asset: q.from_coin, amount: -give },
          { userId: SYSTEM_ACCOUNT_ID, wallet: q.account, asset: q.from_coin, amount: give },
          { userId: SYSTEM_ACCOUNT_ID, wallet: q.account, asset: q.to_coin, amount: -get, type: 'EXCHANGE_RECEIVED' },
          { userId, wallet: q.account, asset: q.to_coin, amount: get, type: 'EXCHANGE_RECEIVED' },
        ],
      });
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
