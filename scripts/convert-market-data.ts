/**
 * Converts the cryptofeed Binance recordings in fixtures/market-data/ into the project's market
 * fixture format (src/protocol/fixture.ts, docs/STREAMS.md):
 *
 *   npx tsx scripts/convert-market-data.ts            # writes fixtures/market-data/binance-*.jsonl
 *   npx tsx scripts/convert-market-data.ts --check    # exits 1 if the committed outputs differ
 *
 * Mapping:
 * - REST depth (`lastUpdateId`) → depth snapshot frame, seq = lastUpdateId, placed at its receive time.
 * - depthUpdate → diff frame, firstSeq = U, lastSeq = u, prevSeq = pu (USD-M futures) or, for spot
 *   (no pu), its own first update id minus one (U - 1): a spot stream's updates are contiguous
 *   (each U is the previous u + 1), so a lost frame shows as a gap in the chain instead of being
 *   hidden by chaining to whichever frame happened to arrive before it.
 * - aggTrade / trade → trade frame (id = a / t; taker side is sell when the buyer is the maker).
 * - kline → kline frame (closed = x).
 * - bookTicker → checkpoint, kept only when its u equals the lastSeq of a diff that arrives after
 *   the symbol's snapshot; it is written right after that diff (same t), so a reader can compare
 *   the rebuilt top of book at that exact point. Other bookTickers cannot be checked at a position.
 *
 * Output is deterministic: same input bytes → same output bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Level, MarketFrame, KlineInterval } from '../src/protocol/market.ts';
import { klineIntervalSchema } from '../src/protocol/market.ts';
import {
  MARKET_FIXTURE_FORMAT,
  MARKET_FIXTURE_VERSION,
  serializeMarketFixture,
  parseMarketFixture,
  type MarketFixture,
  type MarketFixtureRecord,
  type BookCheckpoint,
} from '../src/protocol/fixture.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'market-data');

const rawLevel = z.tuple([z.string(), z.string()]);
const depthUpdate = z.object({
  e: z.literal('depthUpdate'),
  E: z.number(),
  s: z.string(),
  U: z.number(),
  u: z.number(),
  pu: z.number().optional(),
  b: z.array(rawLevel),
  a: z.array(rawLevel),
});
const bookTicker = z.object({ u: z.number(), s: z.string(), b: z.string(), B: z.string(), a: z.string(), A: z.string() });
const aggTrade = z.object({ e: z.literal('aggTrade'), s: z.string(), a: z.number(), p: z.string(), q: z.string(), T: z.number(), m: z.boolean() });
const rawTrade = z.object({ e: z.literal('trade'), s: z.string(), t: z.number(), p: z.string(), q: z.string(), T: z.number(), m: z.boolean() });
const kline = z.object({
  e: z.literal('kline'),
  s: z.string(),
  k: z.object({ t: z.number(), i: z.string(), o: z.string(), h: z.string(), l: z.string(), c: z.string(), v: z.string(), x: z.boolean() }),
});
const restDepth = z.object({ lastUpdateId: z.number(), E: z.number().optional(), bids: z.array(rawLevel), asks: z.array(rawLevel) });

interface Timed {
  t: number;
  /** Tie-breaker keeping the source order stable. */
  order: number;
  record: { frame: MarketFrame } | { bookTicker: z.infer<typeof bookTicker> };
}

const toLevels = (raw: [string, string][]): Level[] => raw.map(([p, q]) => [Number(p), Number(q)]);
const toMs = (seconds: string): number => Math.round(Number(seconds) * 1000);

function parseWs(text: string): Timed[] {
  const out: Timed[] = [];
  const lines = text.split('\n');
  // Line 1 is the connection URL; each later line is `<recv ts>: <combined-stream JSON>`.
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const cut = line.indexOf(': ');
    if (cut < 0) throw new Error(`ws line ${i + 1}: no timestamp separator`);
    const t = toMs(line.slice(0, cut));
    const msg = z.object({ stream: z.string(), data: z.record(z.string(), z.unknown()) }).parse(JSON.parse(line.slice(cut + 2)));
    const kind = msg.stream.split('@')[1];
    const order = i;
    if (kind === 'depth') {
      const d = depthUpdate.parse(msg.data);
      out.push({ t, order, record: { frame: diffFrame(d) } });
    } else if (kind === 'bookTicker') {
      out.push({ t, order, record: { bookTicker: bookTicker.parse(msg.data) } });
    } else if (kind === 'aggTrade') {
      const a = aggTrade.parse(msg.data);
      out.push({ t, order, record: { frame: { type: 'trade', symbol: a.s, id: a.a, price: Number(a.p), qty: Number(a.q), side: a.m ? 'sell' : 'buy', ts: a.T } } });
    } else if (kind === 'trade') {
      const a = rawTrade.parse(msg.data);
      out.push({ t, order, record: { frame: { type: 'trade', symbol: a.s, id: a.t, price: Number(a.p), qty: Number(a.q), side: a.m ? 'sell' : 'buy', ts: a.T } } });
    } else if (kind?.startsWith('kline_')) {
      const k = kline.parse(msg.data);
      const interval: KlineInterval = klineIntervalSchema.parse(k.k.i);
      const candle = { t: k.k.t, o: Number(k.k.o), h: Number(k.k.h), l: Number(k.k.l), c: Number(k.k.c), v: Number(k.k.v) };
      out.push({ t, order, record: { frame: { type: 'kline', symbol: k.s, interval, candle, closed: k.k.x } } });
    } else {
      throw new Error(`ws line ${i + 1}: unknown stream ${msg.stream}`);
    }
  }
  return out;
}

