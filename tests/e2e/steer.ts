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
  // The simulator moves there on its next step (every 100 ms): until then the engine still fills at
  // the old book, so an order placed right after the answer could fill at the old price (a long
  // at 67 265 then liquidated by the steer to 60 000, on a fresh server). Wait for the step.
  const want = Number(price);
  for (let i = 0; ; i++) {
    const res = await request.get('/api/market/tickers');
    const t = ((await res.json()) as { data: { symbol: string; last: number; mark?: number }[] }).data.find((x) => x.symbol === symbol);
    if (t !== undefined && t.last === want && (t.mark === undefined || t.mark === want)) return;
    if (i >= 100) throw new Error(`steer ${symbol} to ${price}: the market still reads ${t?.last} / mark ${t?.mark} after 5 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
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
