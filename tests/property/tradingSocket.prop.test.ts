import fc from 'fast-check';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createTradingSocket, SOCKET_CLOSED_MSG } from '../../src/core/tradingSocket.ts';
import { parseFrame, type InboundFrame } from '../../src/machines/socketMachine.ts';
import { createScriptedSocketFactory, type ScriptedSocket } from '../../src/ports/fakes.ts';
import type { Http, HttpOutcome, SocketConnection } from '../../src/ports/types.ts';
import { VirtualClock } from '../../src/ports/virtualClock.ts';
import { SOCKET_METHOD_NAMES } from '../../src/protocol/socketApi.ts';
import { settle } from '../unit/settle.ts';

/**
 * Request/answer correlation of the trading calls over the user socket (src/core/tradingSocket.ts),
 * over random interleavings of requests, answers (out of order, repeated, for unknown ids or for a
 * connection already gone), server closes, local closes, reconnects with or without the methods
 * announced, and time (the request timeout). After every step:
 * - every request went out exactly once, by exactly one door: over the socket when a connection
 *   was authed with the methods at that moment, else over HTTP; no id repeats on a connection;
 * - a request answered over the socket got its OWN answer (the answer echoes its params);
 * - a request is settled once and only once: in flight = sent and not settled, and a closed
 *   connection has nothing in flight (its requests failed as network failures);
 * - nothing settles before its answer, its connection's end, or its timeout.
 */

const TIMEOUT = 1_000;

type Cmd =
  | { k: 'connect'; methods: boolean }
  | { k: 'request'; method: number }
  | { k: 'answer'; pick: number; code: 200 | 400 }
  | { k: 'unknown'; id: number }
  | { k: 'serverClose' }
  | { k: 'localClose' }
  | { k: 'tick'; ms: number };

