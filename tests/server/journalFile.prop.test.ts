import { appendFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileJournal, realIo, scanJournalFile } from '../../server/engine/journalFile.ts';
import { encodeRecord, MAGIC } from '../../server/engine/journalFormat.ts';
import { JournalCorruptError, JournalWriteError, MemoryJournal } from '../../server/engine/journal.ts';
import type { JournalRecord } from '../../server/engine/journal.ts';

/**
 * The engine journal's file adapter on real files in a temp dir: what is appended and acknowledged
 * reads back exactly; a torn last write (a cut anywhere, or a zero-filled extension) is dropped at
 * open and appends go on after it; damage anywhere else stops the open with JournalCorruptError;
 * one event-loop turn is one write and one sync, and no append resolves before its sync.
 */
let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rf-journal-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const freshPath = () => join(dir, `j${(n += 1)}.rfj`);

/** Bodies as the engine would journal them: any JSON (the journal stores what JSON keeps). */
const body = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
/** The scanner's read size: undefined (8 MiB) or a few bytes, so records straddle reads. */
const chunkBytes = fc.option(fc.integer({ min: 8, max: 120 }), { nil: undefined });
/** Records in batches: each inner array is appended in one event-loop turn. */
const batches = fc.array(fc.array(fc.record({ t: fc.integer({ min: 0, max: 2 ** 42 }), body }), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 });

/** Appends the batches (each in one turn, awaiting it before the next); returns the records with their seqs. */
async function write(path: string, groups: { t: number; body: unknown }[][], firstSeq = 1): Promise<JournalRecord[]> {
  const j = await FileJournal.open(path, { firstSeq });
  const out: JournalRecord[] = [];
  for (const g of groups) {
    const recs = g.map((r) => ({ seq: j.nextSeq + g.indexOf(r), t: r.t, body: r.body }));
    // seqs are assigned before the appends: append checks each is nextSeq
    await Promise.all(recs.map((r) => j.append(r)));
    out.push(...recs);
  }
  await j.close();
  return out;
}

/** Reads every record; `chunkBytes` small makes records straddle the scanner's reads. */
function readAll(path: string, chunkBytes?: number): { records: JournalRecord[]; scan: ReturnType<typeof scanJournalFile> } {
  const records: JournalRecord[] = [];
  const scan = scanJournalFile(path, { onRecord: (r) => records.push(r), ...(chunkBytes ? { chunkBytes } : {}) });
  return { records, scan };
}

/** Offsets where each record ends in the file. */
function ends(records: readonly JournalRecord[]): number[] {
  let at = MAGIC.length;
  return records.map((r) => (at += encodeRecord(r).length));
}

