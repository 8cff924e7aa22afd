import type { AnyActorRef } from 'xstate';
import type { EventLog, LogHeader } from '../ports/eventLog.ts';
import { LOG_FORMAT, LOG_VERSION } from '../ports/eventLog.ts';
import { hashState } from '../ports/stateHash.ts';
import type { EnvInfo } from './replay/record.ts';
import { redactorFor } from './replay/record.ts';
import { createRedactor, type Redactor } from '../ports/redact.ts';

/**
 * Support bundles ('Report a problem', DESIGN §3): one JSON-Lines file that `npm run replay`
 * reads like any log:
 *   line 1  header {format:'rft-log', version:1, startedAt, firstSeq, bundle:{exportedAt, ...env}}
 *   line 2  {seq:0, t, kind:'env', appVersion, language, theme, viewport, userAgent, path}
 *   line 3  {seq:0, t, kind:'checkpoint', hash, state:{session, market, user}}
 *   then    the ring, oldest first, exactly as recorded.
 * Secrets: the ring was redacted when written; the live actor state in the checkpoint is redacted
 * now with the SAME redactor (so the token reads `<redacted:token#1>` exactly as in the ring, and
 * the checkpoint hash equals the hash the replay computes over the same actors). Passwords, codes,
 * secrets and document images are replaced by placeholders; nothing else is removed.
 */

/** Shown in bundles and the `env` record; keep in step with package.json "version". */
export const APP_VERSION = '1.0.0';

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

/** Builds the bundle text (see the module comment for the layout). */
export function buildSupportBundle(input: BundleInput): string {
  const redactor = input.redactor ?? redactorFor(input.log) ?? createRedactor();
  const ring = input.log.toJsonLines();
  const nl = ring.indexOf('\n');
  const logHeader = JSON.parse(ring.slice(0, nl)) as LogHeader;
  const t = Math.max(0, input.now - logHeader.startedAt);
  const state = redactor.redact(JSON.parse(JSON.stringify(actorsState(input.actors))) as unknown);
  const env = redactor.redact({ ...input.env });
  const header = { format: LOG_FORMAT, version: LOG_VERSION, startedAt: logHeader.startedAt, firstSeq: logHeader.firstSeq, bundle: { exportedAt: input.now, ...env } };
  const lines = [
    JSON.stringify(header),
    JSON.stringify({ seq: 0, t, kind: 'env', ...env }),
    JSON.stringify({ seq: 0, t, kind: 'checkpoint', hash: hashState(state), state }),
  ];
  return `${lines.join('\n')}\n${ring.slice(nl + 1)}`;
}

/** File name for a bundle exported at `now` (sortable, no characters a file system refuses). */
export function bundleFileName(now: number): string {
  return `rft-support-${new Date(now).toISOString().replace(/[:.]/g, '-')}.jsonl`;
}
