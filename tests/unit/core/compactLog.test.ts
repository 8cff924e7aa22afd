import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gunzipSync } from 'node:zlib';
import { createEventLog, DEFAULT_LOG_BYTES, packLines, parseJsonLines, unpackLines, type LogRecord } from '../../../src/ports/eventLog.ts';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { recordBusyTradeSession } from '../../../replay/busySession.ts';

/**
 * The compact recording (issue 16): the ring stores sealed chunks deflated and counts them by
 * their compressed size. The storage must be invisible: any log exports exactly the lines that a
 * plain ring keeping the same records would export.
 */
const jsonValue = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const payload = fc.dictionary(fc.string({ maxLength: 8 }).filter((k) => !['seq', 't', 'kind', '__proto__'].includes(k)), jsonValue, { maxKeys: 5 });

describe('compact event log', () => {
  it('property: chunked storage round-trips any log exactly (records, lines, seq range)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 64, max: 4_000 }),
        fc.array(fc.tuple(fc.nat(500), fc.constantFrom('ws.in', 'http.request', 'ui.intent', 'timer'), payload), { maxLength: 120 }),
        (chunkBytes, appends) => {
          let now = 0;
          const log = createEventLog({ now: () => now, chunkBytes, maxBytes: 10_000_000 });
          const expected: LogRecord[] = [];
          for (const [dt, kind, p] of appends) {
            now += dt;
            expected.push(JSON.parse(JSON.stringify(log.append(kind, p))) as LogRecord);
          }
          expect(log.records()).toEqual(expected);
          const text = log.toJsonLines();
          expect(text.split('\n').slice(1).join('\n')).toBe(expected.map((r) => `${JSON.stringify(r)}\n`).join(''));
          expect(parseJsonLines(text).records).toEqual(expected);
          const stats = log.stats();
          expect(stats.records).toBe(expected.length);
          expect(stats.rawBytes).toBe(text.length - text.indexOf('\n') - 1);
          expect(stats.storedBytes).toBe(log.bytes());
        },
      ),
    );
  });

  it('property: with a cap, what is kept is a suffix of what was appended, exactly, and firstSeq says where it starts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 1_000 }),
        fc.integer({ min: 300, max: 3_000 }),
        fc.array(fc.string({ maxLength: 200 }), { minLength: 1, maxLength: 150 }),
        (chunkBytes, maxBytes, strings) => {
          const log = createEventLog({ now: () => 0, chunkBytes, maxBytes });
          const all = strings.map((s) => JSON.stringify(log.append('k', { s })));
          const text = log.toJsonLines();
          const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { firstSeq: number };
          const kept = text.split('\n').slice(1, -1);
          expect(kept).toEqual(all.slice(header.firstSeq - 1));
          expect(kept.at(-1)).toBe(all.at(-1)); // never the newest
          if (log.stats().chunks + kept.length > 1) expect(log.bytes()).toBeLessThanOrEqual(maxBytes);
        },
      ),
    );
  });

  it('packLines / unpackLines are exact for any well-formed text (JSON.stringify escapes lone surrogates, so every line is)', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 2_000 }), (s) => {
      expect(unpackLines(packLines(s))).toBe(s);
    }));
    const line = JSON.stringify({ s: 'a\ud800b' });
    expect(unpackLines(packLines(line))).toBe(line);
  });

  it('10 minutes of a busy trade screen stay whole within the 2 MiB ring; the gzipped bundle replays', { timeout: 60_000 }, () => {
    const s = recordBusyTradeSession({ minutes: 10 });
    try {
      const recs = s.rec.log.records();
      expect(recs[0]?.seq).toBe(1); // nothing dropped
      expect(recs.at(-1)?.t).toBe(600_000);
      expect(s.stats.rawBytes).toBeGreaterThan(4 * DEFAULT_LOG_BYTES); // a plain ring would have dropped most of it
      expect(s.rec.log.bytes()).toBeLessThanOrEqual(DEFAULT_LOG_BYTES);
      expect(s.bundleGzip.length).toBeLessThanOrEqual(DEFAULT_LOG_BYTES);
      const text = gunzipSync(s.bundleGzip).toString('utf8');
      expect(text).toBe(s.bundleText);
      const parsed = parseReplayText(text);
      const contents = (parsed.header.bundle as { contents: { dropped: { records: number }; span: { minutes: number } } }).contents;
      expect(contents.dropped.records).toBe(0);
      expect(contents.span.minutes).toBe(10);
      expect(parsed.records.length).toBe(recs.length);
    } finally {
      s.rec.core.stop();
    }
  });

  it('when the cap is still reached, the bundle says what it dropped', { timeout: 60_000 }, () => {
    const s = recordBusyTradeSession({ minutes: 3, logBytes: 256 * 1024 });
    try {
      const parsed = parseReplayText(s.bundleText);
      const contents = (parsed.header.bundle as { contents: { dropped: { records: number; note: string }; firstSeq: number } }).contents;
      expect(contents.dropped.records).toBeGreaterThan(0);
      expect(contents.dropped.records).toBe(contents.firstSeq - 1);
      expect(parsed.records[0]?.seq).toBe(contents.firstSeq);
      expect(contents.dropped.note).toMatch(/dropped the first \d+ records/);
    } finally {
      s.rec.core.stop();
    }
  });
});
