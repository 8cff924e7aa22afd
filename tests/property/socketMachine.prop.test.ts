import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { SocketKind } from '../../src/machines/socketMachine.ts';
import { socketHarness } from '../unit/machines/socketHarness.ts';

/**
 * fast-check model run: random sequences of socket events (open, close, error, frame, subscribe,
 * unsubscribe, stop, reconnectNow, token changes, clock advances) against a small model.
 * After every command: the real actor is in the model's phase (so it is never stuck: a close
 * while it may reconnect always leads to a new connection 10 s later), the number of
 * connections matches, `connected` is true exactly while open, every open resubscribes exactly
 * the topics with subscribers, and pings sent on the open connection = floor(open time / 35 s).
 */

type Phase = 'idle' | 'connecting' | 'open' | 'reconnecting';
interface Model {
  kind: SocketKind;
  token: string | null;
  phase: Phase;
  now: number;
  reconnectAt: number;
  openedAt: number;
  sockets: number;
  topics: Map<string, number>;
  /** `socket.unauthorized` emissions expected so far (close 4001 on a live user socket). */
  unauthorized: number;
}
type Real = ReturnType<typeof socketHarness>;

const mayConnect = (m: Model) => m.kind === 'market' || m.token !== null;
const active = (m: Model) => [...m.topics].filter(([, n]) => n > 0).map(([t]) => t);
const reconnectOrIdle = (m: Model) => {
  if (mayConnect(m)) {
    m.phase = 'reconnecting';
    m.reconnectAt = m.now + 10_000;
  } else m.phase = 'idle';
};
const connect = (m: Model) => {
  m.phase = 'connecting';
  m.sockets += 1;
};

function checkInvariants(m: Model, r: Real) {
  expect(r.state()).toBe(m.phase);
  expect(r.factory.sockets.length).toBe(m.sockets);
  expect(r.actor.getSnapshot().context.connected).toBe(m.phase === 'open');
  expect(r.actor.getSnapshot().context.token).toBe(m.token);
  expect(r.unauthorized.count).toBe(m.unauthorized);
  expect(Object.keys(r.actor.getSnapshot().context.topics)).toEqual(active(m));
  if (m.phase === 'open') {
    const pings = r.sentOf(m.sockets - 1).filter((x) => x.action === 'ping');
    expect(pings.length).toBe(Math.floor((m.now - m.openedAt) / 35_000));
    for (const p of pings) expect(Number.isInteger(p.ts)).toBe(true);
  }
}

type Cmd = fc.Command<Model, Real>;
const cmd = (name: string, check: (m: Readonly<Model>) => boolean, run: (m: Model, r: Real) => void): Cmd => ({
  check,
  run: (m, r) => {
    run(m, r);
    checkInvariants(m, r);
  },
  toString: () => name,
});

const live = (m: Readonly<Model>) => m.phase === 'connecting' || m.phase === 'open';
const TOPICS = ['btcusdt@depth', 'btcusdt@trade', 'ethusdt@ticker', 'all@ticker'];

