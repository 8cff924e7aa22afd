import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { diffRuns, formatDiff } from '../src/core/replay/diff.ts';
import { loadLog, summarise, timeline } from './headless.ts';
import { replayLog } from '../src/core/replay/driver.ts';

/**
 * `npm run replay -- <bundle-or-fixture> [options]` (docs/REPLAY.md).
 *   --until <seq>        stop after that record
 *   --every <n>          checkpoint every n records (default: 10 checkpoints over the log)
 *   --diff <other>       replay both and name the first record / state where they part
 *   --browser            open the built UI in Chromium, served from the recording, screenshots
 *   --out <dir>          where --browser writes screenshots (default replay-out/)
 *   --dist <dir>         the built app for --browser (default dist/)
 *   --timeline <n>       how many timeline lines to print (default 200; 0 = none)
 *   --bless              check <name>.expect.json next to the file and pin the new final hash
 *   --inspect            open the time-travel inspector (a local web page; with --diff: both logs)
 *   --port <n>           the inspector's port (default: a free one)
 *   --every <n>          with --inspect: a state snapshot every n records (default 200)
 * Exit codes: 0 replayed (no divergence), 1 divergences / violations / diff found, 2 bad input.
 */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      until: { type: 'string' },
      every: { type: 'string' },
      diff: { type: 'string' },
      browser: { type: 'boolean', default: false },
      out: { type: 'string', default: 'replay-out' },
      dist: { type: 'string', default: 'dist' },
      timeline: { type: 'string', default: '200' },
      bless: { type: 'boolean', default: false },
      inspect: { type: 'boolean', default: false },
      port: { type: 'string', default: '0' },
    },
  });
  const file = positionals[0];
  if (!file) {
    console.error('usage: npm run replay -- <bundle-or-fixture.jsonl> [--until <seq>] [--diff <other>] [--browser] [--inspect] [--every <n>]');
    return 2;
  }
  const until = values.until !== undefined ? Number(values.until) : undefined;
  if (until !== undefined && !Number.isInteger(until)) {
    console.error(`--until needs a record seq (integer), got ${values.until}`);
    return 2;
  }
  const log = loadLog(file);
  const contents = (log.header.bundle as { contents?: { appVersion: string; events: number; span: { minutes: number }; dropped: { note: string } } } | undefined)?.contents;
  if (contents) console.log(`bundle: app ${contents.appVersion}, ${contents.events} events over ${contents.span.minutes} min; ${contents.dropped.note}`);
  const generated = generatedBy(file);
  if (generated) console.log(`generated fixture: shrunk from the property "${generated.property}" (seed ${generated.seed}); it broke the invariant "${generated.invariant}"\n  ${generated.message}`);

  if (values.bless) {
    const { bless } = await import('./bless.ts');
    return bless(file, log);
  }

  if (values.inspect) {
    const { runInspector } = await import('./inspector/run.ts');
    return runInspector(file, { diff: values.diff, dist: values.dist, port: Number(values.port), every: values.every !== undefined ? Number(values.every) : undefined });
  }

  if (values.browser) {
    const { replayInBrowser } = await import('./browser.ts');
    return replayInBrowser(file, log, { outDir: values.out, until, dist: values.dist });
  }

  const recs = log.records.filter((r) => until === undefined || r.seq <= until);
  const every = values.every !== undefined ? Number(values.every) : Math.max(1, Math.ceil(recs.length / 10));
  const started = performance.now();
  const result = await replayLog(log, { until, checkpointEvery: every, hashEveryRecord: values.diff !== undefined });
  const ms = performance.now() - started;

  if (values.diff !== undefined) {
    const other = loadLog(values.diff);
    const resultB = await replayLog(other, { until, hashEveryRecord: true });
    const d = diffRuns(log, result, other, resultB);
    for (const line of formatDiff(d, file, values.diff)) console.log(line);
    return d.same ? 0 : 1;
  }

  const n = Number(values.timeline);
  if (n > 0) {
    console.log(`timeline (${recs.length} records, ${log.source}${log.header.firstSeq > 1 ? `, ring starts at seq ${log.header.firstSeq}` : ''}):`);
    for (const line of timeline(recs, n)) console.log(`  ${line}`);
  }
  for (const e of result.env) console.log(`env: ${JSON.stringify(e)}`);
  for (const cp of result.checkpoints) for (const line of summarise(cp)) console.log(line);
  for (const c of result.bookChecks.filter((b) => !b.ok)) console.log(`BOOK CHECK FAILED @seq ${c.seq}: ${c.message}`);
  if (result.bookChecks.length > 0) console.log(`book checks: ${result.bookChecks.filter((b) => b.ok).length}/${result.bookChecks.length} match`);
  for (const d of result.divergences) console.log(`DIVERGENCE @seq ${d.seq ?? '-'} (${d.what}): ${d.message}${d.expected !== undefined ? `\n    expected ${JSON.stringify(d.expected)}\n    actual   ${JSON.stringify(d.actual)}` : ''}`);
  const reads = result.unissued - result.unissuedWrites - result.unissuedStorage;
  if (reads > 0) console.log(`note: ${reads} recorded reads (GET) belong to the screens' views (lists, charts, help pages): no view runs headless; their answers reach the core's account streams`);
  if (result.unissuedStorage > 0) console.log(`note: ${result.unissuedStorage} recorded storage writes were a screen's own preferences (not made headless)`);
  if (result.unissuedWrites > 0) console.log(`note: ${result.unissuedWrites} recorded writes were made by screens (not replayed headless)`);
  for (const m of result.screenMisses) console.log(`note: screen intent not replayed: ${m}`);
  if (result.bundleHash) {
    const same = result.bundleHash === result.final.actorsHash;
    console.log(`bundle checkpoint: ${same ? 'the replay reaches the exported state' : 'the replay ends elsewhere than the exported state'} (exported ${result.bundleHash}, replayed ${result.final.actorsHash})${log.header.firstSeq > 1 ? '; the ring starts mid-session, so earlier state is unknown' : ''}`);
  }
  console.log(`replayed ${result.delivered} records in ${ms.toFixed(0)} ms (${Math.round(result.delivered / Math.max(ms / 1000, 1e-6))} events/s)`);
  console.log(`state hash ${result.final.hash}`);
  const bad = result.divergences.length > 0 || result.final.violations.length > 0 || result.bookChecks.some((b) => !b.ok);
  return bad ? 1 : 0;
}

/** What a shrunk fixture's expect file says about where it came from (replay/logProperty.ts), if anything. */
function generatedBy(file: string): { property: string; seed: number; invariant: string; message: string } | null {
  const expectFile = file.replace(/\.jsonl$/, '.expect.json');
  if (expectFile === file || !existsSync(expectFile)) return null;
  try {
    const g = (JSON.parse(readFileSync(expectFile, 'utf8')) as { generated?: { property: string; seed: number; invariant: string; message: string } }).generated;
    return g && typeof g.invariant === 'string' ? g : null;
  } catch {
    return null;
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
