/**
 * The in-memory engine's `apply()` alone (server/engine/apply.ts, issue 28 step 1): no HTTP, no
 * database, no journal. Issue 28's mix, as the orders bench's 'engine alone' runs it through the SQL
 * engine: 60 % limit placements resting under / over the price (each locks its margin), 30 % cancels
 * of a resting order, 10 % market orders (which net and settle: fees, margin, PnL), over 1 000
 * accounts, for SECONDS. The command objects are built as the route would hand them over (parsed);
 * their construction is inside the timing. Also measured: the snapshot side (a structured copy of
 * the state and its stateHash) at the size the run left it, and the state's heap.
 *
 * Figures are named beside the orders bench's issue-named ones (`engine alone commands/s` stays
 * the production engine's): `engine in-memory apply commands/s`, `… us/command`, `… mix`,
 * `engine in-memory snapshot copy ms`, `engine in-memory stateHash ms`, `engine in-memory state orders`.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { balanceKey } from '../server/db/ledgerRule.ts';
import { apply } from '../server/engine/apply.ts';
import type { Command } from '../server/engine/apply.ts';
import { copyState, emptyState, stateHash } from '../server/engine/state.ts';
import { INSTRUMENTS } from '../server/market/instruments.ts';
import { createPrng } from '../server/market/prng.ts';
import type { PlaceOrderParsed } from '../src/protocol/trading.ts';

const SECONDS = Number(process.env.BENCH_ENGINE_STATE_SECONDS ?? 3);
const USERS = Number(process.env.BENCH_ENGINE_STATE_USERS ?? 1000);
const FIRST_USER = 1000;

const base: PlaceOrderParsed = {
  clientOrderId: '', symbol: 'BTCUSDT', contract: 'perp', kind: 'marketOpen', side: 'buy', qty: 0.001, leverage: 20, price: null, tp: null, sl: null,
  reduceOnly: false, postOnly: false, timeInForce: 'GTC', triggerPrice: null, triggerBy: 'last',
};

/**
 * A calibration: ns per `Map.get` with a built string key, the commonest step of apply(). On a quiet
 * core it is tens of ns; when other processes hold the cores it shows by how much every figure
 * here is slowed (the machine this runs on is shared).
 */
function referenceNs(): number {
  const m = new Map<string, bigint>();
  for (let u = 0; u < USERS; u++) m.set(`${FIRST_USER + u}|perp|USDT`, 1n);
  let x = 0n;
  const n = 1_000_000;
  const t = performance.now();
  for (let i = 0; i < n; i++) x += m.get(`${FIRST_USER + (i % USERS)}|perp|USDT`) ?? 0n;
  if (x < 0n) throw new Error('unreachable');
  return ((performance.now() - t) * 1e6) / n;
}

export async function run(): Promise<Record<string, number | string>> {
  const refBefore = referenceNs();
  const btc = INSTRUMENTS.find((i) => i.info.symbol === 'BTCUSDT')?.info;
  if (!btc) throw new Error('no BTCUSDT');
  const s = emptyState([btc]);
  for (let u = 0; u < USERS; u++) s.balances.set(balanceKey(FIRST_USER + u, 'perp', 'USDT'), 10_000_000_000n);
  let seq = 0;
  const t0 = Date.UTC(2026, 0, 1);
  apply(s, { type: 'market', symbol: 'BTCUSDT', last: 60_000, mark: 60_000 }, ++seq, t0);

  const random = createPrng(28).next;
  const resting: { userId: number; orderId: string }[] = [];
  const counts = { limit: 0, cancel: 0, market: 0, refused: 0 };
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  let total = 0;
  while (true) {
    // Check the time every 1 000 commands (performance.now() is not free either).
    if (total % 1000 === 0 && performance.now() >= end) break;
    total += 1;
    seq += 1;
    const r = random();
    let cmd: Command;
    let limit = false;
    if (r < 0.3 && resting.length > 0) {
      const i = Math.floor(random() * resting.length);
      const { userId, orderId } = resting[i] as { userId: number; orderId: string };
      resting[i] = resting[resting.length - 1] as { userId: number; orderId: string };
      resting.pop();
      counts.cancel += 1;
      cmd = { type: 'cancel', userId, by: { orderId } };
    } else {
      const userId = FIRST_USER + Math.floor(random() * USERS);
      if (r >= 0.3 && r < 0.4) {
        counts.market += 1;
        cmd = { type: 'place', userId, body: { ...base, side: random() < 0.5 ? 'buy' : 'sell', clientOrderId: `m-${seq}` } };
      } else {
        const buy = random() < 0.5;
        const price = buy ? 59_000 + Math.floor(random() * 900) : 61_000 + Math.floor(random() * 900);
        counts.limit += 1;
        limit = true;
        cmd = { type: 'place', userId, body: { ...base, kind: 'limitOpen', side: buy ? 'buy' : 'sell', price, clientOrderId: `l-${seq}` } };
      }
    }
    const out = apply(s, cmd, seq, t0 + seq);
    if (!out.ok) counts.refused += 1;
    else if (limit && cmd.type === 'place' && out.result && !Array.isArray(out.result) && 'kind' in out.result && out.result.status === 'pending') {
      resting.push({ userId: cmd.userId, orderId: out.result.id });
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const pct = (k: number) => ((100 * k) / Math.max(1, total)).toFixed(1);

  const c0 = performance.now();
  const snap = copyState(s);
  const copyMs = performance.now() - c0;
  const h0 = performance.now();
  const hash = stateHash(snap);
  const hashMs = performance.now() - h0;
  if (hash !== stateHash(s)) throw new Error('the snapshot does not hash as the state');
  const figures = {
    'engine in-memory apply commands/s': Math.round(total / seconds),
    'engine in-memory apply us/command': Number(((seconds * 1e6) / Math.max(1, total)).toFixed(2)),
    'engine in-memory apply mix': `${pct(counts.limit)} % limit, ${pct(counts.cancel)} % cancel, ${pct(counts.market)} % market; ${counts.refused} refused; ${USERS} accounts`,
    'engine in-memory state orders': s.orders.size,
    'engine in-memory state pending orders': resting.length,
    'engine in-memory snapshot copy ms': Number(copyMs.toFixed(1)),
    'engine in-memory stateHash ms': Number(hashMs.toFixed(1)),
    'engine in-memory heap MB': Math.round(process.memoryUsage().heapUsed / 1e6),
    'engine in-memory reference Map.get ns': Number(((refBefore + referenceNs()) / 2).toFixed(1)),
    'load average (1 min) at end': Number((loadavg()[0] ?? 0).toFixed(1)),
  };
  return figures;
}
