import { assign, emit, enqueueActions, fromCallback, sendTo, setup } from 'xstate';
import type { Clock, SocketFactory } from '../ports/types.ts';
import { USER_SOCKET_CLOSE_UNAUTHORIZED } from '../protocol/market.ts';

/**
 * One lifecycle for both sockets (SPEC §4, §7, §9): the market socket and the user socket.
 *
 *   idle ──start──▶ live.connecting ──open──▶ live.open ──closed/error──▶ reconnecting ──10 s──▶ live
 *
 * - While `live.open` a ping goes out every 35 s (`pingInterval`); the timestamp (Unix seconds) is
 *   taken from the injected Clock by the connection actor, never by the machine.
 * - Topics are reference-counted in `context.topics`: the first subscriber of a topic sends
 *   `subscribe`, the last unsubscriber sends `unsubscribe`, and on every (re)open all topics with a
 *   positive count are sent again in one `subscribe` (so a reconnect never loses a topic).
 * - The user socket (`kind: 'user'`) sends `{action:'auth', token}` first on open and connects or
 *   reconnects only while it has a token; `socket.setToken` with null (logout) or `socket.stop`
 *   returns to `idle` and cancels any reconnect.
 * - A user socket closed by the server with 4001 (`USER_SOCKET_CLOSE_UNAUTHORIZED`: bad token, or
 *   the session was revoked by logout, password reset or change, or expired) drops its token, goes
 *   to `idle` without reconnecting and emits `socket.unauthorized`; the core turns that into the
 *   session's `session.unauthorized` (SPEC §8 401 flow: token cleared, /login?redirect=<path>).
 * - Incoming frames are parsed JSON objects with a string `type`; they leave the machine as the
 *   emitted `{type:'frame', frame}` (the core feeds an RxJS Subject from it). Anything else is
 *   emitted as `socket.badFrame`. Errors are emitted as `socket.error` for the event log.
 */

export type SocketKind = 'market' | 'user';

/** A parsed server frame, dispatched by `type` downstream (narrow it with the protocol schemas). */
export type InboundFrame = { type: string } & Record<string, unknown>;

export interface SocketContext {
  url: string;
  kind: SocketKind;
  token: string | null;
  /** topic → number of subscribers (> 0). Insertion order is the resubscription order. */
  topics: Record<string, number>;
  connected: boolean;
  /** Connection attempts since the last successful open (0 while open). */
  attempts: number;
  lastError: string | null;
}

export interface SocketInput {
  url: string;
  kind: SocketKind;
  /** The user socket's token at start; without one the user socket waits in `idle`. */
  token?: string | null;
}

/** Events the connection actor sends back to the machine. */
export type ConnectionEvent =
  | { type: 'socket.open' }
  | { type: 'socket.frame'; data: string }
  | { type: 'socket.closed'; code: number; reason: string }
  | { type: 'socket.error'; message: string };

export type SocketEvent =
  | ConnectionEvent
  | { type: 'socket.subscribe'; topics: string[] }
  | { type: 'socket.unsubscribe'; topics: string[] }
  | { type: 'socket.start' }
  | { type: 'socket.stop' }
  | { type: 'socket.reconnectNow' }
  | { type: 'socket.setToken'; token: string | null };

/** Commands the machine sends to the connection actor. */
export type ConnectionCommand = { type: 'conn.send'; data: string } | { type: 'conn.ping' };

export type SocketEmitted =
  | { type: 'frame'; frame: InboundFrame }
  | { type: 'socket.badFrame'; data: string }
  | { type: 'socket.error'; message: string }
  | { type: 'socket.unauthorized' };

export const PING_INTERVAL = 35_000;
export const RECONNECT_DELAY = 10_000;

/** Parses one text frame; null when it is not a JSON object with a string `type`. */
export function parseFrame(data: string): InboundFrame | null {
  try {
    const v: unknown = JSON.parse(data);
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { type?: unknown }).type === 'string') {
      return v as InboundFrame;
    }
  } catch {
    // fall through: not JSON
  }
  return null;
}

const activeTopics = (topics: Record<string, number>): string[] => Object.keys(topics).filter((t) => (topics[t] ?? 0) > 0);

const addTopics = (topics: Record<string, number>, add: readonly string[]) => {
  const next = { ...topics };
  const fresh: string[] = [];
  for (const t of add) {
    const n = next[t] ?? 0;
    if (n === 0 && !fresh.includes(t)) fresh.push(t);
    next[t] = n + 1;
  }
  return { next, fresh };
};

const removeTopics = (topics: Record<string, number>, remove: readonly string[]) => {
  const next = { ...topics };
  const gone: string[] = [];
  for (const t of remove) {
    const n = next[t] ?? 0;
    if (n <= 0) continue;
    if (n === 1) {
      delete next[t];
      gone.push(t);
    } else next[t] = n - 1;
  }
  return { next, gone };
};

