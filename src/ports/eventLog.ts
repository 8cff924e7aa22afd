import type * as Fflate from 'fflate';
/**
 * The append-only event log (docs/ARCHITECTURE.md "Event log"). Every record is
 * `{ seq, t, kind, ...payload }`:
 * - `seq` starts at 1 and increases by exactly one per append, also across dropped records, so a
 *   gap at the start of an export shows how much the ring dropped;
 * - `t` is virtual milliseconds since the log was created, read from the injected clock;
 * - `kind` is a dotted name (`http.request`, `ws.in`, `storage.set`, ...).
 * The log keeps a ring bounded by STORED bytes: the newest records as plain lines (UTF-16 length),
 * older ones sealed in deflated chunks of about 64 KiB of JSON (counted compressed), so a 2 MiB
 * ring holds about eight times the raw JSON (docs/REPLAY.md "Compact recording"). When over budget
 * the oldest chunk (or, with no chunk sealed, the oldest line) is dropped, never the newest record.
 * The chunks decode to exactly the lines appended: exports and records() are unchanged by it.
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
  /** Clock time (Unix ms) when the log started: each record's `t` counts from it. */
  readonly startedAt: number;
  /** Appends a record; payload keys `seq`, `t`, `kind` are overwritten by the log. */
  append(kind: string, payload?: Record<string, unknown>): LogRecord;
  /** The retained records, oldest first (a copy). */
  records(): LogRecord[];
  /** Header line + one record per line, each terminated by '\n'. */
  toJsonLines(): string;
  /** Current retained size in stored bytes (sealed chunks compressed, open lines as UTF-16 length). */
  bytes(): number;
  /** What the ring holds: records, their raw JSON size, the stored size, sealed chunks, the seq range. */
  stats(): LogStats;
  /** Calls `fn` for every appended record; returns an unsubscribe function. */
  subscribe(fn: (r: LogRecord) => void): () => void;
}

export interface LogStats {
  records: number;
  rawBytes: number;
  storedBytes: number;
  chunks: number;
  firstSeq: number;
  lastSeq: number;
}

export interface EventLogOptions {
  now: () => number;
  /** Ring budget in STORED bytes (sealed chunks count compressed); default 2 MiB. */
  maxBytes?: number;
  /**
   * Raw size (UTF-16 length of the lines) at which the open chunk is sealed and deflated. Default
   * 64 KiB when the budget is at least 256 KiB, else never (a small ring keeps plain lines and
   * drops record by record).
   */
  chunkBytes?: number;
}

export const DEFAULT_LOG_BYTES = 2 * 1024 * 1024;
export const DEFAULT_CHUNK_BYTES = 64 * 1024;

/**
 * A sealed run of consecutive records: their JSON lines ('\n'-terminated), deflated (or, sealed
 * before the deflate code was loaded, still as text until the next append: {@link loadLogPacker}).
 * Its stored size is `data.length` either way (bytes, or UTF-16 units like the open lines).
 */
interface SealedChunk {
  firstSeq: number;
  count: number;
  rawBytes: number;
  data: Uint8Array | string;
}

/**
 * The deflate code (fflate), loaded apart from the recorder (issue 30): the page's first paint
 * records from the first event but needs no deflate, so the browser build loads it after the first
 * paint (logStore.ts, which the page loads then, waits for it). Until it is here a sealed chunk
 * keeps its lines as text (counted by their length, like open lines) and is deflated by the first
 * append after it arrived. Node, the tests and the dev server load it before any log exists.
 */
let fflate: typeof Fflate | null = null;
let fflateLoading: Promise<void> | null = null;
export function loadLogPacker(): Promise<void> {
  fflateLoading ??= import('fflate').then((m) => {
    fflate = m;
  });
  return fflateLoading;
}
if (!import.meta.env?.PROD) await loadLogPacker();

function packer(): typeof Fflate {
  if (!fflate) throw new Error('the log packer is not loaded yet (await loadLogPacker())');
  return fflate;
}

/** Deflates the lines of a chunk (fflate: pure JS, synchronous, the same bytes in the browser and Node). */
export function packLines(text: string): Uint8Array {
  const f = packer();
  return f.deflateSync(f.strToU8(text), { level: 6 });
}

/** The exact text {@link packLines} was given. */
export function unpackLines(data: Uint8Array): string {
  const f = packer();
  return f.strFromU8(f.inflateSync(data));
}

