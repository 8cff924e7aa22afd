/**
 * The browser suite's servers: one real server per Playwright worker, each on its own port with
 * its own database, so two workers never share accounts, the demo session, rate limits or a
 * steered market. playwright.config.ts starts them (webServer) and, loaded again in each worker
 * process, points that worker's `baseURL` at its own (TEST_PARALLEL_INDEX is stable across a worker
 * restart, so a restarted worker finds the same server).
 */

/** Workers, and so servers (E2E_WORKERS, default 2: one per core of the reference machine). */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

/** The first server's port (E2E_PORT); worker n uses E2E_PORT + n. */
export const E2E_BASE_PORT = Number(process.env.E2E_PORT ?? 8199);

/** The origin of the server of the worker with this `parallelIndex`. */
export function serverOrigin(parallelIndex: number): string {
  return `http://127.0.0.1:${E2E_BASE_PORT + parallelIndex}`;
}
