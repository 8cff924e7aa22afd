import { describe, expect, it } from 'vitest';
import { fromCallback, getNextSnapshot } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import type { ConnectionCommand, SocketEvent, SocketKind } from '../../src/machines/socketMachine.ts';
import { socketMachine } from '../../src/machines/socketMachine.ts';
import { socketHarness } from '../unit/machines/socketHarness.ts';

/**
 * Model-based test: xstate/graph (getShortestPaths) enumerates the shortest path to every reachable (state, token,
 * topics) combination of the socket machine; each path is then replayed against the real actor
 * (scripted SocketFactory + SimulatedClock), and after every step the real actor must be in the
 * state the model predicts, with the connection count and `connected` flag that state implies.
 */

const PING = 'xstate.after.pingInterval.socket.live.open.alive';
const RECONNECT = 'xstate.after.reconnectDelay.socket.reconnecting';

type ModelEvent = SocketEvent | { type: typeof PING } | { type: typeof RECONNECT };

const inert = socketMachine.provide({ actors: { connection: fromCallback<ConnectionCommand, { url: string }>(() => () => {}) } });

const EVENTS: ModelEvent[] = [
  { type: 'socket.open' },
  { type: 'socket.frame', data: '{"type":"pong","ts":1}' },
  { type: 'socket.closed', code: 1006, reason: '' },
  // 4001: the server ended the token (revoked/expired); the user socket must take the 401 flow.
  { type: 'socket.closed', code: 4001, reason: 'Session ended' },
  { type: 'socket.error', message: 'boom' },
  { type: 'socket.subscribe', topics: ['btcusdt@depth'] },
  { type: 'socket.unsubscribe', topics: ['btcusdt@depth'] },
  { type: 'socket.stop' },
  { type: 'socket.start' },
  { type: 'socket.reconnectNow' },
  { type: 'socket.setToken', token: 'tk' },
  { type: 'socket.setToken', token: null },
  { type: PING },
  { type: RECONNECT },
];

type Snap = SnapshotFrom<typeof socketMachine>;

const leaf = (s: Snap): string => {
  const v = s.value;
  if (typeof v === 'string') return v;
  if ('live' in v) return typeof v.live === 'string' ? v.live : 'open';
  return Object.keys(v)[0] ?? '?';
};

const serialize = (s: Snap) =>
  JSON.stringify([s.value, s.context.token !== null, Object.keys(s.context.topics), s.context.connected]);

for (const [kind, token] of [
  ['market', null],
  ['user', 'tk'],
  ['user', null],
] as [SocketKind, string | null][]) {
  describe(`socketMachine model (${kind}, token ${token ? 'present' : 'absent'})`, () => {
    // NOTE: getShortestPaths (pure traversal) rather than createTestModel, which refuses
    // machines with invocations; the replay loop below plays the role of path.test().
    const paths = getShortestPaths(inert, {
      input: { url: '/api/ws/x', kind, token },
      events: EVENTS as never,
      serializeState: serialize as never,
    }).map((p) => ({ ...p, description: p.steps.map((s) => s.event.type.replace('xstate.after.', '')).join(' → ') }));

    it('from every live state, a close with 4001 leads to idle without a token only on the user socket', () => {
      const liveStates = paths.map((p) => p.state as Snap).filter((st) => ['connecting', 'open'].includes(leaf(st)));
      expect(liveStates.length).toBeGreaterThan(0);
      for (const st of liveStates) {
        const next = getNextSnapshot(inert, st, { type: 'socket.closed', code: 4001, reason: 'Session ended' });
        if (kind === 'user') expect([leaf(next), next.context.token, next.context.connected]).toEqual(['idle', null, false]);
        else expect(leaf(next)).toBe('reconnecting');
      }
    });

    it('reaches every top-level state the kind allows', () => {
      const reached = new Set(paths.map((p) => leaf(p.state as Snap)));
      expect([...reached].sort()).toEqual(['connecting', 'idle', 'open', 'reconnecting']);
    });

    it.each(paths.map((p) => [p.description, p] as const))('%s', (_d, path) => {
      const h = socketHarness(kind, token);
      for (const step of path.steps) {
        const e = step.event as ModelEvent;
        const sock = () => h.factory.last();
        const wasLive = h.state() === 'connecting' || h.state() === 'open';
        const unauthorizedBefore = h.unauthorized.count;
        switch (e.type) {
          case 'xstate.init' as string:
            break;
          case 'socket.open':
            sock().open();
            break;
          case 'socket.frame':
            sock().frame(e.data);
            break;
          case 'socket.closed':
            sock().close(e.code, e.reason);
            break;
          case 'socket.error':
            sock().error(e.message);
            break;
          case PING:
            h.clock.increment(35_000);
            break;
          case RECONNECT:
            h.clock.increment(10_000);
            break;
          default:
            h.actor.send(e as SocketEvent);
        }
        const expected = step.state as Snap;
        expect(h.state()).toBe(leaf(expected));
        expect(h.actor.getSnapshot().context.token !== null).toBe(expected.context.token !== null);
        // close 4001 on a live user socket: 401 flow (token dropped, idle, one socket.unauthorized); nothing else emits it
        const unauthorizedClose = kind === 'user' && wasLive && e.type === 'socket.closed' && e.code === 4001;
        expect(h.unauthorized.count).toBe(unauthorizedBefore + (unauthorizedClose ? 1 : 0));
        if (unauthorizedClose) expect([h.state(), h.actor.getSnapshot().context.token]).toEqual(['idle', null]);
        expect(h.actor.getSnapshot().context.connected).toBe(leaf(expected) === 'open');
        expect(Object.keys(h.actor.getSnapshot().context.topics)).toEqual(Object.keys(expected.context.topics));
        // a live connection exists exactly in connecting/open, and only the newest one is not closed
        const open = h.factory.sockets.filter((s) => !s.closedByApp).length;
        expect(open).toBe(leaf(expected) === 'connecting' || leaf(expected) === 'open' ? 1 : 0);
      }
    });
  });
}
