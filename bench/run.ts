/**
 * `npm run bench`: runs every bench/*.bench.ts module in sequence (or only those named on the
 * command line, e.g. `npm run bench -- orderBook`), prints a table of their figures and merges
 * them into bench/results.json.
 *
 * Contract for a bench module: `export async function run(): Promise<Record<string, number | string>>`
 * returning named figures (throughput, ratios, or a string such as a skip reason).
 * results.json keeps the figures of modules not run this time, so benches can be run one by one.
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type BenchFigures = Record<string, number | string>;
export interface BenchModule {
  run(): Promise<BenchFigures>;
}

interface BenchEntry {
  at: string;
  seconds: number;
  figures: BenchFigures;
}
export interface BenchResults {
  updatedAt: string;
  cpus: number;
  cpuModel: string;
  node: string;
  benches: Record<string, BenchEntry>;
}

const here = dirname(fileURLToPath(import.meta.url));
const resultsPath = join(here, 'results.json');

function formatFigure(v: number | string): string {
  if (typeof v === 'string') return v;
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return Number.isInteger(v) ? String(v) : v.toFixed(3);
}

function readResults(): BenchResults | null {
  if (!existsSync(resultsPath)) return null;
  try {
    return JSON.parse(readFileSync(resultsPath, 'utf8')) as BenchResults;
  } catch {
    return null;
  }
}

function isBenchModule(m: unknown): m is BenchModule {
  return typeof m === 'object' && m !== null && typeof (m as { run?: unknown }).run === 'function';
}

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()
    .filter((f) => only.length === 0 || only.includes(basename(f, '.bench.ts')));
  if (files.length === 0) {
    console.log(only.length ? `no bench matches ${only.join(', ')}` : 'no bench/*.bench.ts found');
    return;
  }
  const previous = readResults();
  const cpuList = cpus();
  const results: BenchResults = {
    updatedAt: new Date().toISOString(),
    cpus: cpuList.length,
    cpuModel: cpuList[0]?.model ?? 'unknown',
    node: process.version,
    benches: { ...(previous?.benches ?? {}) },
  };
  const rows: [string, string, string][] = [];
  let failed = 0;
  for (const file of files) {
    const name = basename(file, '.bench.ts');
    console.log(`\n=== bench ${name}`);
    const started = performance.now();
    try {
      const mod: unknown = await import(pathToFileURL(join(here, file)).href);
      if (!isBenchModule(mod)) throw new Error(`${file} does not export run()`);
      const figures = await mod.run();
      const seconds = (performance.now() - started) / 1000;
      results.benches[name] = { at: new Date().toISOString(), seconds: Number(seconds.toFixed(2)), figures };
      for (const [k, v] of Object.entries(figures)) rows.push([name, k, formatFigure(v)]);
    } catch (e) {
      failed++;
      const msg = e instanceof Error ? e.message : String(e);
      console.error(`bench ${name} failed: ${msg}`);
      rows.push([name, 'error', msg]);
    }
  }
  const w0 = Math.max(5, ...rows.map((r) => r[0].length));
  const w1 = Math.max(6, ...rows.map((r) => r[1].length));
  console.log(`\n${'bench'.padEnd(w0)}  ${'figure'.padEnd(w1)}  value`);
  console.log(`${'-'.repeat(w0)}  ${'-'.repeat(w1)}  ${'-'.repeat(12)}`);
  for (const [b, k, v] of rows) console.log(`${b.padEnd(w0)}  ${k.padEnd(w1)}  ${v}`);
  writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`\nwrote ${resultsPath} (${results.cpus} cpus, node ${results.node})`);
  if (failed > 0) process.exitCode = 1;
}

await main();
