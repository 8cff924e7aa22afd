import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';
import { open as openHandle } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BatchingJournal, JournalCorruptError, JournalWriteError } from './journal.ts';
import type { JournalRecord } from './journal.ts';
import { decodeRecord, encodeRecord, FRAME_HEADER_BYTES, MAGIC, MAX_BODY_BYTES } from './journalFormat.ts';
import type { DecodeFailure } from './journalFormat.ts';

/** Bytes read at a time when scanning a journal. */
const CHUNK = 8 * 1024 * 1024;

export interface ScanResult {
  /** The seq after the last valid record (`fromSeq` of the scan when there is none). */
  nextSeq: number;
  /** Records read. */
  records: number;
  /** Offset just past the last valid record: where appends continue. */
  validBytes: number;
  /** Bytes after it that were a torn last write (0: the file ends cleanly). */
  tornBytes: number;
  /** Why the torn tail did not read as a record (undefined when there is none). */
  tornReason?: DecodeFailure | 'header';
  fileBytes: number;
}

export interface ScanOptions {
  /** Called with every valid record in order (recovery applies them). */
  onRecord?: (rec: JournalRecord) => void;
  /**
   * The seq of the first append when the file holds no record yet (default 1; a journal begun after
   * a snapshot starts after it). A file with records continues from its last one: its first
   * record's seq is not checked here (the caller checks it follows its snapshot).
   */
  firstSeq?: number;
  /** Bytes read at a time (default 8 MiB); tests make it small so records straddle reads. */
  chunkBytes?: number;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

/** Whether a valid record starts anywhere in (from, size): then the damage at `from` is not a torn end. */
function validRecordAfter(fd: number, from: number, size: number, chunk: number): number | null {
  for (let start = from + 1; start + FRAME_HEADER_BYTES <= size; start += chunk) {
    const window = readAt(fd, start, Math.min(chunk + FRAME_HEADER_BYTES, size - start));
    const last = Math.min(chunk - 1, window.length - FRAME_HEADER_BYTES);
    for (let i = 0; i <= last; i++) {
      const len = window.readUInt32LE(i + 4);
      if (len < 16 || len > MAX_BODY_BYTES || start + i + FRAME_HEADER_BYTES + len > size) continue;
      const bytes = i + FRAME_HEADER_BYTES + len <= window.length ? window : readAt(fd, start + i, FRAME_HEADER_BYTES + len);
      if (decodeRecord(bytes, bytes === window ? i : 0).ok) return start + i;
    }
  }
  return null;
}

/**
 * Reads a journal file from its start, checking every record: its frame, checksum and sequence
 * (each seq the previous + 1). The end of the file may be a torn last write (a crash during a
 * batch's write): damage that reaches the end of the file with no valid record after it is
 * reported as `tornBytes` (the caller drops it). Any other damage (a bad record followed by good
 * ones, a checksum-valid record out of sequence, a file that is not a journal) throws
 * JournalCorruptError naming the file, the offset and the reason: never skipped silently.
 */
export function scanJournalFile(path: string, opts: ScanOptions = {}): ScanResult {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    let expected = opts.firstSeq ?? 1;
    let records = 0;
    const chunk = Math.max(FRAME_HEADER_BYTES, opts.chunkBytes ?? CHUNK);
    const head = readAt(fd, 0, Math.min(size, MAGIC.length));
    if (size < MAGIC.length) {
      // A crash while the file was being created: only a prefix of the magic can be torn, not garbage.
      if (!MAGIC.subarray(0, head.length).equals(head)) throw new JournalCorruptError(`${path} is not an engine journal (bad magic)`);
      return { nextSeq: expected, records, validBytes: 0, tornBytes: size, ...(size > 0 ? { tornReason: 'header' as const } : {}), fileBytes: size };
    }
    if (!head.equals(MAGIC)) throw new JournalCorruptError(`${path} is not an engine journal (bad magic ${JSON.stringify(head.toString('latin1'))}, expected "RFJRNL01")`);
    let base = MAGIC.length; // file offset of buf[0]
    let buf = readAt(fd, base, Math.min(chunk, size - base));
    let at = 0;
    for (;;) {
      const d = decodeRecord(buf, at);
      if (d.ok) {
        if (records === 0) expected = d.record.seq;
        if (d.record.seq !== expected) {
          throw new JournalCorruptError(`${path}: record at offset ${base + at} has seq ${d.record.seq}, expected ${expected}; the journal is not one sequence (refusing to start)`);
        }
        opts.onRecord?.(d.record);
        records += 1;
        expected += 1;
        at += d.bytes;
        continue;
      }
      const offset = base + at;
      if (d.reason === 'short' && base + buf.length < size) {
        // The record continues past this chunk: read on from its start.
        const len = buf.length - at >= FRAME_HEADER_BYTES ? buf.readUInt32LE(at + 4) : 0;
        base = offset;
        buf = readAt(fd, base, Math.min(Math.max(chunk, FRAME_HEADER_BYTES + len), size - base));
        at = 0;
        continue;
      }
      if (offset === size) return { nextSeq: expected, records, validBytes: size, tornBytes: 0, fileBytes: size };
      const later = validRecordAfter(fd, offset, size, chunk);
      if (later !== null) {
        throw new JournalCorruptError(
          `${path}: unreadable record at offset ${offset} (${d.reason}) after seq ${expected - 1}, followed by a valid record at offset ${later}: ` +
            'the journal is damaged inside, not at a torn end (refusing to start; restore it from a copy or a replica)',
        );
      }
      return { nextSeq: expected, records, validBytes: offset, tornBytes: size - offset, tornReason: d.reason, fileBytes: size };
    }
  } finally {
    closeSync(fd);
  }
}

