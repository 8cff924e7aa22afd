import type { APIRequestContext } from '@playwright/test';
import { operatorHeaders } from './operator.ts';

/**
 * Moves the test server's simulated market by hand (MARKET_STEERING, POST /api/dev/market/steer):
 * holds `symbol` at `price` (a decimal string on the tick: last, mark and one print there, no other
 * trade) until {@link releaseMarket}. A test that needs a trigger crossed, a fill or a price change
 * steers the market there instead of waiting for the random walk.
 */
export async function steerMarket(request: APIRequestContext, symbol: string, price: string): Promise<void> {
  await post(request, symbol, price);
}

/** Lets `symbol` walk again from where it was held. */
export async function releaseMarket(request: APIRequestContext, symbol: string): Promise<void> {
  await post(request, symbol, null);
}

async function post(request: APIRequestContext, symbol: string, price: string | null): Promise<void> {
  const res = await request.post('/api/dev/market/steer', { data: { symbol, price }, headers: operatorHeaders() });
  const env = (await res.json()) as { code: number; msg: string };
  if (env.code !== 200) throw new Error(`steer ${symbol} to ${price}: ${env.code} ${env.msg}`);
}

/** `price` rounded to a whole number of `tick`s, as the decimal string the API takes. */
export function onTick(price: number, tick: number): string {
  const decimals = Math.max(0, -Math.floor(Math.log10(tick) + 1e-9));
  return (Math.round(price / tick) * tick).toFixed(decimals);
}
