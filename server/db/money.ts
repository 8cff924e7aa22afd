/**
 * Money is an integer count of minor units (BigInt in memory, a decimal string in the database and
 * in JSON). Binary floats never touch a balance. Each asset has a fixed number of decimals.
 */
export const ASSET_DECIMALS: Readonly<Record<string, number>> = { USDT: 6, USD: 2, BTC: 8, ETH: 8 };
const DEFAULT_DECIMALS = 8;

export function decimalsOf(asset: string): number {
  return ASSET_DECIMALS[asset] ?? DEFAULT_DECIMALS;
}

const INTEGER = /^-?\d+$/;

/** Parses a stored minor-unit string. Throws on anything else: stored money is trusted data, so garbage is a programmer error. */
export function parseMinor(s: string): bigint {
  if (!INTEGER.test(s)) throw new Error(`Not an integer minor-unit amount: ${JSON.stringify(s)}`);
  return BigInt(s);
}

/** '10000' (USDT) → 10000000000n. Rejects more fractional digits than the asset has instead of rounding. */
export function toMinor(decimal: string, asset: string): bigint {
  const d = decimalsOf(asset);
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal.trim());
  if (!m) throw new Error(`Not a decimal amount: ${JSON.stringify(decimal)}`);
  const [, sign, whole = '0', frac = ''] = m;
  if (frac.length > d) throw new Error(`Too many decimals for ${asset}: ${decimal}`);
  const v = BigInt(whole) * 10n ** BigInt(d) + BigInt(frac.padEnd(d, '0') || '0');
  return sign === '-' ? -v : v;
}

/** 10000000000n (USDT) → '10000.000000'. Exact: string arithmetic, no floats. */
export function formatMinor(minor: bigint, asset: string): string {
  const d = decimalsOf(asset);
  const neg = minor < 0n;
  const abs = (neg ? -minor : minor).toString().padStart(d + 1, '0');
  const whole = abs.slice(0, abs.length - d);
  const frac = abs.slice(abs.length - d);
  return `${neg ? '-' : ''}${whole}${d > 0 ? `.${frac}` : ''}`;
}
