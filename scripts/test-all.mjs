#!/usr/bin/env node
// `npm test`: every runner (typecheck, lint, layers, vitest, build, Playwright), then each runner's
// time, the ten slowest test files and one line of totals.
// `npm run test:quick` (`--quick`): typecheck, lint, layers and the vitest files that need no server
// and no browser (unit, property, model, scenario), for the edit-test loop.
// Names after the flags pick runners: `node scripts/test-all.mjs vitest e2e`.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';

const reports = '.reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => !a.startsWith('--'));
const want = (n) => only.length === 0 || only.includes(n);


/**
 * Runs a command; `buffered` keeps its output and hands it back as `print()` (for runners that share
 * the machine with another, so their lines do not interleave), otherwise it streams.
 */
function run(name, cmd, cmdArgs, { env = {}, buffered = false } = {}) {
  const started = Date.now();
  if (!buffered) console.log(`\n=== ${name}: ${cmd} ${cmdArgs.join(' ')}`);
  return new Promise((resolveRun) => {
    const child = spawn(cmd, cmdArgs, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    const out = [];
    if (buffered) {
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => out.push(d));
    }
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const print = () => {
        console.log(`\n=== ${name}: ${cmd} ${cmdArgs.join(' ')} (${seconds} s)`);
        process.stdout.write(Buffer.concat(out));
      };
      resolveRun({ status: code ?? 1, seconds, print });
    });
  });
}

function readJson(path) {
  try {
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
  } catch {
    return null;
  }
}

const rows = [];
const passFail = (name, r) => rows.push({ name, passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, seconds: r.seconds });
/** [seconds, file, runner] of every test file, for the slowest-ten list. */
const fileTimes = [];

// The static checks run in one lane beside vitest (output kept per check): vitest's server files
// wait on sockets, processes and timers much of the time, so the checks fill the idle core instead
// of holding both cores for a minute before vitest starts (issue 25).
const checks = [];
// Both keep what they learnt between runs under node_modules/.cache (a fresh clone starts empty):
// the second run checks only what changed (typecheck 46 s -> a few s, lint 26 s -> 2 s here).
const cache = 'node_modules/.cache/rft';
// The typecheck runs TypeScript 7, the native compiler (devDependency `typescript-native`, an alias of
// typescript@7): the same errors as TypeScript 6 for a quarter of the CPU (58 s -> 15 s of one core
// here, one checker thread since it runs beside vitest). typescript-eslint still needs TypeScript 6
// (the `typescript` package), which stays for it and for editors.
if (want('typecheck')) checks.push(['typecheck', 'node', ['node_modules/typescript-native/bin/tsc', '--noEmit', '-p', 'tsconfig.json', '--checkers', '1', '--incremental', '--tsBuildInfoFile', `${cache}/tsc7.tsbuildinfo`]]);
if (want('lint')) checks.push(['lint', 'npx', ['eslint', '.', '--max-warnings=0', '--cache', '--cache-location', `${cache}/eslint/`]]);
// dependency-cruiser (.dependency-cruiser.cjs): protocol ← ports ← domain ← core ← ui, server → src/protocol+format only, no folder cycles, no server cycles.
if (want('layers')) checks.push(['layers', 'npx', ['depcruise', 'src', 'server', 'replay', 'scripts', 'bench', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']]);
const checkResults = new Map();
const staticLane = (async () => {
  for (const [name, cmd, cmdArgs] of checks) checkResults.set(name, await run(name, cmd, cmdArgs, { buffered: true }));
})();

let vitestRow = null;
if (want('vitest')) {
  const out = `${reports}/vitest.json`;
  const scope = quick ? ['--project', 'unit', '--project', 'unit-dom'] : []; // vite.config.ts: the files that need no server or browser
  const r = await run('vitest', 'npx', ['vitest', 'run', ...scope, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  const j = readJson(out);
  const passed = j?.numPassedTests ?? 0;
  let failed = j ? j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0) : 0;
  if (r.status !== 0 && failed === 0) failed = 1; // the runner itself failed (config error, crash)
  vitestRow = { name: 'vitest', passed, failed, seconds: r.seconds };
  for (const t of j?.testResults ?? []) fileTimes.push([(t.endTime - t.startTime) / 1000, relative(process.cwd(), t.name), 'vitest']);
}
await staticLane;
for (const name of ['typecheck', 'lint', 'layers']) {
  const r = checkResults.get(name);
  if (r === undefined) continue;
  r.print();
  passFail(name, r);
}
if (vitestRow !== null) rows.push(vitestRow);

if (!quick) {
  let built = true;
  if (want('build') || want('e2e')) {
    const r = await run('build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
    built = r.status === 0;
    passFail('build', r);
  }
  if (want('e2e') && built) {
    const out = `${reports}/playwright.json`;
    rmSync('.test-data', { recursive: true, force: true });
    const browser = await new Promise((res) => {
      const c = spawn('sh', ['-c', 'chromium --version 2>/dev/null || echo "chromium not found: apt-get install chromium"']);
      let s = '';
      c.stdout.on('data', (d) => (s += d));
      c.on('close', () => res(s.trim()));
    });
    console.log(`browser: ${browser}`);
    const r = await run('playwright', 'npx', ['playwright', 'test'], { env: { PW_JSON_OUTPUT: out } });
    const j = readJson(out);
    const passed = (j?.stats?.expected ?? 0) + (j?.stats?.flaky ?? 0);
    let failed = j?.stats?.unexpected ?? 0;
    if (r.status !== 0 && failed === 0) failed = 1;
    rows.push({ name: 'playwright', passed, failed, seconds: r.seconds });
    // A spec file's time: the sum of its tests' (they may have run on two workers).
    const perFile = new Map();
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) for (const res of t.results ?? []) perFile.set(spec.file, (perFile.get(spec.file) ?? 0) + (res.duration ?? 0) / 1000);
      }
      for (const s of suite.suites ?? []) walk(s);
    };
    for (const s of j?.suites ?? []) walk(s);
    for (const [file, seconds] of perFile) fileTimes.push([seconds, `tests/e2e/${file}`, 'playwright']);
  }
}

if (fileTimes.length > 0) {
  console.log('\n=== slowest test files');
  for (const [seconds, file, runner] of fileTimes.sort((a, b) => b[0] - a[0]).slice(0, 10)) console.log(`${seconds.toFixed(1).padStart(7)} s  ${runner.padEnd(10)} ${file}`);
}
console.log('\n=== totals');
for (const row of rows) console.log(`${row.name.padEnd(11)} ${String(row.passed).padStart(5)} passed ${String(row.failed).padStart(4)} failed  (${row.seconds} s)`);
const passed = rows.reduce((s, r) => s + r.passed, 0);
const failed = rows.reduce((s, r) => s + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
