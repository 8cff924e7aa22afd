import type { Http, HttpOutcome, HttpRequest, SocketFactory, SocketHandlers, Storage } from './types.ts';

/**
 * In-memory port implementations for tests, headless runs and component previews. They are real
 * implementations of the port contracts (not mocks of the code under test): a Map-backed Storage,
 * an Http answered by a script, and a SocketFactory whose connections the test drives by hand.
 */

export function createMemoryStorage(initial: Record<string, string> = {}): Storage & { dump(): Record<string, string> } {
  const m = new Map(Object.entries(initial));
  return {
    get: (k) => m.get(k) ?? null,
    set: (k, v) => void m.set(k, v),
    remove: (k) => void m.delete(k),
    dump: () => Object.fromEntries(m),
  };
}

export type HttpResponder = (req: HttpRequest) => HttpOutcome | Promise<HttpOutcome>;

export interface ScriptedHttp extends Http {
  /** Every request received, in order. */
  readonly requests: HttpRequest[];
  /** Answer requests to `METHOD path` with `responder` (later registrations win). */
  on(method: HttpRequest['method'], path: string, responder: HttpResponder | HttpOutcome): void;
}

/** Envelope outcome helper. */
export const envelope = (code: number, msg: string, data: unknown = null): HttpOutcome => ({
  kind: 'envelope',
  envelope: { code, msg, data },
});

/** An Http whose answers are scripted per route; an unscripted route answers a network error. */
export function createScriptedHttp(): ScriptedHttp {
  const routes = new Map<string, HttpResponder>();
  const requests: HttpRequest[] = [];
  return {
    requests,
    on(method, path, responder) {
      routes.set(`${method} ${path}`, typeof responder === 'function' ? responder : () => responder);
    },
    async request(req, signal) {
      requests.push(req);
      if (signal?.aborted) return { kind: 'networkError', message: 'aborted' };
      const r = routes.get(`${req.method} ${req.path}`);
      return r ? r(req) : { kind: 'networkError', message: `no script for ${req.method} ${req.path}` };
    },
  };
}

export interface ScriptedSocket {
  url: string;
  /** Frames the app sent, in order. */
  sent: string[];
  /** True once the app closed this connection. */
  closedByApp: boolean;
  open(): void;
  frame(data: unknown): void;
  close(code?: number, reason?: string): void;
  error(message?: string): void;
}

export interface ScriptedSocketFactory extends SocketFactory {
  readonly sockets: ScriptedSocket[];
  /** The most recently opened connection (throws when none: a test bug). */
  last(): ScriptedSocket;
}

/** A SocketFactory whose connections only do what the test tells them to. */
export function createScriptedSocketFactory(): ScriptedSocketFactory {
  const sockets: ScriptedSocket[] = [];
  return {
    sockets,
    last() {
      const s = sockets[sockets.length - 1];
      if (!s) throw new Error('no socket opened');
      return s;
    },
    open(url, handlers: SocketHandlers) {
      const s: ScriptedSocket = {
        url,
        sent: [],
        closedByApp: false,
        open: () => handlers.onOpen(),
        frame: (data) => handlers.onFrame(typeof data === 'string' ? data : JSON.stringify(data)),
        close: (code = 1006, reason = '') => handlers.onClose(code, reason),
        error: (message = 'error') => handlers.onError(message),
      };
      sockets.push(s);
      return {
        send: (data) => void s.sent.push(data),
        close: () => {
          s.closedByApp = true;
        },
      };
    },
  };
}
