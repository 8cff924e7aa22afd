import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createRecordedCore } from '../src/core/replay/record.ts';
import { parseReplayText } from '../src/core/replay/parse.ts';
import { replayLog } from '../src/core/replay/driver.ts';
import { FollowClock, nodePorts, sleep, startLiveServer } from './recordKit.ts';

/**
 * `npx tsx scripts/record-market.ts [--minutes 1] [--topics btcusdt@depth,btcusdt@trade,...] [--out fixtures/market/<name>.jsonl]`
 *
 * Records the market socket of the REAL server (started in-process, simulator source) through the
 * app core's recording ports for N minutes of wall time, into an rft-log fixture that
 * `npm run replay` and the scenario tests replay. `--url` records another server instead
 * (e.g. http://127.0.0.1:8080 from `npm run serve`). The recording is replayed once before it is
 * written, and refused if it diverges or breaks an invariant.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '1' },
      topics: { type: 'string', default: 'btcusdt@depth,btcusdt@trade,btcusdt@kline_1m,ethusdt@depth,all@ticker' },
      out: { type: 'string' },
      url: { type: 'string' },
    },
  });
  const minutes = Number(values.minutes);
  if (!(minutes > 0)) throw new Error(`--minutes must be a positive number, got ${values.minutes}`);
  const topics = values.topics.split(',').map((s) => s.trim()).filter(Boolean);
  const out = values.out ?? `fixtures/market/sim-${topics.length}topics-${minutes}min.jsonl`;
  const server = values.url ? null : await startLiveServer();
  const base = values.url ?? server?.base ?? '';
  const clock = new FollowClock();
  clock.start();
  try {
    const rec = createRecordedCore(nodePorts(base, clock), {
      location: () => '/market',
      logBytes: 1024 * 1024 * 1024,
      env: { appVersion: 'record-market', language: 'en', theme: 'dark', viewport: { width: 1440, height: 900 }, userAgent: 'node record-market' },
    });
    rec.core.market.send({ type: 'socket.subscribe', topics });
    const end = Date.now() + minutes * 60_000;
    while (Date.now() < end) {
      await sleep(1000);
      process.stdout.write(`\r${Math.round((end - Date.now()) / 1000)} s left, ${rec.log.records().length} records   `);
    }
    const text = rec.log.toJsonLines();
    rec.core.stop();
    const result = await replayLog(parseReplayText(text), { checkpointEvery: 1000 });
    const problems = [...result.divergences.map((d) => d.message), ...result.checkpoints.flatMap((c) => c.violations)];
    if (problems.length > 0) throw new Error(`the recording does not replay cleanly:\n  ${problems.slice(0, 10).join('\n  ')}`);
    writeFileSync(out, text);
    console.log(`\n${out}: ${result.delivered} records, ${(text.length / 1024).toFixed(0)} KiB, hash ${result.final.hash}`);
  } finally {
    clock.stop();
    await server?.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
