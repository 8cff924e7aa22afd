import { afterAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import type * as EventLogModule from '../../../src/ports/eventLog.ts';
import { createEventLog, type LogRecord } from '../../../src/ports/eventLog.ts';

/**
 * Issue 30: the browser build loads the deflate code (fflate) after the first paint, while the
 * recorder runs from the first event. Chunks sealed before it arrives stay text and are deflated by
 * the first append after it: the recording must not show it. A second instance of eventLog.ts is
 * imported as the production build runs it (import.meta.env.PROD), where nothing loads fflate
 * before loadLogPacker().
 */
const jsonValue = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const payload = fc.dictionary(fc.string({ maxLength: 6 }).filter((k) => !['seq', 't', 'kind', '__proto__'].includes(k)), jsonValue, { maxKeys: 4 });

vi.stubEnv('PROD', true);
// (a query makes it a module instance of its own; a variable keeps tsc from resolving the query)
const lateUrl = '../../../src/ports/eventLog.ts?late-packer';
const late = (await import(/* @vite-ignore */ lateUrl)) as typeof EventLogModule;
vi.unstubAllEnvs();
afterAll(() => vi.unstubAllEnvs());

describe('event log before its deflate code is loaded (issue 30)', () => {
  it('has no packer at first: packLines refuses, sealed chunks are kept as text and counted by length', () => {
    expect(() => late.packLines('x')).toThrow(/not loaded/);
    const log = late.createEventLog({ now: () => 0, chunkBytes: 200, maxBytes: 1_000_000 });
    for (let i = 0; i < 20; i++) log.append('ws.in', { i, text: 'abcdefghij'.repeat(3) });
    const s = log.stats();
    expect(s.chunks).toBeGreaterThan(0);
    // text chunks: stored as long as raw
    expect(s.storedBytes).toBe(s.rawBytes);
  });

  it('property: whenever the packer arrives, records, export and seq range equal those of a log that had it from the start; afterwards chunks are deflated', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 64, max: 3_000 }),
        fc.array(fc.tuple(fc.nat(300), fc.constantFrom('ws.in', 'http.request', 'ui.intent'), payload), { minLength: 1, maxLength: 100 }),
        fc.nat(),
        fc.integer({ min: 2_000, max: 1_000_000 }),
        async (chunkBytes, appends, at, maxBytes) => {
          const arrival = at % (appends.length + 1);
          let now = 0;
          const before = late.createEventLog({ now: () => now, chunkBytes, maxBytes });
          const always = createEventLog({ now: () => now, chunkBytes, maxBytes });
          const expected: LogRecord[] = [];
          for (const [i, [dt, kind, p]] of appends.entries()) {
            if (i === arrival) await late.loadLogPacker();
            now += dt;
            const r = before.append(kind, p);
            always.append(kind, p);
            expected.push(JSON.parse(JSON.stringify(r)) as LogRecord);
          }
          await late.loadLogPacker();
          expected.push(JSON.parse(JSON.stringify(before.append('timer', {}))) as LogRecord);
          always.append('timer', {});
          // a ring: the newest records, contiguous, whatever was dropped while chunks were text
          const kept = before.records();
          expect(kept).toEqual(expected.slice(expected.length - kept.length));
          expect(kept.length).toBeGreaterThan(0);
          // nothing dropped by either: the same export and, once the packer is here and one append
          // went by, the same storage as the log that always had it
          const a = always.stats();
          const b = before.stats();
          if (a.firstSeq === 1 && b.firstSeq === 1) {
            expect(before.toJsonLines()).toBe(always.toJsonLines());
            expect(b).toEqual(a);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
