import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { replayLog } from '../src/core/replay/driver.ts';
import { parseReplayText } from '../src/core/replay/parse.ts';
import { createRecordedCore } from '../src/core/replay/record.ts';
import { buildSupportBundle } from '../src/core/supportBundle.ts';
import { VirtualClock } from '../src/ports/virtualClock.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory } from '../src/ports/fakes.ts';
import { simulatedMarketLog } from '../replay/simulatedLog.ts';

/**
 * Replay speed and support-bundle size (issue "Record and replay"; target >= 100,000 events/s
 * headless, i.e. an hour of market data in seconds).
 * - replay: a 1-hour market log generated deterministically from the server's simulator
 *   (BTCUSDT + ETHUSDT depth, trades, 1m klines, all tickers) replayed through the real socket
 *   machine and stream reducers on the VirtualClock, with a checkpoint (state hash) every 10,000
 *   records;
 * - bundle: 10 minutes of the same traffic recorded by a live recorded core into the default
 *   2 MiB ring, exported as a support bundle (how much of the 10 minutes the ring keeps, and
 *   the size the whole 10 minutes would take without the ring, are reported too).
 */
export async function run(): Promise<Record<string, number | string>> {
  const t0 = performance.now();
  const hour = simulatedMarketLog({ minutes: 60 });
  const genMs = performance.now() - t0;
  const log = parseReplayText(hour.text);
  // Warm-up (JIT) on the first ten minutes, then the measured run over the whole hour.
  await replayLog({ ...log, records: log.records.slice(0, Math.floor(log.records.length / 6)) }, { checkpointEvery: 10_000 });
  const started = performance.now();
  const result = await replayLog(log, { checkpointEvery: 10_000 });
  const ms = performance.now() - started;
  if (result.divergences.length > 0) throw new Error(`replay diverged: ${result.divergences[0]?.message}`);

  // 10 minutes through a recording core: frames enter via the recording socket as in the browser.
  const tenText = simulatedMarketLog({ minutes: 10, seed: 7 }).text;
  const ten = parseReplayText(tenText);
  const clock = new VirtualClock(ten.header.startedAt);
  const sockets = createScriptedSocketFactory();
  const rec = createRecordedCore(
    { clock, http: createScriptedHttp(), socket: sockets, storage: createMemoryStorage({ lang: 'en' }), random: { id: () => 'r' } },
    { location: () => '/mFutures/BTCUSDT', env: { appVersion: 'bench', language: 'en', theme: 'dark', viewport: { width: 1440, height: 900 }, userAgent: 'bench' } },
  );
  const s = sockets.last();
  s.open();
  for (const r of ten.records) {
    if (r.kind !== 'ws.in') continue;
    clock.set(ten.header.startedAt + r.t);
    s.frame(String(r.data));
  }
  const bundle = buildSupportBundle({ log: rec.log, actors: rec.core, now: clock.now(), env: { appVersion: 'bench', language: 'en', theme: 'dark', viewport: { width: 1440, height: 900 }, userAgent: 'bench' } });
  const kept = rec.log.records();
  rec.core.stop();
  const bundleLog = parseReplayText(bundle);
  const keptMinutes = kept.length > 0 ? ((kept[kept.length - 1]?.t ?? 0) - (kept[0]?.t ?? 0)) / 60_000 : 0;

  return {
    replay_records_1h: result.delivered,
    replay_ms_1h: Math.round(ms),
    replay_events_per_s: Math.round(result.delivered / (ms / 1000)),
    replay_target_events_per_s: 100_000,
    replay_checkpoints: result.checkpoints.length,
    replay_final_hash: result.final.hash,
    generate_1h_ms: Math.round(genMs),
    log_1h_bytes: hour.text.length,
    bundle_10min_bytes: bundle.length,
    bundle_10min_gzip_bytes: gzipSync(bundle).length,
    recording_10min_uncapped_bytes: tenText.length,
    // What the whole 10 minutes would take gzipped (the replay tool and the inspector read .jsonl.gz).
    recording_10min_uncapped_gzip_bytes: gzipSync(tenText).length,
    bundle_10min_records: bundleLog.records.length,
    bundle_10min_minutes_kept: Number(keptMinutes.toFixed(2)),
    bundle_10min_first_seq: bundleLog.header.firstSeq,
  };
}