const command = (msg: unknown): ConnectionCommand => ({ type: 'conn.send', data: JSON.stringify(msg) });

const notProvided = fromCallback<ConnectionCommand, { url: string }>(() => {
  throw new Error("socketMachine: actor 'connection' not provided (use provideSocket)");
});

export const socketMachine = setup({
  types: {
    context: {} as SocketContext,
    events: {} as SocketEvent,
    input: {} as SocketInput,
    emitted: {} as SocketEmitted,
  },
  actors: { connection: notProvided },
  delays: { pingInterval: PING_INTERVAL, reconnectDelay: RECONNECT_DELAY },
  guards: {
    mayConnect: ({ context }) => context.kind === 'market' || context.token !== null,
    tokenGone: ({ context, event }) => context.kind === 'user' && event.type === 'socket.setToken' && event.token === null,
    closedUnauthorized: ({ context, event }) =>
      context.kind === 'user' && event.type === 'socket.closed' && event.code === USER_SOCKET_CLOSE_UNAUTHORIZED,
    tokenArrived: ({ context, event }) => context.kind === 'market' || (event.type === 'socket.setToken' && event.token !== null),
  },
  actions: {
    sendPing: sendTo('conn', { type: 'conn.ping' as const }),
    /** On every open: auth first (user socket), then one subscribe with every remembered topic. */
    onOpen: enqueueActions(({ context, enqueue }) => {
      enqueue.assign({ connected: true, attempts: 0, lastError: null });
      if (context.kind === 'user') enqueue.sendTo('conn', command({ action: 'auth', token: context.token ?? '' }));
      const topics = activeTopics(context.topics);
      if (topics.length > 0) enqueue.sendTo('conn', command({ action: 'subscribe', topics }));
    }),
    /** Count the subscribers; only topics going from 0 to 1 subscriber are sent. */
    subscribeNow: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'socket.subscribe') return;
      const { next, fresh } = addTopics(context.topics, event.topics);
      enqueue.assign({ topics: next });
      if (fresh.length > 0) enqueue.sendTo('conn', command({ action: 'subscribe', topics: fresh }));
    }),
    /** Only topics whose last subscriber left are unsubscribed on the wire. */
    unsubscribeNow: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'socket.unsubscribe') return;
      const { next, gone } = removeTopics(context.topics, event.topics);
      enqueue.assign({ topics: next });
      if (gone.length > 0) enqueue.sendTo('conn', command({ action: 'unsubscribe', topics: gone }));
    }),
    markDown: assign({ connected: false }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    dropToken: assign({ token: null }),
    emitUnauthorized: emit({ type: 'socket.unauthorized' as const }),
    storeToken: assign({ token: ({ context, event }) => (event.type === 'socket.setToken' ? event.token : context.token) }),
    recordError: assign({
      lastError: ({ context, event }) => (event.type === 'socket.error' ? event.message : context.lastError),
    }),
    emitError: emit(({ event }) => ({
      type: 'socket.error' as const,
      message: event.type === 'socket.error' ? event.message : 'unknown',
    })),
    forwardFrame: emit(({ event }): SocketEmitted => {
      const data = event.type === 'socket.frame' ? event.data : '';
      const frame = parseFrame(data);
      return frame ? { type: 'frame', frame } : { type: 'socket.badFrame', data };
    }),
    trackSubscribe: assign({
      topics: ({ context, event }) =>
        event.type === 'socket.subscribe' ? addTopics(context.topics, event.topics).next : context.topics,
    }),
    trackUnsubscribe: assign({
      topics: ({ context, event }) =>
        event.type === 'socket.unsubscribe' ? removeTopics(context.topics, event.topics).next : context.topics,
    }),
  },
}).createMachine({
  id: 'socket',
  context: ({ input }) => ({
    url: input.url,
    kind: input.kind,
    token: input.token ?? null,
    topics: {},
    connected: false,
    attempts: 0,
    lastError: null,
  }),
  initial: 'init',
  on: {
    // Outside `live.open` a subscription is only remembered; the next open sends it.
    'socket.subscribe': { actions: 'trackSubscribe' },
    'socket.unsubscribe': { actions: 'trackUnsubscribe' },
    'socket.stop': { target: '.idle', actions: 'markDown' },
  },
  states: {
    init: { always: [{ guard: 'mayConnect', target: 'live' }, { target: 'idle' }] },
    idle: {
      on: {
        'socket.start': { guard: 'mayConnect', target: 'live' },
        'socket.setToken': [
          { guard: 'tokenArrived', target: 'live', actions: 'storeToken' },
          { actions: 'storeToken' },
        ],
      },
    },
    live: {
      entry: 'countAttempt',
      invoke: { id: 'conn', src: 'connection', input: ({ context }) => ({ url: context.url }) },
      initial: 'connecting',
      on: {
        'socket.frame': { actions: 'forwardFrame' },
        'socket.closed': [
          { guard: 'closedUnauthorized', target: 'idle', actions: ['markDown', 'dropToken', 'emitUnauthorized'] },
          { guard: 'mayConnect', target: 'reconnecting', actions: 'markDown' },
          { target: 'idle', actions: 'markDown' },
        ],
        'socket.error': [
          { guard: 'mayConnect', target: 'reconnecting', actions: ['markDown', 'recordError', 'emitError'] },
          { target: 'idle', actions: ['markDown', 'recordError', 'emitError'] },
        ],
        'socket.setToken': [
          { guard: 'tokenGone', target: 'idle', actions: ['storeToken', 'markDown'] },
          // A different user: reconnect so the new token authenticates the connection.
          { target: 'live', reenter: true, actions: ['markDown', 'storeToken'] },
        ],
        'socket.reconnectNow': { target: 'live', reenter: true, actions: 'markDown' },
      },
      states: {
        connecting: { on: { 'socket.open': 'open' } },
        open: {
          entry: 'onOpen',
          initial: 'alive',
          states: {
            alive: {
              after: { pingInterval: { target: 'alive', reenter: true, actions: 'sendPing' } },
            },
          },
          on: {
            'socket.subscribe': { actions: 'subscribeNow' },
            'socket.unsubscribe': { actions: 'unsubscribeNow' },
          },
        },
      },
    },
    reconnecting: {
      after: { reconnectDelay: { guard: 'mayConnect', target: 'live' } },
      on: {
        'socket.reconnectNow': { guard: 'mayConnect', target: 'live' },
        'socket.setToken': [
          { guard: 'tokenGone', target: 'idle', actions: 'storeToken' },
          { actions: 'storeToken' },
        ],
      },
    },
  },
});

