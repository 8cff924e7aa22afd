import { formatNumber } from '../../../format/number.ts';
import type { Currency } from './assetsModel.ts';
import { formatScaled, parseScaled, SCALE } from '../../../protocol/decimal.ts';

/** Fraction digits an amount field accepts per coin (the server's minor units: USDT 6, others 8). */
export function inputDecimals(coin: string): number {
  return coin === 'USDT' ? 6 : coin === 'USD' ? 2 : 8;
}

/**
 * A coin amount for display: thousands separators, at least 2 decimals, more only when the
 * exact value has them (up to the coin's precision), so 10000.000000 reads '10,000.00' and
 * 0.000123 USDT is not hidden as '0.00'.
 */
export function formatCoinAmount(amount: string, coin: string): string {
  const v = parseScaled(amount) ?? 0n;
  const full = formatScaled(v, inputDecimals(coin));
  const frac = full.split('.')[1] ?? '';
  const significant = frac.replace(/0+$/, '').length;
  return formatNumber(full, Math.max(2, significant));
}

/**
 * A USDT amount as a statement shows it: grouped, 2 decimals ('1,234.57'). For amounts computed by
 * division (daily compensation payouts, their sums) whose micro-USDT digits are noise to a reader;
 * balances keep {@link formatCoinAmount}, which never hides a small holding.
 */
export function formatUsdtDisplay(amount: string): string {
  return formatNumber(amount, 2);
}

/** A scaled USD value in the display currency with its symbol: '$10,000.00' (2 decimals, SPEC §9). */
export function formatFiat(usdScaled: bigint, currency: Currency): string {
  const text = formatScaled(usdScaled, SCALE);
  const n = Number(text) * currency.perUsd;
  const body = formatNumber(n, 2);
  return body.startsWith('-') ? `-${currency.symbol}${body.slice(1)}` : `${currency.symbol}${body}`;
}

/** The exact amount as the shortest decimal string ('10000.000000' → '10000'), for 'Max'. */
export function trimDecimal(amount: string, coin: string): string {
  const full = formatScaled(parseScaled(amount) ?? 0n, inputDecimals(coin));
  return full.includes('.') ? full.replace(/\.?0+$/, '') : full;
}
