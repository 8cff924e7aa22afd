/**
 * Ports: the only doors from the app core to the world (docs/ARCHITECTURE.md, ../shared/DESIGN.md §2).
 * Machines and streams receive these; browser, recording and replay adapters implement them.
 */

export type TimerId = unknown;

/** A superset of XState's `Clock`, so the same object can be passed to `createActor(..., { clock })`. */
export interface Clock {
  /** Unix milliseconds (virtual in replay). */
  now(): number;
  setTimeout(fn: (...args: unknown[]) => void, ms: number): TimerId;
  clearTimeout(id: TimerId): void;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path under /api, starting with '/', e.g. '/user/info'. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body, or a FormData for multipart uploads. */
  body?: unknown;
  /** Send the body as application/x-www-form-urlencoded (SPEC §7: login is a form payload). */
  form?: boolean;
  headers?: Record<string, string>;
}

/** What the transport produced: an envelope, or a network-level failure (no envelope). */
export type HttpOutcome =
  | { kind: 'envelope'; envelope: { code: number; msg: string; data: unknown } }
  | { kind: 'networkError'; message: string };

export interface Http {
  request(req: HttpRequest, signal?: AbortSignal): Promise<HttpOutcome>;
}

export interface Storage {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

export interface SocketHandlers {
  onOpen(): void;
  onFrame(data: string): void;
  onClose(code: number, reason: string): void;
  onError(message: string): void;
}

export interface SocketConnection {
  send(data: string): void;
  close(): void;
}

export interface SocketFactory {
  open(url: string, handlers: SocketHandlers): SocketConnection;
}

export interface Random {
  /** Random hex id (client order ids, nonces). */
  id(): string;
}

export interface Ports {
  clock: Clock;
  http: Http;
  storage: Storage;
  socket: SocketFactory;
  random: Random;
}

/**
 * What the browser replay (src/core/replay/browserReplay.ts) needs of the real page, outside the
 * replayed app's own ports: the log file, and real time for React to render and mount between
 * records (the replayed app's clock is virtual and does not move meanwhile).
 */
export interface ReplayHost {
  /** The text at `url`, or the HTTP status that refused it. */
  fetchText(url: string): Promise<{ ok: true; text: string } | { ok: false; status: number }>;
  /** Resolves after `ms` of real time (0: the next macrotask). */
  wait(ms: number): Promise<void>;
}
