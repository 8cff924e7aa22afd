#!/usr/bin/env node
// `npm test`: every runner in turn (typecheck, lint, layers, vitest, build, Playwright), then one line of totals.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';

const reports = '.reports';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const rows = [];
function run(name, cmd, args, env = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { status: r.status ?? 1, seconds };
}
function readJson(path) {
  try {
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
  } catch {
    return null;
  }
}

const only = process.argv.slice(2);
const want = (n) => only.length === 0 || only.includes(n);

if (want('typecheck')) {
  const r = run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
  rows.push({ name: 'typecheck', passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, seconds: r.seconds });
}
if (want('lint')) {
  const r = run('lint', 'npx', ['eslint', '.', '--max-warnings=0']);
  rows.push({ name: 'lint', passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, seconds: r.seconds });
}
if (want('layers')) {
  // dependency-cruiser (.dependency-cruiser.cjs): protocol ← ports ← domain ← core ← ui, server → src/protocol+format only, no folder cycles, no server cycles.
  const r = run('layers', 'npx', ['depcruise', 'src', 'server', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']);
  rows.push({ name: 'layers', passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, seconds: r.seconds });
}
if (want('vitest')) {
  const out = `${reports}/vitest.json`;
  const r = run('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`]);
  const j = readJson(out);
  const passed = j?.numPassedTests ?? 0;
  let failed = j ? j.numFailedTests + (j.numRuntimeErrorTestSuites ?? 0) : 0;
  if (r.status !== 0 && failed === 0) failed = 1; // the runner itself failed (config error, crash)
  rows.push({ name: 'vitest', passed, failed, seconds: r.seconds });
}
let built = true;
if (want('build') || want('e2e')) {
  const r = run('build', 'npx', ['vite', 'build', '--logLevel', 'warn']);
  built = r.status === 0;
  rows.push({ name: 'build', passed: built ? 1 : 0, failed: built ? 0 : 1, seconds: r.seconds });
}
if (want('e2e') && built) {
  const out = `${reports}/playwright.json`;
  rmSync('.test-data', { recursive: true, force: true });
  const browser = spawnSync('sh', ['-c', 'chromium --version 2>/dev/null || echo "chromium not found: apt-get install chromium"'], { encoding: 'utf8' });
  console.log(`browser: ${browser.stdout.trim()}`);
  const r = run('playwright', 'npx', ['playwright', 'test'], { PW_JSON_OUTPUT: out });
  const j = readJson(out);
  const passed = (j?.stats?.expected ?? 0) + (j?.stats?.flaky ?? 0);
  let failed = j?.stats?.unexpected ?? 0;
  if (r.status !== 0 && failed === 0) failed = 1;
  rows.push({ name: 'playwright', passed, failed, seconds: r.seconds });
}

console.log('\n=== totals');
for (const row of rows) console.log(`${row.name.padEnd(11)} ${String(row.passed).padStart(5)} passed ${String(row.failed).padStart(4)} failed  (${row.seconds} s)`);
const passed = rows.reduce((s, r) => s + r.passed, 0);
const failed = rows.reduce((s, r) => s + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
