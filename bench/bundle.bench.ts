/**
 * Production bundle size: builds the app with the project's vite.config into a temporary folder
 * (so the figures are always of the code as it is now, never of a stale dist/) and measures the
 * JavaScript it emits: total raw and gzip bytes over every chunk, the entry chunk (the one
 * index.html loads) raw and gzip, the chunk count, and the CSS. Gzip is level 9, as a server or
 * CDN would send it. `measureBundle(dir)` also measures any other build (e.g. of an older commit,
 * to check the issue-11 rule "bundle size not worse than before").
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import type { BenchFigures } from './run.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const gz = (buf: Buffer): number => gzipSync(buf, { level: 9 }).length;
const br = (buf: Buffer): number => brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/**
 * The entry chunk and every chunk it imports statically, transitively: the script a page runs
 * before its route's screen (issue 30's "entry under 100 KB compressed"; dynamic imports left out).
 */
export function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w${},*\s]+from\s*)?["'](\.\/[^"']+)["']/g)) if (m[1]) visit(join(dirname(file), m[1]));
  };
  visit(entry);
  return [...seen];
}

/** The entry chunk of a built app in `dir` (the module script index.html loads). */
export function entryOf(dir: string): string {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const entrySrc = /<script[^>]*type="module"[^>]*src="\/?([^"]+)"/.exec(html)?.[1];
  const entry = filesUnder(dir).find((f) => f.endsWith('.js') && entrySrc !== undefined && relative(dir, f) === entrySrc);
  if (!entry) throw new Error(`no entry chunk found in ${dir}/index.html`);
  return entry;
}

/** Sizes of a built app in `dir` (a vite outDir with index.html). */
export function measureBundle(dir: string): BenchFigures {
  const files = filesUnder(dir);
  const js = files.filter((f) => f.endsWith('.js'));
  const css = files.filter((f) => f.endsWith('.css'));
  const entry = entryOf(dir);
  let raw = 0;
  let gzip = 0;
  for (const f of js) {
    const b = readFileSync(f);
    raw += b.length;
    gzip += gz(b);
  }
  const entryBuf = readFileSync(entry);
  const closure = staticClosure(entry).map((f) => readFileSync(f));
  const cssBufs = css.map((f) => readFileSync(f));
  return {
    'JS total bytes raw': raw,
    'JS total bytes gzip': gzip,
    'entry chunk bytes raw': entryBuf.length,
    'entry chunk bytes gzip': gz(entryBuf),
    'entry static closure chunks': closure.length,
    'entry static closure bytes gzip': closure.reduce((n, b) => n + gz(b), 0),
    'entry static closure bytes brotli': closure.reduce((n, b) => n + br(b), 0),
    'JS chunks': js.length,
    'CSS total bytes gzip': cssBufs.reduce((n, b) => n + gz(b), 0),
  };
}

export async function run(): Promise<BenchFigures> {
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'rf-bundle-'));
  try {
    await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    return measureBundle(outDir);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

// `npx tsx bench/bundle.bench.ts <dist>` measures an existing build (no rebuild).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv[2]) {
  console.log(JSON.stringify(measureBundle(process.argv[2]), null, 2));
}
