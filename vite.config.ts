/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { i18nSplit } from './scripts/i18nSplit.ts';
import { DEFAULT_LANG } from './src/ui/i18n/languages.ts';
import { precompress } from './scripts/precompress.ts';
import pkg from './package.json' with { type: 'json' };
import { EnvironmentGroupedSequencer } from './tests/vitestSequencer.ts';

const serverPort = Number(process.env.PORT ?? 8080);

/**
 * src/core/appVersion.ts reads the app version from package.json (one version string, issue 27):
 * the client build and the tests get that field alone, not the whole file.
 */
const packageJsonVersionOnly = {
  name: 'package-json-version-only',
  enforce: 'pre' as const,
  load(id: string) {
    if (id.split('?')[0] === resolve('package.json')) return JSON.stringify({ version: pkg.version });
    return null;
  },
};

/**
 * Issue 30: every module the entry (src/main.tsx) imports statically, transitively, goes into ONE
 * chunk (`app`) instead of the forty small ones the shared-module splitting cut it into: the page
 * needs all of them before its first paint anyway, and forty requests on HTTP/1.1's six
 * connections cost round trips on a slow phone network. The lazy screens import from that chunk.
 */
const ENTRY_MODULE = resolve('src/main.tsx');
let entryClosure: Set<string> | null = null;
type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };
function inEntryClosure(id: string, ctx: ModuleGraph): boolean {
  if (!entryClosure) {
    const seen = new Set<string>();
    const stack = [ENTRY_MODULE];
    while (stack.length > 0) {
      const m = stack.pop() as string;
      if (seen.has(m)) continue;
      seen.add(m);
      for (const dep of ctx.getModuleInfo(m)?.importedIds ?? []) stack.push(dep);
    }
    seen.delete(ENTRY_MODULE);
    entryClosure = seen;
  }
  return entryClosure.has(id);
}
const entryChunk = {
  name: 'entry-closure',
  buildStart() {
    entryClosure = null;
  },
};

/** The vitest folders that start no server, database or browser (the `unit` project, `npm run test:quick`). */
export const UNIT_DIRS = ['tests/unit', 'tests/property', 'tests/model', 'tests/scenario'];

/** The test files that run a second time on PostgreSQL (TEST_DATABASE=postgres, tests/server/testDb.ts). */
const POSTGRES_TESTS = [
  // the real server over HTTP/WS (tests/server/harness.ts and the harnesses built on it)
  ...['compensation', 'copy', 'help', 'http', 'kyc', 'mailCodes', 'malformedRequests', 'moneyConvert', 'moneyDeposit', 'moneyHistory', 'moneyWithdraw', 'moneyAddressBook']
    .concat(['rateLimit', 'referral', 'trade', 'tradeNetting', 'tradeOrders', 'tradeRisk', 'userAccount', 'userAuth', 'vouchers', 'wsApp', 'wsRevocation'])
    .concat(['orderRateLimit', 'journalPg', 'wsOrders', 'wsOrdersCore', 'engineCrash'])
    .map((f) => `tests/server/${f}.test.ts`),
  // repositories, migrations and the ledger on a database of their own (tests/server/testDb.ts)
  ...['compiledShape', 'copy', 'engineGroupCommit', 'engineProjector', 'ledger', 'ledgerConcurrency', 'ledgerPost', 'money', 'paged', 'referral'].map((f) => `tests/server/${f}.prop.test.ts`),
  'tests/server/migrations.test.ts',
  // the cluster of real processes (engine + gateways on Redis) on one PostgreSQL database
  'tests/server/cluster.test.ts',
  'tests/server/openapi.test.ts',
  'tests/server/multiServer.test.ts',
];

export default defineConfig({
  // Issue 30: i18nSplit gives one chunk per language (the default one preloaded from index.html); precompress writes .br and .gz beside each
  // built file, served as they are (server/http/staticSite.ts).
  plugins: [react(), i18nSplit({ preload: DEFAULT_LANG }), precompress(), packageJsonVersionOnly, entryChunk],
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: { output: { codeSplitting: { groups: [{ debugName: 'entry closure', name: (id, ctx) => (inEntryClosure(id, ctx) ? 'app' : null) }] } } },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    proxy: {
      '/api': { target: `http://127.0.0.1:${serverPort}`, changeOrigin: true, ws: true },
    },
  },
  test: {
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    // A guard against hangs, not a speed check (speed lives in bench/): generous so a loaded machine does not fail a slow but correct test.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // files of one project and environment back to back, so a shared fork is not restarted between them
    sequence: { sequencer: EnvironmentGroupedSequencer },
    // Vitest's default in a run is one fork fewer than the cores: a single fork on the 2-core
    // reference machine. Most files wait on sockets, timers or child processes part of the time, so
    // one fork per core is faster (VITEST_MAX_WORKERS overrides).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? Math.max(2, availableParallelism())),
    // Two runs (docs/DATABASE.md): every test on SQLite, and the tests that touch the database again on a
    // real PostgreSQL that the `postgres` project's globalSetup starts from the system's binaries.
    projects: [
      // (include lives in each project: `extends` would concatenate a root include with the project's)
      // The files that start no server, database or browser (`npm run test:quick`): pure functions,
      // machines, streams, the core and jsdom screens. They share one module graph per fork
      // (isolate: false), so the app's modules are imported once per fork instead of once per file
      // (a third of their CPU time); each file still gets its own environment and restores its mocks.
      { extends: true, test: { name: 'unit', include: UNIT_DIRS.map((d) => `${d}/**/*.test.ts`), isolate: false, setupFiles: ['tests/unit/setup.ts'] } },
      // The jsdom screens (every .test.tsx, and only they, are jsdom files) share one module graph per
      // fork too (the app, React, i18next and Testing Library were imported once per file: the 28
      // files took 183 s of CPU and 179 s isolated, 112 s and 94 s shared, here). Each file gets its
      // own jsdom window; the one module singleton bound to a window, rxjs's animation-frame
      // scheduler, forgets the frame a closed window owes it at the end of each file
      // (tests/unit/setupDom.ts: without it the KYC property, after other screen files, timed out).
      { extends: true, test: { name: 'unit-dom', include: UNIT_DIRS.map((d) => `${d}/**/*.test.tsx`), environment: 'jsdom', isolate: false, setupFiles: ['tests/unit/setup.ts', 'tests/unit/setupDom.ts'] } },
      // The server files too: each starts its own server, database and ports, and none mocks a module or
      // changes process.env, so one module graph per fork is safe, and it cut this project's CPU by
      // about 40 % (the server's imports, Fastify, Kysely, zod schemas, ran once per file; issue 25).
      { extends: true, test: { name: 'sqlite', include: ['tests/**/*.test.{ts,tsx}'], exclude: [...UNIT_DIRS.map((d) => `${d}/**`), 'tests/e2e/**', 'node_modules/**'], isolate: false } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_TESTS,
          isolate: false,
          env: { TEST_DATABASE: 'postgres' },
          globalSetup: ['tests/server/pgGlobalSetup.ts'],
        },
      },
    ],
  },
});
