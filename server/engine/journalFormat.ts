import { crc32 } from 'node:zlib';

/**
 * The engine journal's on-disk format (docs/SCALING.md "The journal"): a file of length-prefixed,
 * checksummed records behind an 8-byte magic.
 *
 * ```
 * file    = MAGIC (8 bytes, "RFJRNL01") record*
 * record  = crc:u32le len:u32le body[len]
 * body    = seq:u64le t:i64le json (UTF-8)
 * crc     = CRC-32 (zlib) of the bytes from len to the end of the body
 * ```
 *
 * `seq` numbers the engine's commands (each record's is the previous one's + 1), `t` is the engine
 * clock's time of the command (Unix ms), `json` its body (the command and the outcome it produced).
 * The checksum covers the length too (it is written first, so one pass covers length and body), so a damaged length is caught as surely as a damaged body.
 * A body is at least 16 bytes, so a zero-filled region (what a crash can leave after an extended
 * file size) never reads as a record.
 */
export const MAGIC = Buffer.from('RFJRNL01', 'latin1');
export const FRAME_HEADER_BYTES = 8;
const BODY_FIXED_BYTES = 16;
/** A larger length is damage, not a record (bounds what one record may claim). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface JournalRecord<B = unknown> {
  seq: number;
  t: number;
  body: B;
}

/** One record's bytes, frame header included. */
export function encodeRecord(rec: JournalRecord): Buffer {
  if (!Number.isSafeInteger(rec.seq) || rec.seq < 1) throw new RangeError(`journal seq must be a positive safe integer, got ${rec.seq}`);
  if (!Number.isSafeInteger(rec.t)) throw new RangeError(`journal time must be an integer (ms), got ${rec.t}`);
  const json = JSON.stringify(rec.body) as string | undefined;
  if (json === undefined) throw new TypeError('journal body must be JSON-serialisable');
  const jsonBytes = Buffer.byteLength(json, 'utf8');
  const len = BODY_FIXED_BYTES + jsonBytes;
  if (len > MAX_BODY_BYTES) throw new RangeError(`journal record too large: ${len} bytes`);
  const buf = Buffer.allocUnsafe(FRAME_HEADER_BYTES + len);
  buf.writeUInt32LE(len, 4);
  writeInt64(buf, 8, rec.seq);
  writeInt64(buf, 16, rec.t);
  buf.write(json, 24, 'utf8');
  buf.writeUInt32LE(crc32(buf.subarray(4)), 0);
  return buf;
}

/** A safe integer as 64-bit little-endian two's complement (two 32-bit halves: no BigInt on the hot path). */
function writeInt64(buf: Buffer, at: number, v: number): void {
  const hi = Math.floor(v / 2 ** 32);
  buf.writeUInt32LE(v - hi * 2 ** 32, at);
  buf.writeInt32LE(hi, at + 4);
}

function readInt64(buf: Buffer, at: number): number {
  return buf.readInt32LE(at + 4) * 2 ** 32 + buf.readUInt32LE(at);
}

export type Decoded =
  | { ok: true; record: JournalRecord; bytes: number }
  /** `short`: the bytes end before the record does (more may follow, or the file is torn there). */
  | { ok: false; reason: DecodeFailure };

/** Why bytes are not a record: `content` is a record whose checksum holds but whose seq, time or JSON does not. */
export type DecodeFailure = 'short' | 'length' | 'checksum' | 'content';

/** Decodes the record framed at `at` (does not check its sequence number against any other). */
export function decodeRecord(buf: Buffer, at: number): Decoded {
  if (buf.length - at < FRAME_HEADER_BYTES) return { ok: false, reason: 'short' };
  const len = buf.readUInt32LE(at + 4);
  if (len < BODY_FIXED_BYTES || len > MAX_BODY_BYTES) return { ok: false, reason: 'length' };
  if (buf.length - at < FRAME_HEADER_BYTES + len) return { ok: false, reason: 'short' };
  if (crc32(buf.subarray(at + 4, at + FRAME_HEADER_BYTES + len)) !== buf.readUInt32LE(at)) return { ok: false, reason: 'checksum' };
  const seq = readInt64(buf, at + 8);
  const t = readInt64(buf, at + 16);
  if (seq < 1 || !Number.isSafeInteger(seq) || !Number.isSafeInteger(t)) return { ok: false, reason: 'content' };
  let body: unknown;
  try {
    body = JSON.parse(buf.toString('utf8', at + 24, at + FRAME_HEADER_BYTES + len));
  } catch {
    return { ok: false, reason: 'content' };
  }
  return { ok: true, record: { seq, t, body }, bytes: FRAME_HEADER_BYTES + len };
}
