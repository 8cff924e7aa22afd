import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parseReplayText } from '../../src/core/replay/parse.ts';
import { replayLog } from '../../src/core/replay/driver.ts';
import { stableStringify } from '../../src/ports/stateHash.ts';
import { openReplayPage } from '../../replay/replayPage.ts';

/**
 * Browser = headless (issue 27, point 3). The six UI fixtures that record a form flow replay
 * headless in Node (the flows' actors built by the core from its table, src/core/screenMachines.ts)
 * and in the built app with `?replay=` (the mounted screens holding the same actors). At every
 * checkpoint (every record after which the headless flows changed: an intent, a request's answer, a
 * frame, a timer; every tenth record; the last one) the whole state hash is the same in both: the
 * core's actors get their intents from the log in both replays (what the mounted screens send them
 * themselves is dropped, the log holding each as a recorded intent), and the account books a
 * screen holds are not in the hashed state (docs/REPLAY.md, "What the hash leaves out"). Where a
 * hash parts, the failure names the sections that differ.
 */
const FLOW_FIXTURES = ['compensation-ui', 'convert-expired-ui', 'copy-follow-ui', 'flip-partial-close-ui', 'kyc-rejection-ui', 'liquidation-ui'];

for (const name of FLOW_FIXTURES) {
  test(`${name}: the browser replay has the headless hash at every checkpoint`, async ({ page }) => {
    test.setTimeout(180_000);
    const text = readFileSync(`fixtures/sessions/${name}.jsonl`, 'utf8');
    const log = parseReplayText(text);
    const headless = await replayLog(log, { checkpointEvery: 1 });
    expect(headless.divergences).toEqual([]);
    const bySeq = new Map(headless.checkpoints.map((c) => [c.seq, c]));

    const seqs = log.records.map((r) => r.seq);
    const last = seqs.at(-1) ?? 0;
    const picked = new Set<number>([last]);
    let before = '';
    seqs.forEach((seq, i) => {
      const flows = stableStringify(bySeq.get(seq)?.state.screens ?? null);
      if (flows !== before) picked.add(seq);
      before = flows;
      if (i % 10 === 9) picked.add(seq);
    });
    const checkpoints = [...picked].sort((a, b) => a - b);
    const withFlows = checkpoints.filter((s) => bySeq.get(s)?.state.screens !== undefined);
    // Not vacuous: the flows are in the state at several of the compared checkpoints.
    expect(withFlows.length).toBeGreaterThanOrEqual(3);

    const { leaked, stepTo } = await openReplayPage(page, text);
    const browserState = async () => JSON.parse((await page.evaluate(() => JSON.stringify((window as unknown as { __rftReplay: { core: { state(): unknown } } }).__rftReplay.core.state()))) as string) as Record<string, unknown>;
    const parted: string[] = [];
    for (const seq of checkpoints) {
      const cp = await stepTo(seq);
      const want = bySeq.get(seq);
      if (cp.hash === want?.hash) continue;
      const b = await browserState();
      const h = (want?.state ?? {}) as unknown as Record<string, unknown>;
      const sections = [...new Set([...Object.keys(b), ...Object.keys(h)])].filter((k) => stableStringify(b[k]) !== stableStringify(h[k]));
      parted.push(`@${seq}: ${sections.join(', ')}${sections.includes('screens') ? ` (browser ${stableStringify(b.screens ?? null).slice(0, 300)} headless ${stableStringify(h.screens ?? null).slice(0, 300)})` : ''}`);
    }
    expect(parted, `${name}: checkpoints where the browser and headless hashes part (sections that differ)`).toEqual([]);
    const end = await stepTo(last);
    expect(end.hash).toBe(headless.final.hash);
    expect(end.divergences).toEqual([]);
    expect(end.violations).toEqual([]);
    expect(leaked).toEqual([]);
  });
}
