import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { replayLog } from '../../../src/core/replay/driver.ts';
import { buildInspectorIndex } from '../../../src/core/replay/inspect.ts';
import { hashState } from '../../../src/ports/stateHash.ts';
import { buildLazyIndex, lineStartsOf, type LazyIndex } from '../../../replay/inspector/lazyIndex.ts';
import { simulatedMarketLog } from '../../../replay/simulatedLog.ts';

/**
 * The inspector's lazy index (replay/inspector/lazyIndex.ts: records read again from their lines,
 * per-record state operations, packed checkpoints) gives, at any position, the state a full load
 * gives: the replay's own hash after every record of the session fixtures, and the full index's
 * state (src/core/replay/inspect.ts), changes and record at generated positions of generated
 * market logs, whatever the checkpoint spacing.
 */
const ROOT = join(import.meta.dirname, '../../../fixtures/sessions');

async function lazy(text: string, every: number): Promise<LazyIndex> {
  const bytes = Buffer.from(text, 'utf8');
  return buildLazyIndex(parseReplayText(text), { bytes, lineStarts: lineStartsOf(bytes) }, { every });
}

describe('inspector lazy index', () => {
  for (const name of ['orderbook-gap', 'reconnect-storm-ui', 'compensation-ui', 'kyc-rejection-ui', 'notifications-ui']) {
    it(`${name}: the state at every record hashes like the replay after that record, and each record reads back as parsed`, async () => {
      const text = readFileSync(join(ROOT, `${name}.jsonl`), 'utf8');
      const log = parseReplayText(text);
      const ref = await replayLog(log, { hashEveryRecord: true });
      const index = await lazy(text, 7);
      expect(index.length).toBe(ref.hashes.length);
      for (const [i, h] of ref.hashes.entries()) {
        expect(index.costOf(h.seq)).toBe(i % 7);
        expect(hashState(index.stateAt(h.seq)), `after #${h.seq} ${h.kind}`).toBe(h.hash);
        expect(index.recordAt(i)).toEqual(log.records[i]);
      }
      expect(index.result.final.hash).toBe(ref.final.hash);
      expect(index.stateAt(0)).toBeNull();
    });
  }

  it('a converted market fixture (records made up from frames) keeps its records', async () => {
    const text = readFileSync(join(import.meta.dirname, '../../../fixtures/market-data/binance-spot.jsonl'), 'utf8');
    const log = parseReplayText(text);
    const full = await buildInspectorIndex(log, { every: 25 });
    const index = await lazy(text, 25);
    for (const [i, r] of log.records.entries()) {
      expect(index.record(r.seq)).toEqual(r);
      expect(hashState(index.stateAt(r.seq))).toBe(hashState(full.stateAt(r.seq)));
      expect(index.seqAt(i)).toBe(r.seq);
    }
  });

  it('generated market logs: the state, the changes and the record at any position equal a full load', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 }),
        async (seed, every, positions) => {
          const { text } = simulatedMarketLog({ minutes: 1, seed });
          const log = parseReplayText(text);
          const full = await buildInspectorIndex(log, { every });
          const index = await lazy(text, every);
          expect(index.length).toBe(full.records.length);
          expect(index.result.final.hash).toBe(full.result.final.hash);
          for (const p of positions) {
            const i = Math.min(log.records.length - 1, Math.floor(p * log.records.length));
            const seq = (log.records[i] as { seq: number }).seq;
            expect(hashState(index.stateAt(seq)), `seed ${seed}, every ${every}, #${seq}`).toBe(hashState(full.stateAt(seq)));
            expect(index.stateAt(seq)).toEqual(full.stateAt(seq));
            expect(index.changesAt(seq)).toEqual(full.changesAt(seq));
            expect(index.record(seq)).toEqual(full.records[i]);
            expect(index.costOf(seq)).toBe(full.costOf(seq));
          }
          expect([...index.violations]).toEqual([...full.violations]);
        },
      ),
      { numRuns: 6 },
    );
  });
});
