import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import type { RenderResult } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SimulatedClock } from 'xstate';
import { createAppCore } from '../../../src/core/createAppCore.ts';
import type { AppCore } from '../../../src/core/createAppCore.ts';
import { createMemoryStorage, createScriptedHttp, createScriptedSocketFactory, envelope } from '../../../src/ports/fakes.ts';
import type { ScriptedHttp, ScriptedSocketFactory } from '../../../src/ports/fakes.ts';
import type { Storage } from '../../../src/ports/types.ts';
import type { SymbolInfo, Ticker } from '../../../src/protocol/market.ts';
import { AppProviders } from '../../../src/ui/app/App.tsx';
import type { ShellEnv } from '../../../src/ui/hooks/useShellEnv.ts';
import { createI18n } from '../../../src/ui/i18n/index.ts';
import { createUiPrefs } from '../../../src/ui/theme/uiPrefs.ts';
import { symbol } from './marketFixtures.ts';

export { symbol };

/**
 * Renders the Home or Market screen inside the real providers over a real app core built from
 * scripted ports: scripted Http answering /market/symbols and /market/tickers, scripted market
 * socket (the test opens it and pushes frames), memory Storage and a SimulatedClock. Other
 * routes render a probe showing the path, so navigation is assertable.
 */
export interface MarketHarness extends RenderResult {
  core: AppCore;
  http: ScriptedHttp;
  sockets: ScriptedSocketFactory;
  storage: Storage & { dump(): Record<string, string> };
  clock: SimulatedClock;
}

function LocationProbe() {
  const loc = useLocation();
  return <p data-testid="location">{loc.pathname}</p>;
}


export function ticker(sym: string, last: number, changePct: number, quoteVolume: number, ts = 1): Ticker {
  return {
    symbol: sym,
    last,
    open: last / (1 + changePct / 100),
    high: last * 1.05,
    low: last * 0.95,
    volume: quoteVolume / last,
    quoteVolume,
    change: last - last / (1 + changePct / 100),
    changePct,
    ts,
  };
}

/** Five instruments over the four categories and both contract kinds. */
export const SYMBOLS: SymbolInfo[] = [
  symbol('BTCUSDT', { name: 'Bitcoin', hot: true }),
  symbol('ETHUSDT', { name: 'Ethereum', hot: true, kinds: ['perp'] }),
  symbol('XAUUSDT', { base: 'XAU', name: 'Gold', category: 'commodity' }),
  symbol('AAPLUSDT', { base: 'AAPL', name: 'Apple', category: 'stock', kinds: ['perp'] }),
  symbol('SPXUSDT', { base: 'SPX', name: 'S&P 500', category: 'index', kinds: ['std'] }),
];

export const TICKERS: Ticker[] = [
  ticker('BTCUSDT', 65000, 2.5, 3_000_000_000),
  ticker('ETHUSDT', 3200, -1.25, 900_000_000),
  ticker('XAUUSDT', 2400, 0.4, 50_000_000),
  ticker('AAPLUSDT', 190, -0.8, 20_000_000),
  ticker('SPXUSDT', 5400, 1.1, 80_000_000),
];

export interface MarketHarnessOptions {
  url: string;
  path: string;
  screen: ReactElement;
  storage?: Record<string, string>;
  script?: (http: ScriptedHttp) => void;
  /** Viewport width for the device class (default 1280). */
  width?: number;
}

export function renderMarketScreen(opts: MarketHarnessOptions): MarketHarness {
  const http = createScriptedHttp();
  http.on('GET', '/market/symbols', envelope(200, 'success', SYMBOLS));
  http.on('GET', '/market/tickers', envelope(200, 'success', TICKERS));
  http.on('GET', '/market/klines', (req) => envelope(200, 'success', [1, 2, 3].map((i) => ({ t: i, o: 1, h: 1, l: 1, c: i * Number(String(req.query?.symbol ?? '').length), v: 1 }))));
  opts.script?.(http);
  const storage = createMemoryStorage({ lang: 'en', ...opts.storage });
  const clock = new SimulatedClock();
  const sockets = createScriptedSocketFactory();
  let n = 0;
  const core = createAppCore(
    { clock, http, storage, socket: sockets, random: { id: () => `id${++n}` } },
    { location: () => opts.url, record: false },
  );
  const env: ShellEnv = {
    prefs: createUiPrefs(storage, document, opts.width ?? 1280),
    language: { storage, doc: document, reload: () => undefined },
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
    </AppProviders>,
  );
  return { ...result, core, http, sockets, storage, clock };
}

/** The market socket the core opened (the user socket stays closed for a guest). */
export function marketSocket(h: MarketHarness) {
  const s = h.sockets.sockets.filter((x) => x.url.includes('/ws/market')).at(-1);
  if (!s) throw new Error('market socket not opened');
  return s;
}
