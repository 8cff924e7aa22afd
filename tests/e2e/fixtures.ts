import { test as base } from '@playwright/test';
import { serverOrigin } from './servers.ts';

export { expect } from '@playwright/test';

/**
 * The `test` of every browser spec: Playwright's, with `baseURL` (and so `page`, `request` and
 * every context a test opens from `browser`) pointed at the worker's own server
 * (tests/e2e/servers.ts). `parallelIndex` is stable across a worker restart, so a restarted
 * worker finds the same server.
 */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as the first (here empty) pattern
  baseURL: async ({}, provide, testInfo) => {
    await provide(serverOrigin(testInfo.parallelIndex));
  },
});
