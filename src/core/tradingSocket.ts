import type { Observable, Subscription } from 'rxjs';
import type { InboundFrame } from '../machines/socketMachine.ts';
import type { Clock, Http, HttpOutcome, HttpRequest, SocketFactory, TimerId } from '../ports/types.ts';
import { SOCKET_METHOD_NAMES, socketMethodOfPath, type SocketMethod } from '../protocol/socketApi.ts';

/**
 * The trading calls over the user socket (issue 28 point 6; the server side is
 * server/ws/userSocket.ts, the protocol src/protocol/socketApi.ts and docs/PROTOCOL.md §User
 * socket 5).
 *
 * It sits under the core's ApiClient as a transport: a POST to the route of `order.place`,
 * `order.cancel`, `order.edit` or `position.close` goes out as `{id, method, params}` on the user
 * socket when that socket is open and its server announced the method in the `authed` frame
 * (`{type:'authed', userId, methods}`), and its answer `{type:'response', id, code, msg, data}`
 * comes back as the same `HttpOutcome` envelope the HTTP route would give. So the ApiClient maps
 * it to the same resolutions and rejections (ApiError with the server's message in the user's
 * language, the 401 flow, NetworkError), tradingApi.ts to the same OrderAck / PlaceFailure, and
 * every screen shows what it showed over HTTP. Otherwise (no socket, not yet authed, a server
 * that announces nothing: an older server, or a log recorded before issue 28) the call is HTTP.
 *
 * - **Correlation**: ids are a counter of this core (1, 2, 3 …): requests are made in the order
 *   of the recorded intents and answers, so a replay draws the same ids (no Math.random, no
 *   clock). Answers may come in any order; an answer is taken only for a request in flight on the
 *   same connection; any other (an unknown id, a second answer, a stale connection's) is ignored.
 * - **Never twice**: a request is sent once, on one connection. When that connection closes or
 *   errs (or the core drops it) before the answer, the request is answered ONCE as a network
 *   failure, as a dropped HTTP call would be, and nothing is re-sent: the order machine shows
 *   "network error, retry", and its retry posts the same clientOrderId, which the server answers
 *   with the order it already has (idempotency shared by both doors), over whichever door is open
 *   then. A request without an answer in {@link SOCKET_REQUEST_TIMEOUT_MS} (HTTP's own timeout)
 *   is a network failure too (its timer is the core clock's, so replay re-fires it).
 * - **Recorded and replayed**: the frames go through the recording socket port like every
 *   frame (`ws.out` for the request, `ws.in` for the answer); replay needs no live socket: the
 *   replay port checks the request against the recorded `ws.out` and the driver delivers the
 *   recorded answer. {@link TradingSocket.settled} tells the driver a promise was settled, so it
 *   lets the machine take the answer before the next record (src/core/replay/driver.ts).
 */

/** HTTP's timeout (src/ports/browser.ts REQUEST_TIMEOUT_MS): a request unanswered this long is a network failure. */
export const SOCKET_REQUEST_TIMEOUT_MS = 30_000;
/** The network-failure messages (the transport's, like HTTP's; the screens show their own translated text). */
export const SOCKET_CLOSED_MSG = 'The connection closed before the answer';
export const SOCKET_TIMEOUT_MSG = 'No answer in time';
export const SOCKET_ABORTED_MSG = 'aborted';
export const SOCKET_BAD_ANSWER_MSG = 'Unexpected answer';

export interface TradingSocket {
  /** Wraps the user socket's SocketFactory: sees its connections open, close and receive; sends on the current one. */
  tap(factory: SocketFactory): SocketFactory;
  /** `http` with the socket methods' POSTs over the user socket while it can take them. */
  route(http: Http): Http;
  /** The method `req` would go over the socket with now, or null (HTTP). */
  methodFor(req: HttpRequest): SocketMethod | null;
  /** Requests sent and not answered yet. */
  inFlight(): number;
  /** How many requests were settled so far (answered, failed, timed out or aborted). */
  settled(): number;
  /** Stops following frames; requests in flight fail as network failures. */
  stop(): void;
}

export interface TradingSocketDeps {
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>;
  /** The user socket's parsed frames, delivered synchronously inside the connection's frame handler. */
  frames$: Observable<InboundFrame>;
  timeoutMs?: number;
}

interface Conn {
  send(data: string): void;
  /** The methods the server announced on this connection; null until `authed`. */
  methods: ReadonlySet<SocketMethod> | null;
  ended: boolean;
}

interface Pending {
  conn: Conn;
  settle(outcome: HttpOutcome): void;
}

