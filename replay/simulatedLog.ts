import { createSimulator } from '../server/market/simulator.ts';
import { LOG_FORMAT, LOG_VERSION } from '../src/ports/eventLog.ts';
import type { MarketFrame } from '../src/protocol/market.ts';

/**
 * A deterministic market-socket log generated from the server's seeded simulator (no network,
 * no wall clock): what a client subscribed to `symbols`' depth, trades and 1m klines plus the
 * all-market tickers would have recorded over `minutes`. Used by bench/replay.bench.ts (the
 * 1-hour fixture) so the fixture need not be committed: same seed → same bytes.
 */
export function simulatedMarketLog(opts: { minutes: number; seed?: number; symbols?: readonly string[]; startMs?: number }): { text: string; records: number } {
  const startMs = opts.startMs ?? Date.UTC(2026, 0, 1);
  const symbols = new Set(opts.symbols ?? ['BTCUSDT', 'ETHUSDT']);
  const sim = createSimulator({ seed: opts.seed ?? 42, startMs });
  const lines: string[] = [JSON.stringify({ format: LOG_FORMAT, version: LOG_VERSION, startedAt: startMs, firstSeq: 1 })];
  let seq = 0;
  let now = startMs;
  const push = (kind: string, payload: Record<string, unknown>) => {
    seq += 1;
    lines.push(JSON.stringify({ seq, t: now - startMs, kind, ...payload }));
  };
  push('ws.open', { conn: 1, url: '/api/ws/market' });
  push('ws.opened', { conn: 1 });
  for (const s of symbols) {
    const snap = sim.snapshot(s, 100);
    if (snap) push('ws.in', { conn: 1, data: JSON.stringify({ type: 'depth', symbol: s, snapshot: true, seq: snap.seq, bids: snap.bids, asks: snap.asks, ts: snap.ts }) });
  }
  const wanted = (f: MarketFrame): boolean => {
    if (f.type === 'tickers') return true;
    if (f.type === 'kline') return symbols.has(f.symbol) && f.interval === '1m';
    return (f.type === 'depth' || f.type === 'trade') && symbols.has(f.symbol);
  };
  sim.subscribe((f) => {
    if (wanted(f)) push('ws.in', { conn: 1, data: JSON.stringify(f) });
  });
  const end = startMs + opts.minutes * 60_000;
  for (now = startMs; now <= end; now += 125) sim.advanceTo(now);
  return { text: `${lines.join('\n')}\n`, records: seq };
}
