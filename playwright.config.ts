import { defineConfig } from '@playwright/test';
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

function chromiumPath(): string {
  try {
    return execSync('command -v chromium', { shell: '/bin/sh' }).toString().trim();
  } catch {
    return '/usr/bin/chromium';
  }
}

const port = Number(process.env.E2E_PORT ?? 8199);

// The operator credential of the test server (docs/SECURITY.md): set once here, in the runner, so
// the tests send it to the /api/dev routes (tests/e2e/operator.ts).
process.env.OPERATOR_TOKEN ??= randomBytes(32).toString('hex');

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.PW_JSON_OUTPUT ? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]] : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: chromiumPath(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `node --import tsx server/server.ts`,
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { PORT: String(port), DATA_DIR: `.test-data/e2e-${port}`, FRESH_DB: '1', LOG_LEVEL: 'warn', MAIL_CODE_ECHO: '1', RATE_LIMIT_SCALE: '50', OPERATOR_TOKEN: process.env.OPERATOR_TOKEN },
  },
});
