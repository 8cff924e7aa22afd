import type { Envelope } from '../protocol/envelope.ts';
import { Code } from '../protocol/envelope.ts';
import type { Http, HttpRequest } from '../ports/types.ts';

/**
 * A call that reached the server and came back with a non-success envelope code (SPEC §8).
 * `msg` is the server text, or 'Error' when the server sent none. A 401 also rejects with an
 * ApiError (after `onUnauthorized` ran), so callers can tell it apart by `code`.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly msg: string;
  constructor(code: number, msg: string) {
    super(msg);
    this.name = 'ApiError';
    this.code = code;
    this.msg = msg;
  }
}

/** The transport failed (offline, timeout, a response that is not a JSON envelope). No envelope exists. */
export class NetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkError';
  }
}

/** True when a rejection is the SPEC §8 "201: rejected with the whole response" case. */
export function isSpecialEnvelope(e: unknown): e is Envelope<unknown> {
  return typeof e === 'object' && e !== null && !(e instanceof Error) && (e as { code?: unknown }).code === Code.special;
}

/** Query values accepted by {@link ApiClient.get}; `undefined` entries are dropped. */
export type Query = Record<string, string | number | boolean | undefined>;

export interface PostOptions {
  /** Send as application/x-www-form-urlencoded (login, SPEC §7). */
  form?: boolean;
  signal?: AbortSignal;
}

/**
 * The app's only way to call /api. Every call goes through the Http port, so it is recorded and
 * replayable. `get`/`post` resolve with `data` of a code-200 envelope; `request` resolves with the
 * whole envelope (use it when the server `msg` matters, e.g. the login success toast).
 *
 * Rejections (SPEC §8):
 * - 401 → `onUnauthorized()` is called first, then rejects with `ApiError(401, msg)`;
 * - 201 → rejects with the whole envelope object (not an Error; see {@link isSpecialEnvelope});
 * - any other non-200 code → rejects with `ApiError(code, msg || 'Error')`;
 * - network failure / timeout → `onNetworkError(message || 'Error')`, then rejects with `NetworkError`.
 */
export interface ApiClient {
  get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T>;
  post<T>(path: string, body?: unknown, options?: PostOptions): Promise<T>;
  request<T>(req: HttpRequest, signal?: AbortSignal): Promise<Envelope<T>>;
}

export interface ApiClientDeps {
  http: Http;
  /** Called before a 401 rejection: the session clears the token and navigates to login. */
  onUnauthorized: () => void;
  /** Called before a network-failure rejection: the UI shows an error toast with `message`. */
  onNetworkError: (message: string) => void;
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  const request = async <T>(req: HttpRequest, signal?: AbortSignal): Promise<Envelope<T>> => {
    const outcome = await deps.http.request(req, signal);
    if (outcome.kind === 'networkError') {
      const message = outcome.message || 'Error';
      // NOTE: a request the caller cancelled (state exited, component unmounted) is not a network failure: no toast.
      if (signal?.aborted) throw new NetworkError(message);
      deps.onNetworkError(message);
      throw new NetworkError(message);
    }
    const env = outcome.envelope;
    switch (env.code) {
      case Code.ok:
        return env as Envelope<T>;
      case Code.unauthorized:
        deps.onUnauthorized();
        throw new ApiError(env.code, env.msg || 'Error');
      case Code.special:
        // NOTE: SPEC §8 — the whole envelope is the rejection value, for the caller to handle.
        throw env;
      default:
        throw new ApiError(env.code, env.msg || 'Error');
    }
  };
  return {
    request,
    async get<T>(path: string, query?: Query, signal?: AbortSignal): Promise<T> {
      const req: HttpRequest = { method: 'GET', path };
      if (query) req.query = query;
      return (await request<T>(req, signal)).data;
    },
    async post<T>(path: string, body?: unknown, options: PostOptions = {}): Promise<T> {
      const req: HttpRequest = { method: 'POST', path };
      if (body !== undefined) req.body = body;
      if (options.form) req.form = true;
      return (await request<T>(req, options.signal)).data;
    },
  };
}

/** The text to show for any rejection of the client: server msg, network message, or 'Error'. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || 'Error';
  if (typeof e === 'object' && e !== null && typeof (e as { msg?: unknown }).msg === 'string') {
    return (e as { msg: string }).msg || 'Error';
  }
  return 'Error';
}
