import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { replayLog } from '../src/core/replay/driver.ts';
import { checkExpectations, type FixtureExpect } from '../src/core/replay/expect.ts';
import type { ParsedLog } from '../src/core/replay/parse.ts';

/**
 * `npm run replay -- fixtures/sessions/<name>.jsonl --bless`: after an intended change of a
 * machine or reducer, replays the fixture, requires every expectation to hold, no divergence and
 * no invariant violation, and only then pins the new final hash in `<name>.expect.json`.
 * Review the hash change in the diff like any other change.
 */
export async function bless(file: string, log: ParsedLog): Promise<number> {
  const expectFile = file.replace(/\.jsonl$/, '.expect.json');
  if (!existsSync(expectFile)) {
    console.error(`error: ${expectFile} not found`);
    return 2;
  }
  const spec = JSON.parse(readFileSync(expectFile, 'utf8')) as FixtureExpect;
  const result = await replayLog(log, { checkpointAt: spec.expectations.map((e) => e.atSeq) });
  const problems = [
    ...checkExpectations(result, spec).map((f) => f.message),
    ...result.divergences.slice(spec.maxDivergences ?? 0).map((d) => `divergence @${d.seq ?? '-'}: ${d.message}`),
    ...result.checkpoints.flatMap((c) => c.violations.map((v) => `@${c.seq}: ${v}`)),
  ];
  if (problems.length > 0) {
    console.error(`not blessed: ${file}\n  ${problems.join('\n  ')}`);
    return 1;
  }
  const before = spec.hash;
  spec.hash = result.final.hash;
  writeFileSync(expectFile, `${JSON.stringify(spec, null, 2)}\n`);
  console.log(`${expectFile}: ${before === spec.hash ? 'unchanged' : `${before ?? '(none)'} → ${spec.hash}`}`);
  return 0;
}
