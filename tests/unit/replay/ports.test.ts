import { describe, expect, it } from 'vitest';
import type { LogRecord } from '../../../src/ports/eventLog.ts';
import { createReplayPorts } from '../../../src/ports/replay.ts';

const recs = (list: (Omit<LogRecord, 'seq' | 't' | 'kind'> & { t: number; kind: string })[]): LogRecord[] => list.map((r, i) => ({ ...r, seq: i + 1 }));

describe('replay ports', () => {
  it('answers by method+path in order, at the time the response is delivered', async () => {
    const log = recs([
      { t: 0, kind: 'http.request', id: 1, method: 'GET', path: '/a' },
      { t: 0, kind: 'http.request', id: 2, method: 'GET', path: '/a' },
      { t: 5, kind: 'http.response', id: 2, envelope: { code: 200, msg: 'second', data: 2 } },
      { t: 9, kind: 'http.response', id: 1, envelope: { code: 200, msg: 'first', data: 1 } },
    ]);
    const c = createReplayPorts(log, 0);
    const got: string[] = [];
    void c.ports.http.request({ method: 'GET', path: '/a' }).then((o) => got.push(o.kind === 'envelope' ? o.envelope.msg : 'x'));
    void c.ports.http.request({ method: 'GET', path: '/a' }).then((o) => got.push(o.kind === 'envelope' ? o.envelope.msg : 'x'));
    for (const r of log) c.deliver(r);
    await Promise.resolve();
    await Promise.resolve();
    expect(got).toEqual(['second', 'first']);
    expect(c.divergences).toEqual([]);
  });

  it('a GET skips recorded reads with another query (a merged refetch); a POST keeps strict order', async () => {
    const log = recs([
      { t: 0, kind: 'http.request', id: 1, method: 'GET', path: '/v', query: { kind: 'a' } },
      { t: 1, kind: 'http.response', id: 1, envelope: { code: 200, msg: 'a1', data: 1 } },
      { t: 2, kind: 'http.request', id: 2, method: 'GET', path: '/v', query: { kind: 'a' } },
      { t: 3, kind: 'http.response', id: 2, envelope: { code: 200, msg: 'a2', data: 2 } },
      { t: 4, kind: 'http.request', id: 3, method: 'GET', path: '/v', query: { kind: 'b' } },
      { t: 5, kind: 'http.response', id: 3, envelope: { code: 200, msg: 'b', data: 3 } },
      { t: 6, kind: 'http.request', id: 4, method: 'POST', path: '/w', body: { n: 1 } },
      { t: 7, kind: 'http.response', id: 4, envelope: { code: 200, msg: 'w1', data: null } },
      { t: 8, kind: 'http.request', id: 5, method: 'POST', path: '/w', body: { n: 2 } },
      { t: 9, kind: 'http.response', id: 5, envelope: { code: 200, msg: 'w2', data: null } },
    ]);
    const c = createReplayPorts(log, 0);
    const msg = (o: { kind: string; envelope?: { msg: string } }) => (o.kind === 'envelope' ? o.envelope?.msg : o.kind);
    const a = c.ports.http.request({ method: 'GET', path: '/v', query: { kind: 'a' } });
    for (const r of log.slice(0, 4)) c.deliver(r);
    const b = c.ports.http.request({ method: 'GET', path: '/v', query: { kind: 'b' } });
    const w = c.ports.http.request({ method: 'POST', path: '/w', body: { n: 2 } });
    for (const r of log.slice(4)) c.deliver(r);
    expect([msg(await a), msg(await b), msg(await w)]).toEqual(['a1', 'b', 'w1']);
    expect(c.divergences.map((d) => d.message)).toEqual(['request POST /w differs from the recording (seq 7)']);
  });

  it('more reads here than recorded (refetches merged there, not here): a later identical read shares the oldest unanswered one; a write never does', async () => {
    // Recorded: two reloads of /list (answers 'old' then 'new'); here the screen read twice more
    // before the first recorded reload (an effect that ran late under load), taking both entries.
    const log = recs([
      { t: 0, kind: 'http.request', id: 1, method: 'GET', path: '/list', query: { p: 1 } },
      { t: 1, kind: 'http.request', id: 2, method: 'GET', path: '/list', query: { p: 1 } },
      { t: 2, kind: 'http.response', id: 1, envelope: { code: 200, msg: 'old', data: 1 } },
      { t: 3, kind: 'http.response', id: 2, envelope: { code: 200, msg: 'new', data: 2 } },
      { t: 4, kind: 'http.request', id: 3, method: 'POST', path: '/w', body: { n: 1 } },
      { t: 5, kind: 'http.response', id: 3, envelope: { code: 200, msg: 'w', data: null } },
    ]);
    const c = createReplayPorts(log, 0);
    const msg = (o: { kind: string; envelope?: { msg: string } }) => (o.kind === 'envelope' ? o.envelope?.msg : o.kind);
    const read = () => c.ports.http.request({ method: 'GET', path: '/list', query: { p: 1 } });
    const early1 = read();
    const early2 = read();
    const [r1, r2] = [read(), read()]; // the recorded reloads: no entry left, each shares one
    const fifth = read(); // nothing left to share: a divergence
    for (const r of log.slice(0, 4)) c.deliver(r);
    expect([msg(await early1), msg(await early2), msg(await r1), msg(await r2), msg(await fifth)]).toEqual(['old', 'new', 'old', 'new', 'networkError']);
    expect(c.divergences.map((d) => d.message)).toEqual(['no recorded request left for GET /list']);
    const w1 = c.ports.http.request({ method: 'POST', path: '/w', body: { n: 1 } });
    const w2 = await c.ports.http.request({ method: 'POST', path: '/w', body: { n: 1 } });
    c.deliver(log[5] as (typeof log)[number]);
    expect([msg(await w1), msg(w2)]).toEqual(['w', 'networkError']);
  });

  it('a read the driver gave up on (skip) is never taken: the next read of the app takes the later recorded read and its answer', async () => {
    // Recorded (liquidation-ui): the trade history read the fills twice after an order (merged into
    // one read here), then once more after the liquidation, whose answer holds the liquidation fill.
    const log = recs([
      { t: 0, kind: 'http.request', id: 1, method: 'GET', path: '/fills', query: { p: 1 } },
      { t: 1, kind: 'http.request', id: 2, method: 'GET', path: '/fills', query: { p: 1 } },
      { t: 2, kind: 'http.response', id: 1, envelope: { code: 200, msg: 'buy', data: 1 } },
      { t: 3, kind: 'http.response', id: 2, envelope: { code: 200, msg: 'buy', data: 1 } },
      { t: 4, kind: 'http.request', id: 3, method: 'GET', path: '/fills', query: { p: 1 } },
      { t: 5, kind: 'http.response', id: 3, envelope: { code: 200, msg: 'buy+liquidation', data: 2 } },
    ]);
    const msg = (o: { kind: string; envelope?: { msg: string } }) => (o.kind === 'envelope' ? o.envelope?.msg : o.kind);
    const read = (c: ReturnType<typeof createReplayPorts>) => c.ports.http.request({ method: 'GET', path: '/fills', query: { p: 1 } });
    // The app's refetch after the liquidation comes before or after the driver reached its record: the same answer.
    for (const lateBy of [0, 1]) {
      const c = createReplayPorts(log, 0);
      const first = read(c);
      c.deliver(log[0] as LogRecord);
      expect(c.isIssued(log[1] as LogRecord)).toBe(false);
      c.skip(log[1] as LogRecord);
      for (const r of log.slice(1, 4 + lateBy)) c.deliver(r);
      const refetch = read(c);
      for (const r of log.slice(4 + lateBy)) c.deliver(r);
      expect([msg(await first), msg(await refetch)]).toEqual(['buy', 'buy+liquidation']);
      expect(c.divergences).toEqual([]);
      expect(c.unissued.filter((r) => !c.isIssued(r)).map((r) => r.seq)).toEqual([2]);
    }
  });

  it('reports (never guesses) a request the log does not have or whose body differs', async () => {
    const log = recs([
      { t: 0, kind: 'http.request', id: 1, method: 'POST', path: '/user/login', body: { email: 'a@b.c' } },
      { t: 1, kind: 'http.response', id: 1, envelope: { code: 200, msg: 'ok', data: null } },
    ]);
    const c = createReplayPorts(log, 0);
    const missing = await c.ports.http.request({ method: 'GET', path: '/nope' });
    expect(missing).toEqual({ kind: 'networkError', message: 'replay: no recorded response for GET /nope' });
    const p = c.ports.http.request({ method: 'POST', path: '/user/login', body: { email: 'x@y.z' } });
    for (const r of log) c.deliver(r);
    expect((await p).kind).toBe('envelope');
    expect(c.divergences.map((d) => d.message)).toEqual(['no recorded request left for GET /nope', 'request POST /user/login differs from the recording (seq 1)']);
    expect(c.divergences[1]).toMatchObject({ expected: { body: { email: 'a@b.c' } }, actual: { body: { email: 'x@y.z' } } });
  });

  it('delivers socket records to the connection opened for that URL and checks what was sent', () => {
    const log = recs([
      { t: 0, kind: 'ws.open', conn: 1, url: '/m' },
      { t: 1, kind: 'ws.opened', conn: 1 },
      { t: 2, kind: 'ws.out', conn: 1, data: 'hello' },
      { t: 3, kind: 'ws.in', conn: 1, data: 'frame' },
      { t: 4, kind: 'ws.out', conn: 1, data: 'bye' },
      { t: 5, kind: 'ws.close', conn: 1, code: 1006, reason: '' },
    ]);
    const c = createReplayPorts(log, 0);
    const seen: string[] = [];
    const conn = c.ports.socket.open('/m', { onOpen: () => seen.push('open'), onFrame: (d) => seen.push(d), onClose: (code) => seen.push(`close ${code}`), onError: () => seen.push('error') });
    for (const r of log.slice(0, 2)) c.deliver(r);
    conn.send('hello');
    for (const r of log.slice(2, 4)) c.deliver(r);
    conn.send('not bye');
    for (const r of log.slice(4)) c.deliver(r);
    expect(seen).toEqual(['open', 'frame', 'close 1006']);
    expect(c.divergences).toHaveLength(1);
    expect(c.divergences[0]).toMatchObject({ seq: 5, expected: 'bye', actual: 'not bye' });
  });

  it('matches a frame the app sends after its record (a late screen), and reports one never sent', () => {
    const log = recs([
      { t: 0, kind: 'ws.open', conn: 1, url: '/m' },
      { t: 1, kind: 'ws.out', conn: 1, data: 'sub a' },
      { t: 2, kind: 'ws.out', conn: 1, data: 'sub b' },
    ]);
    const c = createReplayPorts(log, 0);
    const conn = c.ports.socket.open('/m', { onOpen: () => undefined, onFrame: () => undefined, onClose: () => undefined, onError: () => undefined });
    for (const r of log) c.deliver(r);
    conn.send('sub a');
    expect(c.divergences).toEqual([]);
    expect(c.finish()).toBe(1);
    expect(c.divergences[0]).toMatchObject({ seq: 3, expected: 'sub b', actual: null });
  });

  it('adopts the open connection when a ring-truncated log starts mid-connection', () => {
    const log = recs([{ t: 7, kind: 'ws.in', conn: 4, data: 'late frame' }]);
    const c = createReplayPorts(log, 0);
    const seen: string[] = [];
    c.ports.socket.open('/m', { onOpen: () => seen.push('open'), onFrame: (d) => seen.push(d), onClose: () => undefined, onError: () => undefined });
    c.deliver(log[0] as LogRecord);
    expect(seen).toEqual(['open', 'late frame']);
    expect(c.divergences).toEqual([]);
  });

  it('starts storage from storage.init, returns recorded randoms, and runs a virtual clock from startedAt', () => {
    const log = recs([
      { t: 0, kind: 'storage.init', key: 'token', value: '<redacted:token#1>' },
      { t: 0, kind: 'storage.init', key: 'lang', value: null },
      { t: 0, kind: 'random', value: 'abc' },
    ]);
    const c = createReplayPorts(log, 5000);
    expect(c.ports.storage.get('token')).toBe('<redacted:token#1>');
    expect(c.ports.storage.get('lang')).toBeNull();
    expect(c.ports.random.id()).toBe('abc');
    expect(c.ports.random.id()).toBe('replay-random-2');
    expect(c.divergences.map((d) => d.what)).toEqual(['random']);
    expect(c.ports.clock.now()).toBe(5000);
  });
  it('a page load the user reloaded: a read the screen opened last made, which the recorded page never got to, is held unanswered and noted; reads before that route, writes and a load not reloaded diverge', async () => {
    // One load of a bundle: the trade screen, then the market list, then the reload. The recorded
    // page was reloaded before the market list made its reads; the replayed one makes them.
    const log = recs([
      { t: 0, kind: 'ui.route', path: '/mFutures/BTCUSDT' },
      { t: 1, kind: 'http.request', id: 1, method: 'GET', path: '/market/symbols' },
      { t: 2, kind: 'http.response', id: 1, envelope: { code: 200, msg: 'ok', data: [] } },
      { t: 3, kind: 'ui.route', path: '/market' },
      { t: 4, kind: 'timer', ms: 1000 },
    ]);
    const run = (reloaded: boolean) => {
      const c = createReplayPorts(log, 0, { reloaded });
      const settled: string[] = [];
      const ask = (method: 'GET' | 'POST', path: string) => void c.ports.http.request({ method, path }).then((o) => settled.push(`${method} ${path} ${o.kind}`));
      // The trade screen reads its tickers (never recorded) before the user leaves it.
      c.setCurrentSeq(2);
      ask('GET', '/market/tickers');
      // The market list mounts after its route (the driver labels what follows with the route's seq).
      c.setCurrentSeq(4);
      ask('GET', '/market/symbols');
      ask('GET', '/market/klines');
      c.deliver(log[4] as LogRecord);
      ask('GET', '/market/tickers');
      ask('POST', '/market/favorite');
      return { c, settled };
    };
    const reloaded = run(true);
    await Promise.resolve();
    await Promise.resolve();
    expect(reloaded.c.divergences.map((d) => `@${d.seq} ${d.message}`)).toEqual([
      '@2 no recorded request left for GET /market/tickers',
      '@5 no recorded request left for POST /market/favorite',
    ]);
    // A read the load recorded takes its record as always (answered at it); the two it never made are cut.
    expect(reloaded.c.cutByReload.map((d) => `@${d.seq} ${d.message}`)).toEqual([
      '@4 GET /market/klines was made on the screen opened at seq 4, which the recorded page left by a reload before making it: held unanswered',
      '@5 GET /market/tickers was made on the screen opened at seq 4, which the recorded page left by a reload before making it: held unanswered',
    ]);
    // Held: never answered (the reloaded page's never was); the divergent ones got the replay's network error.
    expect(reloaded.settled.sort()).toEqual(['GET /market/tickers networkError', 'POST /market/favorite networkError']);
    const whole = run(false);
    expect(whole.c.cutByReload).toEqual([]);
    expect(whole.c.divergences.map((d) => `@${d.seq} ${d.message}`)).toEqual([
      '@2 no recorded request left for GET /market/tickers',
      '@4 no recorded request left for GET /market/klines',
      '@5 no recorded request left for GET /market/tickers',
      '@5 no recorded request left for POST /market/favorite',
    ]);
  });
});
