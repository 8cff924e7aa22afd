import { gzipSync, strToU8 } from 'fflate';
import type { AnyActorRef } from 'xstate';
import type { EventLog, LogHeader } from '../ports/eventLog.ts';
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
  redaction: { placeholders: string[]; keys: string[]; also: string[] };
}

function contentsOf(input: BundleInput, exportT: number): BundleContents {
  const kept = input.log.records();
  const first = kept[0];
  const last = kept[kept.length - 1];
  const firstSeq = first?.seq ?? 1;
  const fromT = first?.t ?? 0;
  const toT = last?.t ?? 0;
  const droppedRecords = Math.max(0, firstSeq - 1);
  const minutes = (ms: number) => Number((ms / 60_000).toFixed(2));
  return {
    appVersion: input.env.appVersion,
    events: kept.length,
    firstSeq,
    lastSeq: last?.seq ?? 0,
    span: { fromT, toT, exportT, minutes: minutes(toT - fromT) },
    dropped: {
      records: droppedRecords,
      minutes: minutes(fromT),
      note: droppedRecords === 0 ? 'nothing dropped: the whole session is in the bundle' : `the ring's size cap dropped the first ${droppedRecords} records (the first ${minutes(fromT)} minutes); the replay starts mid-session`,
    },
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
  const t = Math.max(0, input.now - logHeader.startedAt);
  const state = redactor.redact(JSON.parse(JSON.stringify(actorsState(input.actors))) as unknown);
  const env = redactor.redact({ ...input.env });
  const header = { format: LOG_FORMAT, version: LOG_VERSION, startedAt: logHeader.startedAt, firstSeq: logHeader.firstSeq, bundle: { exportedAt: input.now, ...env, contents: contentsOf(input, t) } };
  const lines = [
    JSON.stringify(header),
    JSON.stringify({ seq: 0, t, kind: 'env', ...env }),
    JSON.stringify({ seq: 0, t, kind: 'checkpoint', hash: hashState(state), state }),
  ];
  return `${lines.join('\n')}\n${ring.slice(nl + 1)}`;
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
