import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createEventLog, parseJsonLines } from '../../../src/ports/eventLog.ts';

describe('eventLog', () => {
  it('numbers records from 1 with virtual time since start, and exports JSON Lines with a header', () => {
    let now = 5_000;
    const log = createEventLog({ now: () => now });
    log.append('a', { x: 1 });
    now += 250;
    log.append('b', { seq: 99, t: -1, kind: 'evil' });
    expect(log.records()).toEqual([
      { seq: 1, t: 0, kind: 'a', x: 1 },
      { seq: 2, t: 250, kind: 'b' },
    ]);
    const text = log.toJsonLines();
    expect(text.split('\n')[0]).toBe('{"format":"rft-log","version":1,"startedAt":5000,"firstSeq":1}');
    expect(parseJsonLines(text).records).toEqual(log.records());
  });

  it('property: seq strictly +1, t non-decreasing, ring bound respected, newest kept', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 200, max: 5_000 }),
        fc.array(fc.tuple(fc.nat(1_000), fc.string({ maxLength: 300 })), { maxLength: 200 }),
        (maxBytes, appends) => {
          let now = 0;
          const log = createEventLog({ now: () => now, maxBytes });
          appends.forEach(([dt, s], i) => {
            now += dt;
            log.append('k', { s });
            const recs = log.records();
            expect(recs.at(-1)?.seq).toBe(i + 1);
            // the bound holds unless a single record alone exceeds it
            if (recs.length > 1) expect(log.bytes()).toBeLessThanOrEqual(maxBytes);
          });
          const recs = log.records();
          for (let i = 1; i < recs.length; i++) {
            expect(recs[i]!.seq).toBe(recs[i - 1]!.seq + 1);
            expect(recs[i]!.t).toBeGreaterThanOrEqual(recs[i - 1]!.t);
          }
          const exported = log.toJsonLines();
          expect(exported.length - exported.indexOf('\n') - 1).toBe(log.bytes());
        },
      ),
    );
  });
});
