import { gzipSync, strToU8 } from 'fflate';
import type { AnyActorRef } from 'xstate';
import type { EventLog, LogHeader, LogRecord } from '../ports/eventLog.ts';
import { joinLoads, type LoadRecords } from '../ports/logSegments.ts';
import { LOG_FORMAT, LOG_VERSION } from '../ports/eventLog.ts';
import { hashState } from '../ports/stateHash.ts';
import type { EnvInfo } from './replay/record.ts';
import { redactorFor } from './replay/record.ts';
import { createRedactor, type Redactor } from '../ports/redact.ts';
import { secretKeys } from '../protocol/secrets.ts';

/**
 * Support bundles ('Report a problem', DESIGN §3): one JSON-Lines file that `npm run replay`
 * reads like any log:
 *   line 1  header {format:'rft-log', version:1, startedAt, firstSeq, bundle:{exportedAt, ...env, contents}}
 *           `contents` says what the file holds before anyone reads further: the app version, the
 *           time span and number of events kept, what the ring dropped (none, or the records before
 *           `firstSeq` and the minutes they covered) and the redaction rules applied.
 *   line 2  {seq:0, t, kind:'env', appVersion, language, theme, viewport, userAgent, path}
 *   line 3  {seq:0, t, kind:'checkpoint', hash, state:{session, market, user}}
 *   then    the ring, oldest first, exactly as recorded.
 * Secrets: the ring was redacted when written; the live actor state in the checkpoint is redacted
 * now with the SAME redactor (so the token reads `<redacted:token#1>` exactly as in the ring, and
 * the checkpoint hash equals the hash the replay computes over the same actors). Passwords, codes,
 * secrets and document images are replaced by placeholders; nothing else is removed.
 */

export { APP_VERSION } from './appVersion.ts';

export interface BundleActors {
  session: AnyActorRef;
  market: AnyActorRef;
  user: AnyActorRef;
}

/** The actors' part of the replay state (the streams live in the screens in the browser). */
export function actorsState(a: BundleActors): { session: unknown; market: unknown; user: unknown } {
  return { session: a.session.getPersistedSnapshot(), market: a.market.getPersistedSnapshot(), user: a.user.getPersistedSnapshot() };
}

export interface BundleInput {
  log: EventLog;
  actors: BundleActors;
  env: EnvInfo;
  /** Unix ms of the export (from the clock port). */
  now: number;
  /** Defaults to the log's own redactor (createRecordedCore), else a fresh one. */
  redactor?: Redactor;
  /**
   * The page loads before this one kept in the browser (src/ports/logStore.ts): when there are
   * any, the bundle joins them and this load's ring as segments (src/ports/logSegments.ts).
   */
  earlier?: readonly LoadRecords[];
}

/** What a bundle holds (its header's `bundle.contents`). */
export interface BundleContents {
  appVersion: string;
  events: number;
  firstSeq: number;
  lastSeq: number;
  /** Virtual ms since the recording started: the first and last event kept, and the export. */
  span: { fromT: number; toT: number; exportT: number; minutes: number };
  /** What the ring dropped to stay within its byte budget. */
  dropped: { records: number; minutes: number; note: string };
  /** Page loads in the bundle (1: this page only; more: earlier loads kept across reloads, one `segment` each). */
  loads: number;
  redaction: { placeholders: string[]; keys: string[]; also: string[] };
}

