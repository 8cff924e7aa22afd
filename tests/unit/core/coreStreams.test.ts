import { describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/core/createAppCore.ts';
import { createTopicBatcher } from '../../../src/core/topics.ts';
import { SNAPSHOT_RETRY_MS } from '../../../src/machines/bookSyncMachine.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope, type ScriptedHttp, type ScriptedSocketFactory } from '../../../src/ports/fakes.ts';
import { VirtualClock } from '../../../src/ports/virtualClock.ts';
import type { OrderBookState } from '../../../src/streams/orderBook.ts';
import fc from 'fast-check';
import type { Observable } from 'rxjs';

/** The core's market streams: readers open topics (ref-counted, batched) and the book resyncs through its machine. */

interface Rig {
  core: AppCore;
  http: ScriptedHttp;
  sockets: ScriptedSocketFactory;
  clock: VirtualClock;
  /** Runs the deferred work (topic batches) now. */
  flush(): void;
}

function rig(): Rig {
  const clock = new VirtualClock(1_000_000);
  const http = createScriptedHttp();
  const sockets = createScriptedSocketFactory();
  const queue: (() => void)[] = [];
  const core = createAppCore({ clock, http, socket: sockets, storage: createMemoryStorage(), random: { id: () => 'x' } }, { location: () => '/', defer: (fn) => void queue.push(fn) });
  sockets.sockets[0]!.open();
  return { core, http, sockets, clock, flush: () => queue.splice(0).forEach((fn) => fn()) };
}

const market = (r: Rig) => r.sockets.sockets[0]!;
const sent = (r: Rig) => market(r).sent.map((s) => JSON.parse(s) as { action: string; topics?: string[] }).filter((m) => m.action !== 'ping');
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const snapshot = (seq: number, bid = 100, ask = 101) => ({ type: 'depth', symbol: 'BTCUSDT', snapshot: true, seq, bids: [[bid, 1]], asks: [[ask, 1]], ts: 1 });
const diff = (prevSeq: number, lastSeq: number, bid: number) => ({ type: 'depth', symbol: 'BTCUSDT', snapshot: false, firstSeq: prevSeq + 1, lastSeq, prevSeq, bids: [[bid, 2]], asks: [], ts: 2 });

describe('core market streams', () => {
  it('the readers of one render send ONE subscribe, in reading order; the last reader leaving unsubscribes', () => {
    const r = rig();
    const m = r.core.streams.market;
    const readers: Observable<unknown>[] = [m.book$('BTCUSDT'), m.trades$('BTCUSDT'), m.ticker$('BTCUSDT'), m.candles$('BTCUSDT', '15m')];
    const subs = readers.map((s) => s.subscribe(() => {}));
    const second = m.book$('BTCUSDT').subscribe(() => {});
    r.flush();
    expect(sent(r)).toEqual([{ action: 'subscribe', topics: ['btcusdt@depth', 'btcusdt@trade', 'btcusdt@ticker', 'btcusdt@kline_15m'] }]);
    subs[0]!.unsubscribe(); // one of two book readers left: the topic stays
    r.flush();
    expect(sent(r)).toHaveLength(1);
    for (const s of [second, ...subs.slice(1)]) s.unsubscribe();
    r.flush();
    expect(sent(r)[1]).toEqual({ action: 'unsubscribe', topics: ['btcusdt@depth', 'btcusdt@trade', 'btcusdt@ticker', 'btcusdt@kline_15m'] });
    r.core.stop();
  });

  it('a gap: the core fetches the snapshot, replays the buffered diffs and logs every resync state', async () => {
    const r = rig();
    r.http.on('GET', '/market/depth', envelope(200, 'ok', { symbol: 'BTCUSDT', seq: 20, bids: [[99, 3]], asks: [[101, 1]], ts: 5 }));
    const seen: OrderBookState[] = [];
    const sub = r.core.streams.market.book$('BTCUSDT').subscribe((b) => seen.push(b));
    r.flush();
    market(r).frame(snapshot(10));
    market(r).frame(diff(10, 11, 100));
    market(r).frame(diff(15, 16, 98)); // prevSeq 15 does not chain to 11: a gap
    market(r).frame(diff(20, 21, 97)); // buffered, connects to the REST snapshot (seq 20)
    expect(r.core.streams.market.book('BTCUSDT')?.status).toBe('resync');
    expect(r.http.requests.filter((q) => q.path === '/market/depth').map((q) => q.query)).toEqual([{ symbol: 'BTCUSDT', limit: 100 }]);
    await tick();
    const book = r.core.streams.market.book('BTCUSDT')!;
    expect(book).toMatchObject({ status: 'live', seq: 21 });
    expect(seen.at(-1)).toBe(book);
    const states = r.core.log.records().filter((x) => x.kind === 'book.sync').map((x) => x.state);
    expect(states).toEqual(['gapDetected', 'fetchingSnapshot', 'replayingBuffer', 'synced']);
    expect((r.core.state().streams.books as Record<string, { sync: string }>).BTCUSDT!.sync).toBe('synced');
    sub.unsubscribe();
    r.core.stop();
  });

  it('a failed snapshot request is retried after SNAPSHOT_RETRY_MS on the clock, not before', async () => {
    const r = rig();
    r.http.on('GET', '/market/depth', { kind: 'networkError', message: 'down' });
    const sub = r.core.streams.market.book$('BTCUSDT').subscribe(() => {});
    r.flush();
    market(r).frame(snapshot(10));
    market(r).frame(diff(15, 16, 98));
    await tick();
    const depthCalls = () => r.http.requests.filter((q) => q.path === '/market/depth').length;
    expect(depthCalls()).toBe(1);
    r.clock.advance(SNAPSHOT_RETRY_MS - 1);
    expect(depthCalls()).toBe(1);
    r.http.on('GET', '/market/depth', envelope(200, 'ok', { symbol: 'BTCUSDT', seq: 30, bids: [[99, 3]], asks: [[101, 1]], ts: 5 }));
    r.clock.advance(1);
    expect(depthCalls()).toBe(2);
    await tick();
    expect(r.core.streams.market.book('BTCUSDT')).toMatchObject({ status: 'live', seq: 30 });
    sub.unsubscribe();
    r.core.stop();
  });

  it('a socket snapshot during the fetch ends the resync at once (the late REST answer is not applied)', async () => {
    const r = rig();
    let answer: (v: unknown) => void = () => {};
    r.http.on('GET', '/market/depth', () => new Promise((res) => (answer = (d) => res(envelope(200, 'ok', d)))));
    const sub = r.core.streams.market.book$('BTCUSDT').subscribe(() => {});
    r.flush();
    market(r).frame(snapshot(10));
    market(r).frame(diff(15, 16, 98));
    market(r).frame(snapshot(40, 90, 91));
    expect(r.core.streams.market.book('BTCUSDT')).toMatchObject({ status: 'live', seq: 40 });
    answer({ symbol: 'BTCUSDT', seq: 20, bids: [[1, 1]], asks: [[2, 1]], ts: 5 });
    await tick();
    expect(r.core.streams.market.book('BTCUSDT')).toMatchObject({ status: 'live', seq: 40 });
    expect(r.core.log.records().filter((x) => x.kind === 'book.sync').map((x) => x.state)).toEqual(['gapDetected', 'fetchingSnapshot', 'synced']);
    sub.unsubscribe();
    r.core.stop();
  });
});

describe('core market streams: a book nobody subscribes', () => {
  it('is reduced but never fetched for; a socket snapshot makes it live again', () => {
    const r = rig();
    market(r).frame(snapshot(10));
    market(r).frame(diff(15, 16, 98));
    expect(r.core.streams.market.book('BTCUSDT')?.status).toBe('resync');
    r.clock.advance(SNAPSHOT_RETRY_MS * 3);
    expect(r.http.requests.filter((q) => q.path === '/market/depth')).toEqual([]);
    market(r).frame(snapshot(50));
    expect(r.core.streams.market.book('BTCUSDT')).toMatchObject({ status: 'live', seq: 50 });
    expect((r.core.state().streams.books as Record<string, { sync: string }>).BTCUSDT!.sync).toBe('synced');
    r.core.stop();
  });
});

describe('topic batcher', () => {
  it('after the market socket reconnects, the held candles and trades are fetched again and fill the gap; the first open does not refetch', async () => {
    const r = rig();
    const m15 = 15 * 60_000;
    const candle = (i: number) => ({ t: i * m15, o: 100 + i, h: 101 + i, l: 99 + i, c: 100 + i, v: 1 });
    let answers = 0;
    r.http.on('GET', '/market/klines', () => envelope(200, 'ok', (answers++ === 0 ? [0, 1, 2] : [0, 1, 2, 3, 4, 5]).map(candle)));
    r.http.on('GET', '/market/trades', envelope(200, 'ok', []));
    const seen: number[][] = [];
    const sub = r.core.streams.market.candles$('BTCUSDT', '15m').subscribe((c) => seen.push(c.items.map((x) => x.t / m15)));
    const trades = r.core.streams.market.trades$('BTCUSDT').subscribe(() => {});
    r.flush();
    await tick();
    expect(seen.at(-1)).toEqual([0, 1, 2]);
    // A live candle arrives, then the socket drops; candles 3 and 4 close while it is down.
    market(r).frame({ type: 'kline', symbol: 'BTCUSDT', interval: '15m', candle: candle(2), closed: true });
    market(r).close(1006);
    r.clock.advance(10_000);
    const again = r.sockets.last();
    expect(again).not.toBe(market(r));
    again.open();
    again.frame({ type: 'kline', symbol: 'BTCUSDT', interval: '15m', candle: candle(5), closed: false });
    expect(seen.at(-1)).toEqual([0, 1, 2, 5]); // the gap, until the history comes back
    await tick();
    const asked = r.http.requests.filter((q) => q.path === '/market/klines').map((q) => q.query);
    expect(asked).toEqual([
      { symbol: 'BTCUSDT', interval: '15m', limit: 500 },
      { symbol: 'BTCUSDT', interval: '15m', limit: 500 },
    ]);
    expect(r.http.requests.filter((q) => q.path === '/market/trades')).toHaveLength(2);
    expect(seen.at(-1)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(r.core.log.records().filter((x) => x.kind === 'market.refetch').map((x) => x.candles)).toEqual([['BTCUSDT@15m']]);
    sub.unsubscribe();
    trades.unsubscribe();
    r.core.stop();
  });

  it('property: the events list the added (type, topic) pairs in order, consecutive same types merged', () => {
    const op = fc.record({ type: fc.constantFrom('socket.subscribe' as const, 'socket.unsubscribe' as const), topic: fc.constantFrom('a', 'b', 'c') });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const events: { type: string; topics: string[] }[] = [];
        const queue: (() => void)[] = [];
        const b = createTopicBatcher({ send: (e) => void events.push(e) }, (fn) => void queue.push(fn));
        for (const o of ops) b.add(o.type, o.topic);
        expect(queue.length).toBe(ops.length > 0 ? 1 : 0);
        queue.forEach((fn) => fn());
        expect(events.flatMap((e) => e.topics.map((topic) => ({ type: e.type, topic })))).toEqual(ops);
        for (let i = 1; i < events.length; i++) expect(events[i]!.type).not.toBe(events[i - 1]!.type);
      }),
    );
  });
});
