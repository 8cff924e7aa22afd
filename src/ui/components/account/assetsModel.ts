import { WALLETS, type Balance, type Position, type WalletType } from '../../../protocol/trading.ts';
import { balanceKey, type BalanceBook } from '../../../streams/accountBooks.ts';
import { FACTOR_DIGITS, formatScaled, parseScaled, scaledMul, sumDecimals } from '../../../protocol/decimal.ts';

/**
 * The pure part of the asset pages over the core's balance book (src/streams/accountBooks.ts):
 * valuation in USD, per-wallet summaries and the currency shown.
 *
 * Invariants (property-tested in tests/unit/ui/assetsModel.prop.test.ts):
 * - the book holds at most one row per (wallet, coin); a frame replaces that row, whatever order
 *   frames for different rows arrive in;
 * - the total equity is exactly the sum of the wallet totals, and each wallet total is exactly
 *   the sum of its coins' values (BigInt at a fixed scale, no float drift);
 * - USDT and USD are valued 1:1; a coin without a price is valued 0 (never NaN).
 */

export { applyBalance, asBalance, balanceKey, bookFromList, type BalanceBook, type BalanceKey } from '../../../streams/accountBooks.ts';

/** Coins that are dollars for valuation (SPEC: USDT valued 1:1 USD). */
const DOLLARS = new Set(['USDT', 'USD']);

/** coin → price in USD (from the market tickers, `BTCUSDT` last → `BTC`). */
export type PriceMap = Readonly<Record<string, number>>;

/** Prices of the base coins of the USDT pairs in `tickers`. */
export function pricesFromTickers(tickers: readonly { symbol: string; last: number }[]): PriceMap {
  const out: Record<string, number> = {};
  for (const t of tickers) {
    if (t.symbol.endsWith('USDT') && Number.isFinite(t.last) && t.last > 0) out[t.symbol.slice(0, -4)] = t.last;
  }
  return out;
}

/** True when valuing `coin` needs a market price. */
export function needsPrice(coin: string): boolean {
  return !DOLLARS.has(coin);
}

/** USD value of `amount` of `coin`, in scaled units; 0 for a coin without a price. */
export function usdValueScaled(coin: string, amount: string, prices: PriceMap): bigint {
  const a = parseScaled(amount) ?? 0n;
  if (DOLLARS.has(coin)) return a;
  const p = prices[coin];
  if (p === undefined || !Number.isFinite(p) || p <= 0) return 0n;
  return scaledMul(a, parseScaled(p.toFixed(FACTOR_DIGITS)) ?? 0n);
}

export interface WalletSummary {
  wallet: WalletType;
  /** USD values in scaled units (see decimal.ts). */
  totalUsd: bigint;
  availableUsd: bigint;
  frozenUsd: bigint;
  /** The wallet's rows, coins in alphabetical order with USDT first. */
  coins: Balance[];
}

function coinOrder(a: Balance, b: Balance): number {
  if (a.coin === b.coin) return 0;
  if (a.coin === 'USDT') return -1;
  if (b.coin === 'USDT') return 1;
  return a.coin < b.coin ? -1 : 1;
}

/** One summary per wallet, in the fixed order fund, spot, std, perp, copy (empty wallets included). */
export function walletSummaries(book: BalanceBook, prices: PriceMap): WalletSummary[] {
  return WALLETS.map((wallet) => {
    const coins = [...book.values()].filter((b) => b.wallet === wallet).sort(coinOrder);
    let totalUsd = 0n;
    let availableUsd = 0n;
    let frozenUsd = 0n;
    for (const b of coins) {
      totalUsd += usdValueScaled(b.coin, b.total, prices);
      availableUsd += usdValueScaled(b.coin, b.available, prices);
      frozenUsd += usdValueScaled(b.coin, b.frozen, prices);
    }
    return { wallet, totalUsd, availableUsd, frozenUsd, coins };
  });
}

/** Sum of the wallet totals (scaled USD). */
export function totalEquityUsd(summaries: readonly WalletSummary[]): bigint {
  return summaries.reduce((s, w) => s + w.totalUsd, 0n);
}

/** The `available` of (wallet, coin) as a decimal string; '0' when the row is missing. */
export function availableOf(book: BalanceBook, wallet: WalletType, coin: string): string {
  return book.get(balanceKey(wallet, coin))?.available ?? '0';
}

/** Coins held anywhere in the book, USDT first (the transfer dialog's coin list). */
export function coinsOf(book: BalanceBook): string[] {
  const set = new Set<string>(['USDT']);
  for (const b of book.values()) set.add(b.coin);
  return [...set].sort((a, b) => (a === 'USDT' ? -1 : b === 'USDT' ? 1 : a < b ? -1 : a > b ? 1 : 0));
}

export interface FuturesSummary {
  contract: 'std' | 'perp';
  /** USDT balance of the wallet (decimal strings). */
  total: string;
  available: string;
  /** Margin locked by positions and pending orders (the wallet's frozen). */
  marginInUse: string;
  /** Sum of the open positions' unrealized PnL (decimal string at 6 digits). */
  unrealizedPnl: string;
  /** total + unrealized PnL. */
  equity: string;
  positions: Position[];
}

/** The futures-account view of one contract wallet. Money in USDT, exact. */
export function futuresSummary(book: BalanceBook, positions: readonly Position[], contract: 'std' | 'perp'): FuturesSummary {
  const row = book.get(balanceKey(contract, 'USDT'));
  const mine = positions.filter((p) => p.contract === contract);
  const pnl = sumDecimals(mine.map((p) => p.unrealizedPnl));
  const total = parseScaled(row?.total ?? '0') ?? 0n;
  return {
    contract,
    total: row?.total ?? '0',
    available: row?.available ?? '0',
    marginInUse: row?.frozen ?? '0',
    unrealizedPnl: formatScaled(pnl, 6),
    equity: formatScaled(total + pnl, 6),
    positions: mine,
  };
}

/** The display currency: code, symbol and units per USD. */
export interface Currency {
  code: string;
  symbol: string;
  perUsd: number;
}

/**
 * Currencies the account centre can show. Only USD is quoted by the platform today (USDT is 1:1),
 * so any other stored `currency_icon` falls back to USD rather than inventing an exchange rate.
 */
export const CURRENCIES: Readonly<Record<string, Currency>> = { USD: { code: 'USD', symbol: '$', perUsd: 1 } };
export const DEFAULT_CURRENCY = 'USD';
export function currencyOf(code: string | null | undefined): Currency {
  const c = code ? CURRENCIES[code.toUpperCase()] : undefined;
  return c ?? (CURRENCIES[DEFAULT_CURRENCY] as Currency);
}