export type SocketLogic = typeof socketMachine;

/**
 * The connection actor over the SocketFactory port. `receive` handles outgoing commands, the
 * handlers `sendBack` connection events, and cleanup closes the socket and silences any late
 * handler calls (a browser fires `error` then `close`; only the first reaches the machine).
 * The ping timestamp is Unix seconds from `clock` (the same clock the actor system runs on).
 */
export function createConnectionActor(factory: SocketFactory, clock: Pick<Clock, 'now'>, frames?: FrameSink) {
  return fromCallback<ConnectionCommand, { url: string }>(({ input, sendBack, receive }) => {
    let active = true;
    const back = (e: ConnectionEvent) => {
      if (active) sendBack(e);
    };
    let conn: { send(data: string): void; close(): void } | null = null;
    try {
      conn = factory.open(input.url, {
        onOpen: () => back({ type: 'socket.open' }),
        onFrame: frames
          ? (data) => {
              if (!active) return;
              const frame = parseFrame(data);
              if (frame) frames.frame(frame);
              else frames.badFrame(data);
            }
          : (data) => back({ type: 'socket.frame', data }),
        onClose: (code, reason) => back({ type: 'socket.closed', code, reason }),
        onError: (message) => back({ type: 'socket.error', message: message || 'socket error' }),
      });
    } catch (e) {
      back({ type: 'socket.error', message: e instanceof Error ? e.message : String(e) });
    }
    receive((cmd) => {
      if (!active || !conn) return;
      if (cmd.type === 'conn.send') conn.send(cmd.data);
      else conn.send(JSON.stringify({ action: 'ping', ts: Math.floor(clock.now() / 1000) }));
    });
    return () => {
      active = false;
      conn?.close();
    };
  });
}

/**
 * Where a connection delivers inbound frames when they bypass the machine: parsed frames and the
 * raw text of frames that are not a JSON object with a string `type`.
 */
export interface FrameSink {
  frame(frame: InboundFrame): void;
  badFrame(data: string): void;
}

/**
 * The socket machine with its connection actor built from the ports.
 *
 * Without `frames`, every inbound frame is a `socket.frame` event of the machine, emitted again
 * as `frame` / `socket.badFrame` (what the machine tests observe). With `frames`, the connection
 * hands frames straight to the sink, in the same order and synchronously, and the machine only
 * sees the lifecycle (open, close, error, ping): the frame path then skips a state-machine
 * macrostep per frame, which was a quarter of the replay time of a market log. A frame changes
 * nothing in the machine's snapshot either way (`forwardFrame` only emits), so state hashes are equal.
 */
export function provideSocket(factory: SocketFactory, clock: Pick<Clock, 'now'>, frames?: FrameSink): SocketLogic {
  return socketMachine.provide({ actors: { connection: createConnectionActor(factory, clock, frames) } });
}

/** The top-level state name (`useMarketSocket().status`). */
export type SocketStatus = 'idle' | 'connecting' | 'open' | 'reconnecting';