describe('file journal', () => {
  it('reads back exactly what was appended, across reopenings', async () => {
    await fc.assert(
      fc.asyncProperty(batches, batches, chunkBytes, async (a, b, chunk) => {
        const path = freshPath();
        const first = await write(path, a);
        const second = await write(path, b, first.length + 1);
        const { records, scan } = readAll(path, chunk);
        expect(records).toEqual([...first, ...second]);
        expect(scan).toMatchObject({ tornBytes: 0, nextSeq: first.length + second.length + 1 });
      }),
      { numRuns: 40 },
    );
  });

  it('group commit: one turn is one write and one sync, and no append resolves before its sync', async () => {
    const path = freshPath();
    const calls: string[] = [];
    let synced = 0;
    const j = await FileJournal.open(path, {
      io: (fh) => {
        const io = realIo(fh);
        return {
          write: (buf, pos) => (calls.push('write'), io.write(buf, pos)),
          sync: async () => {
            calls.push('sync');
            await io.sync();
            synced += 1;
          },
          truncate: (len) => io.truncate(len),
        };
      },
    });
    const seenAt: number[] = [];
    const turn = Array.from({ length: 50 }, (_, i) => j.append({ seq: i + 1, t: i, body: { i } }).then(() => seenAt.push(synced)));
    await Promise.all(turn);
    expect(calls).toEqual(['write', 'sync']);
    expect(seenAt).toEqual(Array(50).fill(1));
    // Appends made while a batch is in flight form the next batch: two turns, two syncs at most.
    const a = j.append({ seq: 51, t: 0, body: 'a' });
    await new Promise((r) => setImmediate(r));
    const b = [j.append({ seq: 52, t: 0, body: 'b' }), j.append({ seq: 53, t: 0, body: 'c' })];
    await Promise.all([a, ...b]);
    expect(j.stats).toMatchObject({ records: 53, batches: 3, maxBatch: 50 });
    await j.close();
    expect(readAll(path).records.map((r) => r.seq)).toEqual(Array.from({ length: 53 }, (_, i) => i + 1));
  });

  it('a cut anywhere (a torn last write) drops what is incomplete, keeps the rest, and appends go on after it', async () => {
    await fc.assert(
      fc.asyncProperty(batches, fc.double({ min: 0, max: 1, noNaN: true }), chunkBytes, async (groups, where, chunk) => {
        const path = freshPath();
        const written = await write(path, groups);
        const size = readFileSync(path).length;
        const cut = Math.floor(MAGIC.length + where * (size - MAGIC.length));
        truncateSync(path, cut);
        const kept = written.filter((_, i) => (ends(written)[i] ?? Infinity) <= cut);
        const { records, scan } = readAll(path, chunk);
        expect(records).toEqual(kept);
        const lastEnd = kept.length ? (ends(written)[kept.length - 1] as number) : MAGIC.length;
        expect(scan.tornBytes).toBe(cut - lastEnd);
        // Open drops the torn bytes (told through onTorn), then appends continue the sequence.
        const torn: number[] = [];
        const j = await FileJournal.open(path, { onTorn: (t) => torn.push(t.bytes) });
        expect(torn).toEqual(cut > lastEnd ? [cut - lastEnd] : []);
        expect(j.nextSeq).toBe(kept.length + 1);
        await j.append({ seq: j.nextSeq, t: 1, body: 'after' });
        await j.close();
        expect(readAll(path).records).toEqual([...kept, { seq: kept.length + 1, t: 1, body: 'after' }]);
      }),
      { numRuns: 60 },
    );
  });

  it('a zero-filled or garbage tail after the last record (size extended, data never written) is torn, not corrupt', async () => {
    await fc.assert(
      fc.asyncProperty(batches, fc.oneof(fc.integer({ min: 1, max: 600 }).map((k) => Buffer.alloc(k)), fc.uint8Array({ minLength: 1, maxLength: 600 }).map((u) => Buffer.from(u))), async (groups, tail) => {
        const path = freshPath();
        const written = await write(path, groups);
        appendFileSync(path, tail);
        const { records, scan } = readAll(path);
        expect(records).toEqual(written);
        expect(scan.tornBytes).toBe(tail.length);
      }),
      { numRuns: 40 },
    );
  });

  it('damage inside the journal (a record with good ones after it) stops the open with a clear error', async () => {
    await fc.assert(
      fc.asyncProperty(
        batches.filter((g) => g.flat().length >= 2),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        chunkBytes,
        async (groups, pickRecord, pickByte, xor, chunk) => {
          const path = freshPath();
          const written = await write(path, groups);
          const e = ends(written);
          const i = pickRecord % (written.length - 1); // never the last record
          const start = i === 0 ? MAGIC.length : (e[i - 1] as number);
          const at = start + (pickByte % ((e[i] as number) - start));
          const bytes = readFileSync(path);
          bytes[at] = (bytes[at] as number) ^ xor;
          writeFileSync(path, bytes);
          expect(() => scanJournalFile(path, { chunkBytes: chunk })).toThrow(JournalCorruptError);
          expect(() => scanJournalFile(path)).toThrow(/damaged inside|not one sequence/);
          await expect(FileJournal.open(path)).rejects.toThrow(JournalCorruptError);
          // Nothing was changed by the refused open.
          expect(readFileSync(path).equals(bytes)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a valid record out of sequence, or a file that is not a journal, stops the open', async () => {
    const gap = freshPath();
    writeFileSync(gap, Buffer.concat([MAGIC, encodeRecord({ seq: 1, t: 0, body: 1 }), encodeRecord({ seq: 2, t: 0, body: 2 }), encodeRecord({ seq: 4, t: 0, body: 4 })]));
    expect(() => scanJournalFile(gap)).toThrow(/has seq 4, expected 3/);
    const other = freshPath();
    writeFileSync(other, 'SQLite format 3\0 and more');
    expect(() => scanJournalFile(other)).toThrow(/is not an engine journal/);
    await expect(FileJournal.open(other)).rejects.toThrow(JournalCorruptError);
    const wrongStart = freshPath();
    writeFileSync(wrongStart, Buffer.concat([MAGIC, encodeRecord({ seq: 7, t: 0, body: 1 })]));
    // A journal may begin anywhere (after a snapshot): it continues from its own last record.
    expect(readAll(wrongStart).records.map((r) => r.seq)).toEqual([7]);
    const later = await FileJournal.open(wrongStart, { firstSeq: 1 });
    expect(later.nextSeq).toBe(8);
    await later.close();
    // A crash while the file was created: a prefix of the magic is torn, and the open starts it again.
    const half = freshPath();
    writeFileSync(half, MAGIC.subarray(0, 3));
    const j = await FileJournal.open(half);
    await j.append({ seq: 1, t: 5, body: 'x' });
    await j.close();
    expect(readAll(half).records).toEqual([{ seq: 1, t: 5, body: 'x' }]);
  });

  it('a failed write (disk full) rejects its batch and everything after it, leaves no trace, and the journal resumes', async () => {
    const path = freshPath();
    let failNext = false;
    const j = await FileJournal.open(path, {
      io: (fh) => {
        const io = realIo(fh);
        return {
          async write(buf, pos) {
            if (failNext) {
              failNext = false;
              // Half of it reaches the file, as a real ENOSPC can leave it.
              await io.write(buf.subarray(0, buf.length >> 1), pos);
              throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
            }
            return io.write(buf, pos);
          },
          sync: () => io.sync(),
          truncate: (len) => io.truncate(len),
        };
      },
    });
    await Promise.all([1, 2, 3].map((seq) => j.append({ seq, t: seq, body: { ok: seq } })));
    failNext = true;
    const lost = [4, 5, 6].map((seq) => j.append({ seq, t: seq, body: { lost: seq } }));
    const results = await Promise.allSettled(lost);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const reason = (r as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(JournalWriteError);
      expect(reason.message).toBe('journal write failed: the disk is full');
    }
    expect([j.durableSeq, j.nextSeq]).toEqual([3, 4]);
    await j.append({ seq: 4, t: 40, body: { resumed: true } });
    await j.close();
    expect(readAll(path).records.map((r) => r.body)).toEqual([{ ok: 1 }, { ok: 2 }, { ok: 3 }, { resumed: true }]);
  });

  it('refuses an append out of sequence; the memory adapter batches the same way', async () => {
    const m = new MemoryJournal(10);
    await expect(m.append({ seq: 11, t: 0, body: null })).rejects.toThrow(/out of sequence: got 11, expected 10/);
    await Promise.all([10, 11, 12].map((seq) => m.append({ seq, t: 0, body: seq })));
    await m.append({ seq: 13, t: 0, body: 13 });
    expect(m.batchSizes).toEqual([3, 1]);
    expect(m.records.map((r) => r.body)).toEqual([10, 11, 12, 13]);
  });
});