const isPlainBody = (body: unknown): body is Record<string, unknown> =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && !(typeof FormData !== 'undefined' && body instanceof FormData);

export function createTradingSocket(deps: TradingSocketDeps): TradingSocket {
  const timeoutMs = deps.timeoutMs ?? SOCKET_REQUEST_TIMEOUT_MS;
  const pending = new Map<number, Pending>();
  let current: Conn | null = null;
  /** The connection whose frame is being delivered (frames reach `frames$` synchronously from its handler). */
  let receiving: Conn | null = null;
  let nextId = 0;
  let settledCount = 0;

  const failAll = (c: Conn | null, message: string): void => {
    for (const p of [...pending.values()]) if (c === null || p.conn === c) p.settle({ kind: 'networkError', message });
  };
  const end = (c: Conn): void => {
    if (c.ended) return;
    c.ended = true;
    c.methods = null;
    if (current === c) current = null;
    failAll(c, SOCKET_CLOSED_MSG);
  };

  const onFrame = (f: InboundFrame): void => {
    const c = receiving;
    if (c === null || c.ended) return;
    if (f.type === 'authed') {
      const announced = Array.isArray(f.methods) ? (f.methods as unknown[]) : [];
      c.methods = new Set(SOCKET_METHOD_NAMES.filter((m) => announced.includes(m)));
      return;
    }
    if (f.type !== 'response' || typeof f.id !== 'number') return;
    const p = pending.get(f.id);
    if (!p || p.conn !== c) return;
    if (typeof f.code !== 'number') return p.settle({ kind: 'networkError', message: SOCKET_BAD_ANSWER_MSG });
    p.settle({ kind: 'envelope', envelope: { code: f.code, msg: typeof f.msg === 'string' ? f.msg : '', data: f.data ?? null } });
  };
  const sub: Subscription = deps.frames$.subscribe(onFrame);

  const methodFor = (req: HttpRequest): SocketMethod | null => {
    if (req.method !== 'POST' || req.form || !isPlainBody(req.body)) return null;
    const m = socketMethodOfPath(req.path);
    return m !== null && current !== null && current.methods?.has(m) ? m : null;
  };

  const request = (conn: Conn, method: SocketMethod, params: Record<string, unknown>, signal?: AbortSignal): Promise<HttpOutcome> =>
    new Promise<HttpOutcome>((resolve) => {
      if (signal?.aborted) return resolve({ kind: 'networkError', message: SOCKET_ABORTED_MSG });
      nextId += 1;
      const id = nextId;
      let timer: TimerId | null = null;
      const onAbort = (): void => entry.settle({ kind: 'networkError', message: SOCKET_ABORTED_MSG });
      const entry: Pending = {
        conn,
        settle(outcome) {
          if (pending.get(id) !== entry) return;
          pending.delete(id);
          if (timer !== null) deps.clock.clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          settledCount += 1;
          resolve(outcome);
        },
      };
      pending.set(id, entry);
      timer = deps.clock.setTimeout(() => {
        timer = null;
        entry.settle({ kind: 'networkError', message: SOCKET_TIMEOUT_MSG });
      }, timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        conn.send(JSON.stringify({ id, method, params }));
      } catch (e) {
        entry.settle({ kind: 'networkError', message: e instanceof Error && e.message ? e.message : SOCKET_CLOSED_MSG });
      }
    });

  return {
    tap: (factory) => ({
      open(url, handlers) {
        const c: Conn = { send: () => {}, methods: null, ended: false };
        const inner = factory.open(url, {
          onOpen: () => handlers.onOpen(),
          onFrame: (data) => {
            const outer = receiving;
            receiving = c;
            try {
              handlers.onFrame(data);
            } finally {
              receiving = outer;
            }
          },
          onClose: (code, reason) => {
            end(c);
            handlers.onClose(code, reason);
          },
          onError: (message) => {
            end(c);
            handlers.onError(message);
          },
        });
        c.send = (data) => inner.send(data);
        current = c;
        return {
          send: (data) => inner.send(data),
          close: () => {
            end(c);
            inner.close();
          },
        };
      },
    }),
    route: (http) => ({
      request(req, signal) {
        const m = methodFor(req);
        // methodFor checked both: a socket is current and the body is a plain object.
        return m !== null && current !== null && isPlainBody(req.body) ? request(current, m, req.body, signal) : http.request(req, signal);
      },
    }),
    methodFor,
    inFlight: () => pending.size,
    settled: () => settledCount,
    stop() {
      sub.unsubscribe();
      failAll(null, SOCKET_CLOSED_MSG);
    },
  };
}
