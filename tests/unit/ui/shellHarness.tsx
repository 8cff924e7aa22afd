import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { SimulatedClock } from 'xstate';
import { createAppCore, type AppCore } from '../../../src/core/createAppCore.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope, type ScriptedHttp } from '../../../src/ports/fakes.ts';
import type { UserInfo } from '../../../src/protocol/user.ts';
import { AppProviders } from '../../../src/ui/app/App.tsx';
import { buildRoutes } from '../../../src/ui/app/routes.tsx';
import { ROUTE_TABLE } from '../../../src/ui/app/routeTable.ts';
import { SCREENS, type ScreenLoader } from '../../../src/ui/app/screens.ts';
import type { ClipboardLike, ShellEnv } from '../../../src/ui/hooks/useShellEnv.ts';
import { createI18n } from '../../../src/ui/i18n/index.ts';
import type { Lang } from '../../../src/ui/i18n/languages.ts';
import { createUiPrefs } from '../../../src/ui/theme/uiPrefs.ts';

export const USER: UserInfo = {
  id: 80012345,
  nickname: 'trader',
  avatar: '',
  cover_email: 'ali***@example.com',
  kycStatus: 'unverified',
  googleBound: false,
  inviteCode: 'ABC123',
  withdrawLockUntil: 0,
  createdAt: 1_700_000_000_000,
};

export interface ShellOptions {
  path?: string;
  stored?: Record<string, string>;
  width?: number;
  lang?: Lang;
  clipboard?: ClipboardLike | null;
  /** Extra Http scripting, applied before the core starts. */
  script?: (http: ScriptedHttp) => void;
}

export interface ShellHarness extends RenderResult {
  core: AppCore;
  http: ScriptedHttp;
  storage: ReturnType<typeof createMemoryStorage>;
  router: ReturnType<typeof createMemoryRouter>;
  reloads: { count: number };
  path(): string;
}

/**
 * Every registered screen replaced by nothing (the NotYetAvailable panel) except not-found, so
 * shell tests exercise the shell and routing without loading other engineers' screens.
 */
const SHELL_ONLY: Record<string, ScreenLoader | null> = Object.fromEntries(
  Object.keys(SCREENS).map((k) => [k, k === 'notFound' ? SCREENS.notFound : null]),
);

/**
 * Renders the real shell with a REAL core built from in-memory ports (scripted Http, scripted
 * sockets, memory Storage, simulated clock) inside a memory router.
 */
export function renderShell(opts: ShellOptions = {}): ShellHarness {
  const clock = new SimulatedClock();
  clock.set(1_700_000_000_000);
  const http = createScriptedHttp();
  http.on('GET', '/user/info', envelope(200, 'ok', USER));
  http.on('GET', '/user/logout', envelope(200, 'Logged out'));
  opts.script?.(http);
  const storage = createMemoryStorage(opts.stored ?? {});
  const width = opts.width ?? 1440;
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  let router: ReturnType<typeof createMemoryRouter> | null = null;
  const core = createAppCore(
    { clock, http, socket: createScriptedSocketFactory(), storage, random: { id: () => 'id' } },
    { location: () => (router ? router.state.location.pathname + router.state.location.search : '/'), record: false },
  );
  router = createMemoryRouter(buildRoutes(ROUTE_TABLE, SHELL_ONLY), { initialEntries: [opts.path ?? '/'] });
  const reloads = { count: 0 };
  const env: ShellEnv = {
    prefs: createUiPrefs(storage, document, width),
    language: { storage, doc: document, reload: () => void reloads.count++ },
    clipboard: opts.clipboard === undefined ? null : opts.clipboard,
  };
  const r = router;
  const result = render(
    <AppProviders core={core} i18n={createI18n(opts.lang ?? 'en')} env={env}>
      <RouterProvider router={r} />
    </AppProviders>,
  );
  return {
    ...result,
    core,
    http,
    storage,
    router: r,
    reloads,
    path: () => r.state.location.pathname + r.state.location.search,
  };
}
