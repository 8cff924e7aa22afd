import fc from 'fast-check';
import { expect } from 'vitest';
import type { LogRecord } from '../../src/ports/eventLog.ts';
import type { AppCoreOptions } from '../../src/core/createAppCore.ts';
import { replayLog } from '../../src/core/replay/driver.ts';
import type { ParsedLog } from '../../src/core/replay/parse.ts';
import { holds } from '../../replay/logProperty.ts';

/**
 * Generated market/user socket logs for the replay properties (tests/property/replay.prop.test.ts)
 * and the shrunk-fixture test (tests/unit/replay/shrunk.test.ts): valid and malformed frames,
 * reorders, gaps, disconnects, balances. {@link checkGeneratedLog} is the property's check with
 * named invariants, so a failure is written as a fixture naming the one that broke.
 */

type Item =
  | { k: 'diff'; bids: [number, number][]; asks: [number, number][]; skip: boolean }
  | { k: 'swap' }
  | { k: 'garbage'; text: string }
  | { k: 'badDepth' }
  | { k: 'trade'; price: number; qty: number; buy: boolean }
  | { k: 'ticker'; last: number }
  | { k: 'balance'; available: number };

const level = (lo: number, hi: number) => fc.tuple(fc.integer({ min: lo, max: hi }), fc.integer({ min: 0, max: 5 })).map(([p, q]) => [p, q] as [number, number]);
const item: fc.Arbitrary<Item> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ k: fc.constant('diff' as const), bids: fc.array(level(90, 100), { maxLength: 4 }), asks: fc.array(level(95, 110), { maxLength: 4 }), skip: fc.constant(false) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('diff' as const), bids: fc.array(level(90, 100), { maxLength: 2 }), asks: fc.array(level(101, 110), { maxLength: 2 }), skip: fc.constant(true) }) },
  { weight: 1, arbitrary: fc.constant({ k: 'swap' as const }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('garbage' as const), text: fc.oneof(fc.string(), fc.constant('{"type":1}'), fc.constant('[1,2]'), fc.constant('{"no":"type"}')) }) },
  { weight: 1, arbitrary: fc.constant({ k: 'badDepth' as const }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('trade' as const), price: fc.integer({ min: 90, max: 110 }), qty: fc.integer({ min: 1, max: 9 }), buy: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('ticker' as const), last: fc.integer({ min: 90, max: 110 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('balance' as const), available: fc.integer({ min: 0, max: 10_000 }) }) },
);

/** A connection: a snapshot, then items; all but the last end with a drop after `closeAfter` ms. */
const segment = fc.record({ items: fc.array(item, { maxLength: 25 }), gaps: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 25, maxLength: 25 }), closeCode: fc.constantFrom(1006, 1001, 4000) });
export const logArb = fc.record({ segments: fc.array(segment, { minLength: 1, maxLength: 4 }), withUser: fc.boolean() });

/** Builds the log the recording ports would have written for these connections. */
export type LogSpec = typeof logArb extends fc.Arbitrary<infer T> ? T : never;

