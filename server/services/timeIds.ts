import { randomFillSync } from 'node:crypto';

/**
 * Ids and refs that sort by time: `prefix`, the time in base 36 (9 digits), then random bytes in hex.
 * Rows keyed by them (orders, positions, ledger refs) append to their index instead of landing on a
 * random page, and the random part keeps two processes (a cluster's gateways and engine) from ever
 * making the same one. The random bytes come from a pooled buffer refilled 4 KiB at a time: one
 * `randomBytes` call per id cost more than the rest of the id (the order path makes several).
 */
const POOL = Buffer.alloc(4096);
let at = POOL.length;

export function timeId(prefix: string, now: number, bytes: number): string {
  if (at + bytes > POOL.length) {
    randomFillSync(POOL);
    at = 0;
  }
  at += bytes;
  return `${prefix}${now.toString(36).padStart(9, '0')}${POOL.toString('hex', at - bytes, at)}`;
}
