import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { JournalCorruptError } from '../engine/journal.ts';
import { scanJournalFile } from '../engine/journalFile.ts';
import { encodeRecord } from '../engine/journalFormat.ts';
import { readSnapshot, replayJournalFile } from '../engine/recovery.ts';
import { emptyState, stateHash } from '../engine/state.ts';
import { INSTRUMENTS } from '../market/instruments.ts';

/**
 * `npm run engine -- <command> <journal file>`: the engine journal for operators and support
 * (docs/SCALING.md "Issue 28"). Reads only; never changes the file.
 *
 * - `verify <file>`: checks every record (frame, CRC-32, sequence) and prints the count, the seq
 *   and time range, whether the file ends cleanly or with a torn last write (which the engine
 *   drops at open), and the SHA-256 of the valid records' bytes (equal journals, equal hashes).
 *   Exit 0; 2 when the journal is damaged inside (the engine would refuse to start), with the reason.
 * - `show <file> [--from <seq>] [--to <seq>]`: prints the records in that range as JSON lines
 *   `{seq, t, body}` (a support case: what was asked and what the engine answered at that seq).
 *
 * - `replay <file> [--to <seq>] [--snapshot <snapshot file>]`: the engine's state at a seq (the
 *   journal's end by default) recomputed from the snapshot (server/engine/recovery.ts; without one,
 *   the state at seq 0: no balance, the listed contracts' rules) and the journal's records after it
 *   through apply(); prints the seq reached and the state hash (stateHash, SHA-256): a support case
 *   about a server-side decision is answered by replaying to its seq. Exit 2 when the journal is
 *   damaged, the snapshot does not verify, or the journal does not continue the snapshot.
 */
const USAGE = 'usage: npm run engine -- verify <journal> | show <journal> [--from <seq>] [--to <seq>] | replay <journal> [--to <seq>] [--snapshot <file>]';

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

function replay(path: string, rest: string[]): number {
  const to = flag(rest, '--to');
  const snapFile = option(rest, '--snapshot');
  let state = emptyState(INSTRUMENTS.map((i) => i.info));
  let from = 0;
  if (snapFile !== undefined) {
    const snap = readSnapshot(snapFile);
    if (!snap.ok) {
      console.error(`DAMAGED: ${snapFile}: ${snap.reason}`);
      return 2;
    }
    if (to !== undefined && snap.seq > to) {
      console.error(`${snapFile} is the state at seq ${snap.seq}, after --to ${to}`);
      return 1;
    }
    ({ state } = snap);
    from = snap.seq;
  }
  const started = performance.now();
  let seq: number;
  try {
    seq = replayJournalFile(path, state, from, to);
  } catch (err) {
    if (err instanceof JournalCorruptError) throw err;
    console.error(`DAMAGED: ${(err as Error).message}`);
    return 2;
  }
  const ms = performance.now() - started;
  console.log(`${path}: replayed seq ${from + 1} … ${seq} (${seq - from} commands${snapFile ? ` after ${snapFile}` : ''}) in ${ms.toFixed(0)} ms`);
  console.log(`seq ${seq}`);
  console.log(`state sha256: ${stateHash(state)}`);
  return 0;
}

function flag(args: string[], name: string): number | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = Number(args[i + 1]);
  if (!Number.isSafeInteger(v) || v < 1) throw new Error(`${name} needs a sequence number`);
  return v;
}

function main(): number {
  const [command, path, ...rest] = process.argv.slice(2);
  if ((command !== 'verify' && command !== 'show' && command !== 'replay') || !path) {
    console.error(USAGE);
    return 1;
  }
  if (!existsSync(path)) {
    console.error(`${path}: no such file`);
    return 1;
  }
  try {
    if (command === 'replay') return replay(path, rest);
    if (command === 'show') {
      const from = flag(rest, '--from') ?? 1;
      const to = flag(rest, '--to') ?? Number.MAX_SAFE_INTEGER;
      scanJournalFile(path, { onRecord: (r) => r.seq >= from && r.seq <= to && console.log(JSON.stringify(r)) });
      return 0;
    }
    const hash = createHash('sha256');
    let first: { seq: number; t: number } | null = null;
    let last: { seq: number; t: number } | null = null;
    const started = performance.now();
    const scan = scanJournalFile(path, {
      onRecord: (r) => {
        first ??= r;
        last = r;
        hash.update(encodeRecord(r));
      },
    });
    const ms = performance.now() - started;
    const range = (a: { seq: number; t: number } | null, b: { seq: number; t: number } | null): string =>
      a && b ? `seq ${a.seq} … ${b.seq}, time ${new Date(a.t).toISOString()} … ${new Date(b.t).toISOString()}` : 'no records';
    console.log(`${path}: ${scan.records} records, ${range(first, last)}, ${(scan.fileBytes / 1e6).toFixed(1)} MB, read in ${ms.toFixed(0)} ms`);
    console.log(
      scan.tornBytes > 0
        ? `torn last write: ${scan.tornBytes} bytes at offset ${scan.validBytes} (${scan.tornReason}); the engine drops them at open (never acknowledged)`
        : 'ends cleanly',
    );
    console.log(`sha256 of the records: ${hash.digest('hex')}`);
    return 0;
  } catch (err) {
    if (err instanceof JournalCorruptError) {
      console.error(`DAMAGED: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = main();
