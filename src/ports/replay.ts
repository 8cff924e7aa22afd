import type { LogRecord } from './eventLog.ts';
import { VirtualClock } from './virtualClock.ts';
import { stableStringify } from './stateHash.ts';
import { placeholdersOfStandIns } from './standIns.ts';
import type { HttpOutcome, HttpRequest, Ports, SocketHandlers } from './types.ts';
import { parseSocketRequest, socketResponseIdOf, withResponseId } from '../protocol/socketApi.ts';

/**
 * Replay adapters (DESIGN §4): the same port interfaces as the browser set, served from a
 * recorded event log. They never guess:
 * - Http answers each request with the next recorded response for the same `METHOD path`, in
 *   order (a GET may skip recorded reads with another query: see `request`), at the `t` of that response (the promise resolves when the driver delivers the
 *   `http.response` record). A request with no recorded counterpart, or whose query/body differ
 *   from the recording, is reported as a {@link Divergence} (expected vs actual).
 * - Socket connections are matched to recorded connections by URL in opening order; the driver
 *   delivers `ws.opened` / `ws.in` / `ws.close` / `ws.error` to the matched connection's handlers
 *   and checks each `ws.out` against what the app really sent.
 * - Requests over the user socket (`{id, method, params}`, src/core/tradingSocket.ts) are matched
 *   like HTTP requests, not frame by frame: the app's request takes the first recorded request
 *   of its connection with its method and the same params that no other took (else the first
 *   with its method, reported as a divergence), and the recorded answer `{type:'response', id}`
 *   is handed to it with the app's id (the same id when every request of the recording was made
 *   again; a screen's request skipped here shifts them). A recorded request nobody sent is
 *   unissued (headless replay has no screens), and its answer reaches no one.
 * - Storage starts from the `storage.init` values; Random returns the recorded values in order.
 * - The clock is a {@link VirtualClock} starting at the log's `startedAt`.
 */

export interface Divergence {
  /** seq of the record being delivered when it was noticed (null: during start-up). */
  seq: number | null;
  what: 'http' | 'ws' | 'storage' | 'random';
  message: string;
  expected?: unknown;
  actual?: unknown;
}

interface HttpEntry {
  id: number;
  request: LogRecord;
  response: LogRecord | null;
  issued: boolean;
  delivered: boolean;
  /** The app's requests waiting for the recorded answer (a read shared by a later identical read: see `http.request`). */
  waiters: ((o: HttpOutcome) => void)[];
  /** A later identical read of the app shares this entry's answer (at most one, see `http.request`). */
  shared: boolean;
  /** The driver gave up waiting for the app to make it (see `skip`): never taken. */
  skipped: boolean;
}

/** A `{id, method, params}` request recorded on a connection (`ws.out`). */
interface SocketRequestEntry {
  rec: LogRecord;
  method: string;
  params: unknown;
  /** The id of the app's request that took it; null while none did. */
  appId: string | number | null;
  /** Its `ws.out` record was delivered. */
  reached: boolean;
  /** Its answer, when delivered before the app made the request (held for it). */
  answer: string | null;
}

interface AppConn {
  url: string;
  handlers: SocketHandlers;
  /** Frames the app sent that no `ws.out` record has claimed yet. */
  sent: string[];
  /** `ws.out` records reached before the app sent them (a screen that mounts late). */
  awaited: LogRecord[];
  closedByApp: boolean;
  recConn: number | null;
}

