import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import { clientMessageSchema, IDLE_TIMEOUT_MS, USER_SOCKET_CLOSE_UNAUTHORIZED } from '../../src/protocol/market.ts';
import { SOCKET_API_MSG, SOCKET_METHOD_NAMES, SOCKET_METHODS, socketRequestSchema } from '../../src/protocol/socketApi.ts';
import type { SocketAuthed, SocketResponse } from '../../src/protocol/socketApi.ts';
import { helpLangOf } from '../help/service.ts';
import type { RevocationHub } from './revocations.ts';
import { covers } from './revocations.ts';
import type { UserEventBus, UserFrame } from './userBus.ts';

/**
 * Close codes of the user socket (docs/PROTOCOL.md). 4001 is the client's 401 flow (socketMachine
 * emits `socket.unauthorized`): bad token at auth, or the session revoked or expired later.
 */
export const CLOSE_UNAUTHORIZED = USER_SOCKET_CLOSE_UNAUTHORIZED;
export const CLOSE_IDLE = 4000;
export const CLOSE_SLOW_CONSUMER = 1013;
/** The client must authenticate within this long after the socket opens. */
export const AUTH_TIMEOUT_MS = 10_000;
/** An authed socket's token is looked up again at least this often (server clock). */
export const REVALIDATE_MS = 30_000;

/** Who a token belongs to: the session id and expiry let revocations and expiry end the socket. */
export interface SocketIdentity {
  userId: number;
  sessionId?: number;
  /** Server-clock ms; frames stop and the socket closes with 4001 from then on. */
  expiresAt?: number;
}

export interface UserSocketOptions {
  /** Resolves a session token to its user, or null for a bad/expired/revoked token. */
  authenticate: (token: string) => Promise<SocketIdentity | null>;
  /** Session revocations (logout, password reset/change). Default: `app.deps.revocations` when decorated. */
  revocations?: RevocationHub;
  bus: UserEventBus;
  /** Only `now()` is used (last-seen times); the server's clock. */
  clock: { now(): number };
  /** Default AUTH_TIMEOUT_MS. */
  authTimeoutMs?: number;
  /** Default IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  /** How often idle sockets are swept; 0 disables. Default 1000. */
  sweepMs?: number;
  /**
   * Server-clock ms after which the sweeper looks an authed socket's token up again (default
   * REVALIDATE_MS): catches a session ended without the hub (another process, a database edit).
   */
  revalidateMs?: number;
  /** Default 4 MB. */
  maxBufferedBytes?: number;
}

interface UserConn {
  ws: WebSocket;
  /** `verifying`: the token was good once; registered for revocations and looked up again before `authed`. */
  state: 'awaitingAuth' | 'authenticating' | 'verifying' | 'authed' | 'closed';
  who: SocketIdentity | null;
  /** The token, kept for the periodic re-check; cleared when the socket closes. */
  token: string | null;
  /** When the token was last found live (server clock). */
  validatedAt: number;
  revalidating: boolean;
  lastSeen: number;
  unsubscribe: (() => void) | null;
  authTimer: ReturnType<typeof setTimeout> | null;
  /** The language of answers (the URL's `lang`, else the upgrade's Web-Lang header, else English). */
  lang: string;
  /** The client address of the upgrade request (what the HTTP routes would see). */
  ip: string;
}

const OPEN = 1;

/**
 * The user socket GET /api/ws/user: private pushes (order, position, balance) for one user.
 *
 * Protocol: the first message must be `{action:'auth', token}` within `authTimeoutMs`; a bad or
 * missing token, any other first message, or the timeout is answered with
 * `{type:'error',msg:'Unauthorized',code:401}` and close 4001. On success the server sends
 * `{type:'authed', userId, methods}` (`methods`: the requests below, which the app sends only when
 * announced) and from then on every frame published on the bus for that user.
 * Pings are answered with pongs before and after auth; silence longer than `idleTimeoutMs`
 * closes with 4000. A revocation of the socket's session (logout, password reset or change) closes
 * it with 4001 at once and without another frame; every frame is also checked against the
 * session's revocation and expiry when it is sent, so no frame ever goes out for a dead token.
 * Every `revalidateMs` the token is also looked up again (a session ended outside this process).
 * After auth, `{id, method, params}` requests (order.place, order.cancel, order.edit,
 * position.close) run the method's HTTP route in-process and are answered `{type:'response', id,
 * code, msg, data}` with its envelope (src/protocol/socketApi.ts, docs/PROTOCOL.md).
 * Like the market plugin, it expects @fastify/websocket registered at the root.
 */
