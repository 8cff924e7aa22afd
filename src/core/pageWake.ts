/**
 * A tab that comes back (LESSONS: "no reconnect after a tab comes back from the background"): while
 * a page is hidden the browser throttles its timers and may let its sockets die quietly, so a book
 * can look live while it is minutes old. Like dYdX, the sockets restart when the page is visible
 * again after being hidden for WAKE_AFTER_HIDDEN_MS or more, and when the browser comes back online
 * (instead of waiting out the 10 s reconnect delay): the market socket resubscribes (fresh book
 * snapshots), the user socket authenticates again and the account screens and candles refetch as on
 * any reconnect.
 *
 * The live composition root (src/main.tsx) reports `visibilitychange` and `online` through
 * onPageLifecycle (src/ports/browser.ts); the hidden time is measured on the core's clock. The restarts are sent as `socket.reconnectNow` intents, so a recording logs them as
 * `ui.intent` and a replay reproduces them without any page events.
 */
export const WAKE_AFTER_HIDDEN_MS = 10_000;

export interface PageWake {
  /** The page became hidden (a second call while hidden keeps the first time). */
  hidden(): void;
  /** The page became visible: restarts the sockets when it was hidden for WAKE_AFTER_HIDDEN_MS or more. */
  visible(): void;
  /** The browser is back online: restarts the sockets now. */
  online(): void;
}

export function createPageWake(deps: { now(): number; restart(): void }): PageWake {
  let hiddenAt: number | null = null;
  return {
    hidden() {
      hiddenAt ??= deps.now();
    },
    visible() {
      const since = hiddenAt;
      hiddenAt = null;
      if (since !== null && deps.now() - since >= WAKE_AFTER_HIDDEN_MS) deps.restart();
    },
    online() {
      deps.restart();
    },
  };
}