const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ k: fc.constant('connect' as const), methods: fc.boolean() }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('request' as const), method: fc.nat(3) }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('answer' as const), pick: fc.nat(20), code: fc.constantFrom(200 as const, 400 as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('unknown' as const), id: fc.integer({ min: -5, max: 10_000 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('serverClose' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('localClose' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('tick' as const), ms: fc.integer({ min: 1, max: 1_200 }) }) },
);

const PATHS = ['/trade/order', '/trade/order/cancel', '/trade/order/edit', '/trade/position/close'];

interface Req {
  n: number;
  door: 'ws' | 'http';
  /** The connection it went out on (ws). */
  socket: ScriptedSocket | null;
  sentAt: number;
  outcome: HttpOutcome | null;
  settles: number;
}

function run() {
  const clock = new VirtualClock(0);
  const frames = new Subject<InboundFrame>();
  const ts = createTradingSocket({ clock, frames$: frames, timeoutMs: TIMEOUT });
  const raw = createScriptedSocketFactory();
  const factory = ts.tap(raw);
  const http: Http = { request: async (req) => ({ kind: 'envelope', envelope: { code: 200, msg: '', data: { door: 'http', n: (req.body as { n: number }).n } } }) };
  const transport = ts.route(http);
  const reqs: Req[] = [];
  let conn: { c: SocketConnection; s: ScriptedSocket; ended: boolean; authed: boolean; methods: boolean } | null = null;
  const endConn = () => {
    if (conn) conn.ended = true;
    conn = null;
  };
  return {
    reqs,
    ts,
    clock,
    async step(cmd: Cmd) {
      switch (cmd.k) {
        case 'connect': {
          // The core closes the old connection before it opens the next one.
          if (conn) {
            conn.c.close();
            endConn();
          }
          const c = factory.open('/api/ws/user', {
            onOpen: () => {},
            // As the core's connection actor: parsed frames go to the Subject synchronously.
            onFrame: (d) => {
              const f = parseFrame(d);
              if (f) frames.next(f);
            },
            onClose: () => {},
            onError: () => {},
          });
          conn = { c, s: raw.last(), ended: false, authed: true, methods: cmd.methods };
          conn.s.open();
          conn.s.frame(cmd.methods ? { type: 'authed', userId: 1, methods: SOCKET_METHOD_NAMES } : { type: 'authed', userId: 1 });
          break;
        }
        case 'request': {
          const n = reqs.length + 1;
          const usable = conn !== null && !conn.ended && conn.methods;
          const r: Req = { n, door: usable ? 'ws' : 'http', socket: usable && conn ? conn.s : null, sentAt: clock.now(), outcome: null, settles: 0 };
          reqs.push(r);
          void transport.request({ method: 'POST', path: PATHS[cmd.method] ?? '/trade/order', body: { n } }).then((o) => {
            r.outcome = o;
            r.settles += 1;
          });
          break;
        }
        case 'answer': {
          if (!conn) break;
          const sent = conn.s.sent.map((d) => JSON.parse(d) as { id?: number; params?: { n: number } }).filter((f) => f.id !== undefined);
          const f = sent[cmd.pick % Math.max(1, sent.length)];
          if (f) conn.s.frame({ type: 'response', id: f.id, code: cmd.code, msg: cmd.code === 200 ? '' : 'refused', data: { door: 'ws', n: f.params?.n } });
          break;
        }
        case 'unknown':
          conn?.s.frame({ type: 'response', id: cmd.id + 1_000_000, code: 200, msg: '', data: { door: 'ws', n: -1 } });
          break;
        case 'serverClose':
          conn?.s.close(1006, '');
          endConn();
          break;
        case 'localClose':
          conn?.c.close();
          endConn();
          break;
        case 'tick':
          clock.advance(cmd.ms);
          break;
      }
      await settle();
    },
    check() {
      const bySocket = new Map<ScriptedSocket, number[]>();
      for (const s of raw.sockets) {
        const ids = s.sent.map((d) => JSON.parse(d) as { id?: number }).flatMap((f) => (f.id === undefined ? [] : [f.id]));
        expect(new Set(ids).size, 'no id twice on a connection').toBe(ids.length);
        bySocket.set(s, ids);
      }
      const wsSent = [...bySocket.values()].reduce((a, ids) => a + ids.length, 0);
      expect(wsSent, 'each socket request sent once').toBe(reqs.filter((r) => r.door === 'ws').length);
      for (const r of reqs) {
        expect(r.settles, `request ${r.n} settles at most once`).toBeLessThanOrEqual(1);
        if (r.outcome === null) continue;
        if (r.outcome.kind === 'envelope') {
          // Its own answer, by its own door.
          expect(r.outcome.envelope.data).toEqual({ door: r.door, n: r.n });
        } else {
          expect(r.door).toBe('ws');
        }
      }
      const open = reqs.filter((r) => r.outcome === null);
      expect(ts.inFlight(), 'in flight = sent over the socket and not settled').toBe(open.length);
      expect(ts.settled()).toBe(reqs.filter((r) => r.door === 'ws' && r.outcome !== null).length);
      for (const r of open) {
        expect(r.door).toBe('ws');
        // Still in flight: its connection lives and its timeout has not passed.
        expect(r.socket === conn?.s, `request ${r.n} in flight on a connection that ended`).toBe(true);
        expect(clock.now() - r.sentAt).toBeLessThan(TIMEOUT);
      }
      // A network failure is its connection's end (or the timeout), never an answer's.
      for (const r of reqs) if (r.outcome?.kind === 'networkError') expect(r.outcome.message === SOCKET_CLOSED_MSG || clock.now() - r.sentAt >= TIMEOUT).toBe(true);
    },
  };
}

describe('trading socket correlation (property)', () => {
  it('every request goes out once by one door, gets its own answer or one network failure, and nothing is left in flight on a dead connection', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 1, maxLength: 60 }), async (cmds) => {
        const h = run();
        await h.step({ k: 'connect', methods: true });
        h.check();
        for (const c of cmds) {
          await h.step(c);
          h.check();
        }
        h.ts.stop();
      }),
      { numRuns: 150 },
    );
  });
});
