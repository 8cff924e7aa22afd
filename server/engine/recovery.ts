import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { apply } from './apply.ts';
import type { Command, Outcome } from './apply.ts';
import { scanJournalFile } from './journalFile.ts';
import type { EngineState } from './state.ts';

/**
 * Snapshots and recovery (issue 28 step 4, docs/SCALING.md): the engine's state at a seq written to
 * `<dir>/snapshot-<seq>.json` with the SHA-256 of its body, and recovery = the latest valid
 * snapshot + the journal's records after it. The engine is a pure function of (snapshot, journal):
 * the same records applied to the same state give the same state hash.
 *
 * Snapshot file: one header line `{"format":"RFSNAP01","seq":N,"sha256":"<hex>"}`, then the body:
 * the state as JSON with Maps as `{"$map":[[k,v]…]}`, Sets as `{"$set":[…]}` and bigints as
 * `{"$big":"<n>"}` (so it reads back exactly); the hash covers the body's bytes. A snapshot whose
 * body does not hash to its header is skipped (the one before it is used), never trusted.
 */

export const SNAPSHOT_FORMAT = 'RFSNAP01';
const NAME = /^snapshot-(\d+)\.json$/;

/** The state as plain JSON values (Maps, Sets and bigints tagged so they read back exactly). */
export function encodeState(v: unknown): unknown {
  if (typeof v === 'bigint') return { $big: v.toString() };
  if (v instanceof Map) return { $map: [...v].map(([k, x]) => [encodeState(k), encodeState(x)]) };
  if (v instanceof Set) return { $set: [...v].map(encodeState) };
  if (Array.isArray(v)) return v.map(encodeState);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = encodeState(x);
    return out;
  }
  return v;
}

export function decodeState(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decodeState);
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.$big === 'string' && Object.keys(o).length === 1) return BigInt(o.$big);
    if (Array.isArray(o.$map) && Object.keys(o).length === 1) return new Map((o.$map as [unknown, unknown][]).map(([k, x]) => [decodeState(k), decodeState(x)]));
    if (Array.isArray(o.$set) && Object.keys(o).length === 1) return new Set((o.$set as unknown[]).map(decodeState));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = decodeState(x);
    return out;
  }
  return v;
}

export const snapshotPath = (dir: string, seq: number): string => join(dir, `snapshot-${seq}.json`);

/** The snapshot file's bytes for the state at `seq`: header line + body. Synchronous and pure (a worker or the loop runs it on a copy). */
export function snapshotBytes(state: EngineState, seq: number): Buffer {
  const body = Buffer.from(JSON.stringify(encodeState(state)), 'utf8');
  const sha256 = createHash('sha256').update(body).digest('hex');
  return Buffer.concat([Buffer.from(`${JSON.stringify({ format: SNAPSHOT_FORMAT, seq, sha256 })}\n`, 'utf8'), body]);
}

/**
 * Writes the snapshot of `state` at `seq` atomically (a temporary file, fsync, rename, fsync of the
 * directory): a crash leaves the old snapshots and maybe a stray temporary file, never a half
 * snapshot under a snapshot's name. Pass a copy of the live state (copyState) taken at `seq`: the
 * write is asynchronous and the live state moves on.
 */
