import type { WebSocket } from 'ws';

/**
 * RFC 6455 framing of a server → client text message (FIN, opcode 1, unmasked), done once so that
 * the same bytes can be written to every subscriber's socket (the market fan-out).
 */
export function textFrame(payload: Buffer): Buffer {
  const len = payload.length;
  const headerLen = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(headerLen + len);
  out[0] = 0x81;
  if (len < 126) out[1] = len;
  else if (len < 65536) {
    out[1] = 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 127;
    out.writeUInt32BE(Math.floor(len / 2 ** 32), 2);
    out.writeUInt32BE(len >>> 0, 6);
  }
  payload.copy(out, headerLen);
  return out;
}

/** The part of a net.Socket the fan-out writes to. */
export interface RawSink {
  write(chunk: Buffer): boolean;
}

/**
 * The TCP socket under a `ws` WebSocket when pre-framed bytes may be written to it directly: no
 * extension (permessage-deflate) was negotiated, so `ws` frames every message as-is and queues
 * nothing (its own writes and ours stay in order). Null for anything else (then `ws.send` is used).
 */
export function rawSinkOf(ws: WebSocket): RawSink | null {
  if (ws.extensions !== '') return null;
  const sock = (ws as unknown as { _socket?: unknown })._socket;
  if (typeof sock !== 'object' || sock === null || typeof (sock as RawSink).write !== 'function') return null;
  return sock as RawSink;
}
