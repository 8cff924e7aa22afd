/**
 * Page speed as a new user on a phone sees it (issue 30): builds the app into a temporary folder,
 * starts the REAL server on it (`node --import tsx server/server.ts`, as `npm start` does, on a
 * free port with a fresh database) and runs Lighthouse 12.2.3 (newer majors need Node 22) with
 * its mobile defaults (simulated slow 4G, 4x CPU slowdown) through Debian's Chromium on each route.
 * Per route: performance score, FCP, LCP, TBT, CLS (ms / unitless), bytes transferred and script
 * bytes transferred. Targets (issue 30): performance >= 90 (>= 75 on the trade screen), LCP < 2.5 s,
 * TBT < 200 ms, CLS < 0.1. It is a benchmark, not a test: a loaded machine gives lower scores.
 *
 * `LH_DIST=<dist>` measures an existing build instead of building; `LH_ROUTES=/,/market` picks routes.
 * `npx tsx bench/lighthouse.bench.ts [dist]` prints the figures without touching results.json.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigures } from './run.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
export const LIGHTHOUSE = 'lighthouse@12.2.3';
export const ROUTES = ['/', '/market', '/login', '/help-center', '/mFutures/BTCUSDT'];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

function chromiumPath(): string | null {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`]).toString().trim() || null;
    } catch {
      /* next */
    }
  }
  return null;
}

async function waitHealthy(base: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not answer /api/health');
}

interface LhAudit {
  numericValue?: number;
}
interface LhReport {
  categories: { performance: { score: number | null } };
  audits: Record<string, LhAudit & { details?: { items?: { resourceType?: string; transferSize?: number }[] } }>;
}

function runLighthouse(url: string, chrome: string, outFile: string): LhReport {
  execFileSync(
    'npx',
    ['-y', LIGHTHOUSE, url, '--quiet', '--only-categories=performance', '--output=json', `--output-path=${outFile}`, `--chrome-path=${chrome}`, '--chrome-flags=--headless --no-sandbox --disable-gpu'],
    { stdio: ['ignore', 'ignore', 'inherit'], timeout: 240_000 },
  );
  return JSON.parse(readFileSync(outFile, 'utf8')) as LhReport;
}

/** Lighthouse figures of every route of a built app in `dist`. */
export async function measurePages(dist: string, routes: readonly string[] = ROUTES): Promise<BenchFigures> {
  const chrome = chromiumPath();
  if (!chrome) return { skipped: 'no chromium on the PATH (apt-get install chromium)' };
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'rf-lh-data-'));
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DIST_DIR: dist, DATA_DIR: dataDir, FRESH_DB: '1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const figures: BenchFigures = { lighthouse: LIGHTHOUSE };
  try {
    await waitHealthy(base, server);
    for (const route of routes) {
      const r = runLighthouse(base + route, chrome, join(dataDir, 'lh.json'));
      const a = (id: string): number => r.audits[id]?.numericValue ?? Number.NaN;
      const scripts = r.audits['network-requests']?.details?.items?.filter((i) => i.resourceType === 'Script') ?? [];
      figures[`${route} performance`] = Math.round((r.categories.performance.score ?? Number.NaN) * 100);
      figures[`${route} FCP ms`] = Math.round(a('first-contentful-paint'));
      figures[`${route} LCP ms`] = Math.round(a('largest-contentful-paint'));
      figures[`${route} TBT ms`] = Math.round(a('total-blocking-time'));
      figures[`${route} CLS`] = Number(a('cumulative-layout-shift').toFixed(3));
      figures[`${route} bytes transferred`] = Math.round(a('total-byte-weight'));
      figures[`${route} script bytes transferred`] = scripts.reduce((n, i) => n + (i.transferSize ?? 0), 0);
      figures[`${route} script requests`] = scripts.length;
    }
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}

export async function run(): Promise<BenchFigures> {
  const routes = process.env.LH_ROUTES ? process.env.LH_ROUTES.split(',') : ROUTES;
  if (process.env.LH_DIST) return measurePages(process.env.LH_DIST, routes);
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'rf-lh-dist-'));
  try {
    await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    return await measurePages(outDir, routes);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dist = process.argv[2];
  const routes = process.env.LH_ROUTES ? process.env.LH_ROUTES.split(',') : ROUTES;
  console.log(JSON.stringify(dist ? await measurePages(dist, routes) : await run(), null, 2));
}
