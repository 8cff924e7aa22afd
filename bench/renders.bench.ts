/**
 * React commits per animation frame on the trade screen under a full market burst (issue 14:
 * "at most one React commit per animation frame").
 *
 * The app is built into a temporary folder and served by the real server (a child process) on the
 * recorded Binance USD-M feed played at BENCH_RENDERS_SPEED× (default 20×: bursts of depth diffs,
 * trades and klines many times a frame). Debian's Chromium (Playwright, headless, 1440x900) opens
 * /mFutures/<symbol> as a guest. Before the app loads, a minimal React DevTools hook counts every
 * commit React makes (onCommitFiberRoot, called by production React DOM too) and a
 * requestAnimationFrame loop records how many commits happened since the previous frame.
 * Playwright counts the socket frames the page received in the same window.
 */
import { spawn, execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchFigures } from './run.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_RENDERS_SECONDS ?? 10);
const SPEED = Number(process.env.BENCH_RENDERS_SPEED ?? 20);
const SYMBOL = process.env.BENCH_RENDERS_SYMBOL ?? 'SUSHIUSDT';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

const HOOK = `
(() => {
  window.__rfCommits = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, isDisabled: false, renderers: new Map(),
    inject() { return 1; }, checkDCE() {},
    onCommitFiberRoot() { window.__rfCommits++; }, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onScheduleFiberRoot() {}, setStrictMode() {},
  };
  window.__rfFrames = null;
  window.__rfMeasure = (ms) => new Promise((resolve) => {
    const perFrame = [];
    let last = window.__rfCommits;
    const t0 = performance.now();
    const loop = (t) => {
      perFrame.push(window.__rfCommits - last);
      last = window.__rfCommits;
      if (t - t0 < ms) requestAnimationFrame(loop); else resolve(perFrame);
    };
    requestAnimationFrame(loop);
  });
})();
`;

export async function run(): Promise<BenchFigures> {
  const chromium = (() => {
    try {
      return execSync('command -v chromium', { shell: '/bin/sh' }).toString().trim();
    } catch {
      return '';
    }
  })();
  if (!chromium) return { skipped: 'no chromium (apt-get install chromium)' };
  const { build } = await import('vite');
  const { chromium: pw } = await import('@playwright/test');
  const outDir = mkdtempSync(join(tmpdir(), 'rf-renders-dist-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'rf-renders-data-'));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DIST_DIR: outDir, FRESH_DB: '1', LOG_LEVEL: 'warn', MARKET_SOURCE: 'recorded', MARKET_SPEED: String(SPEED) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await pw.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      const ok = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 300) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript(HOOK);
    let socketFrames = 0;
    let counting = false;
    page.on('websocket', (ws) => ws.on('framereceived', () => void (counting && socketFrames++)));
    await page.goto(`${base}/mFutures/${SYMBOL}`);
    await page.locator('main').first().waitFor();
    await page.waitForTimeout(3000); // book, chart and trades loaded and live
    counting = true;
    const t0 = Date.now();
    const perFrame = await page.evaluate((ms) => (window as unknown as { __rfMeasure: (ms: number) => Promise<number[]> }).__rfMeasure(ms), SECONDS * 1000);
    const seconds = (Date.now() - t0) / 1000;
    counting = false;
    const commits = perFrame.reduce((a, b) => a + b, 0);
    const over = perFrame.filter((n) => n > 1).length;
    const max = perFrame.reduce((a, b) => Math.max(a, b), 0);
    return {
      symbol: SYMBOL,
      'feed speed': `${SPEED}x recorded Binance USD-M`,
      'socket frames/s received': Math.round(socketFrames / seconds),
      'animation frames/s': Math.round(perFrame.length / seconds),
      'React commits/s': Math.round(commits / seconds),
      'commits per frame (mean)': Number((commits / Math.max(1, perFrame.length)).toFixed(3)),
      'commits per frame (max)': max,
      'frames with more than one commit': over,
      'target at most 1 commit per frame': max <= 1 ? 'met' : `not met (${over} of ${perFrame.length} frames)`,
    };
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(outDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