// Spot diffs have no `pu`: prevSeq is U - 1 (filled in convertRecording), never the previous frame received.
function diffFrame(d: z.infer<typeof depthUpdate>): MarketFrame {
  return { type: 'depth', symbol: d.s, snapshot: false, firstSeq: d.U, lastSeq: d.u, prevSeq: d.pu ?? -1, bids: toLevels(d.b), asks: toLevels(d.a), ts: d.E };
}

function parseHttp(text: string): Timed[] {
  const out: Timed[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    const m = /^(\S+) -> ([0-9.]+): (.*)$/.exec(line);
    if (!m) throw new Error(`http line ${i + 1}: unexpected format`);
    const [, url = '', ts = '', body = ''] = m;
    const symbol = new URL(url).searchParams.get('symbol');
    if (!symbol) throw new Error(`http line ${i + 1}: no symbol in ${url}`);
    const d = restDepth.parse(JSON.parse(body));
    const t = toMs(ts);
    out.push({
      t,
      order: -1, // a snapshot received in the same ms as a frame goes first
      record: { frame: { type: 'depth', symbol, snapshot: true, seq: d.lastUpdateId, bids: toLevels(d.bids), asks: toLevels(d.asks), ts: d.E ?? t } },
    });
  });
  return out;
}

/** Converts one recording pair into a fixture (see the module comment for the rules). */
export function convertRecording(wsText: string, httpText: string, source: string, license: string): MarketFixture {
  const all = [...parseWs(wsText), ...parseHttp(httpText)].sort((a, b) => a.t - b.t || a.order - b.order);
  const snapshotSeen = new Set<string>();
  const symbols: string[] = [];
  const records: MarketFixtureRecord[] = [];
  // Diffs applied after their symbol's snapshot, by symbol then lastSeq → index in records.
  const diffAt = new Map<string, Map<number, number>>();
  const tickers: z.infer<typeof bookTicker>[] = [];
  for (const item of all) {
    if ('bookTicker' in item.record) {
      tickers.push(item.record.bookTicker);
      continue;
    }
    const frame = item.record.frame;
    if ('symbol' in frame && !symbols.includes(frame.symbol)) symbols.push(frame.symbol);
    if (frame.type === 'depth' && frame.snapshot) snapshotSeen.add(frame.symbol);
    if (frame.type === 'depth' && !frame.snapshot) {
      if (frame.prevSeq === -1) frame.prevSeq = frame.firstSeq - 1;
      if (snapshotSeen.has(frame.symbol)) {
        const bySeq = diffAt.get(frame.symbol) ?? new Map<number, number>();
        bySeq.set(frame.lastSeq, records.length);
        diffAt.set(frame.symbol, bySeq);
      }
    }
    records.push({ kind: 'frame', line: 0, t: item.t, frame });
  }
  // Insert checkpoints right after their diff; walk from the end so indexes stay valid.
  const inserts: { index: number; check: BookCheckpoint }[] = [];
  for (const bt of tickers) {
    const index = diffAt.get(bt.s)?.get(bt.u);
    if (index === undefined) continue;
    inserts.push({ index, check: { symbol: bt.s, lastSeq: bt.u, bestBid: [Number(bt.b), Number(bt.B)], bestAsk: [Number(bt.a), Number(bt.A)] } });
  }
  inserts.sort((a, b) => b.index - a.index);
  for (const { index, check } of inserts) {
    const at = records[index];
    if (!at) continue;
    records.splice(index + 1, 0, { kind: 'check', line: 0, t: at.t, check });
  }
  records.forEach((r, i) => (r.line = i + 2));
  return {
    header: {
      format: MARKET_FIXTURE_FORMAT,
      version: MARKET_FIXTURE_VERSION,
      source,
      symbols,
      license,
      notes: `converted by scripts/convert-market-data.ts; ${inserts.length} bookTicker checkpoints`,
    },
    records,
  };
}

const LICENSE = 'XFree86 1.1 (MIT-style), github.com/bmoscon/cryptofeed sample_data @ ce58c2a0; prices are Binance exchange data';

const jobs = [
  { out: 'binance-spot.jsonl', dir: 'binance-spot-ws-recording', ws: 'BINANCE.ws.1.0', http: 'BINANCE.http.0.0', source: 'cryptofeed sample_data/BINANCE.ws.1.0 + BINANCE.http.0.0 (Binance spot, 2021-10-12)' },
  { out: 'binance-usdm.jsonl', dir: 'binance-usdm-ws-recording', ws: 'BINANCE_FUTURES.ws.1.0', http: 'BINANCE_FUTURES.http.0.0', source: 'cryptofeed sample_data/BINANCE_FUTURES.ws.1.0 + BINANCE_FUTURES.http.0.0 (Binance USD-M futures, 2021-07-22)' },
];

function main(): void {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const job of jobs) {
    const ws = readFileSync(join(root, job.dir, job.ws), 'utf8');
    const http = readFileSync(join(root, job.dir, job.http), 'utf8');
    const text = serializeMarketFixture(convertRecording(ws, http, job.source, LICENSE));
    parseMarketFixture(text); // the output must satisfy our own reader
    const path = join(root, job.out);
    if (check) {
      let current = '';
      try {
        current = readFileSync(path, 'utf8');
      } catch {
        /* missing counts as stale */
      }
      if (current !== text) {
        stale++;
        console.error(`${job.out} is out of date`);
      }
    } else {
      writeFileSync(path, text);
      console.log(`wrote ${path} (${text.split('\n').length - 2} records)`);
    }
  }
  if (stale > 0) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
