import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReplayText } from '../../src/core/replay/parse.ts';
import { replayLog } from '../../src/core/replay/driver.ts';
import { checkExpectations, type FixtureExpect } from '../../src/core/replay/expect.ts';

/**
 * QA scenarios: every fixtures/{sessions,market}/<name>.jsonl with a <name>.expect.json replays headless
 * through the real machines and reducers, meets its expectations, diverges nowhere, keeps its
 * invariants, and ends on the pinned state hash, twice in a row (docs/REPLAY.md).
 */
const ROOT = join(import.meta.dirname, '../../fixtures');
const names = ['sessions', 'market']
  .flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.expect.json'))
      .map((f) => `${dir}/${f.slice(0, -'.expect.json'.length)}`),
  )
  .sort();

describe('session fixtures', () => {
  it('has the recorded scenarios', () => {
    expect(names).toEqual(expect.arrayContaining(['sessions/login-google', 'sessions/login-google-ui', 'sessions/liquidation-ui', 'sessions/reconnect-storm-ui', 'sessions/orderbook-gap-ui', 'sessions/orderbook-gap', 'sessions/reconnect-storm', 'market/sim-5topics-1min']));
  });

  for (const name of names) {
    it(`${name} replays to its expectations and hash`, async () => {
      const text = readFileSync(join(ROOT, `${name}.jsonl`), 'utf8');
      const spec = JSON.parse(readFileSync(join(ROOT, `${name}.expect.json`), 'utf8')) as FixtureExpect;
      const log = parseReplayText(text);
      const checkpointAt = spec.expectations.map((e) => e.atSeq);
      const first = await replayLog(log, { checkpointAt });
      expect(checkExpectations(first, spec).map((f) => f.message)).toEqual([]);
      expect(first.divergences.length).toBeLessThanOrEqual(spec.maxDivergences ?? 0);
      for (const cp of first.checkpoints) expect(cp.violations, `seq ${cp.seq}`).toEqual([]);
      if (spec.hash) expect(first.final.hash).toBe(spec.hash);
      // A support bundle pins the live actor state at export: the replay must reach exactly it.
      if (first.bundleHash) expect(first.final.actorsHash).toBe(first.bundleHash);
      const second = await replayLog(parseReplayText(text), { checkpointAt });
      expect(second.checkpoints.map((c) => c.hash)).toEqual(first.checkpoints.map((c) => c.hash));
    });
  }
});

describe('recorded exchange market fixtures (rft-market)', () => {
  for (const name of ['binance-spot', 'binance-usdm']) {
    it(`${name}: every published top of book matches the replayed book, and replays are equal`, async () => {
      const text = readFileSync(join(ROOT, 'market-data', `${name}.jsonl`), 'utf8');
      const a = await replayLog(parseReplayText(text), { checkpointEvery: 50 });
      const b = await replayLog(parseReplayText(text), { checkpointEvery: 50 });
      expect(a.bookChecks.length).toBeGreaterThan(10);
      expect(a.bookChecks.filter((c) => !c.ok).map((c) => c.message)).toEqual([]);
      expect(a.divergences).toEqual([]);
      for (const cp of a.checkpoints) expect(cp.violations).toEqual([]);
      expect(b.checkpoints.map((c) => c.hash)).toEqual(a.checkpoints.map((c) => c.hash));
    });
  }
});