export interface ReplayPortsController {
  ports: Ports;
  clock: VirtualClock;
  divergences: Divergence[];
  /** Recorded requests and storage writes the app never made (in headless replay: the screens'). */
  unissued: LogRecord[];
  /**
   * Reads the app made that the recorded page load never made because it was reloaded first (only
   * with {@link ReplayPortsOptions.reloaded}): held unanswered, not divergences.
   */
  cutByReload: Divergence[];
  /** True once the app has made the request of this `http.request` record, or of this `ws.out` socket request (or it is unknown). */
  isIssued(rec: LogRecord): boolean;
  /**
   * The driver waited for this recorded read and the app did not make it (its screen merged two
   * refetches into one here, or is gone): no later read of the app takes it. A later read is a
   * later refetch, so it takes a later recorded read and gets that one's answer at its time, not
   * the stale answer the skipped read had (liquidation-ui: the trade history's refetch after the
   * liquidation took the read skipped before it and showed the fills without the liquidation).
   */
  skip(rec: LogRecord): void;
  /**
   * Delivers one transport record (`http.*`, `ws.*`, `storage.*`, `random`). Returns true when a
   * promise was resolved, so the driver must let microtasks run before the next record.
   */
  deliver(rec: LogRecord): boolean;
  /** Sets the seq used to label divergences found outside {@link deliver} (app-initiated calls). */
  setCurrentSeq(seq: number | null): void;
  /** Requests still waiting for a response that the log does not contain. */
  pendingRequests(): number;
  /**
   * Reports every recorded `ws.out` the app has not sent by now as a divergence (call once, at
   * the end of a replay). Returns how many there were.
   */
  finish(): number;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

/** The outcome a recorded `http.response` stands for. */
export function outcomeOf(rec: LogRecord): HttpOutcome {
  if (rec.envelope && typeof rec.envelope === 'object') {
    const e = rec.envelope as { code?: unknown; msg?: unknown; data?: unknown };
    return { kind: 'envelope', envelope: { code: num(e.code), msg: str(e.msg), data: e.data ?? null } };
  }
  return { kind: 'networkError', message: str(rec.networkError) || 'network error' };
}

/** What a request looks like in the log (FormData described, undefined fields dropped). */
function requestView(req: HttpRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (req.query) out.query = req.query;
  if (req.body !== undefined) {
    if (typeof FormData !== 'undefined' && req.body instanceof FormData) {
      const parts: [string, unknown][] = [];
      req.body.forEach((v, k) => parts.push([k, typeof v === 'string' ? v : { file: v.name, size: v.size, type: v.type }]));
      out.body = { formData: parts };
    } else out.body = req.body;
  }
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

function recordedView(rec: LogRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (rec.query !== undefined) out.query = rec.query;
  if (rec.body !== undefined) out.body = rec.body;
  return out;
}

/**
 * A request body's amounts compared by value: the trading API reads a price or a quantity sent as
 * a JSON number or as a decimal string alike (src/protocol/trading.ts), and the order form now
 * sends exact decimal strings ('0.1') where older recordings hold numbers (0.1). Numbers become
 * the decimal they print as, so both spellings of one amount are the same request.
 */
function sameAmounts(v: unknown): unknown {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) return v.map(sameAmounts);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sameAmounts(x)]));
  return v;
}
const sameRequest = (a: Record<string, unknown>, b: Record<string, unknown>): boolean => stableStringify(sameAmounts(a)) === stableStringify(sameAmounts(b));

export interface ReplayPortsOptions {
  /**
   * The records are one page load of a bundle of several, and the user reloaded the page after its
   * last record (src/ports/logSegments.ts). The recording of the load stops at the reload: a screen
   * the user had just opened may not have made its reads yet (its chunk was still loading), while
   * the replayed one, whose records go by faster than they were recorded, makes them before the
   * replay reaches the reload. So a GET the load has no recorded request left for, made once the
   * load's last `ui.route` was delivered, is held unanswered (as the reloaded page's would have
   * stayed) and listed in {@link ReplayPortsController.cutByReload}, not as a divergence. Reads
   * before that route, writes, and every request of a load not followed by a reload still diverge.
   */
  reloaded?: boolean;
}

