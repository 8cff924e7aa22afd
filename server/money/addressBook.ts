import type { Selectable } from 'kysely';
import { addressKey, isValidAddress } from '../../src/protocol/addresses.ts';
import { Code } from '../../src/protocol/envelope.ts';
import {
  ADDRESS_BOOK_MAX, DAILY_LIMIT_WINDOW_MS, DAILY_WITHDRAW_LIMIT_USDT, WALLET_MSG, WHITELIST_DELAY_MS,
} from '../../src/protocol/wallet.ts';
import type { AddressBook, ChainRule, DailyLimit, MoneyCoin, Network, SavedAddress, Whitelist } from '../../src/protocol/wallet.ts';
import { usdtMinor, usdtText, usdtValueMinor } from '../../src/protocol/withdrawSafety.ts';
import type { SafetyRefusal } from '../../src/protocol/withdrawSafety.ts';
import type { Db } from '../db/connection.ts';
import { formatMinor, parseMinor } from '../db/money.ts';
import type { UserRow, WithdrawAddressesTable } from '../db/schema.ts';
import type { MarketSource } from '../market/source.ts';
import { formatRate, quoteRate } from './convert.ts';

/**
 * Withdrawal safety (issue 26; docs/WALLET.md "Address book, whitelist mode, daily limit"):
 * - the address book: labelled addresses per coin and network, checked like a withdrawal's
 *   address (src/protocol/addresses.ts), one copy per spelling-insensitive key;
 * - whitelist-only mode: while on, a withdrawal goes only to a saved address that is usable (one
 *   added while the mode was on waits 24 h); on at once, off 24 h after it was asked for (both with
 *   the emailed security code, checked by the route);
 * - the daily limit: pending + processing + completed withdrawals of the last 24 h, valued in USDT at
 *   the coin's convert price, against DAILY_WITHDRAW_LIMIT_USDT of the account's KYC state.
 */

type AddressRow = Selectable<WithdrawAddressesTable>;
export type Refusal = { ok: false; code: number; msg: string };

function savedDto(r: AddressRow, now: number): SavedAddress {
  return {
    id: r.id,
    coin: r.coin as MoneyCoin,
    network: r.network as Network,
    address: r.address,
    label: r.label,
    createdAt: r.created_at,
    usableAt: r.usable_at,
    usable: r.usable_at <= now,
  };
}

