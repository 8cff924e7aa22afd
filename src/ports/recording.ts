import type { EventLog } from './eventLog.ts';
import type { Clock, Http, HttpRequest, Ports, Random, SocketFactory, Storage } from './types.ts';
import type { Redactor } from './redact.ts';
import { createRedactor } from './redact.ts';

/**
 * Recording adapters: wrap any Ports and append what crosses them to the event log, redacted at
 * write time. Record kinds and fields (docs/ARCHITECTURE.md "Record format"):
 * - `http.request` {id, method, path, query?, body?, form?}      `http.response` {id, envelope} | {id, networkError}
 * - `ws.open` {conn, url}  `ws.opened` {conn}  `ws.in` {conn, data}  `ws.out` {conn, data}
 *   `ws.close` {conn, code, reason}  `ws.error` {conn, message}  `ws.closeLocal` {conn}
 * - `storage.init` {key, value} (first read of each key)  `storage.set` {key, value}  `storage.remove` {key}
 * - `random` {value}   `timer` {ms} (a clock timer fired; replay re-fires it by advancing the clock)
 * `id`/`conn` number requests and connections from 1 so responses pair with their requests.
 */

/** The FormData-safe view of a request body: files are described, never stored. */
function bodyForLog(body: unknown): unknown {
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    const parts: [string, unknown][] = [];
    body.forEach((v, k) => {
      parts.push([k, typeof v === 'string' ? v : { file: v.name, size: v.size, type: v.type }]);
    });
    return { formData: parts };
  }
  return body;
}

export function recordingClock(inner: Clock, log: EventLog): Clock {
  return {
    now: () => inner.now(),
    setTimeout: (fn, ms) =>
      inner.setTimeout((...args: unknown[]) => {
        log.append('timer', { ms });
        fn(...args);
      }, ms),
    clearTimeout: (id) => inner.clearTimeout(id),
  };
}

export function recordingHttp(inner: Http, log: EventLog, redactor: Redactor): Http {
  let next = 0;
  return {
    async request(req: HttpRequest, signal?: AbortSignal) {
      next += 1;
      const id = next;
      const rec: Record<string, unknown> = { id, method: req.method, path: req.path };
      if (req.query) rec.query = redactor.redact(req.query);
      if (req.body !== undefined) rec.body = redactor.redact(bodyForLog(req.body));
      if (req.form) rec.form = true;
      log.append('http.request', rec);
      const outcome = await inner.request(req, signal);
      if (outcome.kind === 'envelope') log.append('http.response', { id, envelope: redactor.redact(outcome.envelope) });
      else log.append('http.response', { id, networkError: redactor.redact(outcome.message) });
      return outcome;
    },
  };
}

export function recordingSocket(inner: SocketFactory, log: EventLog, redactor: Redactor): SocketFactory {
  let next = 0;
  return {
    open(url, handlers) {
      next += 1;
      const conn = next;
      log.append('ws.open', { conn, url });
      const c = inner.open(url, {
        onOpen: () => {
          log.append('ws.opened', { conn });
          handlers.onOpen();
        },
        onFrame: (data) => {
          log.append('ws.in', { conn, data: redactor.redactText(data) });
          handlers.onFrame(data);
        },
        onClose: (code, reason) => {
          log.append('ws.close', { conn, code, reason });
          handlers.onClose(code, reason);
        },
        onError: (message) => {
          log.append('ws.error', { conn, message });
          handlers.onError(message);
        },
      });
      return {
        send(data) {
          log.append('ws.out', { conn, data: redactor.redactText(data) });
          c.send(data);
        },
        close() {
          log.append('ws.closeLocal', { conn });
          c.close();
        },
      };
    },
  };
}

export function recordingStorage(inner: Storage, log: EventLog, redactor: Redactor): Storage {
  const seen = new Set<string>();
  const rec = (key: string, value: string | null) => redactor.redact({ [key]: value })[key];
  return {
    get(key) {
      const value = inner.get(key);
      if (!seen.has(key)) {
        seen.add(key);
        log.append('storage.init', { key, value: rec(key, value) });
      }
      return value;
    },
    set(key, value) {
      seen.add(key);
      log.append('storage.set', { key, value: rec(key, value) });
      inner.set(key, value);
    },
    remove(key) {
      seen.add(key);
      log.append('storage.remove', { key });
      inner.remove(key);
    },
  };
}

export function recordingRandom(inner: Random, log: EventLog): Random {
  return {
    id() {
      const value = inner.id();
      log.append('random', { value });
      return value;
    },
  };
}

/** Wraps every port; one redactor is shared so placeholders agree across HTTP, sockets and storage. */
export function createRecordingPorts(inner: Ports, log: EventLog, redactor: Redactor = createRedactor()): Ports {
  return {
    clock: recordingClock(inner.clock, log),
    http: recordingHttp(inner.http, log, redactor),
    socket: recordingSocket(inner.socket, log, redactor),
    storage: recordingStorage(inner.storage, log, redactor),
    random: recordingRandom(inner.random, log),
  };
}
