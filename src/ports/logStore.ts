import type { EventLog, LogRecord } from './eventLog.ts';
import { DEFAULT_CHUNK_BYTES, DEFAULT_LOG_BYTES, loadLogPacker, packLines, unpackLines } from './eventLog.ts';
import type { LoadRecords } from './logSegments.ts';

// The page loads this module after its first paint; the deflate code comes with it (eventLog.ts).
await loadLogPacker();

/**
 * The recording kept across reloads and tabs of one origin (issue 27, point 7; docs/REPLAY.md
 * "Bundles across reloads"). The page's event log (the in-memory ring, src/ports/eventLog.ts)
 * records from the first line of main.tsx; this module, loaded after the first paint, copies it
 * into IndexedDB and follows it: nothing recorded before it started is lost (it takes the ring's
 * records first, then every append).
 *
 * What is stored is what the log holds: records redacted when they were written (the recording
 * ports and the intent recorder redact before appending), so no secret reaches the disk.
 * Layout: database `rft-recording`, store `rows`, one row per piece of a page load, keyed
 * `[startedAt, load, n]`: sealed pieces (n = 0, 1, …) hold ~64 KiB of JSON lines deflated (the
 * ring's own compression); the open piece (n = -1) holds the newest lines as text, rewritten at
 * each flush (every second, and when the page is hidden or left). The budget is the ring's: all
 * rows together stay under 2 MiB stored (the oldest pieces of the oldest load go first).
 * A logout (`user.logout` intent) deletes every row, this load's too, and this load stops being
 * stored (its records stay only in the page's ring): nothing of the session outlives it on disk.
 */

export const LOG_DB = 'rft-recording';
const STORE = 'rows';
const OPEN_PIECE = -1;

interface Row {
  startedAt: number;
  load: string;
  n: number;
  firstSeq: number;
  lastSeq: number;
  /** Stored size: the deflated bytes, or the open text's length. */
  bytes: number;
  data?: Uint8Array;
  text?: string;
}

export interface LogStore {
  /** Writes what the log appended since the last flush (resolves when stored). */
  flush(): Promise<void>;
  /** The page loads stored besides this one, oldest first. */
  earlierLoads(): Promise<LoadRecords[]>;
  /** Deletes every row and stops storing this load (logout). */
  clear(): Promise<void>;
  /** Stops following the log and closes the database (pending lines are flushed first). */
  close(): Promise<void>;
}

export interface LogStoreOptions {
  idb: IDBFactory;
  /** This page load's id (unique per load, e.g. its start time and a random suffix). */
  load: string;
  /** Stored-bytes budget over every load; default the ring's 2 MiB. */
  maxBytes?: number;
  /** Raw JSON size at which the open piece is sealed; default 64 KiB. */
  chunkBytes?: number;
}

const req = <T>(r: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });

const done = (tx: IDBTransaction): Promise<void> =>
  new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });

export function openLogDb(idb: IDBFactory): Promise<IDBDatabase> {
  const r = idb.open(LOG_DB, 1);
  r.onupgradeneeded = () => {
    if (!r.result.objectStoreNames.contains(STORE)) r.result.createObjectStore(STORE, { keyPath: ['startedAt', 'load', 'n'] });
  };
  return req(r).then((db) => {
    // Another tab deleting or upgrading the database: let it.
    db.onversionchange = () => db.close();
    return db;
  });
}

/** Rows in the order their records were written: by load start, then piece (the open piece last). */
const byOrder = (a: Row, b: Row): number =>
  a.startedAt - b.startedAt || (a.load < b.load ? -1 : a.load > b.load ? 1 : 0) || (a.n === OPEN_PIECE ? Infinity : a.n) - (b.n === OPEN_PIECE ? Infinity : b.n);

/** Every stored load's records (this module's rows read back), oldest first. */
export async function readLoads(db: IDBDatabase): Promise<(LoadRecords & { load: string })[]> {
  const rows = (await req(db.transaction(STORE, 'readonly').objectStore(STORE).getAll())) as Row[];
  rows.sort(byOrder);
  const loads = new Map<string, LoadRecords & { load: string }>();
  for (const row of rows) {
    let l = loads.get(row.load);
    if (!l) {
      l = { load: row.load, startedAt: row.startedAt, records: [], lastSeq: 0 };
      loads.set(row.load, l);
    }
    const text = row.data ? unpackLines(row.data) : (row.text ?? '');
    for (const line of text.split('\n')) if (line !== '') l.records.push(JSON.parse(line) as LogRecord);
    l.lastSeq = Math.max(l.lastSeq, row.lastSeq);
  }
  return [...loads.values()];
}