export const userSocketPlugin: FastifyPluginAsync<UserSocketOptions> = async (app: FastifyInstance, opts) => {
  if (!app.hasDecorator('websocketServer')) await app.register(websocket);
  const authTimeoutMs = opts.authTimeoutMs ?? AUTH_TIMEOUT_MS;
  const idleTimeoutMs = opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const maxBuffered = opts.maxBufferedBytes ?? 4 * 1024 * 1024;
  const conns = new Set<UserConn>();
  const revocations = opts.revocations ?? (app.hasDecorator('deps') ? app.deps.revocations : undefined);

  const finish = (c: UserConn): void => {
    if (c.state === 'closed') return;
    c.state = 'closed';
    c.token = null;
    conns.delete(c);
    if (c.authTimer !== null) clearTimeout(c.authTimer);
    c.unsubscribe?.();
    c.unsubscribe = null;
  };
  const close = (c: UserConn, code: number, reason: string): void => {
    finish(c);
    if (c.ws.readyState === OPEN) c.ws.close(code, reason);
  };
  /** Ends a socket whose token died: close 4001, no farewell frame. */
  const revoke = (c: UserConn): void => close(c, CLOSE_UNAUTHORIZED, 'Session ended');
  const expired = (c: UserConn): boolean => c.who?.expiresAt !== undefined && c.who.expiresAt <= opts.clock.now();
  const send = (c: UserConn, frame: object): void => {
    if (c.ws.readyState !== OPEN || c.state === 'closed') return;
    if (expired(c)) return revoke(c);
    if (c.ws.bufferedAmount > maxBuffered) return close(c, CLOSE_SLOW_CONSUMER, 'Slow consumer');
    c.ws.send(JSON.stringify(frame));
  };
  const unauthorized = (c: UserConn): void => {
    send(c, { type: 'error', msg: 'Unauthorized', code: 401 });
    close(c, CLOSE_UNAUTHORIZED, 'Unauthorized');
  };

  const lookUp = async (token: string): Promise<SocketIdentity | null> => {
    try {
      return await opts.authenticate(token);
    } catch (err) {
      app.log.error({ err }, 'user socket authenticate failed');
      return null;
    }
  };

  const stopRevocations = revocations?.subscribe((r) => {
    for (const c of [...conns]) {
      if ((c.state === 'verifying' || c.state === 'authed') && c.who && covers(r, c.who.userId, c.who.sessionId)) revoke(c);
    }
  });

  /**
   * One `{id, method, params}` request (src/protocol/socketApi.ts): run through the method's HTTP
   * route in-process (`app.inject`), so validation, rate limits and messages are the route's own,
   * and answered with that envelope and the request's id.
   */
  const answer = async (c: UserConn, json: Record<string, unknown>): Promise<void> => {
    const parsed = socketRequestSchema.safeParse(json);
    const rawId = json.id;
    const id = parsed.success ? parsed.data.id : typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
    const reply = (code: number, msg: string, data: unknown = null): void => send(c, { type: 'response', id, code, msg, data } satisfies SocketResponse);
    if (!parsed.success) return reply(400, SOCKET_API_MSG.badRequest);
    const { method, params } = parsed.data;
    const path = Object.hasOwn(SOCKET_METHODS, method) ? SOCKET_METHODS[method as keyof typeof SOCKET_METHODS] : undefined;
    if (path === undefined || c.token === null) return reply(400, SOCKET_API_MSG.unknownMethod);
    const res = await app.inject({
      method: 'POST',
      url: path,
      remoteAddress: c.ip,
      headers: { authorization: c.token, 'content-type': 'application/json', 'web-lang': c.lang, client: 'ws' },
      payload: JSON.stringify(params ?? {}),
    });
    let env: { code?: unknown; msg?: unknown; data?: unknown } = {};
    try {
      env = JSON.parse(res.body) as typeof env;
    } catch {
      env = {};
    }
    if (typeof env.code !== 'number') return reply(500, 'Internal server error');
    return reply(env.code, typeof env.msg === 'string' ? env.msg : '', env.data ?? null);
  };

  const onMessage = async (c: UserConn, data: RawData, isBinary: boolean): Promise<void> => {
    c.lastSeen = opts.clock.now();
    let json: unknown = undefined;
    if (!isBinary) {
      try {
        json = JSON.parse(data.toString());
      } catch {
        json = undefined;
      }
    }
    if (typeof json === 'object' && json !== null && !Array.isArray(json) && 'method' in json) {
      if (c.state === 'awaitingAuth') return unauthorized(c);
      if (c.state !== 'authed') return; // before the auth answer: ignored, as other messages
      return answer(c, json as Record<string, unknown>);
    }
    const parsed = clientMessageSchema.safeParse(json);
    const msg = parsed.success ? parsed.data : null;
    if (msg?.action === 'ping') return send(c, { type: 'pong', ts: msg.ts });
    if (c.state === 'awaitingAuth') {
      if (msg?.action !== 'auth') return unauthorized(c);
      c.state = 'authenticating';
      const who = await lookUp(msg.token);
      // NOTE: the socket may have closed while the lookup was in flight.
      if (c.state !== 'authenticating') return;
      if (who === null) return unauthorized(c);
      c.who = who;
      // NOTE: registered for revocations first, then the token is looked up again: a revocation
      // published between the first lookup and now is in the database by the second one.
      c.state = 'verifying';
      const again = revocations ? await lookUp(msg.token) : who;
      if (c.state !== 'verifying') return; // revoked or closed meanwhile
      if (again === null || again.userId !== who.userId || expired(c)) return unauthorized(c);
      if (c.authTimer !== null) clearTimeout(c.authTimer);
      c.authTimer = null;
      c.state = 'authed';
      c.token = msg.token;
      c.validatedAt = opts.clock.now();
      c.unsubscribe = opts.bus.subscribe(who.userId, (frame: UserFrame) => send(c, frame));
      // The methods it answers: the app sends its orders here only when announced (an older server announces none).
      return send(c, { type: 'authed', userId: who.userId, methods: SOCKET_METHOD_NAMES } satisfies SocketAuthed);
    }
    if (c.state === 'authenticating' || c.state === 'verifying') return; // messages before the auth answer are ignored
    if (msg === null) return send(c, { type: 'error', msg: json === undefined ? 'Malformed JSON' : 'Unknown action', code: 400 });
    if (msg.action === 'auth') return send(c, { type: 'error', msg: 'Already authenticated', code: 400 });
    return send(c, { type: 'error', msg: 'Unsupported action on the user socket', code: 400 });
  };

  const revalidateMs = opts.revalidateMs ?? REVALIDATE_MS;
  /** Looks the token up again; a dead one closes the socket with 4001. */
  const revalidate = async (c: UserConn): Promise<void> => {
    if (c.token === null) return;
    c.revalidating = true;
    const who = await lookUp(c.token);
    c.revalidating = false;
    if (c.state !== 'authed') return;
    if (who === null || who.userId !== c.who?.userId) return revoke(c);
    c.validatedAt = opts.clock.now();
  };

  const sweepMs = opts.sweepMs ?? 1000;
  let sweeper: ReturnType<typeof setInterval> | null = null;
  if (sweepMs > 0) {
    sweeper = setInterval(() => {
      const now = opts.clock.now();
      for (const c of [...conns]) {
        if (now - c.lastSeen > idleTimeoutMs) close(c, CLOSE_IDLE, 'Idle timeout');
        else if (expired(c)) revoke(c);
        else if (c.state === 'authed' && !c.revalidating && now - c.validatedAt >= revalidateMs) void revalidate(c);
      }
    }, sweepMs);
    sweeper.unref();
  }
  app.addHook('onClose', async () => {
    if (sweeper !== null) clearInterval(sweeper);
    stopRevocations?.();
    for (const c of [...conns]) close(c, 1001, 'Server shutting down');
  });

  app.get('/api/ws/user', { websocket: true }, (socket, req) => {
    const lang = helpLangOf((req.query as { lang?: string } | undefined)?.lang, req.headers['web-lang']);
    const c: UserConn = {
      ws: socket, state: 'awaitingAuth', who: null, token: null, validatedAt: 0, revalidating: false, lastSeen: opts.clock.now(), unsubscribe: null, authTimer: null, lang, ip: req.ip,
    };
    conns.add(c);
    c.authTimer = setTimeout(() => {
      c.authTimer = null;
      if (c.state === 'awaitingAuth' || c.state === 'authenticating' || c.state === 'verifying') unauthorized(c);
    }, authTimeoutMs);
    socket.on('message', (data: RawData, isBinary: boolean) => {
      onMessage(c, data, isBinary).catch((err: unknown) => app.log.error({ err }, 'user socket message failed'));
    });
    socket.on('close', () => finish(c));
    socket.on('error', () => finish(c));
  });
};
