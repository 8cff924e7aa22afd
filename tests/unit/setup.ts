import { configure } from '@testing-library/react';

/**
 * The `unit` project's setup (vite.config.ts). Testing Library's `waitFor` / `findBy*` give up after
 * 1 s by default: a guard against a hang, but on a loaded 2-core machine a jsdom screen can take
 * longer than that to render a correct answer, and the test then fails by luck (issue 25). The
 * guard stays (a screen that never shows the text still fails); it only waits as long as vitest's
 * own per-test guard allows for a slow machine. Speed is measured in bench/, never here.
 */
configure({ asyncUtilTimeout: 10_000 });