export interface OpenFileJournalOptions extends ScanOptions {
  /** Told when a torn last write was dropped (bytes, reason); default: silent. */
  onTorn?: (info: { bytes: number; reason: string; atOffset: number }) => void;
  /** The file operations (default: the real handle's); a test wraps them to inject a failed write. */
  io?: (fh: FileHandle) => JournalFileIo;
}

/** What the file journal does to its file: positioned write, data sync, truncate. */
export interface JournalFileIo {
  write(buf: Buffer, position: number): Promise<void>;
  sync(): Promise<void>;
  truncate(length: number): Promise<void>;
}

export function realIo(fh: FileHandle): JournalFileIo {
  return {
    async write(buf, position) {
      let done = 0;
      while (done < buf.length) done += (await fh.write(buf, done, buf.length - done, position + done)).bytesWritten;
    },
    sync: () => fh.datasync(),
    truncate: (length) => fh.truncate(length),
  };
}

/**
 * The embedded default: one append-only file (`DATA_DIR/engine/journal.rfj` when the engine is
 * wired). Opening scans it (`onRecord` sees every record: recovery), drops a torn last write, and
 * positions appends after the last valid record. A batch is one positioned write of all its records
 * and one fdatasync. A failed batch is cut off again (truncate to the last durable byte) before the
 * next one is written, so the file never holds a record that was not acknowledged as failed.
 */
export class FileJournal extends BatchingJournal {
  /** Whether bytes past the last durable record may be on disk (a failed batch not yet cut off). */
  private dirty = false;

  private constructor(
    private readonly fh: FileHandle,
    private readonly io: JournalFileIo,
    private size: number,
    nextSeq: number,
    readonly scan: ScanResult,
  ) {
    super(nextSeq);
  }

  static async open(path: string, opts: OpenFileJournalOptions = {}): Promise<FileJournal> {
    let scan: ScanResult;
    if (!existsSync(path)) {
      const fd = openSync(path, 'wx');
      try {
        writeSync(fd, MAGIC);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      syncDir(dirname(path));
      scan = { nextSeq: opts.firstSeq ?? 1, records: 0, validBytes: MAGIC.length, tornBytes: 0, fileBytes: MAGIC.length };
    } else {
      scan = scanJournalFile(path, opts);
      if (scan.tornBytes > 0 || scan.validBytes < MAGIC.length) {
        const fd = openSync(path, 'r+');
        try {
          if (scan.validBytes < MAGIC.length) {
            ftruncateSync(fd, 0);
            writeSync(fd, MAGIC, 0, MAGIC.length, 0);
            scan = { ...scan, validBytes: MAGIC.length };
          } else {
            ftruncateSync(fd, scan.validBytes);
          }
          fsyncSync(fd);
        } finally {
          closeSync(fd);
        }
        if (scan.tornBytes > 0) opts.onTorn?.({ bytes: scan.tornBytes, reason: scan.tornReason ?? 'short', atOffset: scan.validBytes });
      }
    }
    const fh = await openHandle(path, 'r+');
    return new FileJournal(fh, (opts.io ?? realIo)(fh), scan.validBytes, scan.nextSeq, scan);
  }

  /** Bytes of the file that are durable records (the magic included). */
  get durableBytes(): number {
    return this.size;
  }

  protected async persist(records: readonly JournalRecord[]): Promise<number> {
    const bytes = records.length === 1 ? encodeRecord(records[0] as JournalRecord) : Buffer.concat(records.map(encodeRecord));
    try {
      // A failed batch left bytes after the last durable record: cut them off first (a shorter
      // batch written over them could otherwise leave some of its records readable after it).
      if (this.dirty) {
        await this.io.truncate(this.size);
        await this.io.sync();
        this.dirty = false;
      }
      await this.io.write(bytes, this.size);
      await this.io.sync();
    } catch (cause) {
      this.dirty = true;
      await this.io.truncate(this.size).then(() => (this.dirty = false), () => undefined);
      const code = (cause as NodeJS.ErrnoException)?.code;
      throw new JournalWriteError(code === 'ENOSPC' ? 'journal write failed: the disk is full' : `journal write failed: ${String((cause as Error)?.message ?? cause)}`, cause);
    }
    this.size += bytes.length;
    return bytes.length;
  }

  protected release(): Promise<void> {
    return this.fh.close();
  }
}

/** Makes a new file's directory entry durable (POSIX: fsync of the directory). */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some platforms cannot open a directory for fsync; the file's own fsync is what they offer.
  }
}
