import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOG_FORMAT, LOG_VERSION, type LogRecord } from '../../../src/ports/eventLog.ts';
import { joinLoads, SEGMENT_KIND, splitSegments, type LoadRecords } from '../../../src/ports/logSegments.ts';
import { parseReplayText, type ParsedLog } from '../../../src/core/replay/parse.ts';
import { replayLog } from '../../../src/core/replay/driver.ts';

/**
 * Page loads as segments of one log (issue 27, point 7): three real UI recordings, taken as three
 * page loads of one browser, joined the way 'Report a problem' joins the loads kept across reloads.
 * A segment boundary replays like the reload it was: a fresh core on the same virtual clock, so
 * every record of a later load hashes as that load replayed alone, and the end is its pinned hash.
 */
const fixture = (name: string) => parseReplayText(readFileSync(`fixtures/sessions/${name}.jsonl`, 'utf8'));
const asLoad = (log: ParsedLog): LoadRecords => ({ startedAt: log.header.startedAt, records: log.records, lastSeq: log.records[log.records.length - 1]?.seq ?? 0 });
const textOf = (startedAt: number, records: LogRecord[]) => [JSON.stringify({ format: LOG_FORMAT, version: LOG_VERSION, startedAt, firstSeq: records[0]?.seq ?? 1 }), ...records.map((r) => JSON.stringify(r))].join('\n') + '\n';
const pinned = (name: string) => (JSON.parse(readFileSync(`fixtures/sessions/${name}.expect.json`, 'utf8')) as { hash: string }).hash;

// Recorded one after the other on the same machine: notifications-ui, then login-google-ui, then withdrawal-lock-ui.
const NAMES = ['withdrawal-lock-ui', 'notifications-ui', 'login-google-ui'] as const;

describe('a log of several page loads', () => {
  const loads = NAMES.map(fixture);
  const joined = joinLoads(loads.map(asLoad));
  const log = parseReplayText(textOf(joined.startedAt, joined.records));

  it('joins the loads in start order, a segment record before each, on one clock with seq increasing', () => {
    const segs = log.records.filter((r) => r.kind === SEGMENT_KIND);
    expect(segs.map((s) => [s.load, s.loads, s.startedAt])).toEqual([
      [1, 3, loads[1]?.header.startedAt],
      [2, 3, loads[2]?.header.startedAt],
      [3, 3, loads[0]?.header.startedAt],
    ]);
    expect(joined.startedAt).toBe(loads[1]?.header.startedAt);
    // a record keeps its wall time: load start + its own t
    const firstOfThird = log.records[log.records.indexOf(segs[2] as LogRecord) + 1] as LogRecord;
    expect(joined.startedAt + firstOfThird.t).toBe((loads[0]?.header.startedAt ?? 0) + (loads[0]?.records[0]?.t ?? 0));
    expect(log.records.length).toBe(loads.reduce((n, l) => n + l.records.length, 0) + 3);
    expect(joined.dropped).toBe(0);
    expect(joined.overlapped).toBe(0);
    expect(splitSegments(log.records).map((s) => s.length)).toEqual([loads[1], loads[2], loads[0]].map((l) => (l?.records.length ?? 0) + 1));
  });

  it('replays each load on a fresh core: every record hashes as its load alone, the end is the last load\'s pinned hash, twice', async () => {
    const a = await replayLog(log, { hashEveryRecord: true });
    const b = await replayLog(log, { hashEveryRecord: true });
    expect(a.divergences).toEqual([]);
    expect(a.final.violations).toEqual([]);
    expect(a.final.hash).toBe(b.final.hash);
    expect(a.hashes.map((h) => h.hash)).toEqual(b.hashes.map((h) => h.hash));
    expect(a.final.hash).toBe(pinned('withdrawal-lock-ui'));
    // each load alone, its hashes after every record, against the joined run's (segment records left out)
    const joinedHashes = a.hashes.filter((h) => h.kind !== SEGMENT_KIND).map((h) => h.hash);
    const alone: string[] = [];
    for (const l of [loads[1], loads[2], loads[0]] as ParsedLog[]) alone.push(...(await replayLog({ ...l, meta: [] }, { hashEveryRecord: true })).hashes.map((h) => h.hash));
    expect(joinedHashes).toEqual(alone);
  });

  it('leaves out what an earlier load recorded after a later one started (another tab), and counts a dropped start', () => {
    const first = asLoad(loads[1] as ParsedLog);
    const second: LoadRecords = { startedAt: first.startedAt + 5000, records: [{ seq: 1, t: 0, kind: 'env', path: '/' }], lastSeq: 1 };
    const cutStart: LoadRecords = { ...first, records: first.records.slice(10) };
    const j = joinLoads([second, cutStart]);
    const late = cutStart.records.filter((r) => r.t >= 5000).length;
    expect(late).toBeGreaterThan(0);
    expect(j.overlapped).toBe(late);
    expect(j.dropped).toBe(10);
    const ts = j.records.map((r) => r.t);
    expect(ts).toEqual([...ts].sort((x, y) => x - y));
    const seqs = j.records.map((r) => r.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
  });
});
