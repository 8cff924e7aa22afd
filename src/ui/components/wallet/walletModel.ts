import type { TFunction } from 'i18next';
import { CONVERT_MSG } from '../../../protocol/convert.ts';
import { CHAIN_RULES, WALLET_MSG, type MoneyCoin, type Network } from '../../../protocol/wallet.ts';

/**
 * Pure helpers of the money screens (issue 12): which networks a coin is on, live rows merged
 * over a fetched page, the lock's time left, and the translation of server / client messages.
 */

/** The networks a coin can be deposited / withdrawn on, in CHAIN_RULES order. */
export function networksOf(coin: MoneyCoin): Network[] {
  return CHAIN_RULES.filter((r) => r.coin === coin).map((r) => r.network);
}

/**
 * A fetched page with the rows the user socket pushed since: a pushed row replaces the row with
 * its id (newer status), and a pushed row the page does not hold yet goes on top (newest first),
 * keeping at most `max` rows. Frames older than the fetched row (by `updatedAt` / `time`) never win.
 */
export function mergeLive<T extends { id: number; time: number; updatedAt?: number }>(list: readonly T[], live: ReadonlyMap<number, T>, max: number): T[] {
  const seen = new Set<number>();
  const stamp = (r: T) => r.updatedAt ?? r.time;
  const rows = list.map((r) => {
    seen.add(r.id);
    const l = live.get(r.id);
    return l && stamp(l) >= stamp(r) ? l : r;
  });
  const fresh = [...live.values()].filter((r) => !seen.has(r.id)).sort((a, b) => b.time - a.time || b.id - a.id);
  return [...fresh, ...rows].slice(0, max);
}

/** Hours and whole minutes (rounded up, so a lock never reads 0 min while it holds) of a duration. */
export function hoursMinutes(ms: number): { h: number; m: number } {
  const minutes = Math.max(0, Math.ceil(ms / 60_000));
  return { h: Math.floor(minutes / 60), m: minutes % 60 };
}

function keyOf(table: Readonly<Record<string, string>>, msg: string): string | null {
  for (const [k, v] of Object.entries(table)) if (v === msg) return k;
  return null;
}

/**
 * The translated text of a wallet message (client rule or server answer). 'The minimum withdrawal
 * amount is:10 USDT' keeps its number and coin after the translated prefix; anything unknown (a
 * network message) is shown as is.
 */
export function walletText(t: TFunction, msg: string): string {
  if (msg.startsWith(WALLET_MSG.minWithdrawal)) return labelled(t('wallet:msg_minWithdrawal'), msg.slice(WALLET_MSG.minWithdrawal.length));
  const k = keyOf(WALLET_MSG, msg);
  return k ? t(`wallet:msg_${k}`) : msg;
}

/** The translated text of a convert message; unknown texts as they are. */
export function convertText(t: TFunction, msg: string): string {
  const k = keyOf(CONVERT_MSG, msg);
  return k ? t(`convert:msg_${k}`) : msg;
}

/**
 * A label ending in a colon followed by its value, with the space the SPEC's wire texts leave out
 * ('The minimum withdrawal amount is:' + '10 USDT' → '…is: 10 USDT'; issue 26 cosmetics); a
 * full-width colon (zh, jp) takes no space.
 */
export function labelled(label: string, value: string): string {
  return `${label}${label.endsWith(':') && value !== '' && !value.startsWith(' ') ? ' ' : ''}${value}`;
}
