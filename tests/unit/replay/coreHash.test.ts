import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { createReplayHandle, replayLog } from '../../../src/core/replay/driver.ts';
import { reduceTrades } from '../../../src/streams/trades.ts';
import { reduceOrderBook } from '../../../src/streams/orderBook.ts';

/**
 * The replay hash is taken from the app's own core (createAppCore's streams and actors), not from
 * a copy of its wiring: a change to a stream reducer the core uses must change a fixture's hash.
 */
const ROOT = join(import.meta.dirname, '../../../fixtures/sessions');
const load = (name: string) => ({
  log: parseReplayText(readFileSync(join(ROOT, `${name}.jsonl`), 'utf8')),
  pinned: (JSON.parse(readFileSync(join(ROOT, `${name}.expect.json`), 'utf8')) as { hash: string }).hash,
});

describe('replay hashes the core the screens read', () => {
  it('the unchanged core reaches the pinned hash; a changed trades reducer does not', async () => {
    const { log, pinned } = load('reconnect-storm');
    const same = await replayLog(log);
    expect(same.final.hash).toBe(pinned);
    // A reducer that keeps one trade fewer than the real one (an off-by-one a refactor could make).
    const changed = await replayLog(log, { core: { marketReducers: { trades: (s, f) => { const n = reduceTrades(s, f); return n === s ? s : { ...n, items: n.items.slice(0, Math.max(1, n.items.length - 1)) }; } } } });
    expect(changed.final.hash).not.toBe(pinned);
    expect(changed.divergences).toEqual(same.divergences);
  });

  it('a changed order book reducer changes the hash and the book the core shows', async () => {
    const { log, pinned } = load('orderbook-gap');
    // Drops the last ask level of every depth update: what the screen would show differs.
    const changed = await replayLog(log, { core: { marketReducers: { orderBook: (s, f) => reduceOrderBook(s, f.type === 'depth' ? { ...f, asks: f.asks.slice(0, -1) } : f) } } });
    expect(changed.final.hash).not.toBe(pinned);
  });

  it("the state it hashes is the core's: the book of the core is the book in the state", async () => {
    const { log } = load('orderbook-gap');
    const h = createReplayHandle(log, { path: '/' });
    for (const rec of log.records) {
      const target = log.header.startedAt + rec.t;
      if (target > h.ports.clock.now()) h.ports.clock.set(target);
      if (h.deliver(rec)) await new Promise((r) => setImmediate(r));
    }
    const state = h.state();
    const book = h.core.streams.market.book('BTCUSDT');
    expect(book).toBeDefined();
    expect((state.streams.books as Record<string, { seq: number; status: string; sync: string }>).BTCUSDT).toMatchObject({ seq: book!.seq, status: book!.status, sync: 'synced' });
    h.core.stop();
  });
});
