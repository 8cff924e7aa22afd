/**
 * The HTTP load generator of the benches: Debian's `wrk` (C, a process of its own) when
 * `command -v wrk` finds it, else autocannon in a worker thread; `name` says which ran. Either
 * POSTs the same JSON body with a fresh id in it (`idField`, unique per request) and rotates
 * through `tokens` (one Authorization per request, so load spread over many accounts stays under
 * the per-account order limits). The generator must cost less than the server it measures: wrk
 * takes a fraction of autocannon's CPU per request.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  tokens: readonly string[];
  /** The JSON body; `idField` is set to a new string per request. */
  body: Record<string, unknown>;
  idField: string;
}

export interface LoadResult {
  /** Which generator ran, e.g. "wrk 4.1.0 (C)" or "autocannon (worker thread)". */
  generator: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  errors: number;
}

/** The wrk binary and its version line, or null. BENCH_LOADGEN=autocannon forces the fallback. */
export function findWrk(): { bin: string; version: string } | null {
  if (process.env.BENCH_LOADGEN === 'autocannon') return null;
  try {
    const bin = execFileSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' }).trim();
    if (!bin) return null;
    // wrk -v prints its version (on stdout or stderr, exit status 0 or 1 by build).
    const v = spawnSync(bin, ['-v'], { encoding: 'utf8' });
    const out = `${v.stdout ?? ''}${v.stderr ?? ''}`;
    const version = /wrk\s+(\S+)/.exec(out)?.[1] ?? 'unknown';
    return { bin, version };
  } catch {
    return null;
  }
}

/** A Lua string literal. */
const lua = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

async function runWrk(bin: string, version: string, spec: LoadSpec): Promise<LoadResult> {
  const marker = '\u0001ID\u0001';
  const [pre, post] = JSON.stringify({ ...spec.body, [spec.idField]: marker }).split(JSON.stringify(marker)) as [string, string];
  const path = new URL(spec.url).pathname;
  const script = `
local tokens = { ${spec.tokens.map(lua).join(', ')} }
local pre, post = ${lua(pre)}, ${lua(post)}
local run = ${lua(`w${process.pid}x${Date.now().toString(36)}`)}
local n = 0
request = function()
  n = n + 1
  local token = tokens[(n % #tokens) + 1]
  return wrk.format("POST", ${lua(path)}, { ["Content-Type"] = "application/json", ["Authorization"] = token, ["Client"] = "web" }, pre .. '"' .. run .. n .. '"' .. post)
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\nRESULT {"requests":%d,"duration":%d,"p50":%d,"p99":%d,"max":%d,"non2xx":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max, e.status, e.connect + e.read + e.write + e.timeout))
end
`;
  const dir = mkdtempSync(join(tmpdir(), 'rf-wrk-'));
  const file = join(dir, 'load.lua');
  writeFileSync(file, script);
  try {
    const out = await new Promise<string>((resolve, reject) => {
      // One thread: the server's event loop gets the other core.
      const child = spawn(bin, ['-t1', `-c${spec.connections}`, `-d${spec.seconds}s`, '--timeout', '10s', '-s', file, spec.url], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`wrk exited ${code}: ${stderr || stdout}`))));
    });
    const line = /RESULT (\{.*\})/.exec(out)?.[1];
    if (!line) throw new Error(`wrk printed no result:\n${out}`);
    const r = JSON.parse(line) as { requests: number; duration: number; p50: number; p99: number; max: number; non2xx: number; errors: number };
    return {
      generator: `wrk ${version} (C, 1 thread)`,
      requestsPerSecond: Number((r.requests / (r.duration / 1e6)).toFixed(1)),
      p50Ms: Number((r.p50 / 1000).toFixed(2)),
      p99Ms: Number((r.p99 / 1000).toFixed(2)),
      maxMs: Number((r.max / 1000).toFixed(2)),
      non2xx: r.non2xx,
      errors: r.errors,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** autocannon in a worker thread, so building and parsing HTTP is off the server's event loop. */
const AUTOCANNON_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const autocannon = require(workerData.autocannon);
const { tokens, body, idField, seconds } = workerData;
let n = 0;
autocannon({
  url: workerData.url,
  method: 'POST',
  connections: workerData.connections,
  duration: seconds,
  headers: { 'content-type': 'application/json', client: 'web' },
  requests: [{ setupRequest: (req) => {
    n += 1;
    return { ...req, headers: { ...req.headers, authorization: tokens[n % tokens.length] }, body: JSON.stringify({ ...body, [idField]: 'a' + process.pid + 'x' + n }) };
  } }],
}).then(
  (raw) => {
    const r = autocannon.aggregateResult([raw], { url: workerData.url, duration: seconds });
    parentPort.postMessage({ ok: true, r: { requestsPerSecond: r.requests.total / seconds, p50Ms: r.latency.p50, p99Ms: r.latency.p99, maxMs: r.latency.max, non2xx: r.non2xx, errors: r.errors } });
  },
  (e) => parentPort.postMessage({ ok: false, message: String(e) }),
);
`;

async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
  const worker = new Worker(AUTOCANNON_CODE, {
    eval: true,
    workerData: { ...spec, tokens: [...spec.tokens], autocannon: createRequire(import.meta.url).resolve('autocannon') },
  });
  try {
    const r = await new Promise<Omit<LoadResult, 'generator'>>((resolve, reject) => {
      worker.on('message', (m: { ok: boolean; r?: Omit<LoadResult, 'generator'>; message?: string }) => (m.ok && m.r ? resolve(m.r) : reject(new Error(m.message))));
      worker.on('error', reject);
    });
    return { generator: 'autocannon (worker thread)', ...r };
  } finally {
    await worker.terminate();
  }
}

/** Runs the load with wrk when found, else autocannon. */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const wrk = findWrk();
  return wrk ? runWrk(wrk.bin, wrk.version, spec) : runAutocannon(spec);
}
