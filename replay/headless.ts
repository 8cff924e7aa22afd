import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { parseReplayText, ReplayParseError, type ParsedLog } from '../src/core/replay/parse.ts';
import { replayLog, type Checkpoint, type ReplayOptions, type ReplayResult } from '../src/core/replay/driver.ts';
import { describe } from '../src/core/replay/diff.ts';
import type { LogRecord } from '../src/ports/eventLog.ts';

/**
 * Node-side helpers of the replay CLI (and of the scenario tests): read a file into a parsed log
 * with a clear, line-naming error, replay it, and summarise a checkpoint for humans.
 */

/** A log file's text; gzip-compressed files (`.jsonl.gz`, or any file starting with the gzip magic) are inflated. */
export function readLogText(file: string): string {
  return logTextOf(readFileSync(file));
}

/** The text of log bytes, inflating gzip (magic 1f 8b). */
export function logTextOf(bytes: Buffer): string {
  return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** Reads and parses a replay file; the error names the file and line (never a stack trace). */
export function loadLog(file: string): ParsedLog {
  let text: string;
  try {
    text = readLogText(file);
  } catch (e) {
    throw new Error(`${file}: cannot read (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
  try {
    return parseReplayText(text);
  } catch (e) {
    if (e instanceof ReplayParseError) throw new Error(`${file}: ${e.message}`, { cause: e });
    throw e;
  }
}

export async function replayFile(file: string, options: ReplayOptions = {}): Promise<{ log: ParsedLog; result: ReplayResult }> {
  const log = loadLog(file);
  return { log, result: await replayLog(log, options) };
}

/** A few readable lines about a checkpoint's state. */
export function summarise(cp: Checkpoint): string[] {
  const s = cp.state;
  const sess = s.session as { value?: unknown; context?: { userInfo?: unknown; error?: unknown } };
  const sock = (x: unknown) => {
    const v = x as { value?: unknown; context?: { attempts?: number; topics?: Record<string, number> } };
    return `${JSON.stringify(v.value)} attempts=${v.context?.attempts ?? 0} topics=${Object.keys(v.context?.topics ?? {}).join(',') || '-'}`;
  };
  const lines = [
    `checkpoint @seq ${cp.seq} (t=${cp.t} ms) hash ${cp.hash}`,
    `  session: ${JSON.stringify(sess.value)}${sess.context?.userInfo ? ' (user info loaded)' : ''}${sess.context?.error ? ` error=${JSON.stringify(sess.context.error)}` : ''}`,
    `  market socket: ${sock(s.market)}`,
    `  user socket: ${sock(s.user)}`,
  ];
  const books = s.streams.books as Record<string, { status: string; seq: number; bids: [number, number][]; asks: [number, number][] }>;
  for (const [sym, b] of Object.entries(books)) {
    lines.push(`  book ${sym}: ${b.status} seq=${b.seq} bid=${JSON.stringify(b.bids[0] ?? null)} ask=${JSON.stringify(b.asks[0] ?? null)} levels=${b.bids.length}/${b.asks.length}`);
  }
  const tickers = Object.keys(s.streams.tickers as Record<string, unknown>);
  if (tickers.length > 0) lines.push(`  tickers: ${tickers.length} symbols`);
  const bal = s.streams.balances as Record<string, { available?: string }>;
  for (const [k, v] of Object.entries(bal)) lines.push(`  balance ${k}: available ${String(v.available)}`);
  for (const [key, f] of Object.entries(s.screens ?? {})) {
    const c = f.context as { error?: unknown; failure?: unknown; submitError?: unknown } | null;
    const problem = c?.failure ?? c?.error ?? c?.submitError ?? null;
    lines.push(`  screen ${key}: ${JSON.stringify(f.value)}${problem ? ` (${JSON.stringify(problem)})` : ''}`);
  }
  for (const v of cp.violations) lines.push(`  VIOLATION: ${v}`);
  return lines;
}

/** Timeline lines: everything for short logs, head and tail with a count by kind for long ones. */
export function timeline(records: readonly LogRecord[], limit = 200): string[] {
  if (records.length <= limit) return records.map(describe);
  const head = records.slice(0, Math.floor(limit * 0.7)).map(describe);
  const tail = records.slice(records.length - Math.floor(limit * 0.3)).map(describe);
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  const skipped = records.length - head.length - tail.length;
  return [...head, `… ${skipped} records (${[...counts].map(([k, n]) => `${k} ${n}`).join(', ')} in the whole log) …`, ...tail];
}