/**
 * Starts storing `log` (see the module comment). The ring's records so far and every later append
 * are taken at once, so none is missed while the database opens.
 */
export async function storeLog(log: EventLog, options: LogStoreOptions): Promise<LogStore> {
  const maxBytes = options.maxBytes ?? DEFAULT_LOG_BYTES;
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const startedAt = log.startedAt;
  const load = options.load;
  let pending: LogRecord[] = log.records();
  let stopped = false;
  let logoutSeen = false;
  const unsubscribe = log.subscribe((r) => {
    if (stopped) return;
    pending.push(r);
    if (r.kind === 'ui.intent' && r.actor === 'session' && (r.event as { type?: unknown } | undefined)?.type === 'user.logout') logoutSeen = true;
  });
  const db = await openLogDb(options.idb);
  // The open piece: lines not sealed yet.
  let open = '';
  let openFirst = 0;
  let openLast = 0;
  let n = 0;
  let chain: Promise<void> = Promise.resolve();
  const serial = (fn: () => Promise<void>): Promise<void> => {
    chain = chain.then(fn, fn);
    return chain;
  };

  const trim = async (): Promise<void> => {
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    const rows = ((await req(store.getAll())) as Row[]).sort(byOrder);
    let total = rows.reduce((s, r) => s + r.bytes, 0);
    for (const row of rows) {
      if (total <= maxBytes) break;
      if (row.load === load && row.n === OPEN_PIECE) continue;
      store.delete([row.startedAt, row.load, row.n]);
      total -= row.bytes;
    }
    await done(tx);
  };

  const clearAll = async (): Promise<void> => {
    stopped = true;
    pending = [];
    open = '';
    const tx = db.transaction(STORE, 'readwrite');
    tx.objectStore(STORE).clear();
    await done(tx);
  };

  const write = async (): Promise<void> => {
    if (stopped) return;
    if (logoutSeen) return clearAll();
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    for (const r of batch) {
      if (open === '') openFirst = r.seq;
      open += JSON.stringify(r) + '\n';
      openLast = r.seq;
    }
    const tx = db.transaction(STORE, 'readwrite');
    const store = tx.objectStore(STORE);
    let sealed = false;
    if (open.length >= chunkBytes) {
      const data = packLines(open);
      store.put({ startedAt, load, n, firstSeq: openFirst, lastSeq: openLast, bytes: data.length, data } satisfies Row);
      store.delete([startedAt, load, OPEN_PIECE]);
      n += 1;
      open = '';
      sealed = true;
    } else {
      store.put({ startedAt, load, n: OPEN_PIECE, firstSeq: openFirst, lastSeq: openLast, bytes: open.length, text: open } satisfies Row);
    }
    await done(tx);
    if (sealed) await trim();
  };

  await serial(trim);
  return {
    flush: () => serial(write),
    async earlierLoads() {
      await chain.catch(() => undefined);
      return (await readLoads(db)).filter((l) => l.load !== load);
    },
    clear: () => serial(clearAll),
    async close() {
      await serial(write).catch(() => undefined);
      stopped = true;
      unsubscribe();
      db.close();
    },
  };
}

export interface RecordingStoreHost {
  idb: IDBFactory;
  /** Calls `fn` every `ms` (the page's real timer); returns a stop function. */
  every(fn: () => void, ms: number): () => void;
  /** Calls `fn` when the page is hidden or left (visibilitychange to hidden, pagehide). */
  onHide(fn: () => void): void;
  /** A unique id for this page load. */
  loadId: string;
}

/** The browser's wiring (main.tsx, after the first paint): store `log`, flush every second and when the page goes. */
export async function startRecordingStore(log: EventLog, host: RecordingStoreHost): Promise<LogStore> {
  const store = await storeLog(log, { idb: host.idb, load: host.loadId });
  const flush = () => void store.flush().catch(() => undefined);
  host.every(flush, 1000);
  host.onHide(flush);
  flush();
  return store;
}

/**
 * main.tsx's one call, after the first paint: stores `log` in the page's IndexedDB (flushed every
 * second and when the page is hidden or left). Null where the browser has no IndexedDB.
 */
export async function startBrowserRecordingStore(log: EventLog): Promise<LogStore | null> {
  if (typeof indexedDB === 'undefined') return null;
  const bytes = new Uint8Array(6);
  globalThis.crypto.getRandomValues(bytes);
  const loadId = `${log.startedAt.toString(36)}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  return startRecordingStore(log, {
    idb: indexedDB,
    loadId,
    every(fn, ms) {
      const id = window.setInterval(fn, ms);
      return () => window.clearInterval(id);
    },
    onHide(fn) {
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden') fn();
      });
      window.addEventListener('pagehide', fn);
    },
  });
}
