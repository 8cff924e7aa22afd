/**
 * The append-only event log (docs/ARCHITECTURE.md "Event log"). Every record is
 * `{ seq, t, kind, ...payload }`:
 * - `seq` starts at 1 and increases by exactly one per append, also across dropped records, so a
 *   gap at the start of an export shows how much the ring dropped;
 * - `t` is virtual milliseconds since the log was created, read from the injected clock;
 * - `kind` is a dotted name (`http.request`, `ws.in`, `storage.set`, ...).
 * The log keeps a ring bounded by bytes (UTF-16 length of each record's JSON as an estimate):
 * when over budget the oldest records are dropped, never the newest one.
 * Redaction happens before a record gets here (ports/recording.ts); this module stores as given.
 */

export interface LogRecord {
  seq: number;
  t: number;
  kind: string;
  [field: string]: unknown;
}

export const LOG_FORMAT = 'rft-log';
export const LOG_VERSION = 1;

/** First line of every JSON-Lines export. */
export interface LogHeader {
  format: typeof LOG_FORMAT;
  version: typeof LOG_VERSION;
  /** Clock time (Unix ms) when the log started; `t` of each record is relative to it. */
  startedAt: number;
  /** seq of the first record in this export (> 1 when the ring dropped records). */
  firstSeq: number;
}

export interface EventLog {
  /** Appends a record; payload keys `seq`, `t`, `kind` are overwritten by the log. */
  append(kind: string, payload?: Record<string, unknown>): LogRecord;
  /** The retained records, oldest first (a copy). */
  records(): LogRecord[];
  /** Header line + one record per line, each terminated by '\n'. */
  toJsonLines(): string;
  /** Current retained size in bytes (estimate). */
  bytes(): number;
  /** Calls `fn` for every appended record; returns an unsubscribe function. */
  subscribe(fn: (r: LogRecord) => void): () => void;
}

export interface EventLogOptions {
  now: () => number;
  /** Ring budget; default 2 MiB. */
  maxBytes?: number;
}

export const DEFAULT_LOG_BYTES = 2 * 1024 * 1024;

export function createEventLog(options: EventLogOptions): EventLog {
  const { now } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_LOG_BYTES;
  const startedAt = now();
  // Ring: `head` is the index of the oldest retained entry; compacted when half is dead.
  let entries: { rec: LogRecord; line: string }[] = [];
  let head = 0;
  let total = 0;
  let seq = 0;
  const listeners = new Set<(r: LogRecord) => void>();

  const dropOldest = () => {
    while (total > maxBytes && entries.length - head > 1) {
      const old = entries[head];
      head += 1;
      if (old) total -= old.line.length + 1;
    }
    if (head > 1024 && head * 2 > entries.length) {
      entries = entries.slice(head);
      head = 0;
    }
  };

  return {
    append(kind, payload = {}) {
      seq += 1;
      // NOTE: seq/t/kind first for readable lines, then re-set so a payload cannot override them.
      const t = now() - startedAt;
      const ordered: LogRecord = { seq, t, kind, ...payload };
      ordered.seq = seq;
      ordered.t = t;
      ordered.kind = kind;
      const line = JSON.stringify(ordered);
      entries.push({ rec: ordered, line });
      total += line.length + 1;
      dropOldest();
      for (const fn of listeners) fn(ordered);
      return ordered;
    },
    records: () => entries.slice(head).map((e) => e.rec),
    bytes: () => total,
    toJsonLines() {
      const first = entries[head];
      const header: LogHeader = { format: LOG_FORMAT, version: LOG_VERSION, startedAt, firstSeq: first ? first.rec.seq : seq + 1 };
      let out = JSON.stringify(header) + '\n';
      for (let i = head; i < entries.length; i++) out += (entries[i]?.line ?? '') + '\n';
      return out;
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/** Parses a JSON-Lines export back into header + records (replay, tests). Throws on a foreign format. */
export function parseJsonLines(text: string): { header: LogHeader; records: LogRecord[] } {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const first = lines[0];
  if (first === undefined) throw new Error('empty log');
  const header = JSON.parse(first) as LogHeader;
  if (header.format !== LOG_FORMAT || header.version !== LOG_VERSION) throw new Error('not an rft-log v1 file');
  return { header, records: lines.slice(1).map((l) => JSON.parse(l) as LogRecord) };
}
