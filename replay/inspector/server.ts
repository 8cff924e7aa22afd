import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformWithOxc } from 'vite';
import { logTextOf } from '../headless.ts';
import { describe, diffRuns, type DiffReport } from '../../src/core/replay/diff.ts';
import { machineStates } from '../../src/core/replay/inspect.ts';
import { parseReplayText, ReplayParseError, type ParsedLog } from '../../src/core/replay/parse.ts';
import { buildLazyIndex, lineStartsOf, type LazyIndex } from './lazyIndex.ts';

/**
 * `npm run replay -- --inspect <bundle-or-fixture> [--diff <other>]` (docs/REPLAY.md "Inspector"):
 * a small HTTP server on 127.0.0.1 that serves
 * - `/__inspector/`: the inspector page (replay/inspector/page.ts, types stripped at start; not
 *   part of the app bundle), its API under `/__inspector/api/` (timeline, the state at a seq, a
 *   dropped bundle to load);
 * - `/__replay/log.jsonl`: the loaded log, and the built app (dist/) at every other path, so the
 *   page's iframe opens the REAL app at `/?replay=/__replay/log.jsonl` (src/core/replay/browserReplay.ts)
 *   and steps it with `window.__rftReplay.stepTo(seq)`. `/api/*` is refused: nothing leaves the log.
 * The state at a seq comes from the time-travel index (replay/inspector/lazyIndex.ts: the log's
 * bytes, per-record state operations and packed checkpoints), built once per loaded log by the same
 * headless replay as `npm run replay`; records are parsed again from their lines when asked for.
 */

