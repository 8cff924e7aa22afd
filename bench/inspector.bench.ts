import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { simulatedMarketLog } from '../replay/simulatedLog.ts';
import { startInspector } from '../replay/inspector/server.ts';

/**
 * The replay inspector on the 1-hour market log (issue 16; target: scrubbing to any event in under
 * 200 ms). The log is the one bench/replay.bench.ts replays (seeded simulator, ≈148,000 records).
 * - load: the wall time and the CPU time (the load average beside them: the machine is shared)
 *   the inspector server takes to index it (one headless replay through the real core, the state
 *   diffed after every record into compact operations, a packed checkpoint every 200 records, the
 *   records left in the log's bytes: replay/inspector/lazyIndex.ts; target under 3 s);
 * - memory (target under 250 MB of heap): the heap in use right after the scrubs (garbage
 *   included, as this figure always was), the heap the loaded inspector retains (after a full GC),
 *   the log's bytes and other memory outside the heap, and the process's peak resident size. The
 *   bench drops its own copy of the log text before the load, so the figures are the inspector's;
 * - scrub: what the page asks when the user drags the scrubber or steps: `GET /__inspector/api/state?seq=`
 *   over real HTTP on 127.0.0.1, for events spread over the whole hour (the state rebuilt from the
 *   nearest snapshot, the change the event made, serialised), latency from request to parsed answer.
 * The app's iframe (browser replay) is not part of this figure: it is the app's own replay speed.
 */
export async function run(): Promise<Record<string, number | string>> {
  const input = { name: 'market-1h.jsonl', text: simulatedMarketLog({ minutes: 60 }).text };
  const load1 = loadavg()[0] ?? NaN;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const inspector = await startInspector({ log: input, every: 200 });
  const loadMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  input.text = '';
  const { records, every } = inspector.loaded();
  const base = inspector.url.replace(/\/__inspector\/$/, '');
  try {
    const ask = async (seq: number) => {
      const t0 = performance.now();
      const res = await fetch(`${base}/__inspector/api/state?seq=${seq}`);
      const body = (await res.json()) as { ms: number; replayed: number };
      return { ms: performance.now() - t0, index: body.ms, replayed: body.replayed };
    };
    for (let i = 0; i < 10; i++) await ask(1 + i * 1000); // warm-up
    const lat: number[] = [];
    const work: number[] = [];
    let maxReplayed = 0;
    // Spread over the hour (a fixed stride, so runs compare), plus the worst spot: just before a snapshot.
    for (let i = 0; i < 200; i++) {
      const seq = 1 + ((i * 7919) % records);
      const r = await ask(seq);
      lat.push(r.ms);
      work.push(r.index);
      maxReplayed = Math.max(maxReplayed, r.replayed);
    }
    const worst = await ask(every * 300 + every); // `every - 1` records past a snapshot
    lat.push(worst.ms);
    maxReplayed = Math.max(maxReplayed, worst.replayed);
    lat.sort((a, b) => a - b);
    work.sort((a, b) => a - b);
    const q = (xs: number[], p: number) => Number((xs[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN).toFixed(1));
    return {
      inspector_records_1h: records,
      inspector_snapshot_every: every,
      inspector_load_ms_1h: Math.round(loadMs),
      // The CPU the load took (user + system, every thread of the process: the GC's helpers too):
      // on the shared 2-core machine the wall time above follows the other processes, this less.
      inspector_load_cpu_ms_1h: Math.round((cpu.user + cpu.system) / 1000),
      // The machine's 1-minute load average when the load started (figures at a load above ~3 are not comparable).
      inspector_loadavg_1m: Number(load1.toFixed(2)),
      inspector_scrub_p50_ms: q(lat, 0.5),
      inspector_scrub_p95_ms: q(lat, 0.95),
      inspector_scrub_max_ms: Number((lat.at(-1) ?? NaN).toFixed(1)),
      inspector_scrub_index_p95_ms: q(work, 0.95),
      inspector_scrub_max_records_replayed: maxReplayed,
      inspector_scrub_target_ms: 200,
      inspector_heap_mb: Math.round(process.memoryUsage().heapUsed / 1e6),
      inspector_heap_retained_mb: Math.round(retainedHeap() / 1e6),
      // `external` includes the ArrayBuffers (the log's bytes, the level pool, the packed checkpoints).
      inspector_external_mb: Math.round(process.memoryUsage().external / 1e6),
      inspector_rss_peak_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      inspector_heap_target_mb: 250,
      inspector_load_target_ms: 3000,
    };
  } finally {
    await inspector.close();
  }
}

/** The heap in use after a full garbage collection (what the loaded inspector keeps). */
function retainedHeap(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  return process.memoryUsage().heapUsed;
}
