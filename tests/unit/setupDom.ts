import { animationFrameScheduler } from 'rxjs';
import { afterAll } from 'vitest';

/**
 * The jsdom files' setup (vite.config.ts, `unit-dom`), after tests/unit/setup.ts. Those files share
 * one module graph per fork (isolate: false), and with it rxjs's animation-frame scheduler
 * (src/ui/hooks/useStream.ts): a frame it asked of one file's window never comes once that window is
 * gone, and the scheduler, still waiting for it, would never ask the next file's window for one, so
 * every later useStream would stop updating. At the end of each file the scheduler forgets that frame
 * and the actions waiting for it (their subscribers are unmounted by then).
 */
afterAll(() => {
  const scheduler = animationFrameScheduler as unknown as { _scheduled: unknown; actions: { unsubscribe(): void }[] };
  for (const action of scheduler.actions.splice(0)) action.unsubscribe();
  scheduler._scheduled = undefined;
});
