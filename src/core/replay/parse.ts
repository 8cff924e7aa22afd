import type { LogHeader, LogRecord } from '../../ports/eventLog.ts';
import { LOG_FORMAT, LOG_VERSION } from '../../ports/eventLog.ts';
import { MARKET_FIXTURE_FORMAT, safeParseMarketFixture } from '../../protocol/fixture.ts';
import { APP_VERSION } from '../supportBundle.ts';

/**
 * Bundles recorded by an app of another major version are refused: their records may mean other
 * things to this core (renamed intents, changed frames), and a replay would be wrong, not failed.
 */
export function incompatibleBundle(appVersion: unknown): string | null {
  if (appVersion === undefined) return null;
  const major = (v: string) => v.split('.')[0];
  // A tool's own recordings name the tool instead of a version ('record-session', 'bench'): the
  // tool runs this very core, so they replay.
  const isVersion = typeof appVersion === 'string' && /^\d+\.\d+\.\d+/.test(appVersion);
  if (typeof appVersion !== 'string' || (isVersion && major(appVersion) !== major(APP_VERSION))) {
    return `this bundle was recorded by app version ${JSON.stringify(appVersion)}; this replay tool replays app ${major(APP_VERSION)}.x (it is ${APP_VERSION}): open it with the replay tool of the version that recorded it`;
  }
  return null;
}

/**
 * Reading logs for replay: an `rft-log` v1 JSON-Lines export (a session fixture, a recorder
 * output or a support bundle) or an `rft-market` v1 market fixture (turned into one market socket
 * connection whose frames arrive at their `t`).
 *
 * Never throws anything but {@link ReplayParseError}, which names the 1-based line: a truncated
 * last line, a foreign header, a record without `seq`/`t`/`kind`, a seq that does not increase or
 * a `t` that goes back in time are all reported instead of crashing the replay.
 */

export class ReplayParseError extends Error {
  readonly line: number;
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = 'ReplayParseError';
    this.line = line;
  }
}

/** Bundle-only metadata records carry `seq: 0` and are not part of the replayed stream. */
export const META_SEQ = 0;

export interface ParsedLog {
  header: LogHeader & Record<string, unknown>;
  /** Records to replay, in order (seq > 0). */
  records: LogRecord[];
  /** `env` / `checkpoint` metadata records of a support bundle (seq 0), in file order. */
  meta: LogRecord[];
  /** 1-based file line of each record in `records` (same index). */
  lines: number[];
  /** Which input format it came from. */
  source: 'rft-log' | 'rft-market';
}

function parseLine(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new ReplayParseError(line, `not valid JSON (${why}); the file may be truncated`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses any replayable text. See the module comment for what is checked. */
export function parseReplayText(text: string): ParsedLog {
  const rawLines = text.split('\n');
  const firstIdx = rawLines.findIndex((l) => l.trim() !== '');
  if (firstIdx < 0) throw new ReplayParseError(1, 'empty file: expected an rft-log or rft-market header');
  const header = parseLine(rawLines[firstIdx] ?? '', firstIdx + 1);
  if (!isObject(header)) throw new ReplayParseError(firstIdx + 1, 'header is not a JSON object');
  if (header.format === MARKET_FIXTURE_FORMAT) return fromMarketFixture(text);
  if (header.format !== LOG_FORMAT) throw new ReplayParseError(firstIdx + 1, `unknown format ${JSON.stringify(header.format)} (expected "${LOG_FORMAT}" or "${MARKET_FIXTURE_FORMAT}")`);
  if (header.version !== LOG_VERSION) throw new ReplayParseError(firstIdx + 1, `unsupported ${LOG_FORMAT} version ${JSON.stringify(header.version)} (expected ${LOG_VERSION})`);
  if (typeof header.startedAt !== 'number' || !Number.isFinite(header.startedAt)) throw new ReplayParseError(firstIdx + 1, 'header.startedAt must be a number (Unix ms)');
  if (isObject(header.bundle)) {
    const why = incompatibleBundle(header.bundle.appVersion);
    if (why) throw new ReplayParseError(firstIdx + 1, why);
  }

  const records: LogRecord[] = [];
  const meta: LogRecord[] = [];
  const lines: number[] = [];
  let lastSeq = 0;
  let lastT = 0;
  for (let i = firstIdx + 1; i < rawLines.length; i++) {
    const raw = rawLines[i] ?? '';
    if (raw.trim() === '') continue;
    const line = i + 1;
    const rec = parseLine(raw, line);
    if (!isObject(rec)) throw new ReplayParseError(line, 'record is not a JSON object');
    const { seq, t, kind } = rec;
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) throw new ReplayParseError(line, 'record needs an integer "seq" >= 0');
    if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) throw new ReplayParseError(line, 'record needs a finite "t" >= 0 (virtual ms)');
    if (typeof kind !== 'string' || kind === '') throw new ReplayParseError(line, 'record needs a string "kind"');
    if (seq === META_SEQ) {
      meta.push(rec as LogRecord);
      continue;
    }
    if (seq <= lastSeq) throw new ReplayParseError(line, `seq ${seq} does not increase (previous ${lastSeq})`);
    if (t < lastT) throw new ReplayParseError(line, `t ${t} goes back in time (previous ${lastT})`);
    lastSeq = seq;
    lastT = t;
    records.push(rec as LogRecord);
    lines.push(line);
  }
  const firstSeq = typeof header.firstSeq === 'number' ? header.firstSeq : (records[0]?.seq ?? 1);
  return { header: { ...header, format: LOG_FORMAT, version: LOG_VERSION, startedAt: header.startedAt, firstSeq }, records, meta, lines, source: 'rft-log' };
}

/**
 * An rft-market fixture as a log: `ws.open` + `ws.opened` of connection 1 (the app's market
 * socket) at t 0, then one `ws.in` per frame at its receive time relative to the first frame.
 * Book checkpoints of the fixture become `expect.book` records that the driver checks.
 */
function fromMarketFixture(text: string): ParsedLog {
  const r = safeParseMarketFixture(text);
  if (!r.ok) throw new ReplayParseError(r.error.line, r.error.message);
  const first = r.fixture.records[0];
  const t0 = first ? first.t : 0;
  const records: LogRecord[] = [];
  const lines: number[] = [];
  let seq = 0;
  const push = (line: number, t: number, kind: string, payload: Record<string, unknown>) => {
    seq += 1;
    records.push({ seq, t, kind, ...payload });
    lines.push(line);
  };
  push(1, 0, 'ws.open', { conn: 1, url: '/api/ws/market' });
  push(1, 0, 'ws.opened', { conn: 1 });
  let lastT = 0;
  for (const rec of r.fixture.records) {
    // NOTE: a market fixture's t may repeat or (after conversion) jitter; replay needs monotonic time.
    lastT = Math.max(lastT, rec.t - t0);
    if (rec.kind === 'frame') push(rec.line, lastT, 'ws.in', { conn: 1, data: JSON.stringify(rec.frame) });
    else push(rec.line, lastT, 'expect.book', { check: rec.check });
  }
  return {
    header: { format: LOG_FORMAT, version: LOG_VERSION, startedAt: t0, firstSeq: 1, converted: r.fixture.header.source },
    records,
    meta: [],
    lines,
    source: 'rft-market',
  };
}