/** Builds the replay ports over `records` (in log order) and a clock at `startedAt`. */
export function createReplayPorts(records: readonly LogRecord[], startedAt: number, options: ReplayPortsOptions = {}): ReplayPortsController {
  const clock = new VirtualClock(startedAt);
  const divergences: Divergence[] = [];
  const cutByReload: Divergence[] = [];
  let currentSeq: number | null = null;
  const diverge = (d: Omit<Divergence, 'seq'>) => divergences.push({ seq: currentSeq, ...d });
  // The load's last route: the screen the user had open when the page was reloaded (see ReplayPortsOptions.reloaded).
  const lastRoute = options.reloaded ? [...records].reverse().find((r) => r.kind === 'ui.route') : undefined;
  const cutByTheReload = (method: string): boolean => lastRoute !== undefined && method === 'GET' && currentSeq !== null && currentSeq >= lastRoute.seq;

  // ---- HTTP: per-route queues of recorded requests, responses paired by id ----
  const byId = new Map<number, HttpEntry>();
  const queues = new Map<string, HttpEntry[]>();
  const storageInit = new Map<string, string | null>();
  // Socket requests by `<recorded conn>:<recorded id>`, and per recorded connection in order.
  const socketRequests = new Map<string, SocketRequestEntry>();
  const socketRequestsOf = new Map<number, SocketRequestEntry[]>();
  const randoms: string[] = [];
  for (const rec of records) {
    if (rec.kind === 'http.request') {
      const entry: HttpEntry = { id: num(rec.id), request: rec, response: null, issued: false, delivered: false, waiters: [], shared: false, skipped: false };
      byId.set(entry.id, entry);
      const key = `${str(rec.method)} ${str(rec.path)}`;
      const q = queues.get(key) ?? [];
      q.push(entry);
      queues.set(key, q);
    } else if (rec.kind === 'http.response') {
      const entry = byId.get(num(rec.id));
      if (entry) entry.response = rec;
    } else if (rec.kind === 'storage.init') {
      const key = str(rec.key);
      if (!storageInit.has(key)) storageInit.set(key, typeof rec.value === 'string' ? rec.value : null);
    } else if (rec.kind === 'random') randoms.push(str(rec.value));
    else if (rec.kind === 'ws.out') {
      const r = parseSocketRequest(str(rec.data));
      if (r === null) continue;
      const entry: SocketRequestEntry = { rec, method: r.method, params: r.params, appId: null, reached: false, answer: null };
      socketRequests.set(`${num(rec.conn)}:${r.id}`, entry);
      const list = socketRequestsOf.get(num(rec.conn)) ?? [];
      list.push(entry);
      socketRequestsOf.set(num(rec.conn), list);
    }
  }
  const cursor = new Map<string, number>();

  const http: Ports['http'] = {
    request(req) {
      const key = `${req.method} ${req.path}`;
      const q = queues.get(key) ?? [];
      let at = cursor.get(key) ?? 0;
      while (q[at]?.skipped) at += 1;
      // A secret a replayed form typed is its stand-in: compared as the placeholder the recording holds.
      const actual = placeholdersOfStandIns(requestView(req));
      // A GET is a read: when a screen's refetches were merged into one render here but not in
      // the recording (or the other way round), skip recorded duplicates up to the first read
      // with exactly this query. Writes keep strict order.
      const head = q[at];
      const actualKey = stableStringify(actual);
      const sameRead = (e: HttpEntry) => stableStringify(recordedView(e.request)) === actualKey;
      if (req.method === 'GET' && head && !sameRead(head)) {
        const hit = q.findIndex((e, i) => i > at && !e.skipped && sameRead(e));
        if (hit > at) at = hit;
      }
      const entry = q[at];
      if (!entry && req.method === 'GET') {
        // More reads here than in the recording: the screen's refetches were merged into one there
        // but not here (a React effect ran after the next record under load, say), so an earlier
        // read here already took the recorded request this one stands for. A read is idempotent
        // and the app keeps the latest answer of a list it asked twice: this read shares the
        // oldest recorded read of the same query still waiting for its answer (once each), and
        // both get that answer when its record comes, as in the recording.
        const pending = q.find((e) => e.issued && !e.delivered && !e.shared && sameRead(e));
        if (pending) {
          pending.shared = true;
          return new Promise<HttpOutcome>((resolve) => pending.waiters.push(resolve));
        }
      }
      if (!entry && cutByTheReload(req.method)) {
        cutByReload.push({ seq: currentSeq, what: 'http', message: `${key} was made on the screen opened at seq ${lastRoute?.seq ?? '-'}, which the recorded page left by a reload before making it: held unanswered`, expected: null, actual: { method: req.method, path: req.path, ...requestView(req) } });
        return new Promise<HttpOutcome>(() => undefined);
      }
      if (!entry) {
        diverge({ what: 'http', message: `no recorded request left for ${key}`, expected: null, actual: { method: req.method, path: req.path, ...requestView(req) } });
        return Promise.resolve({ kind: 'networkError', message: `replay: no recorded response for ${key}` });
      }
      cursor.set(key, at + 1);
      entry.issued = true;
      const expected = recordedView(entry.request);
      if (!sameRequest(actual, expected)) {
        diverge({ what: 'http', message: `request ${key} differs from the recording (seq ${entry.request.seq})`, expected, actual });
      }
      if (entry.delivered && entry.response) return Promise.resolve(outcomeOf(entry.response));
      return new Promise<HttpOutcome>((resolve) => entry.waiters.push(resolve));
    },
  };

  // ---- Sockets ----
  const appConns: AppConn[] = [];
  const byRecConn = new Map<number, AppConn>();
  const socket: Ports['socket'] = {
    open(url, handlers) {
      const c: AppConn = { url, handlers, sent: [], awaited: [], closedByApp: false, recConn: null };
      appConns.push(c);
      return {
        send: (data) => {
          const request = parseSocketRequest(data);
          if (request !== null) return sendRequest(c, request, data);
          const rec = c.awaited.shift();
          if (!rec) c.sent.push(data);
          else if (rec.data !== data) diverge({ what: 'ws', message: `frame sent on connection ${num(rec.conn)} differs from the recording (seq ${rec.seq})`, expected: rec.data, actual: data });
        },
        close: () => {
          c.closedByApp = true;
        },
      };
    },
  };
  /** The app's socket request takes its recorded counterpart (see the module comment). */
  const sendRequest = (c: AppConn, request: { id: string | number; method: string; params: unknown }, data: string): void => {
    const free = (c.recConn === null ? [] : (socketRequestsOf.get(c.recConn) ?? [])).filter((e) => e.appId === null && e.method === request.method);
    const same = (e: SocketRequestEntry) => sameRequest({ params: e.params }, { params: request.params });
    const entry = free.find(same) ?? free[0];
    if (!entry) {
      diverge({ what: 'ws', message: `the app sent ${request.method} on connection ${c.recConn ?? '-'}, which the recording does not hold`, expected: null, actual: data });
      return;
    }
    entry.appId = request.id;
    if (!same(entry)) diverge({ what: 'ws', message: `request ${request.method} differs from the recording (seq ${entry.rec.seq})`, expected: entry.params, actual: request.params });
    const held = entry.answer;
    if (held !== null) {
      entry.answer = null;
      // Answered in the recording before the app asked here: answered now, after this send returns.
      void Promise.resolve().then(() => c.handlers.onFrame(withResponseId(held, request.id)));
    }
  };
  const connFor = (rec: LogRecord): AppConn | null => {
    const id = num(rec.conn);
    const hit = byRecConn.get(id);
    if (hit) return hit;
    if (rec.kind === 'ws.open') {
      const url = str(rec.url);
      const c = appConns.find((a) => a.recConn === null && a.url === url);
      if (!c) {
        diverge({ what: 'ws', message: `the app did not open ${url} (recorded connection ${id})`, expected: url, actual: appConns.filter((a) => a.recConn === null).map((a) => a.url) });
        return null;
      }
      c.recConn = id;
      byRecConn.set(id, c);
      return c;
    }
    // NOTE: a ring-truncated log can start mid-connection: adopt the oldest unmatched app connection.
    const c = appConns.find((a) => a.recConn === null);
    if (!c) {
      diverge({ what: 'ws', message: `${rec.kind} for connection ${id}, which the app never opened` });
      return null;
    }
    c.recConn = id;
    byRecConn.set(id, c);
    if (rec.kind !== 'ws.opened') c.handlers.onOpen();
    return c;
  };

  // ---- Storage / Random ----
  const mem = new Map<string, string>();
  for (const [k, v] of storageInit) if (v !== null) mem.set(k, v);
  const writes: { key: string; value: string | null }[] = [];
  const storage: Ports['storage'] = {
    get: (k) => mem.get(k) ?? null,
    set: (k, v) => {
      mem.set(k, v);
      writes.push({ key: k, value: v });
    },
    remove: (k) => {
      mem.delete(k);
      writes.push({ key: k, value: null });
    },
  };
  let drawn = 0;
  const random: Ports['random'] = {
    id() {
      const v = randoms[drawn];
      drawn += 1;
      if (v !== undefined) return v;
      diverge({ what: 'random', message: `the app drew random value #${drawn} but the log has ${randoms.length}` });
      return `replay-random-${drawn}`;
    },
  };

  const unissued: LogRecord[] = [];
  return {
    ports: { clock, http, socket, storage, random },
    clock,
    divergences,
    unissued,
    cutByReload,
    setCurrentSeq(seq) {
      currentSeq = seq;
    },
    pendingRequests: () => [...byId.values()].filter((e) => e.issued && !e.delivered).length,
    skip(rec) {
      if (rec.kind !== 'http.request') return;
      const entry = byId.get(num(rec.id));
      if (entry && !entry.issued) entry.skipped = true;
    },
    isIssued(rec) {
      if (rec.kind !== 'ws.out') return byId.get(num(rec.id))?.issued ?? true;
      const r = parseSocketRequest(str(rec.data));
      const entry = r === null ? undefined : socketRequests.get(`${num(rec.conn)}:${r.id}`);
      return entry === undefined || entry.appId !== null;
    },
    finish() {
      let n = 0;
      for (const c of appConns) {
        for (const rec of c.awaited.splice(0)) {
          n += 1;
          divergences.push({ seq: rec.seq, what: 'ws', message: `the app never sent the frame recorded on connection ${num(rec.conn)}`, expected: rec.data, actual: null });
        }
      }
      // A recorded socket request nobody made here was a screen's, like an HTTP request.
      for (const e of socketRequests.values()) {
        if (e.reached && e.appId === null && !unissued.includes(e.rec)) unissued.push(e.rec);
      }
      return n;
    },
    deliver(rec) {
      currentSeq = rec.seq;
      switch (rec.kind) {
        case 'http.request': {
          const entry = byId.get(num(rec.id));
          if (entry && !entry.issued) unissued.push(rec);
          return false;
        }
        case 'http.response': {
          const entry = byId.get(num(rec.id));
          if (!entry) return false; // its request fell out of the ring
          entry.delivered = true;
          const waiters = entry.waiters.splice(0);
          for (const resolve of waiters) resolve(outcomeOf(rec));
          return waiters.length > 0;
        }
        case 'ws.open':
          connFor(rec);
          return false;
        case 'ws.opened':
          connFor(rec)?.handlers.onOpen();
          return false;
        case 'ws.in': {
          const c = connFor(rec);
          if (!c) return false;
          const data = str(rec.data);
          const answered = socketResponseIdOf(data);
          const entry = answered === null ? undefined : socketRequests.get(`${c.recConn ?? '-'}:${answered}`);
          if (entry === undefined) c.handlers.onFrame(data);
          else if (entry.appId === null) entry.answer = data;
          else c.handlers.onFrame(entry.appId === answered ? data : withResponseId(data, entry.appId));
          return false;
        }
        case 'ws.close':
          connFor(rec)?.handlers.onClose(num(rec.code), str(rec.reason));
          return false;
        case 'ws.error':
          connFor(rec)?.handlers.onError(str(rec.message));
          return false;
        case 'ws.out': {
          const c = connFor(rec);
          if (!c) return false;
          const request = parseSocketRequest(str(rec.data));
          if (request !== null) {
            const entry = socketRequests.get(`${num(rec.conn)}:${request.id}`);
            if (entry) entry.reached = true;
            return false;
          }
          const sent = c.sent.shift();
          // NOTE: not sent yet is not a divergence yet: a screen may mount after the record's time.
          if (sent === undefined) c.awaited.push(rec);
          else if (sent !== str(rec.data)) diverge({ what: 'ws', message: `frame sent on connection ${num(rec.conn)} differs from the recording (seq ${rec.seq})`, expected: rec.data, actual: sent });
          return false;
        }
        case 'ws.closeLocal': {
          const c = connFor(rec);
          if (c && !c.closedByApp) diverge({ what: 'ws', message: `the recording closed connection ${num(rec.conn)} but the app kept it open` });
          return false;
        }
        case 'storage.set':
        case 'storage.remove': {
          const key = str(rec.key);
          const at = writes.findIndex((w) => w.key === key);
          // A write nobody made here is a screen's (headless replay has no screens), like a request.
          if (at < 0) {
            unissued.push(rec);
            return false;
          }
          const [w] = writes.splice(at, 1);
          const expected = { key, value: rec.kind === 'storage.set' ? rec.value : null };
          // Values may be redacted placeholders on both sides; compare set vs remove only.
          if (w && (w.value === null) !== (expected.value === null)) diverge({ what: 'storage', message: `storage ${key} was ${w.value === null ? 'removed' : 'set'} but the recording ${expected.value === null ? 'removed' : 'set'} it`, expected, actual: w });
          return false;
        }
        default:
          return false;
      }
    },
  };
}