/**
 * A first-in first-out queue on an array with a moving head (shift is O(1)); the array is cut
 * down once more than half of it is behind the head.
 */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(x: T): void {
    this.items.push(x);
  }

  first(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    const x = this.items[this.head];
    if (x === undefined) return undefined;
    this.head += 1;
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return x;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i] as T;
  }
}

export function createEventLog(options: EventLogOptions): EventLog {
  const { now } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_LOG_BYTES;
  const chunkBytes = options.chunkBytes ?? (maxBytes >= 256 * 1024 ? DEFAULT_CHUNK_BYTES : Number.POSITIVE_INFINITY);
  const startedAt = now();
  // Storage (the compact recording, issue 16): the newest records are plain lines in the open
  // chunk; once it holds `chunkBytes` of JSON it is sealed into one deflated block. The budget
  // counts what is stored: sealed blocks by their compressed size, open lines by their length.
  // Sealed blocks are dropped whole, oldest first; without sealed blocks the oldest open lines go
  // one by one (never the newest). `seq` keeps counting, so the export's firstSeq shows the drop.
  const sealed = new Fifo<SealedChunk>();
  let sealedBytes = 0;
  const open = new Fifo<{ rec: LogRecord; line: string }>();
  let openBytes = 0;
  let seq = 0;
  const listeners = new Set<(r: LogRecord) => void>();

  const seal = () => {
    const first = open.first();
    if (!first) return;
    let text = '';
    let count = 0;
    for (const e of open) {
      text += e.line + '\n';
      count += 1;
    }
    const data = fflate ? packLines(text) : text;
    if (typeof data === 'string') unpacked += 1;
    sealed.push({ firstSeq: first.rec.seq, count, rawBytes: openBytes, data });
    sealedBytes += data.length;
    open.clear();
    openBytes = 0;
  };

  // chunks sealed as text before the deflate code was here
  let unpacked = 0;
  const packSealed = () => {
    for (const c of sealed) {
      if (typeof c.data !== 'string') continue;
      const data = packLines(c.data);
      sealedBytes += data.length - c.data.length;
      c.data = data;
    }
    unpacked = 0;
  };

  const dropOldest = () => {
    while (sealedBytes + openBytes > maxBytes && sealed.size > 0) {
      const old = sealed.shift();
      if (old) sealedBytes -= old.data.length;
    }
    while (sealedBytes + openBytes > maxBytes && open.size > 1) {
      const old = open.shift();
      if (old) openBytes -= old.line.length + 1;
    }
  };

  const sealedText = (): string => {
    let out = '';
    for (const c of sealed) out += typeof c.data === 'string' ? c.data : unpackLines(c.data);
    return out;
  };

  const firstKeptSeq = (): number => sealed.first()?.firstSeq ?? open.first()?.rec.seq ?? seq + 1;

  return {
    startedAt,
    append(kind, payload = {}) {
      seq += 1;
      // NOTE: seq/t/kind first for readable lines, then re-set so a payload cannot override them.
      const t = now() - startedAt;
      const ordered: LogRecord = { seq, t, kind, ...payload };
      ordered.seq = seq;
      ordered.t = t;
      ordered.kind = kind;
      const line = JSON.stringify(ordered);
      open.push({ rec: ordered, line });
      openBytes += line.length + 1;
      if (unpacked > 0 && fflate) packSealed();
      if (openBytes >= chunkBytes) seal();
      dropOldest();
      for (const fn of listeners) fn(ordered);
      return ordered;
    },
    records() {
      const out: LogRecord[] = [];
      if (sealed.size > 0) {
        for (const line of sealedText().split('\n')) if (line !== '') out.push(JSON.parse(line) as LogRecord);
      }
      for (const e of open) out.push(e.rec);
      return out;
    },
    bytes: () => sealedBytes + openBytes,
    toJsonLines() {
      const header: LogHeader = { format: LOG_FORMAT, version: LOG_VERSION, startedAt, firstSeq: firstKeptSeq() };
      let out = JSON.stringify(header) + '\n' + sealedText();
      for (const e of open) out += e.line + '\n';
      return out;
    },
    stats() {
      let rawBytes = openBytes;
      let records = open.size;
      for (const c of sealed) {
        rawBytes += c.rawBytes;
        records += c.count;
      }
      return { records, rawBytes, storedBytes: sealedBytes + openBytes, chunks: sealed.size, firstSeq: firstKeptSeq(), lastSeq: seq };
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