function commands(kind: SocketKind) {
  const list: fc.Arbitrary<Cmd>[] = [
    fc.constant(
      cmd('open', (m) => m.phase === 'connecting', (m, r) => {
        r.factory.last().open();
        m.phase = 'open';
        m.openedAt = m.now;
        const sent = r.sentOf(m.sockets - 1);
        const expected: unknown[] = [];
        if (kind === 'user') expected.push({ action: 'auth', token: m.token });
        if (active(m).length > 0) expected.push({ action: 'subscribe', topics: active(m) });
        expect(sent).toEqual(expected);
      }),
    ),
    fc.constant(cmd('close', live, (m, r) => (r.factory.last().close(), reconnectOrIdle(m)))),
    fc.constant(
      cmd('close(4001)', live, (m, r) => {
        r.factory.last().close(4001, 'Session ended');
        if (m.kind === 'user') {
          // the 401 flow: no reconnect with a dead token
          m.token = null;
          m.phase = 'idle';
          m.unauthorized += 1;
        } else reconnectOrIdle(m);
      }),
    ),
    fc.constant(cmd('error', live, (m, r) => (r.factory.last().error('e'), reconnectOrIdle(m)))),
    fc.constant(
      cmd('frame', (m) => m.phase === 'open', (_m, r) => {
        const before = r.frames.length;
        r.factory.last().frame({ type: 'pong', ts: 1 });
        expect(r.frames.length).toBe(before + 1);
      }),
    ),
    fc.constantFrom(...TOPICS).map((t) =>
      cmd(`subscribe(${t})`, () => true, (m, r) => {
        const n = m.topics.get(t) ?? 0;
        const before = m.phase === 'open' ? r.sentOf(m.sockets - 1).length : 0;
        r.actor.send({ type: 'socket.subscribe', topics: [t] });
        m.topics.set(t, n + 1);
        if (m.phase === 'open') {
          const sent = r.sentOf(m.sockets - 1);
          expect(sent.length).toBe(before + (n === 0 ? 1 : 0));
          if (n === 0) expect(sent.at(-1)).toEqual({ action: 'subscribe', topics: [t] });
        }
      }),
    ),
    fc.constantFrom(...TOPICS).map((t) =>
      cmd(`unsubscribe(${t})`, () => true, (m, r) => {
        r.actor.send({ type: 'socket.unsubscribe', topics: [t] });
        const n = m.topics.get(t) ?? 0;
        if (n === 1) m.topics.delete(t);
        else if (n > 1) m.topics.set(t, n - 1);
        if (m.phase === 'open' && n === 1) expect(r.sentOf(m.sockets - 1).at(-1)).toEqual({ action: 'unsubscribe', topics: [t] });
      }),
    ),
    fc.integer({ min: 1, max: 80_000 }).map((ms) =>
      cmd(`advance(${ms})`, () => true, (m, r) => {
        r.clock.increment(ms);
        m.now += ms;
        if (m.phase === 'reconnecting' && m.now >= m.reconnectAt) connect(m);
      }),
    ),
    fc.constant(cmd('stop', () => true, (m, r) => (r.actor.send({ type: 'socket.stop' }), (m.phase = 'idle')))),
    fc.constant(
      cmd('start', () => true, (m, r) => {
        r.actor.send({ type: 'socket.start' });
        if (m.phase === 'idle' && mayConnect(m)) connect(m);
      }),
    ),
    fc.constant(
      cmd('reconnectNow', () => true, (m, r) => {
        r.actor.send({ type: 'socket.reconnectNow' });
        if (live(m) || (m.phase === 'reconnecting' && mayConnect(m))) connect(m);
      }),
    ),
  ];
  if (kind === 'user') {
    list.push(
      fc.constantFrom<string | null>('tk-1', 'tk-2', null).map((token) =>
        cmd(`setToken(${token})`, () => true, (m, r) => {
          r.actor.send({ type: 'socket.setToken', token });
          m.token = token;
          if (m.phase === 'idle') {
            if (token !== null) connect(m);
          } else if (live(m)) {
            if (token === null) m.phase = 'idle';
            else connect(m);
          } else if (m.phase === 'reconnecting' && token === null) m.phase = 'idle';
        }),
      ),
    );
  }
  return fc.commands(list, { maxCommands: 60 });
}

describe('socketMachine properties', () => {
  for (const kind of ['market', 'user'] as const) {
    it(`${kind}: model run over random event sequences`, () => {
      fc.assert(
        fc.property(commands(kind), (cmds) => {
          const token = kind === 'user' ? 'tk-1' : null;
          // NOTE: VirtualClock, not SimulatedClock: a large advance must fire every ping on the way.
          const real = socketHarness(kind, token, 0, 'virtual');
          const model: Model = { kind, token, phase: 'connecting', now: 0, reconnectAt: 0, openedAt: 0, sockets: 1, topics: new Map(), unauthorized: 0 };
          fc.modelRun(() => ({ model, real }), cmds);
          real.actor.stop();
        }),
        { numRuns: 200 },
      );
    });
  }
});
