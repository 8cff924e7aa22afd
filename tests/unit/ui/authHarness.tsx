import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import type { RenderResult } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Toaster } from 'sonner';
import { SimulatedClock } from 'xstate';
import { createAppCore } from '../../../src/core/createAppCore.ts';
import type { AppCore } from '../../../src/core/createAppCore.ts';
import type { CoreOutput } from '../../../src/machines/sessionMachine.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory } from '../../../src/ports/fakes.ts';
import type { ScriptedHttp } from '../../../src/ports/fakes.ts';
import type { Storage } from '../../../src/ports/types.ts';
import { AppProviders } from '../../../src/ui/app/App.tsx';
import type { ShellEnv } from '../../../src/ui/hooks/useShellEnv.ts';
import { createI18n } from '../../../src/ui/i18n/index.ts';
import { createUiPrefs } from '../../../src/ui/theme/uiPrefs.ts';

/**
 * Renders one auth/settings screen inside the real providers, over a real app core built from
 * scripted ports (scripted Http, memory Storage, scripted sockets, SimulatedClock). Routes other
 * than the screen's own render a probe that shows the path, so tests can assert navigation.
 */
export interface Harness extends RenderResult {
  core: AppCore;
  http: ScriptedHttp;
  storage: Storage & { dump(): Record<string, string> };
  clock: SimulatedClock;
  outputs: CoreOutput[];
  reloads: number[];
}

function LocationProbe() {
  const loc = useLocation();
  return <p data-testid="location">{loc.pathname + loc.search}</p>;
}

export interface HarnessOptions {
  /** Initial URL (path + search). */
  url: string;
  /** Route pattern the screen is mounted at. */
  path: string;
  screen: ReactElement;
  storage?: Record<string, string>;
  /** Called with the scripted Http before the core starts (a stored token fetches /user/info at once). */
  script?: (http: ScriptedHttp) => void;
}

export function renderScreen(opts: HarnessOptions): Harness {
  const http = createScriptedHttp();
  opts.script?.(http);
  const storage = createMemoryStorage({ lang: 'en', ...opts.storage });
  const clock = new SimulatedClock();
  let n = 0;
  const core = createAppCore(
    { clock, http, storage, socket: createScriptedSocketFactory(), random: { id: () => `id${++n}` } },
    { location: () => opts.url, record: false },
  );
  const outputs: CoreOutput[] = [];
  core.outputs$.subscribe((o) => outputs.push(o));
  const reloads: number[] = [];
  const env: ShellEnv = {
    prefs: createUiPrefs(storage, document, 1280),
    language: { storage, doc: document, reload: () => void reloads.push(1) },
    clipboard: null,
  };
  const result = render(
    <AppProviders core={core} i18n={createI18n('en')} env={env}>
      <MemoryRouter initialEntries={[opts.url]}>
        <Routes>
          <Route path={opts.path} element={opts.screen} />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </AppProviders>,
  );
  return { ...result, core, http, storage, clock, outputs, reloads };
}

/** A user info as GET /user/info returns it. */
export function userInfo(over: Partial<Record<string, unknown>> = {}) {
  return {
    id: 10001,
    nickname: 'trader',
    avatar: '',
    cover_email: 'a***@example.com',
    kycStatus: 'unverified',
    googleBound: false,
    inviteCode: 'INV123',
    withdrawLockUntil: 0,
    createdAt: 0,
    ...over,
  };
}

/** Waits past the shell button's 450 ms click debounce so the same button accepts a new click. */
export const pastDebounce = () => new Promise((r) => setTimeout(r, 470));
