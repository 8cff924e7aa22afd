/**
 * The engine journal (server/engine/journal*.ts) alone: how many commands per second it makes
 * durable with group commit, and how fast a journal of 1 000 000 commands reads back (the journal
 * half of recovery: frames, checksums, sequence, JSON).
 *
 * - File (the embedded default): APPENDERS callers each append an order-sized record and wait for
 *   it to be durable (write + fdatasync), for SECONDS; figures: durable appends/s, records per
 *   batch, mean write + fdatasync ms per batch.
 * - PostgreSQL (a throw-away server from the Debian binaries, synchronous_commit on: a commit is
 *   durable): the same with one multi-row insert per batch.
 * - Read: 1 000 000 records written in batches, then `scanJournalFile` over them.
 *
 * `recovery ms per 1M commands` (issue 28's name) needs the engine's state in memory to apply the
 * commands to; until it is, the figure says so and `journal read ms per 1M commands` is the part
 * that exists.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres } from '../server/db/connection.ts';
import { findPgBin, startLocalPostgres } from '../server/cli/localPostgres.ts';
import { freePort } from '../server/cli/cluster.ts';
import type { Journal } from '../server/engine/journal.ts';
import { FileJournal, scanJournalFile } from '../server/engine/journalFile.ts';
import { PgJournal } from '../server/engine/journalPg.ts';

const SECONDS = Number(process.env.BENCH_JOURNAL_SECONDS ?? 3);
const APPENDERS = Number(process.env.BENCH_JOURNAL_APPENDERS ?? 1000);
const READ_RECORDS = Number(process.env.BENCH_JOURNAL_READ_RECORDS ?? 1_000_000);

/** A command as the engine will journal it: a limit placement and its outcome (about 200 bytes of JSON). */
function command(seq: number): unknown {
  return {
    k: 'place',
    u: 1000 + (seq % 1000),
    o: { cid: `c-${seq}`, s: 'BTCUSDT', c: 'perp', kind: 'limitOpen', side: seq % 2 ? 'buy' : 'sell', p: '59123.4', q: '0.001', lev: 20 },
    r: { id: `o${seq.toString(36)}`, st: 'pending', lock: '2.956170' },
  };
}

async function appendLoad(j: Journal): Promise<Record<string, number>> {
  const end = performance.now() + SECONDS * 1000;
  const start = j.stats.records;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: APPENDERS }, async () => {
      while (performance.now() < end) {
        const seq = j.nextSeq;
        await j.append({ seq, t: Date.now(), body: command(seq) });
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const s = j.stats;
  return {
    'durable appends/s': Math.round((s.records - start) / seconds),
    'records per batch': Number((s.records / Math.max(1, s.batches)).toFixed(1)),
    'ms per batch (write + sync)': Number((s.syncMs / Math.max(1, s.batches)).toFixed(2)),
  };
}

const prefixed = (p: string, f: Record<string, number | string>) => Object.fromEntries(Object.entries(f).map(([k, v]) => [`${p} ${k}`, v]));

async function onFile(dir: string): Promise<Record<string, number | string>> {
  const j = await FileJournal.open(join(dir, 'load.rfj'));
  try {
    return prefixed('file journal', await appendLoad(j));
  } finally {
    await j.close();
  }
}

async function onPostgres(): Promise<Record<string, number | string>> {
  const bin = findPgBin();
  if (bin === null) return { 'postgres journal durable appends/s': 'skipped: PostgreSQL binaries not found (apt-get install postgresql)' };
  const dir = mkdtempSync(join(tmpdir(), 'rf-bench-journal-pg-'));
  const server = await startLocalPostgres(bin, dir, await freePort());
  const db = openPostgres({ url: server.url });
  try {
    const j = await PgJournal.open(db);
    try {
      return prefixed('postgres journal', await appendLoad(j));
    } finally {
      await j.close();
    }
  } finally {
    await db.destroy();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function readBack(dir: string): Promise<Record<string, number | string>> {
  const path = join(dir, 'read.rfj');
  const j = await FileJournal.open(path);
  for (let seq = 1; seq <= READ_RECORDS; ) {
    const batch: Promise<void>[] = [];
    for (let k = 0; k < 5000 && seq <= READ_RECORDS; k++, seq++) batch.push(j.append({ seq, t: 1_800_000_000_000 + seq, body: command(seq) }));
    await Promise.all(batch);
  }
  await j.close();
  let n = 0;
  const t0 = performance.now();
  const scan = scanJournalFile(path, { onRecord: () => (n += 1) });
  const ms = performance.now() - t0;
  if (n !== READ_RECORDS || scan.tornBytes !== 0) throw new Error(`read ${n} of ${READ_RECORDS} records`);
  return {
    'journal read ms per 1M commands': Math.round((ms * 1_000_000) / READ_RECORDS),
    'journal MB per 1M commands': Number(((statSync(path).size / 1e6) * (1_000_000 / READ_RECORDS)).toFixed(1)),
    'recovery ms per 1M commands': 'not measured yet: the engine state is not in memory (docs/SCALING.md); the journal read is measured alone',
  };
}

export async function run(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'rf-bench-journal-'));
  try {
    return {
      appenders: APPENDERS,
      seconds: SECONDS,
      ...(await onFile(dir)),
      ...(await onPostgres()),
      ...(await readBack(dir)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
