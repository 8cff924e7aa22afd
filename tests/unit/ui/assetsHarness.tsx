import type { ReactElement } from 'react';
import { act, cleanup, render, type RenderResult } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SimulatedClock } from 'xstate';
import { createAppCore, type AppCore } from '../../../src/core/createAppCore.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope, type ScriptedHttp, type ScriptedSocket, type ScriptedSocketFactory } from '../../../src/ports/fakes.ts';
import type { Balance, WalletType } from '../../../src/protocol/trading.ts';
import type { UserInfo } from '../../../src/protocol/user.ts';
import { AppProviders } from '../../../src/ui/app/App.tsx';
import { AppToaster } from '../../../src/ui/components/AppToaster.tsx';
import type { ShellEnv } from '../../../src/ui/hooks/useShellEnv.ts';
import { createI18n } from '../../../src/ui/i18n/index.ts';
import type { Lang } from '../../../src/ui/i18n/languages.ts';
import { createUiPrefs } from '../../../src/ui/theme/uiPrefs.ts';

/**
 * Renders one account-centre screen inside the real providers over a REAL app core built from
 * scripted ports (Http answered per route, scripted sockets the test opens and feeds, memory
 * Storage holding a token so the user socket starts, SimulatedClock). Other paths render a
 * location probe so navigation is assertable.
 */
export const USER: UserInfo = {
  id: 80012345,
  nickname: 'trader',
  avatar: '',
  cover_email: 'ali***@example.com',
  kycStatus: 'verified',
  googleBound: false,
  inviteCode: 'ABC123',
  withdrawLockUntil: 0,
  createdAt: 1_700_000_000_000,
};

export function bal(wallet: WalletType, coin: string, available: string, frozen = '0.000000', total?: string): Balance {
  const t = total ?? (Number(available) + Number(frozen)).toFixed(6);
  return { wallet, coin, available, frozen, total: t };
}

/** The demo account's starting balances (all in the fund wallet) plus a little elsewhere. */
export const BALANCES: Balance[] = [
  bal('fund', 'USDT', '10000.000000'),
  bal('spot', 'USDT', '250.500000'),
  bal('std', 'USDT', '0.000000'),
  bal('perp', 'USDT', '900.000000', '100.000000'),
  bal('copy', 'USDT', '0.000000'),
];

export interface AssetsHarness extends RenderResult {
  core: AppCore;
  http: ScriptedHttp;
  sockets: ScriptedSocketFactory;
  clock: SimulatedClock;
  /** Opens the user socket (if not yet) and delivers a frame. */
  push(frame: unknown): void;
  location(): string;
}

export interface AssetsHarnessOptions {
  path: string;
  url?: string;
  screen: ReactElement;
  width?: number;
  lang?: Lang;
  stored?: Record<string, string>;
  balances?: Balance[];
  script?: (http: ScriptedHttp) => void;
}

function LocationProbe() {
  const loc = useLocation();
  return <p data-testid="location">{loc.pathname + loc.search}</p>;
}

export function renderAssets(opts: AssetsHarnessOptions): AssetsHarness {
  const http = createScriptedHttp();
  http.on('GET', '/user/info', envelope(200, 'ok', USER));
  http.on('GET', '/wallet/balances', envelope(200, 'success', opts.balances ?? BALANCES));
  http.on('GET', '/trade/positions', envelope(200, 'success', []));
  opts.script?.(http);
  const storage = createMemoryStorage({ lang: opts.lang ?? 'en', token: 'tok', ...opts.stored });
  const clock = new SimulatedClock();
  clock.set(1_700_000_000_000);
  const sockets = createScriptedSocketFactory();
  let n = 0;
  const url = opts.url ?? opts.path;
  const core = createAppCore({ clock, http, storage, socket: sockets, random: { id: () => `id${++n}` } }, { location: () => url, record: false });
  const width = opts.width ?? 1440;
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  const env: ShellEnv = {
    prefs: createUiPrefs(storage, document, width),
    language: { storage, doc: document, reload: () => undefined },
    clipboard: null,
  };
  const result = render(
    <AppProviders core={core} i18n={createI18n(opts.lang ?? 'en')} env={env}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path={opts.path} element={opts.screen} />
          <Route path="*" element={<LocationProbe />} />
        </Routes>
      </MemoryRouter>
      <AppToaster />
    </AppProviders>,
  );
  let opened: ScriptedSocket | null = null;
  const userSocket = (): ScriptedSocket => {
    const s = sockets.sockets.filter((x) => x.url.includes('/ws/user')).at(-1);
    if (!s) throw new Error('user socket not opened');
    if (opened !== s) {
      act(() => s.open());
      opened = s;
    }
    return s;
  };
  return {
    ...result,
    core,
    http,
    sockets,
    clock,
    push: (frame) => {
      const s = userSocket();
      act(() => s.frame(frame));
    },
    location: () => result.queryByTestId('location')?.textContent ?? url,
  };
}

/**
 * Per-test set-up of the account-screen specs: every `performance.now()` read moves 1 s, so the
 * Button's 450 ms click guard (SPEC §9) never swallows a test's click; after each test the render
 * is cleaned up and the mocks restored. Call once at the top of a spec file.
 */
export function installClickClock(): void {
  beforeEach(() => {
    let t = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (t += 1000));
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
}