const here = dirname(fileURLToPath(import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

export interface InspectorInput {
  name: string;
  text: string;
}

export interface InspectorOptions {
  log: InspectorInput;
  diff?: InspectorInput;
  /** The built app (default DIST_DIR, like the server, else dist/). */
  dist?: string;
  /** 0 = any free port (default). */
  port?: number;
  /** Snapshot spacing of the index (default 200). */
  every?: number;
}

interface Loaded {
  name: string;
  /** The log as loaded (UTF-8), served to the app's replay and read again for records. */
  bytes: Buffer;
  index: LazyIndex;
  env: Record<string, unknown> | null;
  loadMs: number;
}

export interface Inspector {
  url: string;
  close(): Promise<void>;
  /** Figures of the loaded log (bench). */
  loaded(): { records: number; loadMs: number; every: number };
}

/**
 * Parses and indexes one log. The parsed log is handed back for `--diff` and then dropped: the
 * index keeps the bytes, not the records.
 */
async function load(input: InspectorInput, every: number, hashEveryRecord: boolean): Promise<{ loaded: Loaded; log: ParsedLog }> {
  const started = performance.now();
  let log: ParsedLog;
  try {
    log = parseReplayText(input.text);
  } catch (e) {
    if (e instanceof ReplayParseError) throw new Error(`${input.name}: ${e.message}`, { cause: e });
    throw e;
  }
  const bytes = Buffer.from(input.text, 'utf8');
  const index = await buildLazyIndex(log, { bytes, lineStarts: lineStartsOf(bytes) }, { every, hashEveryRecord });
  const env = (log.meta.find((m) => m.kind === 'env') ?? log.records.find((r) => r.kind === 'env') ?? null) as Record<string, unknown> | null;
  return { loaded: { name: input.name, bytes, index, env, loadMs: performance.now() - started }, log };
}

/** [seq, t, kind, label] of every record (read again from the log: the timeline is asked for once per page). */
function rowsOf(index: LazyIndex): [number, number, string, string][] {
  const rows = new Array<[number, number, string, string]>(index.length);
  for (let i = 0; i < index.length; i++) {
    const r = index.recordAt(i);
    rows[i] = [r.seq, r.t, r.kind, describe(r).replace(/^#\d+ t=\d+ \S+ ?/, '')];
  }
  return rows;
}

function diffOf(a: Loaded, logA: ParsedLog, b: Loaded, logB: ParsedLog): { report: DiffReport; seqA: number | null; seqB: number | null; message: string } {
  const report = diffRuns(logA, a.index.result, logB, b.index.result);
  const seqA = report.firstRecord?.a?.seq ?? report.firstHash?.seqA ?? null;
  const seqB = report.firstRecord?.b?.seq ?? report.firstHash?.seqB ?? null;
  let message: string;
  if (report.same) message = `The logs agree: every record and every state hash (final ${report.finalA}).`;
  else if (report.firstRecord) {
    const { a: ra, b: rb } = report.firstRecord;
    message = `The logs part at event ${report.firstRecord.index + 1}: ${a.name} ${ra ? describe(ra) : '(log ended)'} | ${b.name} ${rb ? describe(rb) : '(log ended)'}`;
  } else message = `The states part after event ${(report.firstHash?.index ?? 0) + 1}: ${a.name} #${seqA ?? '-'}, ${b.name} #${seqB ?? '-'}`;
  return { report, seqA, seqB, message };
}

/** The log and the one it is compared with: their parsed records live only until they are diffed. */
async function loadPair(input: InspectorInput, against: InspectorInput | undefined, every: number) {
  const a = await load(input, every, against !== undefined);
  const b = against ? await load(against, every, true) : null;
  return { current: a.loaded, other: b ? b.loaded : null, diff: b ? diffOf(a.loaded, a.log, b.loaded, b.log) : null };
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

/** A dropped bundle's text (gzip inflated). */
function readBody(req: IncomingMessage, max = 64 * 1024 * 1024): Promise<string> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        fail(new Error('bundle too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => {
      try {
        ok(logTextOf(Buffer.concat(chunks)));
      } catch (e) {
        fail(e instanceof Error ? e : new Error(String(e)));
      }
    });
    req.on('error', fail);
  });
}

export async function startInspector(opts: InspectorOptions): Promise<Inspector> {
  const dist = resolve(opts.dist ?? process.env.DIST_DIR ?? 'dist');
  const every = opts.every ?? 200;
  const listenPort = opts.port ?? 0;
  // NOTE: no closure below names `opts`: it holds the logs' texts, which must not outlive the load.
  const initial = await loadPair(opts.log, opts.diff, every);
  let current = initial.current;
  let other = initial.other;
  let diff = initial.diff;

  const pageTs = readFileSync(join(here, 'page.ts'), 'utf8');
  const pageJs = (await transformWithOxc(pageTs, 'page.ts', { lang: 'ts' })).code;
  const pageHtml = readFileSync(join(here, 'index.html'), 'utf8');
  const pageCss = readFileSync(join(here, 'page.css'), 'utf8');

  const timeline = () => ({
    name: current.name,
    records: rowsOf(current.index),
    env: current.env,
    every: current.index.every,
    loadMs: Math.round(current.loadMs),
    finalHash: current.index.result.final.hash,
    divergences: current.index.result.divergences.map((d) => `@${d.seq ?? '-'} ${d.message}`),
    other: other ? { name: other.name, records: rowsOf(other.index) } : null,
    diff: diff ? { seqA: diff.seqA, seqB: diff.seqB, same: diff.report.same, message: diff.message } : null,
  });

  const stateAt = (seq: number) => {
    const started = performance.now();
    const idx = current.index;
    const state = idx.stateAt(seq);
    const rec = idx.record(seq);
    return {
      seq,
      record: rec,
      machines: machineStates(state),
      changes: idx.changesAt(seq),
      state,
      violations: idx.violations.get(seq) ?? [],
      replayed: idx.costOf(seq),
      ms: Number((performance.now() - started).toFixed(2)),
    };
  };

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const p = url.pathname;
      if (p === '/__inspector' || p === '/__inspector/') {
        res.writeHead(200, { 'content-type': TYPES['.html'] as string, 'cache-control': 'no-store' });
        return res.end(pageHtml);
      }
      if (p === '/__inspector/page.js') {
        res.writeHead(200, { 'content-type': TYPES['.js'] as string });
        return res.end(pageJs);
      }
      if (p === '/__inspector/page.css') {
        res.writeHead(200, { 'content-type': TYPES['.css'] as string });
        return res.end(pageCss);
      }
      if (p === '/__inspector/api/timeline') return json(res, 200, timeline());
      if (p === '/__inspector/api/state') {
        const seq = Number(url.searchParams.get('seq'));
        if (!Number.isInteger(seq)) return json(res, 400, { error: 'seq must be an integer' });
        return json(res, 200, stateAt(seq));
      }
      if (p === '/__inspector/api/load' && req.method === 'POST') {
        try {
          const text = await readBody(req);
          const name = basename(url.searchParams.get('name') ?? 'dropped.jsonl');
          current = (await load({ name, text }, every, false)).loaded;
          other = null;
          diff = null;
          return json(res, 200, { ok: true, name, records: current.index.length });
        } catch (e) {
          return json(res, 400, { error: e instanceof Error ? e.message : String(e) });
        }
      }
      if (p === '/__replay/log.jsonl') {
        res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
        return res.end(current.bytes);
      }
      if (p === '/' && !url.searchParams.has('replay')) {
        res.writeHead(302, { location: '/__inspector/' });
        return res.end();
      }
      if (p.startsWith('/api/')) return json(res, 404, { code: 404, msg: 'the inspector serves no API: the app replays the log' });
      // The built app: a file when there is one, else index.html (client-side routes).
      const candidate = join(dist, decodeURIComponent(p));
      const file = candidate.startsWith(dist) && extname(candidate) !== '' && existsSync(candidate) && statSync(candidate).isFile() ? candidate : join(dist, 'index.html');
      if (!existsSync(file)) {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('dist/index.html not found: run `npm run build` first');
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(readFileSync(file));
    })().catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { error: e instanceof Error ? e.message : String(e) });
      else res.end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(listenPort, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/__inspector/`,
    loaded: () => ({ records: current.index.length, loadMs: current.loadMs, every: current.index.every }),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
