import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import type { ParsedLog } from '../src/core/replay/parse.ts';
import { readLogText } from './headless.ts';
import type { ReplayStep } from './replayPage.ts';

/**
 * `npm run replay -- <file> --browser`: the real built UI (dist/, `npm run build` first) in
 * Debian's Chromium through Playwright, with NO server. Playwright serves dist/ and the log from
 * a made-up origin (http://replay.local); the app is opened at `/?replay=/__replay/log.jsonl`,
 * which builds the core on replay ports (src/core/replay/browserReplay.ts): HTTP answers and
 * socket frames come from the recording, the clock is virtual. Any other network request is
 * aborted and reported. This side steps the page to each checkpoint (every `ui.route`, evenly
 * spaced records, the end) and writes a screenshot per checkpoint.
 */

const ORIGIN = 'http://replay.local';
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

export interface BrowserOptions {
  outDir: string;
  until?: number;
  /** Evenly spaced checkpoints besides routes and the end (default 6). */
  shots?: number;
  viewport?: { width: number; height: number };
  /** The built app (default dist/). */
  dist?: string;
}

export async function replayInBrowser(file: string, log: ParsedLog, opts: BrowserOptions): Promise<number> {
  const dist = resolve(opts.dist ?? 'dist');
  if (!existsSync(join(dist, 'index.html'))) {
    console.error('error: dist/index.html not found: run `npm run build` first');
    return 2;
  }
  const text = readLogText(file);
  mkdirSync(opts.outDir, { recursive: true });
  const executablePath = execSync('command -v chromium', { shell: '/bin/sh' }).toString().trim();
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const env = log.meta.find((m) => m.kind === 'env') ?? log.records.find((r) => r.kind === 'env');
  const vp = (env?.viewport as { width?: number; height?: number } | undefined) ?? {};
  const viewport = opts.viewport ?? { width: vp.width ?? 1440, height: vp.height ?? 900 };
  const blocked: string[] = [];
  let code = 0;
  try {
    const page = await browser.newPage({ viewport });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Show what the user saw: their language and theme (the UI reads them from localStorage).
    const prefs = { lang: typeof env?.language === 'string' ? env.language : null, theme: typeof env?.theme === 'string' ? env.theme : null };
    await page.addInitScript((p: { lang: string | null; theme: string | null }) => {
      if (p.lang) localStorage.setItem('lang', p.lang);
      if (p.theme) localStorage.setItem('theme', p.theme);
    }, prefs);
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== ORIGIN) {
        blocked.push(url.toString());
        return route.abort();
      }
      if (url.pathname === '/__replay/log.jsonl') return route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: text });
      if (url.pathname.startsWith('/api/')) {
        blocked.push(url.pathname);
        return route.abort();
      }
      const candidate = join(dist, decodeURIComponent(url.pathname));
      const path = candidate.startsWith(dist) && existsSync(candidate) && extname(candidate) !== '' ? candidate : join(dist, 'index.html');
      return route.fulfill({ status: 200, contentType: TYPES[extname(path)] ?? 'application/octet-stream', body: readFileSync(path) });
    });
    await page.goto(`${ORIGIN}/?replay=/__replay/log.jsonl`);
    await page.waitForFunction(() => '__rftReplay' in window, undefined, { timeout: 15_000 });
    const records = await page.evaluate(() => (window as unknown as { __rftReplay: { records: { seq: number; kind: string }[] } }).__rftReplay.records);
    const upto = records.filter((r) => opts.until === undefined || r.seq <= opts.until);
    const shots = new Set<number>();
    const n = opts.shots ?? 6;
    for (let i = 1; i <= n; i++) {
      const r = upto[Math.min(upto.length - 1, Math.floor((i * upto.length) / (n + 1)))];
      if (r) shots.add(r.seq);
    }
    for (const r of upto) if (r.kind === 'ui.route') shots.add(r.seq);
    const lastRec = upto[upto.length - 1];
    if (lastRec) shots.add(lastRec.seq);
    const stem = basename(file).replace(/\.jsonl?$/, '');
    for (const seq of [...shots].sort((a, b) => a - b)) {
      const cp = await page.evaluate(async (s) => {
        const h = (window as unknown as { __rftReplay: { stepTo(seq: number): Promise<ReplayStep> } }).__rftReplay;
        return h.stepTo(s);
      }, seq);
      await page.waitForTimeout(400); // let React and the charts paint (real time; the app clock stays virtual)
      const shot = join(opts.outDir, `${stem}-${String(seq).padStart(6, '0')}.png`);
      await page.screenshot({ path: shot });
      console.log(`checkpoint @seq ${cp.seq} (t=${cp.t} ms) hash ${cp.hash} → ${shot}${cp.violations.length ? ` VIOLATIONS ${cp.violations.join('; ')}` : ''}`);
      if (seq === lastRec?.seq) {
        for (const d of cp.divergences) console.log(`DIVERGENCE ${d}`);
        for (const d of cp.notes) console.log(`note: ${d}`);
        if (cp.divergences.length > 0 || cp.violations.length > 0) code = 1;
      }
    }
    for (const e of errors) console.log(`page error: ${e}`);
    if (blocked.length > 0) console.log(`blocked ${blocked.length} requests that would have left the recording: ${[...new Set(blocked)].slice(0, 5).join(', ')}`);
  } finally {
    await browser.close();
  }
  return code;
}
