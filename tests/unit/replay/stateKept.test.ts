import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReplayText } from '../../../src/core/replay/parse.ts';
import { replayLog, type ReplayState } from '../../../src/core/replay/driver.ts';
import { hashState } from '../../../src/ports/stateHash.ts';
import { simulatedMarketLog } from '../../../replay/simulatedLog.ts';

/**
 * `core.state()` hands out sections that later states share while they do not change (the market
 * streams' books, trades and candles, each book's entry and level lists: src/core/marketStreams.ts),
 * so the inspector's index, which keeps states and diffs each against the previous one, skips them
 * by identity. Sharing is only right if nothing a state holds changes afterwards: every state kept
 * from a replay still hashes, at the end, as it did when it was taken; and a section is shared only
 * while its value is the same.
 */
const ROOT = join(import.meta.dirname, '../../../fixtures/sessions');

async function keptStates(text: string): Promise<{ states: ReplayState[]; hashes: string[] }> {
  const states: ReplayState[] = [];
  const hashes: string[] = [];
  await replayLog(parseReplayText(text), {
    onRecord(_rec, core) {
      const s = core.state();
      states.push(s);
      hashes.push(hashState(s));
    },
  });
  return { states, hashes };
}

const logs: [string, () => string][] = [
  ['orderbook-gap', () => readFileSync(join(ROOT, 'orderbook-gap.jsonl'), 'utf8')],
  ['reconnect-storm-ui', () => readFileSync(join(ROOT, 'reconnect-storm-ui.jsonl'), 'utf8')],
  ['a 15-second simulated market log', () => simulatedMarketLog({ minutes: 0.25 }).text],
];

describe('core.state() kept across records', () => {
  for (const [name, text] of logs) {
    it(`${name}: every state kept still hashes as when it was taken, and shared sections hold equal values`, async () => {
      const { states, hashes } = await keptStates(text());
      expect(states.length).toBeGreaterThan(20);
      let shared = 0;
      let changed = 0;
      for (const [i, s] of states.entries()) {
        expect(hashState(s), `state after record ${i + 1}`).toBe(hashes[i]);
        const prev = states[i - 1];
        if (!prev) continue;
        for (const section of ['books', 'trades', 'candles'] as const) {
          const a = prev.streams[section];
          const b = s.streams[section];
          if (a === b) shared++;
          else if (JSON.stringify(a) !== JSON.stringify(b)) changed++;
        }
      }
      // Sections are shared between records (what the index relies on) and change when the market does.
      expect(shared).toBeGreaterThan(0);
      expect(changed).toBeGreaterThan(0);
    });
  }
});
