import type { LogRecord } from '../../ports/eventLog.ts';
import { stableStringify } from '../../ports/stateHash.ts';
import type { ParsedLog } from './parse.ts';
import type { ReplayResult } from './driver.ts';

/**
 * Where two runs part (`npm run replay -- a --diff b`). Two views, both by position in the logs:
 * - the first record whose content differs (what the world did differently; `env` records and
 *   times are left out), and
 * - the first record after which the state hashes differ (where the app's state parted).
 * Records are aligned by position (a bundle whose ring dropped its start aligns from there).
 */
export interface DiffReport {
  same: boolean;
  /** First record that differs in content (null: the common prefix is identical). */
  firstRecord: { index: number; a: LogRecord | null; b: LogRecord | null } | null;
  /** First position where the state hash after the record differs. */
  firstHash: { index: number; seqA: number | null; seqB: number | null; kindA: string | null; kindB: string | null; hashA: string | null; hashB: string | null } | null;
  finalA: string;
  finalB: string;
}

/**
 * A record's identity for diffing: every field but `seq` and `t`. Two recordings of the same
 * session never share exact times; where time matters (a timer firing earlier) the state
 * hashes part, which the second view reports.
 */
const content = (r: LogRecord): string => {
  const { seq: _seq, t: _t, ...rest } = r;
  return stableStringify(rest);
};

/** `env` records describe the machine, not an event: they never make two runs part. */
const events = (log: ParsedLog): LogRecord[] => log.records.filter((r) => r.kind !== 'env');

export function diffRuns(a: ParsedLog, ra: ReplayResult, b: ParsedLog, rb: ReplayResult): DiffReport {
  const ea = events(a);
  const eb = events(b);
  const n = Math.max(ea.length, eb.length);
  let firstRecord: DiffReport['firstRecord'] = null;
  for (let i = 0; i < n; i++) {
    const x = ea[i];
    const y = eb[i];
    if (!x || !y || content(x) !== content(y)) {
      firstRecord = { index: i, a: x ?? null, b: y ?? null };
      break;
    }
  }
  let firstHash: DiffReport['firstHash'] = null;
  const m = Math.max(ra.hashes.length, rb.hashes.length);
  for (let i = 0; i < m; i++) {
    const x = ra.hashes[i];
    const y = rb.hashes[i];
    if (!x || !y || x.hash !== y.hash) {
      firstHash = { index: i, seqA: x?.seq ?? null, seqB: y?.seq ?? null, kindA: x?.kind ?? null, kindB: y?.kind ?? null, hashA: x?.hash ?? null, hashB: y?.hash ?? null };
      break;
    }
  }
  const same = firstRecord === null && firstHash === null && ra.final.hash === rb.final.hash;
  return { same, firstRecord, firstHash, finalA: ra.final.hash, finalB: rb.final.hash };
}

/** Human-readable lines for the CLI. */
export function formatDiff(d: DiffReport, nameA: string, nameB: string): string[] {
  if (d.same) return [`same: every record and every state hash agree (final ${d.finalA})`];
  const out: string[] = [];
  if (d.firstRecord) {
    const { a, b } = d.firstRecord;
    out.push(`records part at event ${d.firstRecord.index + 1}:`);
    out.push(`  ${nameA}: ${a ? describe(a) : '(log ended)'}`);
    out.push(`  ${nameB}: ${b ? describe(b) : '(log ended)'}`);
  }
  if (d.firstHash) {
    const h = d.firstHash;
    out.push(`state parts after position ${h.index + 1}: ${nameA} seq ${h.seqA ?? '-'} ${h.kindA ?? ''} → ${h.hashA ?? '(ended)'}; ${nameB} seq ${h.seqB ?? '-'} ${h.kindB ?? ''} → ${h.hashB ?? '(ended)'}`);
  }
  out.push(`final hashes: ${nameA} ${d.finalA}, ${nameB} ${d.finalB}`);
  return out;
}

/** One-line summary of a record for timelines and diffs. */
export function describe(r: LogRecord): string {
  const head = `#${r.seq} t=${r.t} ${r.kind}`;
  switch (r.kind) {
    case 'http.request':
      return `${head} ${String(r.method)} ${String(r.path)}${r.body !== undefined ? ` ${clip(JSON.stringify(r.body))}` : ''}`;
    case 'http.response': {
      const e = r.envelope as { code?: unknown; msg?: unknown } | undefined;
      return e ? `${head} id=${String(r.id)} code=${String(e.code)} ${clip(String(e.msg ?? ''))}` : `${head} id=${String(r.id)} network error ${String(r.networkError)}`;
    }
    case 'ws.open':
      return `${head} conn=${String(r.conn)} ${String(r.url)}`;
    case 'ws.in':
    case 'ws.out':
      return `${head} conn=${String(r.conn)} ${clip(String(r.data))}`;
    case 'ws.close':
      return `${head} conn=${String(r.conn)} code=${String(r.code)}`;
    case 'ui.intent':
      return `${head} → ${String(r.actor)} ${clip(JSON.stringify(r.event))}`;
    default: {
      const { seq: _s, t: _t, kind: _k, ...rest } = r;
      return `${head} ${clip(JSON.stringify(rest))}`;
    }
  }
}

const clip = (s: string, n = 100): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
