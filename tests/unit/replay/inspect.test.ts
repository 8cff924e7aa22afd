import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { replayLog } from '../../../src/core/replay/driver.ts';
import { buildInspectorIndex, jsonDiff, machineStates } from '../../../src/core/replay/inspect.ts';
import { hashState } from '../../../src/ports/stateHash.ts';
import { reduceOrderBook } from '../../../src/streams/orderBook.ts';

/**
 * The inspector's time-travel index rebuilds the very state the replay hashes, after every record,
 * from snapshots every N records plus at most N-1 records' changes.
 */
const ROOT = join(import.meta.dirname, '../../../fixtures/sessions');
const load = (name: string) => parseReplayText(readFileSync(join(ROOT, `${name}.jsonl`), 'utf8'));

describe('inspector index', () => {
  for (const name of ['orderbook-gap', 'login-google-ui', 'reconnect-storm-ui']) {
    it(`${name}: the state rebuilt at every record hashes like the replay after that record`, async () => {
      const log = load(name);
      const ref = await replayLog(log, { hashEveryRecord: true });
      const index = await buildInspectorIndex(log, { every: 7 });
      expect(index.records.length).toBe(ref.hashes.length);
      for (const h of ref.hashes) {
        expect(index.costOf(h.seq)).toBeLessThan(7);
        expect(hashState(index.stateAt(h.seq)), `after #${h.seq} ${h.kind}`).toBe(h.hash);
      }
      expect(index.result.final.hash).toBe(ref.final.hash);
      expect(index.stateAt(0)).toBeNull();
    });
  }

  it('names what a record changed and the machine states at it', async () => {
    const log = load('orderbook-gap');
    const index = await buildInspectorIndex(log, { every: 50 });
    const opened = index.records.find((r) => r.kind === 'ws.opened');
    expect(opened).toBeDefined();
    const changes = index.changesAt(opened!.seq);
    expect(changes.some((c) => c.path.startsWith('market.value'))).toBe(true);
    expect(machineStates(index.stateAt(index.result.lastSeq))?.books.BTCUSDT).toEqual({ status: 'live', sync: 'synced' });
    const gap = index.records.find((r) => r.kind === 'http.request' && r.path === '/market/depth');
    expect(gap).toBeDefined();
    expect(machineStates(index.stateAt(gap!.seq))?.books.BTCUSDT?.sync).toBe('fetchingSnapshot');
  });

  it('follows the core it replays: a changed reducer changes the rebuilt book', async () => {
    const log = load('orderbook-gap');
    const plain = await buildInspectorIndex(log);
    const changed = await buildInspectorIndex(log, { core: { marketReducers: { orderBook: (s, f) => reduceOrderBook(s, f.type === 'depth' ? { ...f, asks: f.asks.slice(0, -1) } : f) } } });
    const last = plain.result.lastSeq;
    expect(jsonDiff(plain.stateAt(last), changed.stateAt(last)).some((c) => c.path.startsWith('streams.books.BTCUSDT.asks'))).toBe(true);
  });

  it('jsonDiff lists changed paths by key and index', () => {
    expect(jsonDiff({ a: 1, b: [1, 2], c: { d: 'x' } }, { a: 1, b: [1, 3, 4], c: {} })).toEqual([
      { path: 'b[1]', before: 2, after: 3 },
      { path: 'b[2]', before: undefined, after: 4 },
      { path: 'c.d', before: 'x', after: undefined },
    ]);
  });
});