/** The log text (rft-log JSON Lines) the recording ports would have written for these connections. */
export function buildLogText(spec: LogSpec): string {
  const recs: (Omit<LogRecord, 'seq' | 't'> & { t: number })[] = [];
  const push = (t: number, kind: string, payload: Record<string, unknown>) => recs.push({ t, kind, ...payload });
  let t = 0;
  let seqNo = 1000;
  let tradeId = 1;
  const token = '<redacted:token#1>';
  push(0, 'storage.init', { key: 'token', value: spec.withUser ? token : null });
  spec.segments.forEach((seg, i) => {
    const conn = i + 1;
    push(t, 'ws.open', { conn, url: '/api/ws/market' });
    t += 5;
    push(t, 'ws.opened', { conn });
    const frames: string[] = [JSON.stringify({ type: 'depth', symbol: 'BTCUSDT', snapshot: true, seq: seqNo, bids: [[99, 1], [98, 2]], asks: [[101, 1], [102, 3]], ts: t })];
    for (const it of seg.items) {
      switch (it.k) {
        case 'diff': {
          const first = seqNo + 1 + (it.skip ? 1 : 0);
          const last = first + 1;
          frames.push(JSON.stringify({ type: 'depth', symbol: 'BTCUSDT', snapshot: false, firstSeq: first, lastSeq: last, prevSeq: seqNo, bids: it.bids, asks: it.asks, ts: t }));
          seqNo = last;
          break;
        }
        case 'swap':
          if (frames.length >= 2) frames.push(frames.splice(frames.length - 2, 1)[0] ?? '');
          break;
        case 'garbage':
          frames.push(it.text);
          break;
        case 'badDepth':
          frames.push(JSON.stringify({ type: 'depth', symbol: 'BTCUSDT', snapshot: false, bids: 'x' }));
          break;
        case 'trade':
          frames.push(JSON.stringify({ type: 'trade', symbol: 'BTCUSDT', id: tradeId++, price: it.price, qty: it.qty, side: it.buy ? 'buy' : 'sell', ts: t }));
          break;
        case 'ticker':
          frames.push(JSON.stringify({ type: 'ticker', symbol: 'BTCUSDT', last: it.last, open: 100, high: 110, low: 90, volume: 1, quoteVolume: 100, change: 0, changePct: 0, ts: t }));
          break;
        case 'balance':
          break;
      }
    }
    frames.forEach((data, j) => {
      t += seg.gaps[j % seg.gaps.length] ?? 0;
      push(t, 'ws.in', { conn, data });
    });
    if (i < spec.segments.length - 1) {
      push(t, 'ws.close', { conn, code: seg.closeCode, reason: '' });
      t += 10_000; // the socket machine's reconnect delay: the next open happens exactly then
    }
  });
  if (spec.withUser) {
    // The user socket opened at start (stored token): conn numbers follow opening order.
    // Replay matches connections by URL in opening order, so the number only has to be unique.
    const userConn = 1000;
    recs.splice(2, 0, { t: 0, kind: 'ws.open', conn: userConn, url: '/api/ws/user' });
    // A stored token: the session starts logged in and fetches the user info at once.
    recs.splice(1, 0, { t: 0, kind: 'http.request', id: 1, method: 'GET', path: '/user/info' });
    recs.push({ t: 3, kind: 'http.response', id: 1, envelope: { code: 200, msg: 'success', data: { id: 1, nickname: 'T' } } });
    let ut = 10;
    recs.push({ t: Math.max(t, ut), kind: 'ws.opened', conn: userConn });
    ut = Math.max(t, ut);
    for (const seg of spec.segments) {
      for (const it of seg.items) {
        if (it.k !== 'balance') continue;
        ut += 7;
        recs.push({ t: ut, kind: 'ws.in', conn: userConn, data: JSON.stringify({ type: 'balance', data: { wallet: 'perp', coin: 'USDT', available: String(it.available), frozen: '0', total: String(it.available) } }) });
      }
    }
  }
  const sorted = recs.map((r, i) => ({ r, i })).sort((a, b) => a.r.t - b.r.t || a.i - b.i).map((x) => x.r);
  return `${[JSON.stringify({ format: 'rft-log', version: 1, startedAt: 1_700_000_000_000, firstSeq: 1 }), ...sorted.map((r, i) => JSON.stringify({ seq: i + 1, ...r }))].join('\n')}\n`;
}

/** The invariants over one generated log; `core` injects core options (tests break a reducer on purpose). */
export async function checkGeneratedLog(log: ParsedLog, core?: Partial<AppCoreOptions>): Promise<void> {
  const a = await replayLog(log, { checkpointEvery: 3, core });
  const b = await replayLog(log, { checkpointEvery: 3, core });
  await holds('same log, same hash at every checkpoint', () => expect(b.checkpoints.map((c) => [c.seq, c.hash])).toEqual(a.checkpoints.map((c) => [c.seq, c.hash])));
  for (const cp of a.checkpoints) {
    await holds('no invariant violation at any checkpoint (crossed or non-positive book level, negative balance, stuck machine)', () => {
      if (cp.violations.length > 0) throw new Error(`after seq ${cp.seq}: ${cp.violations.join('; ')}`);
    });
  }
  await holds('nothing diverges from the recording', () => expect(a.divergences).toEqual([]));
  const market = a.final.state.market as { value: unknown };
  // Every connection was answered: after the last segment the market socket is open.
  await holds('the market socket ends open', () => expect(market.value).toEqual({ live: { open: 'alive' } }));
}
