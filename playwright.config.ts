import { defineConfig } from '@playwright/test';
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { E2E_BASE_PORT, E2E_WORKERS, serverOrigin } from './tests/e2e/servers.ts';

function chromiumPath(): string {
  try {
    return execSync('command -v chromium', { shell: '/bin/sh' }).toString().trim();
  } catch {
    return '/usr/bin/chromium';
  }
}

// The operator credential of the test servers (docs/SECURITY.md): set once here, in the runner, so
// every worker inherits it and sends it to the /api/dev routes (tests/e2e/operator.ts).
process.env.OPERATOR_TOKEN ??= randomBytes(32).toString('hex');

/** One server per worker (tests/e2e/servers.ts): its own port and database, a market the tests can steer. */
const servers = Array.from({ length: E2E_WORKERS }, (_, i) => {
  const port = E2E_BASE_PORT + i;
  return {
    command: `node --import tsx server/server.ts`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port), DATA_DIR: `.test-data/e2e-${port}`, FRESH_DB: '1', LOG_LEVEL: 'warn', MAIL_CODE_ECHO: '1', RATE_LIMIT_SCALE: '50',
      MARKET_STEERING: '1', TEST_PASSWORD_HASH_LOG_N: '12', OPERATOR_TOKEN: process.env.OPERATOR_TOKEN ?? '',
    },
  };
});

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Files spread over the workers; a file runs its tests in order unless it opts into parallel mode.
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  reporter: process.env.PW_JSON_OUTPUT ? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]] : 'list',
  use: {
    // Each worker process loads this file again with its TEST_PARALLEL_INDEX: its own server, for
    // `page`, `request` and every context a test opens from `browser`.
    baseURL: serverOrigin(Number(process.env.TEST_PARALLEL_INDEX ?? 0)),
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: chromiumPath(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: servers,
});