/** The whitelist mode in force at `now` (a requested turn-off whose time has come is off). */
export async function whitelistOf(db: Db, userId: number, now: number): Promise<Whitelist> {
  const s = await db.selectFrom('withdraw_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!s || s.whitelist !== 1) return { enabled: false, offAt: null };
  if (s.whitelist_off_at !== null && s.whitelist_off_at <= now) return { enabled: false, offAt: null };
  return { enabled: true, offAt: s.whitelist_off_at };
}

/** The saved addresses (all, or of one coin and network), oldest first. */
export async function savedAddresses(db: Db, userId: number, now: number, of?: { coin: string; network: string }): Promise<SavedAddress[]> {
  let q = db.selectFrom('withdraw_addresses').selectAll().where('user_id', '=', userId);
  if (of) q = q.where('coin', '=', of.coin).where('network', '=', of.network);
  const rows = await q.orderBy('id').execute();
  return rows.map((r) => savedDto(r, now));
}

export async function addressBook(db: Db, userId: number, now: number): Promise<AddressBook> {
  return { addresses: await savedAddresses(db, userId, now), whitelist: await whitelistOf(db, userId, now) };
}

/** Saves an address checked for the network; usable at once unless whitelist mode is on (then 24 h later). */
export async function addAddress(db: Db, userId: number, rule: ChainRule, address: string, label: string, now: number): Promise<AddressBook | Refusal> {
  const a = address.trim();
  if (!isValidAddress(rule.format, a)) return { ok: false, code: Code.badRequest, msg: WALLET_MSG.addressInvalid };
  const key = addressKey(rule.format, a);
  const count = await db.selectFrom('withdraw_addresses').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  if (Number(count?.n ?? 0) >= ADDRESS_BOOK_MAX) return { ok: false, code: Code.badRequest, msg: WALLET_MSG.addressBookFull };
  const wl = await whitelistOf(db, userId, now);
  const inserted = await db
    .insertInto('withdraw_addresses')
    .values({ user_id: userId, coin: rule.coin, network: rule.network, address: a, address_key: key, label, created_at: now, usable_at: wl.enabled ? now + WHITELIST_DELAY_MS : now })
    .onConflict((oc) => oc.columns(['user_id', 'coin', 'network', 'address_key']).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return { ok: false, code: Code.conflict, msg: WALLET_MSG.addressExists };
  return addressBook(db, userId, now);
}

export async function renameAddress(db: Db, userId: number, id: number, label: string, now: number): Promise<AddressBook | Refusal> {
  const res = await db.updateTable('withdraw_addresses').set({ label }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return { ok: false, code: Code.notFound, msg: WALLET_MSG.addressNotFound };
  return addressBook(db, userId, now);
}

export async function deleteAddress(db: Db, userId: number, id: number, now: number): Promise<AddressBook | Refusal> {
  const res = await db.deleteFrom('withdraw_addresses').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (Number(res.numDeletedRows) !== 1) return { ok: false, code: Code.notFound, msg: WALLET_MSG.addressNotFound };
  return addressBook(db, userId, now);
}

/**
 * Turns whitelist mode on (at once; a pending turn-off is dropped) or asks for it to turn off (24 h
 * from now; asking again keeps the first time). The caller has checked the security code.
 */
export async function setWhitelist(db: Db, userId: number, enabled: boolean, now: number): Promise<{ book: AddressBook; msg: string }> {
  const current = await whitelistOf(db, userId, now);
  let msg: string;
  if (enabled) {
    msg = current.enabled && current.offAt !== null ? WALLET_MSG.whitelistOffCancelled : WALLET_MSG.whitelistOn;
    await db
      .insertInto('withdraw_settings')
      .values({ user_id: userId, whitelist: 1, whitelist_off_at: null, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ whitelist: 1, whitelist_off_at: null, updated_at: now }))
      .execute();
  } else {
    msg = WALLET_MSG.whitelistOffScheduled;
    if (current.enabled && current.offAt === null) {
      await db.updateTable('withdraw_settings').set({ whitelist_off_at: now + WHITELIST_DELAY_MS, updated_at: now }).where('user_id', '=', userId).execute();
    }
  }
  return { book: await addressBook(db, userId, now), msg };
}

/** Whether whitelist mode lets a withdrawal go to `address` now: null when it may, else the refusal. */
export async function whitelistRefusal(db: Db, userId: number, rule: ChainRule, address: string, now: number): Promise<SafetyRefusal | null> {
  const wl = await whitelistOf(db, userId, now);
  if (!wl.enabled) return null;
  const row = await db
    .selectFrom('withdraw_addresses')
    .select('usable_at')
    .where('user_id', '=', userId)
    .where('coin', '=', rule.coin)
    .where('network', '=', rule.network)
    .where('address_key', '=', addressKey(rule.format, address))
    .executeTakeFirst();
  if (!row) return { kind: 'notWhitelisted' };
  if (row.usable_at > now) {
    const minutes = Math.ceil((row.usable_at - now) / 60_000);
    return { kind: 'notYetUsable', hours: Math.floor(minutes / 60), minutes: minutes % 60 };
  }
  return null;
}

/** The coin's USDT price the server values with (the convert rate, exact), or null without a market price. */
export function usdtPrice(source: MarketSource | undefined, coin: MoneyCoin): string | null {
  if (coin === 'USDT') return '1';
  const rate = source ? quoteRate(source, coin, 'USDT') : undefined;
  return rate === undefined ? null : formatRate(rate).replace(/\.?0+$/, '');
}

/** The daily limit of the account at `now`, with `price` the USDT price of `coin`; `usedMinor` for the check. */
export async function dailyLimitOf(db: Db, source: MarketSource | undefined, user: UserRow, coin: MoneyCoin, now: number): Promise<DailyLimit & { usedMinor: bigint; limitMinor: bigint; priced: boolean }> {
  const verified = user.kyc_status === 'verified';
  const limitText = verified ? DAILY_WITHDRAW_LIMIT_USDT.verified : DAILY_WITHDRAW_LIMIT_USDT.unverified;
  const rows = await db
    .selectFrom('withdrawals')
    .select(['coin', 'amount'])
    .where('user_id', '=', user.id)
    .where('status', 'in', ['pending', 'processing', 'completed'])
    .where('created_at', '>', now - DAILY_LIMIT_WINDOW_MS)
    .execute();
  let used = 0n;
  let priced = true;
  const prices = new Map<string, string | null>();
  for (const r of rows) {
    const c = r.coin as MoneyCoin;
    if (!prices.has(c)) prices.set(c, usdtPrice(source, c));
    const p = prices.get(c) ?? null;
    const v = p === null ? null : usdtValueMinor(formatMinor(parseMinor(r.amount), c), p);
    if (v === null) priced = false;
    else used += v;
  }
  const limitMinor = usdtMinor(limitText) ?? 0n;
  return { limit: limitText, used: usdtText(used), verified, price: usdtPrice(source, coin), usedMinor: used, limitMinor, priced };
}

/** Whether `amount` of `coin` fits the account's daily limit now: null when it does, else the refusal. */
export async function dailyLimitRefusal(db: Db, source: MarketSource | undefined, user: UserRow, coin: MoneyCoin, amount: string, now: number): Promise<SafetyRefusal | 'unpriced' | null> {
  const d = await dailyLimitOf(db, source, user, coin, now);
  const value = d.price === null ? null : usdtValueMinor(amount, d.price);
  if (value === null || !d.priced) return 'unpriced';
  if (d.usedMinor + value > d.limitMinor) return { kind: 'dailyLimit', used: d.used, limit: d.limit, value: usdtText(value) };
  return null;
}

/** The wire part of {@link dailyLimitOf}. */
export function dailyLimitView(d: DailyLimit): DailyLimit {
  return { limit: d.limit, used: d.used, verified: d.verified, price: d.price };
}