export async function writeSnapshot(dir: string, seq: number, state: EngineState): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = snapshotPath(dir, seq);
  const tmp = `${path}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(snapshotBytes(state, seq));
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  const d = openSync(dir, 'r');
  try {
    fsyncSync(d);
  } finally {
    closeSync(d);
  }
  return path;
}

export type SnapshotRead = { ok: true; seq: number; state: EngineState } | { ok: false; reason: string };

/** Reads and verifies one snapshot file (format, hash, seq). */
export function readSnapshot(path: string): SnapshotRead {
  const bytes = readFileSync(path);
  const nl = bytes.indexOf(0x0a);
  if (nl < 0) return { ok: false, reason: 'no header line' };
  let header: { format?: unknown; seq?: unknown; sha256?: unknown };
  try {
    header = JSON.parse(bytes.subarray(0, nl).toString('utf8')) as typeof header;
  } catch {
    return { ok: false, reason: 'the header is not JSON' };
  }
  if (header.format !== SNAPSHOT_FORMAT || typeof header.seq !== 'number' || typeof header.sha256 !== 'string') return { ok: false, reason: 'not a snapshot header' };
  const body = bytes.subarray(nl + 1);
  if (createHash('sha256').update(body).digest('hex') !== header.sha256) return { ok: false, reason: 'the body does not match its SHA-256' };
  return { ok: true, seq: header.seq, state: decodeState(JSON.parse(body.toString('utf8'))) as EngineState };
}

/** The newest valid snapshot in `dir` at or before `atMost` (damaged ones skipped), or null. */
export function latestSnapshot(dir: string, atMost = Number.MAX_SAFE_INTEGER, onSkipped?: (path: string, reason: string) => void): { seq: number; state: EngineState; path: string } | null {
  if (!existsSync(dir)) return null;
  const seqs = readdirSync(dir)
    .map((n) => NAME.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .filter((seq) => seq <= atMost)
    .sort((a, b) => b - a);
  for (const seq of seqs) {
    const path = snapshotPath(dir, seq);
    const r = readSnapshot(path);
    if (r.ok && r.seq === seq) return { seq, state: r.state, path };
    onSkipped?.(path, r.ok ? `its header says seq ${r.seq}` : r.reason);
  }
  return null;
}

/**
 * Applies the journal file's records with `from < seq <= to` to `state` (in place), in order.
 * Returns the seq of the last record applied (`from` when none). A record missing in the range
 * (the journal begins after `from + 1`) is an error: the snapshot and the journal do not meet.
 */
export function replayJournalFile(path: string, state: EngineState, from: number, to = Number.MAX_SAFE_INTEGER, onOutcome?: (outcome: Outcome) => void): number {
  let at = from;
  scanJournalFile(path, {
    onRecord: (rec) => {
      if (rec.seq <= at || rec.seq > to) return;
      if (rec.seq !== at + 1) throw new Error(`${path}: record ${rec.seq} follows seq ${at}: the journal does not continue the snapshot`);
      const outcome = apply(state, rec.body as Command, rec.seq, rec.t);
      onOutcome?.(outcome);
      at = rec.seq;
    },
  });
  return at;
}

/**
 * Recovery: the latest valid snapshot at or before `to` (else `initial`, the state at seq 0) plus
 * the journal's records after it up to `to`. Returns the state and its seq.
 *
 * `outcomes` (the projector's catch-up at start, server/engine/projector.ts): the outcome of every
 * record after `outcomes.after` is handed to `outcomes.on`, in seq order; the snapshot is then one
 * at or before `outcomes.after`, so every such record is replayed.
 */
export function recoverState(opts: {
  journal: string;
  snapshots?: string;
  initial: () => EngineState;
  to?: number;
  onSkipped?: (path: string, reason: string) => void;
  outcomes?: { after: number; on: (outcome: Outcome) => void };
}): { seq: number; state: EngineState; fromSnapshot: number } {
  const atMost = Math.min(opts.to ?? Number.MAX_SAFE_INTEGER, opts.outcomes?.after ?? Number.MAX_SAFE_INTEGER);
  const snap = opts.snapshots ? latestSnapshot(opts.snapshots, atMost, opts.onSkipped) : null;
  const state = snap ? snap.state : opts.initial();
  const from = snap ? snap.seq : 0;
  const out = opts.outcomes;
  const onOutcome = out ? (o: Outcome) => (o.seq > out.after ? out.on(o) : undefined) : undefined;
  const seq = existsSync(opts.journal) ? replayJournalFile(opts.journal, state, from, opts.to, onOutcome) : from;
  return { seq, state, fromSnapshot: from };
}

/** Removes a stray temporary snapshot (a crash mid-write). */
export async function removeStrayTemp(dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  for (const n of readdirSync(dir)) if (n.endsWith('.json.tmp')) await unlink(join(dir, n));
}
