import type { Page } from '@playwright/test';

/** What `window.__rftReplay.stepTo(seq)` answers (src/core/replay/browserReplay.ts). */
export interface ReplayStep {
  seq: number;
  t: number;
  hash: string;
  divergences: string[];
  violations: string[];
  /** What the replay held without calling it a divergence: reads a page load made that its recorded page, reloaded first, never made. */
  notes: string[];
}

/**
 * Opens the built app served at `base` (empty: the page's baseURL) in browser-replay mode on the log
 * `text` (`/?replay=`): the log is served from `/__replay/log.jsonl`, every `/api/` request and
 * every WebSocket is refused and listed in `leaked`, so whatever the screens show came from the
 * recording. Used by the UI recorder's check and the replay browser tests (the CLI serves dist/
 * itself: replay/browser.ts).
 */
export async function openReplayPage(page: Page, text: string, base = ''): Promise<{ leaked: string[]; stepTo(seq: number): Promise<ReplayStep> }> {
  const leaked: string[] = [];
  await page.route((url) => url.pathname === '/__replay/log.jsonl', (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: text }));
  await page.route((url) => url.pathname.startsWith('/api/'), (route) => {
    leaked.push(route.request().url());
    return route.abort();
  });
  await page.routeWebSocket(/.*/, (ws) => {
    leaked.push(ws.url());
    void ws.close();
  });
  await page.goto(`${base}/?replay=/__replay/log.jsonl`);
  await page.waitForFunction(() => '__rftReplay' in window);
  return {
    leaked,
    stepTo: (seq) => page.evaluate(async (s) => (window as unknown as { __rftReplay: { stepTo(seq: number): Promise<ReplayStep> } }).__rftReplay.stepTo(s), seq),
  };
}
