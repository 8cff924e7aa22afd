import { performance } from 'node:perf_hooks';
import { recordBusyTradeSession } from '../replay/busySession.ts';
import { DEFAULT_LOG_BYTES } from '../src/ports/eventLog.ts';

/**
 * Support bundle size (issue 16; not the JS bundle: that is bundle.bench.ts): 10 minutes of a busy
 * trade screen (replay/busySession.ts: the seeded simulator's depth, trades, 1m klines of two
 * symbols and the all-market tickers, delivered to a REAL recorded core on a virtual clock) into
 * the app's 2 MiB ring. Figures: the raw JSON-Lines size of the session, what the ring stores
 * (sealed chunks deflated), the downloaded `.jsonl.gz`, and the minutes the bundle covers.
 * Target: all 10 minutes in 2 MiB.
 */
export async function run(): Promise<Record<string, number | string>> {
  const minutes = 10;
  const started = performance.now();
  const s = recordBusyTradeSession({ minutes });
  const recordMs = performance.now() - started;
  try {
    const recs = s.rec.log.records();
    const first = recs[0];
    const last = recs.at(-1);
    const covered = first && last ? (last.t - first.t) / 60_000 : 0;
    const mb = (n: number) => Number((n / 1024 / 1024).toFixed(3));
    // What the plain ring (UTF-16 length of each line, no compression) kept of the same session.
    let plain = 0;
    let plainFromT = last?.t ?? 0;
    for (let i = recs.length - 1; i >= 0; i--) {
      const r = recs[i];
      if (!r) break;
      plain += JSON.stringify(r).length + 1;
      if (plain > DEFAULT_LOG_BYTES) break;
      plainFromT = r.t;
    }
    const met = first?.seq === 1 && covered >= minutes && s.rec.log.bytes() <= DEFAULT_LOG_BYTES && s.bundleGzip.length <= DEFAULT_LOG_BYTES;
    return {
      bundle_session_minutes: minutes,
      bundle_records: s.stats.records,
      bundle_raw_mb: mb(s.stats.rawBytes),
      bundle_raw_gzip_mb: mb(s.bundleGzip.length),
      bundle_ring_stored_mb: mb(s.rec.log.bytes()),
      bundle_ring_cap_mb: mb(DEFAULT_LOG_BYTES),
      bundle_ring_chunks: s.stats.chunks,
      bundle_dropped_records: (first?.seq ?? 1) - 1,
      bundle_minutes_covered: Number(covered.toFixed(2)),
      bundle_minutes_covered_plain_ring: Number((((last?.t ?? 0) - plainFromT) / 60_000).toFixed(2)),
      bundle_target: met ? 'met: all 10 minutes in 2 MiB' : 'NOT met',
      bundle_record_ms: Math.round(recordMs),
    };
  } finally {
    s.rec.core.stop();
  }
}
