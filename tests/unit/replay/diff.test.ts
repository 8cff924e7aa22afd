import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffRuns, formatDiff } from '../../../src/core/replay/diff.ts';
import { replayLog } from '../../../src/core/replay/driver.ts';
import { parseReplayText } from '../../../src/core/replay/parse.ts';

const text = readFileSync(join(import.meta.dirname, '../../../fixtures/sessions/reconnect-storm.jsonl'), 'utf8');

describe('diffRuns', () => {
  it('two runs of one log are the same', async () => {
    const a = parseReplayText(text);
    const b = parseReplayText(text);
    const d = diffRuns(a, await replayLog(a, { hashEveryRecord: true }), b, await replayLog(b, { hashEveryRecord: true }));
    expect(d.same).toBe(true);
    expect(formatDiff(d, 'a', 'b')[0]).toMatch(/^same/);
  });

  it('names the first record where two logs part, and where the state parts', async () => {
    const lines = text.split('\n');
    // Drop the first server-side close: the tampered run never sees the first disconnect.
    const at = lines.findIndex((l) => l.includes('"kind":"ws.close"'));
    const tampered = lines.map((l, i) => (i === at ? l.replace('"kind":"ws.close"', '"kind":"note"') : l)).join('\n');
    const a = parseReplayText(text);
    const b = parseReplayText(tampered);
    const d = diffRuns(a, await replayLog(a, { hashEveryRecord: true }), b, await replayLog(b, { hashEveryRecord: true }));
    expect(d.same).toBe(false);
    const envLines = lines.slice(1, at).filter((l) => l.includes('"kind":"env"')).length;
    expect(d.firstRecord?.index).toBe(at - 1 - envLines);
    expect(d.firstRecord?.a?.kind).toBe('ws.close');
    expect(d.firstHash?.seqA).toBe(d.firstRecord?.a?.seq);
    expect(formatDiff(d, 'a', 'b').join('\n')).toMatch(/records part at event \d+:\n {2}a: #\d+ t=\d+ ws\.close/);
  });
});