function contentsOf(input: BundleInput, kept: readonly LogRecord[], exportT: number, loads: number, dropped: number, overlapped: number): BundleContents {
  const first = kept[0];
  const last = kept[kept.length - 1];
  const firstSeq = first?.seq ?? 1;
  const fromT = first?.t ?? 0;
  const toT = last?.t ?? 0;
  const droppedRecords = loads > 1 ? dropped : Math.max(0, firstSeq - 1);
  const minutes = (ms: number) => Number((ms / 60_000).toFixed(2));
  const whole = loads > 1 ? `nothing dropped: the ${loads} page loads kept in the browser are in the bundle, one segment each` : 'nothing dropped: the whole session is in the bundle';
  const cut = loads > 1 ? `the size cap dropped the first ${droppedRecords} records of the oldest page load kept; the replay starts mid-load` : `the ring's size cap dropped the first ${droppedRecords} records (the first ${minutes(fromT)} minutes); the replay starts mid-session`;
  const also = overlapped > 0 ? `; ${overlapped} records of a page load that went on while a later one ran (another tab) are left out` : '';
  return {
    appVersion: input.env.appVersion,
    events: kept.length,
    firstSeq,
    lastSeq: last?.seq ?? 0,
    span: { fromT, toT, exportT, minutes: minutes(toT - fromT) },
    dropped: {
      records: droppedRecords,
      minutes: loads > 1 ? 0 : minutes(fromT),
      note: (droppedRecords === 0 ? whole : cut) + also,
    },
    loads,
    redaction: {
      placeholders: ['<redacted:token#n>', '<redacted:password#n>', '<redacted:code#n>', '<redacted:secret#n>'],
      keys: [...secretKeys().keys()].sort(),
      also: ['any key ending in …token, …password or …secret', 'known secrets inside later strings (socket frames, messages)', 'document photos: described as {name, type, size}, bytes never stored'],
    },
  };
}

/** Builds the bundle text (see the module comment for the layout). */
export function buildSupportBundle(input: BundleInput): string {
  const redactor = input.redactor ?? redactorFor(input.log) ?? createRedactor();
  const ring = input.log.toJsonLines();
  const nl = ring.indexOf('\n');
  const logHeader = JSON.parse(ring.slice(0, nl)) as LogHeader;
  let startedAt = logHeader.startedAt;
  let firstSeq = logHeader.firstSeq;
  let body = ring.slice(nl + 1);
  let kept: LogRecord[];
  let loads = 1;
  let dropped = 0;
  let overlapped = 0;
  if (input.earlier && input.earlier.length > 0) {
    // Earlier page loads kept in the browser: one log of segments on the first load's clock.
    const joined = joinLoads([...input.earlier, { startedAt: logHeader.startedAt, records: input.log.records(), lastSeq: input.log.stats().lastSeq }]);
    kept = joined.records;
    loads = input.earlier.length + 1;
    dropped = joined.dropped;
    overlapped = joined.overlapped;
    startedAt = joined.startedAt;
    firstSeq = kept[0]?.seq ?? 1;
    body = kept.map((r) => `${JSON.stringify(r)}\n`).join('');
  } else {
    kept = input.log.records();
  }
  const t = Math.max(0, input.now - startedAt);
  const state = redactor.redact(JSON.parse(JSON.stringify(actorsState(input.actors))) as unknown);
  const env = redactor.redact({ ...input.env });
  const header = { format: LOG_FORMAT, version: LOG_VERSION, startedAt, firstSeq, bundle: { exportedAt: input.now, ...env, contents: contentsOf(input, kept, t, loads, dropped, overlapped) } };
  const lines = [
    JSON.stringify(header),
    JSON.stringify({ seq: 0, t, kind: 'env', ...env }),
    JSON.stringify({ seq: 0, t, kind: 'checkpoint', hash: hashState(state), state }),
  ];
  return `${lines.join('\n')}\n${body}`;
}

/**
 * The bundle as downloaded: its text gzipped (`.jsonl.gz`; `npm run replay` and the inspector
 * inflate it). Deterministic: no file name or time in the gzip header, so the same text gives
 * the same bytes.
 */
export function gzipBundle(text: string): Uint8Array {
  return gzipSync(strToU8(text), { level: 9, mtime: 0 });
}

/** File name for a bundle exported at `now` (sortable, no characters a file system refuses). */
export function bundleFileName(now: number): string {
  return `rft-support-${new Date(now).toISOString().replace(/[:.]/g, '-')}.jsonl.gz`;
}
