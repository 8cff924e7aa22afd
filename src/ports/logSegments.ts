import type { LogRecord } from './eventLog.ts';

/**
 * Page loads as segments of one log (issue 27, point 7; docs/REPLAY.md "Bundles across reloads").
 * Each page load records its own log (seq from 1, `t` from its own start). A bundle taken after
 * reloads joins the loads kept in the browser (src/ports/logStore.ts) and the current one into one
 * `rft-log`: one virtual clock from the first load's start, seq numbers increasing over the whole
 * file, and a `segment` record at the start of every load:
 *   {seq, t, kind:'segment', load, loads, startedAt, path?}
 * `load` counts from 1 within the bundle, `startedAt` is the load's own start (Unix ms), `path`
 * the page it opened on (its `env` record's). The replay treats a segment record like the reload
 * it was: a fresh core on fresh replay ports, on the same virtual clock (src/core/replay/driver.ts).
 * A log with no segment record is one page load, as every log was before.
 */

export const SEGMENT_KIND = 'segment';

/** One page load's records as its own log numbered them. */
export interface LoadRecords {
  /** Unix ms the load's log started; its records' `t` count from it. */
  startedAt: number;
  /** Its records, oldest first (the start may be missing when a size cap dropped it). */
  records: LogRecord[];
  /** The last seq the load's log gave (records may end earlier when its tail was never stored). */
  lastSeq: number;
}

export interface JoinedLoads {
  /** Unix ms of the first load's start: the bundle header's `startedAt`. */
  startedAt: number;
  records: LogRecord[];
  /** Records of the loads that size caps dropped before the first one kept (summed per load). */
  dropped: number;
  /**
   * Records of a load recorded while a later load already ran (another tab of the same origin
   * open at the same time): left out, since one replayed core runs at a time.
   */
  overlapped: number;
}

/**
 * Joins page loads (any order; sorted by start) into one log with a `segment` record before each.
 * `t` is moved onto the first load's clock and never goes back; seq of load k's record r is
 * `base_k + 1 + r.seq`, where `base_k` counts the segment records and every seq the loads before
 * it gave out, so a gap still shows what a cap dropped.
 */
export function joinLoads(loads: readonly LoadRecords[]): JoinedLoads {
  const sorted = [...loads].sort((a, b) => a.startedAt - b.startedAt);
  const startedAt = sorted[0]?.startedAt ?? 0;
  const records: LogRecord[] = [];
  let base = 0;
  let lastT = 0;
  let dropped = 0;
  let overlapped = 0;
  sorted.forEach((load, i) => {
    const next = sorted[i + 1];
    const offset = load.startedAt - startedAt;
    const segT = Math.max(lastT, offset);
    const env = load.records.find((r) => r.kind === 'env');
    const path = typeof env?.path === 'string' ? { path: env.path } : {};
    records.push({ seq: base + 1, t: segT, kind: SEGMENT_KIND, load: i + 1, loads: sorted.length, startedAt: load.startedAt, ...path });
    lastT = segT;
    dropped += Math.max(0, (load.records[0]?.seq ?? load.lastSeq + 1) - 1);
    let lastSeq = load.lastSeq;
    for (const rec of load.records) {
      lastSeq = Math.max(lastSeq, rec.seq);
      if (next && load.startedAt + rec.t >= next.startedAt) {
        overlapped += 1;
        continue;
      }
      const t = Math.max(lastT, offset + rec.t);
      records.push({ ...rec, seq: base + 1 + rec.seq, t });
      lastT = t;
    }
    base += 1 + lastSeq;
  });
  return { startedAt, records, dropped, overlapped };
}

/**
 * Splits replayed records into page loads at each `segment` record (a segment record before any
 * other record belongs to the first load). A log without segment records is one load.
 */
export function splitSegments(records: readonly LogRecord[]): LogRecord[][] {
  const out: LogRecord[][] = [];
  let cur: LogRecord[] = [];
  for (const rec of records) {
    if (rec.kind === SEGMENT_KIND && cur.some((r) => r.kind !== SEGMENT_KIND)) {
      out.push(cur);
      cur = [];
    }
    cur.push(rec);
  }
  if (cur.length > 0 || out.length === 0) out.push(cur);
  return out;
}
