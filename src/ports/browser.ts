import { createFetch } from 'ofetch';
import { envelopeSchema } from '../protocol/envelope.ts';
import type { Clock, Http, HttpOutcome, HttpRequest, Ports, Random, ReplayHost, SocketFactory, Storage } from './types.ts';

/**
 * Browser adapters: the only code that touches Date.now, setTimeout, fetch, WebSocket,
 * localStorage and crypto. Built once by the composition root (main.tsx) and wrapped in the
 * recording adapters by createAppCore.
 */

export const API_BASE = '/api';
export const REQUEST_TIMEOUT_MS = 30_000;
export const CLIENT_ID = 'web';
export const DEFAULT_LANG = 'hk';

export const browserClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof globalThis.setTimeout>),
};

/** The real page under a browser replay (`?replay=<url>`): its fetch and its timers. */
export const browserReplayHost: ReplayHost = {
  async fetchText(url) {
    const res = await fetch(url);
    return res.ok ? { ok: true, text: await res.text() } : { ok: false, status: res.status };
  },
  wait: (ms) => new Promise<void>((resolve) => globalThis.setTimeout(resolve, ms)),
};

/** localStorage that never throws (private mode, quota, disabled storage): failures read as absent. */
export function createBrowserStorage(target: () => globalThis.Storage | undefined = () => globalThis.localStorage): Storage {
  return {
    get(key) {
      try {
        return target()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        target()?.setItem(key, value);
      } catch {
        // quota or disabled storage: the value lives only in memory state for this session
      }
    },
    remove(key) {
      try {
        target()?.removeItem(key);
      } catch {
        // see set()
      }
    },
  };
}

export interface BrowserHttpOptions {
  /** Current language for the Web-Lang header. */
  getLang: () => string;
  /** Stored token for the Authorization header; the header is omitted when null. */
  getToken: () => string | null;
  /** Injected fetch (tests); defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
  baseURL?: string;
  timeout?: number;
}

function toBody(req: HttpRequest): BodyInit | Record<string, unknown> | undefined {
  if (req.body === undefined) return undefined;
  if (req.form && typeof req.body === 'object' && req.body !== null && !(req.body instanceof FormData)) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) {
      if (v !== undefined && v !== null) params.append(k, String(v));
    }
    return params;
  }
  return req.body as BodyInit | Record<string, unknown>;
}

/**
 * Http over ofetch (SPEC §7): base /api, 30 s timeout, headers Web-Lang, Authorization, Client.
 * Any HTTP response whose body is an envelope yields `{kind:'envelope'}` whatever its status;
 * network failure, timeout, abort or a non-envelope body yields `{kind:'networkError'}`.
 */
export function createBrowserHttp(options: BrowserHttpOptions): Http {
  const $fetch = createFetch({ fetch: options.fetch ?? ((...a) => globalThis.fetch(...a)) });
  return {
    async request(req, signal): Promise<HttpOutcome> {
      const headers: Record<string, string> = { 'Web-Lang': options.getLang(), Client: CLIENT_ID, ...req.headers };
      const token = options.getToken();
      if (token) headers.Authorization = token;
      try {
        const res = await $fetch.raw(req.path, {
          baseURL: options.baseURL ?? API_BASE,
          method: req.method,
          query: req.query,
          body: toBody(req),
          headers,
          timeout: options.timeout ?? REQUEST_TIMEOUT_MS,
          signal,
          retry: 0,
          ignoreResponseError: true,
        });
        const parsed = envelopeSchema.safeParse(res._data);
        if (parsed.success) return { kind: 'envelope', envelope: parsed.data };
        return { kind: 'networkError', message: `Unexpected response (HTTP ${res.status})` };
      } catch (e) {
        return { kind: 'networkError', message: e instanceof Error && e.message ? e.message : 'Error' };
      }
    },
  };
}

export interface BrowserSocketOptions {
  /** Page location to resolve relative URLs against; defaults to `location.href`. */
  base?: () => string;
  WebSocketImpl?: typeof globalThis.WebSocket;
  /**
   * Current language, sent as the `lang` query (a browser WebSocket has no headers): the socket's
   * Web-Lang, the language of the user socket's answers (orders over the socket, issue 28).
   */
  getLang?: () => string;
}

/**
 * `/api/ws/market` → `ws(s)://<host>/api/ws/market`, following the page's scheme; with `lang`,
 * `?lang=<lang>` is added unless the URL has one. The recorded URL stays the core's own.
 */
export function resolveSocketUrl(url: string, base: string, lang?: string): string {
  const u = new URL(url, base);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  if (lang && !u.searchParams.has('lang')) u.searchParams.set('lang', lang);
  return u.toString();
}

export function createBrowserSocket(options: BrowserSocketOptions = {}): SocketFactory {
  return {
    open(url, handlers) {
      const Impl = options.WebSocketImpl ?? globalThis.WebSocket;
      const ws = new Impl(resolveSocketUrl(url, options.base ? options.base() : globalThis.location.href, options.getLang?.()));
      ws.onopen = () => handlers.onOpen();
      ws.onmessage = (ev: MessageEvent) => {
        if (typeof ev.data === 'string') handlers.onFrame(ev.data);
      };
      ws.onclose = (ev: CloseEvent) => handlers.onClose(ev.code, ev.reason);
      ws.onerror = () => handlers.onError('WebSocket error');
      return {
        send(data) {
          if (ws.readyState === ws.OPEN) ws.send(data);
        },
        close() {
          ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
          ws.close();
        },
      };
    },
  };
}

export const browserRandom: Random = {
  id() {
    const bytes = new Uint8Array(16);
    globalThis.crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  },
};

export interface BrowserPortsOptions {
  /** Current language; defaults to the stored 'lang' or 'hk' (SPEC §9). */
  getLang?: () => string;
}

/** The live port set for the browser. Token and language are read from storage on every request. */
export function createBrowserPorts(options: BrowserPortsOptions = {}): Ports {
  const storage = createBrowserStorage();
  const getLang = options.getLang ?? (() => storage.get('lang') ?? DEFAULT_LANG);
  return {
    clock: browserClock,
    storage,
    http: createBrowserHttp({ getLang, getToken: () => storage.get('token') }),
    socket: createBrowserSocket({ getLang }),
    random: browserRandom,
  };
}

/** What the page lifecycle reports (the core's `wake`, src/core/pageWake.ts). */
export interface PageLifecycleHandlers {
  hidden(): void;
  visible(): void;
  online(): void;
}

/**
 * Reports the page's visibility changes and the browser coming back online to `handlers` (the live
 * composition root only: a replay gets the resulting intents from its log). Returns the unsubscribe.
 */
export function onPageLifecycle(doc: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>, win: Pick<Window, 'addEventListener' | 'removeEventListener'>, handlers: PageLifecycleHandlers): () => void {
  const onVisibility = () => (doc.visibilityState === 'hidden' ? handlers.hidden() : handlers.visible());
  const onOnline = () => handlers.online();
  doc.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('online', onOnline);
  if (doc.visibilityState === 'hidden') handlers.hidden();
  return () => {
    doc.removeEventListener('visibilitychange', onVisibility);
    win.removeEventListener('online', onOnline);
  };
}
